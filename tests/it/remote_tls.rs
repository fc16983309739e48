//! TLS trust from the platform: a fetch from a loopback HTTPS server whose certificate is
//! signed by a private CA works when the CA is given in `SSL_CERT_FILE` (what a corporate
//! TLS-inspecting proxy needs), and without it fails with an error that names the
//! certificate problem. The CA and the server certificate are made with `openssl`.

use crate::remote_support::server::Server;
use std::path::Path;
use std::process::Command;

const JOB: &str = "logs/release-openshift-origin-installer-e2e-aws-upgrade-rollback-4.3/15";

fn openssl(dir: &Path, args: &[&str]) {
    let o = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A CA (`ca.pem`) and a server certificate for `localhost` and 127.0.0.1 signed by it.
fn make_certs(dir: &Path) {
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509"];
    ca.extend(ec);
    ca.extend([
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=mglint test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign",
    ]);
    openssl(dir, &ca);
    let mut csr = vec!["req"];
    csr.extend(ec);
    csr.extend([
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=localhost",
    ]);
    openssl(dir, &csr);
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
        ],
    );
}

fn server_config(dir: &Path) -> rustls::ServerConfig {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(dir.join("server.pem"))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let key = PrivateKeyDer::from_pem_file(dir.join("server.key")).unwrap();
    rustls::ServerConfig::builder_with_provider(rustls::crypto::ring::default_provider().into())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap()
}

fn fetch(server: &Server, out: &Path, cert_file: Option<&Path>) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mglint"));
    c.args([
        "fetch",
        &format!("gs://origin-ci-test/{JOB}"),
        "--gcs-endpoint",
        &server.endpoint,
    ])
    .args(["--retries", "0", "--timeout", "20", "--cache-dir"])
    .arg(out.join("cache"))
    .arg("-o")
    .arg(out.join("job"))
    .env_remove("SSL_CERT_DIR")
    .env_remove("HTTPS_PROXY")
    .env_remove("https_proxy");
    match cert_file {
        Some(f) => c.env("SSL_CERT_FILE", f),
        None => c.env_remove("SSL_CERT_FILE"),
    };
    c.output().unwrap()
}

#[test]
fn a_ca_given_in_ssl_cert_file_is_trusted() {
    if Command::new("openssl").arg("version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI must have openssl");
        eprintln!("note: openssl not installed; skipping the TLS trust test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    make_certs(dir.path());
    let server = Server::start_tls(50, server_config(dir.path()));
    server.put_dir(
        "origin-ci-test",
        JOB,
        &crate::common::fixture("ci/seed2-rollback-4.3"),
    );
    assert!(server.endpoint.starts_with("https://localhost:"));

    // Without the CA: refused, and the error says why.
    let o = fetch(&server, &dir.path().join("untrusted"), None);
    let err = String::from_utf8_lossy(&o.stderr).to_lowercase();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("certificate"),
        "the error names the certificate problem: {err}"
    );

    // With the CA in SSL_CERT_FILE: the job is fetched.
    let out = dir.path().join("trusted");
    let o = fetch(&server, &out, Some(&dir.path().join("ca.pem")));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.join("job/prowjob.json").is_file()
            || out.join("job").read_dir().unwrap().next().is_some()
    );
}
