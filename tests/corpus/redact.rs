//! `--redact` on both real must-gathers: every verb, every format, and no value the dump
//! itself says is identifying (cluster ID, infrastructure name, base domain, API hosts, node
//! names and their short forms, node addresses, hosts named after their address) in any
//! output.

use crate::CorpusTest;
use crate::common;
use std::collections::BTreeSet;
use std::path::Path;

pub const TESTS: &[CorpusTest] = &[("aws_leaks_nothing", aws), ("metal_leaks_nothing", metal)];

fn aws(c: &Path) {
    leaks_nothing(c, "must-gather-aws");
}

fn metal(c: &Path) {
    leaks_nothing(c, "must-gather-metal");
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if e.file_type().unwrap().is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The value after `key:` on the lines of `text` that have it.
fn values<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    text.lines()
        .filter_map(|l| l.trim_start().trim_start_matches("- ").strip_prefix(key))
        .map(|v| v.trim().trim_matches('"'))
        .filter(|v| !v.is_empty())
        .collect()
}

/// What the dump says identifies the cluster, read from the files directly.
fn identifying(root: &Path) -> BTreeSet<String> {
    let mut all = Vec::new();
    files(root, &mut all);
    let mut out = BTreeSet::new();
    for p in &all {
        let path = p.to_string_lossy();
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        if path.contains("config.openshift.io/infrastructures") {
            out.extend(
                values(&text, "infrastructureName:")
                    .iter()
                    .map(|s| s.to_string()),
            );
            for u in values(&text, "apiServerURL:") {
                let host = u
                    .split("://")
                    .nth(1)
                    .unwrap_or(u)
                    .split(':')
                    .next()
                    .unwrap();
                out.insert(host.to_string());
            }
        }
        if path.contains("config.openshift.io/dnses") {
            out.extend(values(&text, "baseDomain:").iter().map(|s| s.to_string()));
        }
        if path.contains("config.openshift.io/clusterversions") {
            out.extend(values(&text, "clusterID:").iter().map(|s| s.to_string()));
        }
        // Hosts named after their address (AWS: `ip-10-0-22-225`) wherever the dump names
        // them: the bootstrap host that took the CVO's lease is no node, but its name is the
        // address (leader-election events, `ip-10-0-22-225_8a0a… became leader`).
        static IP_HOST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            regex::Regex::new(r"\b(ip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3})(?:[^0-9]|$)").unwrap()
        });
        out.extend(IP_HOST.captures_iter(&text).map(|c| c[1].to_string()));
        if path.contains("cluster-scoped-resources/core/nodes/") {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            if let Some((short, _)) = name.split_once('.') {
                out.insert(short.to_string());
            }
            out.insert(name);
            // Node addresses (InternalIP, hostnames).
            out.extend(values(&text, "address:").iter().map(|s| s.to_string()));
        }
    }
    out
}

fn leaks_nothing(c: &Path, name: &str) {
    let archive = c.join(format!("must-gathers/{name}.tar.xz"));
    let dir = tempfile::tempdir().unwrap();
    common::unpack_tar_xz(&archive, dir.path());
    let secret = identifying(dir.path());
    assert!(
        secret.len() >= 5,
        "too few identifying values found in {name}: {secret:?}"
    );
    // The unpacked tree (reading the .tar.xz again for each of the 18 runs would cost most
    // of this test's time in xz decoding).
    let input = dir.path().to_str().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let mut runs: Vec<Vec<String>> = Vec::new();
    for f in ["human", "json", "junit", "markdown", "sarif", "html"] {
        runs.push(vec!["analyze".into(), "--format".into(), f.into()]);
    }
    for verb in ["summary", "timeline", "status"] {
        for f in ["text", "json"] {
            runs.push(vec![verb.into(), "--format".into(), f.into()]);
        }
    }
    runs.push(vec!["status".into(), "--format".into(), "markdown".into()]);
    for f in ["text", "json"] {
        runs.push(vec!["replay".into(), "--format".into(), f.into()]);
    }
    let scenario = out_dir.path().join("scenario.yaml");
    runs.push(vec![
        "replay".into(),
        "-o".into(),
        scenario.to_string_lossy().to_string(),
    ]);
    runs.push(vec!["batch".into()]);
    let mut leaks = Vec::new();
    for args in &runs {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        a.push("--redact");
        a.push(input);
        let out = common::mglint(&a);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{a:?}: exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut text = String::from_utf8_lossy(&out.stdout).to_string();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        if a.contains(&"-o") {
            text.push_str(&std::fs::read_to_string(&scenario).unwrap_or_default());
        }
        for s in &secret {
            // A value inside a longer name (`master-2` in `rendered-master-20a8…`) is not it.
            let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
            let found = text.match_indices(s.as_str()).map(|(i, _)| i).find(|&i| {
                !alnum(text[..i].chars().next_back()) && !alnum(text[i + s.len()..].chars().next())
            });
            if let Some(at) = found {
                let lo = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let line: String = text[lo..]
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(200)
                    .collect();
                leaks.push(format!("{args:?}: `{s}` in: {line}"));
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}
