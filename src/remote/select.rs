//! Chooses, from a job's object listing, the objects the analysis needs, with the same path
//! classification ingestion uses ([`classify_path`]). A must-gather archive is fetched only
//! when asked, or when nothing else in the job holds ClusterVersion data.

use super::location::safe_relative;
use crate::vocab::FileKind;
use crate::vocab::kind::classify_path;

/// One object of a listing: its full name in the bucket and its size when the listing gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    pub size: Option<u64>,
}

/// An object to download: its name relative to the job prefix, and its local path below the
/// job directory (the same, unless [`local_path`] had to shorten it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub rel: String,
    pub local: String,
    pub size: Option<u64>,
    pub kind: FileKind,
}

/// What to download, what was left for later, and what was skipped and why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Objects to download, sorted by path.
    pub fetch: Vec<Wanted>,
    /// Must-gather archives not downloaded because other files hold the data.
    pub deferred: Vec<Wanted>,
    /// One line per needed object that is not downloaded, with the reason.
    pub skipped: Vec<String>,
}

/// Whether a needed file holds ClusterVersion data (gather-extra JSON or a must-gather dir).
fn has_cluster_version(rel: &str, kind: FileKind) -> bool {
    if kind != FileKind::Resource {
        return false;
    }
    let lower = rel.to_ascii_lowercase();
    let name = lower
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".gz");
    name == "clusterversion.json"
        || name == "clusterversions.yaml"
        || lower.contains("/clusterversions/")
}

/// The longest name a local path component gets (a file system allows 255 bytes; the rest
/// is room for what is added to it).
pub const MAX_NAME_BYTES: usize = 200;
/// The longest local path below the job directory (Linux allows 4096 bytes in all, the cache
/// directory's own path included).
pub const MAX_PATH_BYTES: usize = 1024;

/// The first 16 hex digits of the SHA-256 of `s`: what keeps a shortened name unique.
fn short_hash(s: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(s.as_bytes())
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// At most `n` bytes of the start (`from_end` false) or the end of `s`, cut at a character
/// boundary.
fn clip(s: &str, n: usize, from_end: bool) -> &str {
    if s.len() <= n {
        return s;
    }
    if from_end {
        let mut i = s.len() - n;
        while !s.is_char_boundary(i) {
            i += 1;
        }
        &s[i..]
    } else {
        let mut i = n;
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        &s[..i]
    }
}

/// A path component of at most [`MAX_NAME_BYTES`]: a longer one keeps its start and its end
/// (the suffixes that say what a file is) around a hash of the whole name.
fn short_name(name: &str) -> String {
    if name.len() <= MAX_NAME_BYTES {
        return name.to_string();
    }
    format!(
        "{}~{}~{}",
        clip(name, 120, false),
        short_hash(name),
        clip(name, 60, true)
    )
}

/// The local path of the object `rel`: each component at most [`MAX_NAME_BYTES`] and the
/// whole at most [`MAX_PATH_BYTES`] (the first and last components kept, the ones between
/// replaced by one named by a hash of `rel`). The same `rel` always gives the same path, and
/// two objects different paths.
pub fn local_path(rel: &str) -> String {
    let parts: Vec<String> = rel.split('/').map(short_name).collect();
    let joined = parts.join("/");
    if joined.len() <= MAX_PATH_BYTES {
        return joined;
    }
    // The file name and as many folders before it as fit in half the bound, the top folders
    // in a quarter; the middle becomes one folder.
    let mut tail = parts.len() - 1;
    let mut tail_len = parts[tail].len();
    while tail > 1 && tail_len + 1 + parts[tail - 1].len() <= MAX_PATH_BYTES / 2 {
        tail -= 1;
        tail_len += 1 + parts[tail].len();
    }
    let mut head = 0;
    let mut head_len = 0;
    while head < tail && head_len + parts[head].len() < MAX_PATH_BYTES / 4 {
        head_len += parts[head].len() + 1;
        head += 1;
    }
    let mut out: Vec<String> = parts[..head].to_vec();
    out.push(format!("~{}", short_hash(rel)));
    out.extend_from_slice(&parts[tail..]);
    out.join("/")
}

/// The most objects downloaded for one job: a listing of 200k JUnit files is real (and a
/// hostile one can be endless); past this, objects are skipped (in path order) with one line
/// saying how many.
pub const MAX_OBJECTS_PER_JOB: usize = 10_000;

/// Objects whose name is also the folder of another (`a/junit.xml` beside
/// `a/junit.xml/x.xml`): both cannot be local paths, so the shorter is skipped, with a line
/// each, and the rest of the job is fetched.
fn drop_conflicts(out: &mut Plan) {
    let mut dirs = std::collections::HashSet::new();
    for w in &out.fetch {
        for (i, _) in w.rel.match_indices('/') {
            dirs.insert(w.rel[..i].to_string());
        }
    }
    if dirs.is_empty() {
        return;
    }
    let (keep, clash): (Vec<Wanted>, Vec<Wanted>) = std::mem::take(&mut out.fetch)
        .into_iter()
        .partition(|w| !dirs.contains(&w.rel));
    for w in clash {
        out.skipped.push(format!(
            "`{}`: another object is named `{}/…` (one path cannot be both a file and a folder); not downloaded",
            w.rel, w.rel
        ));
    }
    out.fetch = keep;
}

/// Selects what to download from the objects listed under `prefix`.
pub fn plan(
    prefix: &str,
    listed: &[Listed],
    with_must_gather: bool,
    max_object_bytes: u64,
) -> Plan {
    let mut out = Plan::default();
    let mut archives = Vec::new();
    let mut cluster_version = false;
    for obj in listed {
        let Some(rel) = obj.name.strip_prefix(prefix) else {
            continue;
        };
        if rel.is_empty() || rel.ends_with('/') {
            continue; // the directory placeholder objects some uploaders write
        }
        let Some(kind) = classify_path(rel) else {
            continue;
        };
        if !safe_relative(rel) {
            out.skipped.push(format!(
                "`{rel}`: object name cannot be used as a local path; not downloaded"
            ));
            continue;
        }
        if let Some(size) = obj.size.filter(|s| *s > max_object_bytes) {
            out.skipped.push(format!(
                "`{rel}`: {size} bytes, more than the {max_object_bytes} byte cap; not downloaded"
            ));
            continue;
        }
        let w = Wanted {
            rel: rel.to_string(),
            local: local_path(rel),
            size: obj.size,
            kind,
        };
        if kind == FileKind::NestedArchive {
            if rel.to_ascii_lowercase().contains("must-gather") {
                archives.push(w);
            } else {
                out.skipped.push(format!(
                    "`{rel}`: archive that is not a must-gather; not downloaded"
                ));
            }
            continue;
        }
        cluster_version |= has_cluster_version(rel, kind);
        out.fetch.push(w);
    }
    if with_must_gather || !cluster_version {
        out.fetch.extend(archives);
    } else {
        for a in &archives {
            out.skipped.push(format!(
                "`{}`: must-gather archive not downloaded (gather-extra has the ClusterVersion; ask for it with `--with-must-gather`)",
                a.rel
            ));
        }
        out.deferred = archives;
    }
    out.fetch.sort_by(|a, b| a.rel.cmp(&b.rel));
    out.fetch.dedup_by(|a, b| a.rel == b.rel);
    drop_conflicts(&mut out);
    if out.fetch.len() > MAX_OBJECTS_PER_JOB {
        let over = out.fetch.split_off(MAX_OBJECTS_PER_JOB);
        out.skipped.push(format!(
            "`{}` and {} more: over the {MAX_OBJECTS_PER_JOB} objects fetched per job; not downloaded",
            over[0].rel,
            over.len() - 1
        ));
    }
    out.skipped.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str = "logs/job/123/";
    const T: &str = "artifacts/e2e-aws-ovn-upgrade";

    fn listed(names: &[&str]) -> Vec<Listed> {
        names
            .iter()
            .map(|n| Listed {
                name: format!("{P}{n}"),
                size: Some(100),
            })
            .collect()
    }

    fn rels(p: &Plan) -> Vec<&str> {
        p.fetch.iter().map(|w| w.rel.as_str()).collect()
    }

    #[test]
    fn only_needed_objects_are_chosen() {
        let names = [
            "prowjob.json".to_string(),
            "finished.json".to_string(),
            "build-log.txt".to_string(),
            "artifacts/".to_string(),
            format!("{T}/gather-extra/artifacts/clusterversion.json"),
            format!("{T}/gather-extra/artifacts/pods.json"),
            format!(
                "{T}/gather-extra/artifacts/pods/openshift-cluster-version_cluster-version-operator-5d_cluster-version-operator.log"
            ),
            format!("{T}/gather-extra/artifacts/pods/openshift-etcd_etcd-0_etcd.log"),
            format!("{T}/gather-extra/artifacts/audit_logs/kube-apiserver/m0-audit.log.gz"),
            format!("{T}/gather-extra/artifacts/metrics/prometheus.tar.gz"),
            format!("{T}/gather-must-gather/artifacts/must-gather.tar"),
            format!("{T}/openshift-e2e-test/artifacts/junit/e2e-events_20240101-000000.json"),
        ];
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let p = plan(P, &listed(&names), false, 1000);
        assert_eq!(
            rels(&p),
            [
                format!("{T}/gather-extra/artifacts/clusterversion.json"),
                format!(
                    "{T}/gather-extra/artifacts/pods/openshift-cluster-version_cluster-version-operator-5d_cluster-version-operator.log"
                ),
                format!("{T}/openshift-e2e-test/artifacts/junit/e2e-events_20240101-000000.json"),
                "finished.json".to_string(),
                "prowjob.json".to_string(),
            ]
        );
        assert_eq!(p.deferred.len(), 1);
        assert_eq!(p.skipped.len(), 2, "{:?}", p.skipped);
        assert!(
            p.skipped
                .iter()
                .any(|s| s.contains("must-gather.tar") && s.contains("--with-must-gather"))
        );
        assert!(
            p.skipped
                .iter()
                .any(|s| s.contains("prometheus.tar.gz") && s.contains("not a must-gather"))
        );

        let p = plan(P, &listed(&names), true, 1000);
        assert!(rels(&p).iter().any(|r| r.ends_with("must-gather.tar")));
        assert!(p.deferred.is_empty());
    }

    #[test]
    fn must_gather_is_fetched_when_nothing_else_has_the_cluster_version() {
        let mg = format!("{T}/gather-must-gather/artifacts/must-gather.tar");
        let p = plan(P, &listed(&["prowjob.json", &mg]), false, 1000);
        assert_eq!(rels(&p), [mg.as_str(), "prowjob.json"]);
    }

    #[test]
    fn a_name_that_is_also_a_folder_is_skipped_alone() {
        let a = format!("{T}/openshift-e2e-test/artifacts/junit/junit.xml");
        let b = format!("{a}/x.xml");
        let c = format!("{T}/openshift-e2e-test/artifacts/junit/junit_e2e.xml");
        let p = plan(P, &listed(&[&a, &b, &c, "prowjob.json"]), false, 1000);
        assert_eq!(rels(&p), [b.as_str(), c.as_str(), "prowjob.json"]);
        assert_eq!(
            p.skipped,
            [format!(
                "`{a}`: another object is named `{a}/…` (one path cannot be both a file and a folder); not downloaded"
            )]
        );
    }

    #[test]
    fn objects_past_the_per_job_cap_are_skipped_with_one_line() {
        let names: Vec<String> = (0..MAX_OBJECTS_PER_JOB + 5)
            .map(|i| format!("{T}/openshift-e2e-test/artifacts/junit/junit_e2e_{i:06}.xml"))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let p = plan(P, &listed(&names), false, 1000);
        assert_eq!(p.fetch.len(), MAX_OBJECTS_PER_JOB);
        assert_eq!(p.skipped.len(), 1);
        assert!(
            p.skipped[0].ends_with(&format!(
                "junit_e2e_{MAX_OBJECTS_PER_JOB:06}.xml` and 4 more: over the {MAX_OBJECTS_PER_JOB} objects fetched per job; not downloaded"
            )),
            "{}",
            p.skipped[0]
        );
    }

    #[test]
    fn caps_and_unsafe_names_are_reported() {
        let mut l = listed(&["prowjob.json", "artifacts/x/../../../clusterversion.json"]);
        l[0].size = Some(5000);
        let p = plan(P, &l, false, 1000);
        assert!(p.fetch.is_empty());
        assert!(
            p.skipped
                .iter()
                .any(|s| s.contains("5000 bytes") && s.contains("1000 byte cap"))
        );
        assert!(
            p.skipped
                .iter()
                .any(|s| s.contains("cannot be used as a local path"))
        );
    }

    #[test]
    fn long_names_and_paths_get_short_stable_unique_local_paths() {
        let ok = format!("{T}/gather-extra/artifacts/clusterversion.json");
        assert_eq!(local_path(&ok), ok);
        let long = |c: char| format!("{T}/junit/junit_{}.xml", c.to_string().repeat(250));
        let (a, b) = (local_path(&long('a')), local_path(&long('b')));
        assert_ne!(a, b);
        assert_eq!(a, local_path(&long('a')), "stable");
        assert!(a.starts_with(&format!("{T}/junit/junit_aaa")) && a.ends_with("aaa.xml"));
        assert!(a.split('/').all(|c| c.len() <= MAX_NAME_BYTES), "{a}");
        // Multi-byte characters are cut at their boundaries.
        let wide = local_path(&"é".repeat(300));
        assert!(wide.len() <= MAX_NAME_BYTES && wide.contains('~'), "{wide}");
        let deep = |leaf: &str| {
            format!(
                "{T}/junit/{}{leaf}",
                format!("{}/", "d".repeat(150)).repeat(30)
            )
        };
        let (x, y) = (
            local_path(&deep("junit_x.xml")),
            local_path(&deep("junit_y.xml")),
        );
        assert_ne!(x, y);
        for p in [&x, &y] {
            assert!(p.len() <= MAX_PATH_BYTES, "{}", p.len());
            assert!(p.starts_with(&format!("{T}/junit/")), "{p}");
        }
        assert!(x.ends_with("/junit_x.xml"), "{x}");
    }
}
