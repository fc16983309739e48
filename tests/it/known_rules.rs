//! Known-issue rules as data: the bundled catalogue loads cleanly, matches its schema and
//! passes the tests each rule file carries; a local rule written in a temporary directory
//! gives findings with file, line and time in every format; invalid rule files get precise
//! errors and never stop the other rules; selection, the fail level, `mglint rules` and
//! `mglint explain` treat known-issue rules like built-in ones; and ingestion reads other
//! kinds and logs only when a rule asks.

use crate::common;
use mglint::rules::known::{KnownSet, Origin, Sources, load};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// A CVO log fixture with an update episode (4.14.5 → 4.14.6) and `successfully acquired
/// lease` at line 3 of `current.log`, 2024-02-05T10:12:59.240Z.
const CVO_FIXTURE: &str = "fixtures/rules/LOG001/fail";

fn catalogue_files() -> Vec<PathBuf> {
    load::dir_files(&common::root().join("rules/known-issues")).unwrap()
}

fn bundled() -> KnownSet {
    KnownSet::load(&Sources {
        bundled: true,
        dirs: Vec::new(),
    })
}

fn mglint_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mglint"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("XDG_CONFIG_HOME", dir.join("no-config"))
        .args(args)
        .output()
        .unwrap()
}

fn out(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn the_bundled_catalogue_loads_cleanly_and_documents_every_rule() {
    let set = bundled();
    let problems: Vec<String> = set.problems.iter().map(|p| p.one_line()).collect();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(set.rules.len() >= 20, "only {} rules", set.rules.len());
    assert_eq!(
        set.rules.len(),
        catalogue_files().len(),
        "one rule per file"
    );
    for m in set.metas() {
        let digits = m.code.strip_prefix("KI").unwrap();
        assert!(
            digits.len() == 3 && digits.bytes().all(|b| b.is_ascii_digit()),
            "{}",
            m.code
        );
        assert!(!m.references.is_empty(), "{}: no reference", m.code);
        let page = mglint::rules::explain(&m.code, &set).unwrap();
        assert!(
            page.starts_with(&format!("# {} `{}`", m.code, m.name)),
            "{page}"
        );
        for section in [
            "## How to fix",
            "## Versions",
            "## How it was verified",
            "## References",
            "## Rule file",
        ] {
            assert!(page.contains(section), "{}: {section}", m.code);
        }
        for r in m.references.iter() {
            assert!(page.contains(r), "{}: {r}", m.code);
        }
        assert_eq!(page.matches("## References").count(), 1, "{}", m.code);
    }
    // The issue's list of problems the starter catalogue must cover, by slug.
    for slug in [
        "drain-blocked-by-pdb",
        "admin-ack-required",
        "olm-incompatible-operators",
        "default-scc-mutated",
        "cco-manual-missing-upgradeable-annotation",
        "etcd-slow-requests-during-update",
        "certificate-expired",
        "removed-api-in-use",
        "mcd-unexpected-on-disk-state",
        "paused-pool-during-update",
    ] {
        assert!(set.metas().iter().any(|m| m.name == slug), "{slug}");
    }
    // Conditional-update risks moved to a built-in rule that reads recommend's facts.
    assert_eq!(mglint::rules::successor("KI008"), Some("CV022"));
    assert_eq!(mglint::rules::successor("KI018"), Some("CV024"));
}

#[test]
fn every_bundled_rule_file_matches_the_published_schema() {
    let path = common::root().join("docs/schemas/known-issue-rule.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for f in catalogue_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let doc: Value = mglint::yaml::from_str(&text).unwrap();
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .take(5)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", f.display());
    }
    // The schema refuses what the loader refuses: an unknown key, a matcher with two keys.
    let first = std::fs::read_to_string(&catalogue_files()[0]).unwrap();
    let mut doc: Value = mglint::yaml::from_str(&first).unwrap();
    doc["severtiy"] = Value::from("error");
    assert!(!v.is_valid(&doc));
    let mut doc: Value = mglint::yaml::from_str(&first).unwrap();
    doc["match"]["events"] = serde_json::json!({"reason": "x"});
    assert!(!v.is_valid(&doc));
}

#[test]
fn every_bundled_rule_fires_on_its_failing_fixture_and_not_on_its_passing_one() {
    let files = catalogue_files();
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let set = Arc::new(KnownSet::load_files(&refs));
    assert!(set.problems.is_empty(), "{:?}", set.problems);
    let outcomes = mglint::app::run_rule_cases(&set);
    assert_eq!(
        outcomes.len(),
        2 * set.rules.len(),
        "a failing and a passing case each"
    );
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.passed())
        .map(|o| {
            format!(
                "{} {} expected fires={} got {:?} {:?}",
                o.code,
                o.input.display(),
                o.expected,
                o.findings,
                o.note
            )
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
    for r in &set.rules {
        let tests = &r.compiled().def.tests;
        assert!(
            tests.iter().any(|t| t.fires) && tests.iter().any(|t| !t.fires),
            "{}",
            r.file
        );
        for t in tests {
            let want = if t.fires { "fail" } else { "pass" };
            assert!(
                t.input.ends_with(&format!("/{want}")),
                "{}: {}",
                r.file,
                t.input
            );
        }
    }
}

#[test]
fn rules_test_runs_the_cases_of_the_files_named() {
    let o = mglint_in(
        &common::root(),
        &[
            "rules",
            "test",
            "rules/known-issues/KI004-default-scc-mutated.yaml",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("pass KI004 fires"), "{}", out(&o));
    assert!(out(&o).contains("2 cases, 0 failed"), "{}", out(&o));
    // A case that does not hold fails the command (exit 1).
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        common::root().join("rules/known-issues/KI004-default-scc-mutated.yaml"),
    )
    .unwrap()
    .replace("code: KI004", "code: X-SCC")
    .replace("fires: false", "fires: true")
    .replace(
        "../../fixtures",
        &common::root().join("fixtures").display().to_string(),
    );
    std::fs::write(dir.path().join("scc.yaml"), text).unwrap();
    let o = mglint_in(dir.path(), &["rules", "test", "scc.yaml"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("FAIL X-SCC fires"), "{}", out(&o));
}

/// The done-when rule: a regex over the CVO log inside the update window.
const USER_RULE: &str = r#"# A local rule: the CVO (re)acquired its lease during an update.
code: X-ACME-001
name: cvo-lease-during-update
severity: warning
summary: the CVO acquired its leader lease during an update
message: "{name} acquired the lease {lease} {window} ({count} time, first at {first})"
help: check why the CVO restarted while the update was running
references:
  - url: https://github.com/openshift/cluster-version-operator/blob/master/docs/dev/README.md
    kind: docs
match:
  logs:
    namespace: openshift-cluster-version
    pod: cluster-version-operator-*
    container: cluster-version-operator
    files: [current]
    regex: 'successfully acquired lease (?P<lease>\S+)'
    window: update
"#;

fn user_rules_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/acme.yaml"), USER_RULE).unwrap();
    dir
}

#[test]
fn a_user_rule_gives_file_line_and_time_in_every_format() {
    let dir = user_rules_dir();
    let input = common::root().join(CVO_FIXTURE).display().to_string();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let o = mglint_in(
        dir.path(),
        &[
            "analyze",
            &input,
            "--rules",
            "rules",
            "--select",
            "X-ACME",
            "--exit-zero",
            "-o",
            &format!("human={}", p("r.txt")),
            "-o",
            &format!("json={}", p("r.json")),
            "-o",
            &format!("junit={}", p("r.xml")),
            "-o",
            &format!("sarif={}", p("r.sarif")),
            "-o",
            &format!("markdown={}", p("r.md")),
            "-o",
            &format!("html={}", p("r.html")),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let read = |n: &str| std::fs::read_to_string(dir.path().join(n)).unwrap();
    const TIME: &str = "2024-02-05T10:12:59.240Z";
    const MESSAGE: &str = "acquired the lease openshift-cluster-version/version during an update";

    let json: Value = serde_json::from_str(&read("r.json")).unwrap();
    let f = &json["findings"][0];
    assert_eq!(json["findings"].as_array().unwrap().len(), 1, "{json:#}");
    assert_eq!(f["code"], "X-ACME-001");
    assert_eq!(f["category"], "local");
    assert_eq!(f["at"], TIME);
    assert!(f["message"].as_str().unwrap().contains(MESSAGE), "{f}");
    let ev = &f["evidence"][0];
    assert!(
        ev["path"]
            .as_str()
            .unwrap()
            .ends_with("cluster-version-operator/logs/current.log"),
        "{ev}"
    );
    assert_eq!(ev["line"], 3);
    assert_eq!(
        ev["text"],
        "successfully acquired lease openshift-cluster-version/version"
    );
    assert_eq!(
        f["references"][0],
        "https://github.com/openshift/cluster-version-operator/blob/master/docs/dev/README.md"
    );

    let human = read("r.txt");
    assert!(
        human.contains("warning[X-ACME-001] cvo-lease-during-update"),
        "{human}"
    );
    assert!(human.contains("logs/current.log:3"), "{human}");
    assert!(human.contains(&format!("at {TIME}")), "{human}");

    let xml = read("r.xml");
    assert!(
        xml.contains("[mglint] X-ACME-001 cvo-lease-during-update"),
        "{xml}"
    );
    assert!(
        xml.contains("logs/current.log:3: successfully acquired lease"),
        "{xml}"
    );
    assert!(xml.contains(&format!("at: {TIME}")), "{xml}");

    let sarif: Value = serde_json::from_str(&read("r.sarif")).unwrap();
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules[0]["id"], "X-ACME-001", "{rules:#?}");
    let res = &run["results"][0];
    assert_eq!(res["ruleId"], "X-ACME-001");
    assert_eq!(res["ruleIndex"], 0);
    let loc = &res["locations"][0]["physicalLocation"];
    assert!(
        loc["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("logs/current.log"),
        "{loc}"
    );
    assert_eq!(loc["region"]["startLine"], 3);
    assert_eq!(res["properties"]["at"], TIME);

    let md = read("r.md");
    assert!(
        md.contains("X-ACME-001") && md.contains("current.log") && md.contains(MESSAGE),
        "{md}"
    );
    let html = read("r.html");
    assert!(
        html.contains("X-ACME-001") && html.contains("cvo-lease-during-update"),
        "html"
    );
}

#[test]
fn an_invalid_rule_file_is_reported_precisely_and_the_rest_still_runs() {
    let dir = user_rules_dir();
    std::fs::write(
        dir.path().join("rules/broken.yaml"),
        "code: X-ACME-002\nname: broken\nseverity: warning\nsummary: a broken rule\nmessage: \"{name}\"\nhelp: fix it\nmatch:\n  logs:\n    namespace: openshift-cluster-version\n    regex: '(unclosed'\n",
    )
    .unwrap();
    let input = common::root().join(CVO_FIXTURE).display().to_string();
    let o = mglint_in(
        dir.path(),
        &[
            "analyze",
            &input,
            "--rules",
            "rules",
            "--format",
            "json",
            "--exit-zero",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("rules/broken.yaml:10:13: `regex` is not a valid regex"),
        "{}",
        err(&o)
    );
    let r: Value = serde_json::from_str(&out(&o)).unwrap();
    let codes: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"IN003"), "{codes:?}");
    assert!(
        codes.contains(&"X-ACME-001"),
        "the valid local rule still ran: {codes:?}"
    );
    assert!(
        codes.contains(&"LOG001"),
        "the built-in rules still ran: {codes:?}"
    );
    let in003 = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "IN003")
        .unwrap();
    assert_eq!(in003["evidence"][0]["line"], 10);
    assert_eq!(in003["evidence"][0]["text"], "    regex: '(unclosed'");
    let ran = |code: &str| {
        r["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["code"] == code && o["status"] == "ran")
    };
    assert!(ran("CV001") && ran("KI012") && ran("X-ACME-001"));

    // `rules check` says the same with the YAML around it, and exits 2.
    let o = mglint_in(dir.path(), &["rules", "check", "rules"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        out(&o).contains("ok      rules/acme.yaml (1 rule)"),
        "{}",
        out(&o)
    );
    assert!(
        out(&o).contains("invalid rules/broken.yaml (1 problem)"),
        "{}",
        out(&o)
    );
    let e = err(&o);
    assert!(
        e.contains(
            "error: `regex` is not a valid regex: unclosed group\n  --> rules/broken.yaml:10:13\n"
        ),
        "{e}"
    );
    assert!(
        e.contains("10 |     regex: '(unclosed'\n   |             ^^^^^^^^^ here\n"),
        "{e}"
    );
    let o = mglint_in(dir.path(), &["rules", "check", "rules/acme.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

/// Parses a local rule file's text; its one problem, as `line:column: message`.
fn problem(text: &str) -> String {
    let p = load::parse("r.yaml", text, Origin::Local, &|c| {
        mglint::rules::find(c).is_some()
    });
    assert!(p.rules.is_empty(), "loaded: {text}");
    assert_eq!(p.problems.len(), 1, "{:?}", p.problems);
    let e = &p.problems[0];
    format!(
        "{}:{}: {}",
        e.line.unwrap_or(0),
        e.column.unwrap_or(0),
        e.message
    )
}

const HEAD: &str =
    "code: X-T-1\nname: t\nseverity: info\nsummary: s\nmessage: \"{name}\"\nhelp: h\n";

#[test]
fn rule_file_errors_point_at_the_value_in_the_yaml() {
    let logs = "match:\n  logs:\n    namespace: openshift-etcd\n    regex: 'x'\n";
    // An unknown key, at its line.
    let e = problem(&format!("{HEAD}{logs}    windw: update\n"));
    assert!(
        e.starts_with("11:5: match.logs: unknown field `windw`, expected one of"),
        "{e}"
    );
    // A bad regex, at its place in the value.
    let e = problem(&format!(
        "{HEAD}match:\n  logs:\n    namespace: a\n    regex: 'a[b'\n"
    ));
    assert!(e.starts_with("10:13: `regex` is not a valid regex"), "{e}");
    // A bad version range, at the comparator.
    let e = problem(&format!("{HEAD}affects: '>=4.12, <4.x4'\n{logs}"));
    assert!(
        e.starts_with("7:19: bad version range `>=4.12, <4.x4`"),
        "{e}"
    );
    // A bad glob.
    let e = problem(&format!(
        "{HEAD}match:\n  logs:\n    namespace: 'etcd-[ab'\n    regex: x\n"
    ));
    assert!(
        e.starts_with("9:22: `namespace` is not a valid glob"),
        "{e}"
    );
    // A placeholder nothing fills.
    let e = problem(&(HEAD.replace("{name}", "{node}") + logs));
    assert!(
        e.starts_with("5:11: `message`: unknown placeholder `{node}`"),
        "{e}"
    );
    // A bad field path and a matcher with two keys.
    let e = problem(&format!(
        "{HEAD}match:\n  objects:\n    kind: Pod\n    fields:\n      - path: 'a..b'\n        exists: true\n"
    ));
    assert!(e.starts_with("11:16: bad field path `a..b`"), "{e}");
    let e = problem(&format!(
        "{HEAD}match:\n  logs: {{namespace: a, regex: b}}\n  events: {{reason: c}}\n"
    ));
    assert!(
        e.contains("`events` next to `logs`: a matcher has one key"),
        "{e}"
    );
    // Codes: a built-in code or prefix, the catalogue's namespace, an unknown severity.
    let e = problem(&format!("{}{logs}", HEAD.replace("X-T-1", "CV001")));
    assert!(
        e.starts_with("1:7: `CV001` is a built-in rule's code"),
        "{e}"
    );
    let e = problem(&format!("{}{logs}", HEAD.replace("X-T-1", "LOG900")));
    assert!(
        e.contains("`LOG900` starts with `LOG`, a built-in prefix"),
        "{e}"
    );
    let e = problem(&format!("{}{logs}", HEAD.replace("X-T-1", "KI900")));
    assert!(
        e.contains("`KI900` starts with `KI`, a built-in prefix"),
        "{e}"
    );
    let e = problem(&format!("{}{logs}", HEAD.replace("info", "fatal")));
    assert!(
        e.starts_with(
            "3:11: severity: unknown variant `fatal`, expected one of `error`, `warning`, `info`"
        ),
        "{e}"
    );
}

#[test]
fn a_list_of_rules_in_one_file_and_duplicates_across_files() {
    let two = "- code: X-A\n  name: a\n  severity: info\n  summary: s\n  message: m\n  help: h\n  match: {cvo: {sync: {failing: true}}}\n- code: X-B\n  name: b\n  severity: info\n  summary: s\n  message: m\n  help: h\n  match: {cvo: {precondition: {name: 'Upgradeable$'}}}\n";
    let p = load::parse("two.yaml", two, Origin::Local, &|_| false);
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(
        p.rules
            .iter()
            .map(|r| r.def.code.as_str())
            .collect::<Vec<_>>(),
        ["X-A", "X-B"]
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.yaml"), two).unwrap();
    std::fs::write(
        dir.path().join("b.yaml"),
        two.replace("X-B", "X-C").replace("name: b", "name: c"),
    )
    .unwrap();
    let set = KnownSet::load(&Sources {
        bundled: false,
        dirs: vec![dir.path().to_path_buf()],
    });
    let codes: Vec<String> = set.metas().iter().map(|m| m.code.to_string()).collect();
    assert_eq!(codes, ["X-A", "X-B", "X-C"]);
    assert_eq!(set.problems.len(), 1, "{:?}", set.problems);
    assert!(
        set.problems[0]
            .message
            .contains("`X-A` (`a`) repeats the code or name of `X-A`"),
        "{}",
        set.problems[0].message
    );
}

#[test]
fn selection_and_the_fail_level_apply_to_known_rules() {
    let root = common::root();
    let fail = "fixtures/known-issues/KI002/fail";
    let input = std::fs::read_dir(root.join(fail))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let input = input.display().to_string();
    let o = mglint_in(
        &root,
        &["analyze", &input, "--select", "KI002", "--format", "json"],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "a warning passes at --fail-on error: {}",
        err(&o)
    );
    let r: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(r["rules"].as_array().unwrap().len(), 1);
    assert_eq!(r["findings"][0]["code"], "KI002");
    assert_eq!(
        r["findings"][0]["references"][0],
        "https://access.redhat.com/articles/6958394"
    );
    let o = mglint_in(
        &root,
        &[
            "analyze",
            &input,
            "--select",
            "KI002",
            "--fail-on",
            "warning",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let o = mglint_in(
        &root,
        &[
            "analyze",
            &input,
            "--ignore",
            "KI",
            "--format",
            "json",
            "--exit-zero",
        ],
    );
    let r: Value = serde_json::from_str(&out(&o)).unwrap();
    assert!(
        r["rules"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| !o["code"].as_str().unwrap().starts_with("KI"))
    );
    assert!(
        r["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["code"] == "CV001")
    );
    let o = mglint_in(
        &root,
        &["analyze", &input, "--no-bundled-rules", "--select", "KI002"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no rule matches `KI002`"), "{}", err(&o));
    // `rule-dirs` in mglint.toml, relative to the file, and selectors naming local codes.
    let dir = user_rules_dir();
    std::fs::write(
        dir.path().join("mglint.toml"),
        "rule-dirs = [\"rules\"]\nselect = [\"X-ACME\"]\n",
    )
    .unwrap();
    let cvo = root.join(CVO_FIXTURE).display().to_string();
    let o = mglint_in(
        dir.path(),
        &["analyze", &cvo, "--format", "json", "--exit-zero"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let r: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(r["findings"][0]["code"], "X-ACME-001", "{r:#}");
    std::fs::write(
        dir.path().join("mglint.toml"),
        "rule-dirs = [\"nowhere\"]\n",
    )
    .unwrap();
    let o = mglint_in(dir.path(), &["analyze", &cvo]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("rule directory") && err(&o).contains("nowhere"),
        "{}",
        err(&o)
    );
}

#[test]
fn rules_and_explain_list_known_issue_rules_like_built_in_ones() {
    let dir = user_rules_dir();
    let o = mglint_in(dir.path(), &["rules", "--rules", "rules"]);
    let text = out(&o);
    assert!(
        text.contains("KI004   error    default-scc-mutated"),
        "{text}"
    );
    assert!(
        text.contains("X-ACME-001 warning  cvo-lease-during-update"),
        "{text}"
    );
    assert!(text.contains("CV001"), "{text}");
    let o = mglint_in(dir.path(), &["rules", "--no-bundled-rules"]);
    assert!(!out(&o).contains("KI0"), "{}", out(&o));
    let o = mglint_in(dir.path(), &["rules", "--format", "json"]);
    let j: Value = serde_json::from_str(&out(&o)).unwrap();
    assert!(
        j["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["code"] == "KI001" && r["severity"] == "error")
    );
    let o = mglint_in(dir.path(), &["explain", "KI004"]);
    let page = out(&o);
    assert!(
        page.contains("How it was verified") && page.contains("show_bug.cgi?id=1821905"),
        "{page}"
    );
    assert!(
        page.contains("DefaultSecurityContextConstraints_Mutated"),
        "{page}"
    );
    let o = mglint_in(dir.path(), &["explain", "X-ACME-001", "--rules", "rules"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("The rule file does not say"),
        "{}",
        out(&o)
    );
    // The user's own rule directory ($XDG_CONFIG_HOME/mglint/rules) is read too.
    let xdg = dir.path().join("xdg");
    std::fs::create_dir_all(xdg.join("mglint")).unwrap();
    std::fs::rename(dir.path().join("rules"), xdg.join("mglint/rules")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .current_dir(dir.path())
        .env("XDG_CONFIG_HOME", &xdg)
        .args(["rules"])
        .output()
        .unwrap();
    assert!(out(&o).contains("X-ACME-001"), "{}", out(&o));
}

#[test]
fn other_kinds_and_logs_are_read_only_when_a_rule_asks() {
    let fixture = std::fs::read_dir(common::root().join("fixtures/known-issues/KI006/fail"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .display()
        .to_string();
    let inputs = vec![fixture];
    // No rule (CV025 left out: it reads the objects of the published risks' series): the
    // etcd log is not read, no object is kept whole.
    let selection = mglint::rules::Selection {
        ignore: vec!["CV025".to_string()],
        ..Default::default()
    };
    let plain = mglint::app::load(
        &inputs,
        &mglint::Settings {
            selection: selection.clone(),
            ..Default::default()
        },
    )
    .unwrap();
    let b = &plain.analysis().bundle;
    assert!(b.pod_logs.is_empty() && b.objects.raw.is_empty());
    assert!(!b.sources_by_kind.contains_key("pod-log"));
    // CV025 selected: the ClusterVersion is kept whole for the series, no log is read.
    let risks = mglint::app::load(&inputs, &mglint::Settings::default()).unwrap();
    let br = &risks.analysis().bundle;
    assert!(br.pod_logs.is_empty());
    assert_eq!(br.objects.raw.len(), 1, "the ClusterVersion, kept whole");
    // Rules that ask for objects only: ingestion reads exactly the same files.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("o.yaml"),
        format!("{HEAD}match:\n  objects:\n    kind: ClusterVersion\n    conditions: [{{type: Failing, status: \"True\"}}]\n"),
    )
    .unwrap();
    let objects_only = Arc::new(KnownSet::load(&Sources {
        bundled: false,
        dirs: vec![dir.path().to_path_buf()],
    }));
    assert!(objects_only.problems.is_empty() && !objects_only.wants.wants_pod_logs());
    let run = mglint::app::load(
        &inputs,
        &mglint::Settings {
            known: objects_only,
            selection: selection.clone(),
            ..Default::default()
        },
    )
    .unwrap();
    let b2 = &run.analysis().bundle;
    assert_eq!(b2.sources_by_kind, b.sources_by_kind);
    assert_eq!(b2.inputs[0].files_read, b.inputs[0].files_read);
    assert_eq!(b2.objects.raw.len(), 1, "the ClusterVersion, kept whole");
    // The catalogue asks for etcd logs: now they are read.
    let run = mglint::app::load(
        &inputs,
        &mglint::Settings {
            known: Arc::new(bundled()),
            selection,
            ..Default::default()
        },
    )
    .unwrap();
    let b3 = &run.analysis().bundle;
    assert_eq!(b3.pod_logs.len(), 1);
    assert_eq!(
        (
            b3.pod_logs[0].namespace.as_str(),
            b3.pod_logs[0].container.as_str()
        ),
        ("openshift-etcd", "etcd")
    );
    assert_eq!(b3.sources_by_kind.get("pod-log"), Some(&1));
}

/// A file read only for a rule, whose text lacks the keys that rule's field tests need, is
/// not parsed: of two APIRequestCounts, only the one with `removedInRelease` is kept for
/// KI009, which still fires on it; both files are still counted as read.
#[test]
fn files_without_a_rules_keys_are_not_parsed_for_it() {
    let set = bundled();
    let keys = set
        .wants
        .resource_keys
        .iter()
        .find(|(w, _)| w.plural == "apirequestcounts")
        .map(|(_, k)| k.clone());
    assert_eq!(
        keys,
        Some(vec![vec![
            "removedInRelease".to_string(),
            "requestCount".to_string(),
            "username".to_string()
        ]])
    );
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(
        &common::root().join("fixtures/known-issues/KI009/fail"),
        dir.path(),
    );
    let counts = walk_find(dir.path(), "apirequestcounts");
    std::fs::write(
        counts.join("deployments.v1.apps.yaml"),
        "apiVersion: apiserver.openshift.io/v1\nkind: APIRequestCount\nmetadata:\n  name: deployments.v1.apps\nstatus:\n  requestCount: 7\n",
    )
    .unwrap();
    let inputs = vec![dir.path().display().to_string()];
    let load = |known: KnownSet| {
        mglint::app::load(
            &inputs,
            &mglint::Settings {
                known: Arc::new(known),
                ..Default::default()
            },
        )
        .unwrap()
    };
    let run = load(bundled());
    let b = &run.analysis().bundle;
    let kept: Vec<&str> = b
        .objects
        .raw
        .iter()
        .filter(|o| o.value["kind"] == "APIRequestCount")
        .filter_map(|o| o.value["metadata"]["name"].as_str())
        .collect();
    assert_eq!(kept, ["cronjobs.v1beta1.batch"]);
    assert!(
        run.analysis()
            .report()
            .findings
            .iter()
            .any(|f| f.code == "KI009")
    );
    let without = load(KnownSet::default());
    assert_eq!(
        b.inputs[0].files_read,
        without.analysis().bundle.inputs[0].files_read + 2,
        "both APIRequestCount files are read"
    );
}

/// The directory named `name` below `root`.
fn walk_find(root: &Path, name: &str) -> PathBuf {
    find_dir(root, name).unwrap_or_else(|| panic!("no {name} below {}", root.display()))
}

fn find_dir(root: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(root)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .find_map(|p| {
            if p.file_name().is_some_and(|n| n == name) {
                Some(p)
            } else {
                find_dir(&p, name)
            }
        })
}

/// A container log a rule reads is streamed under `--max-file-bytes`: one line longer than the
/// bound is refused with the reason (a line is never held past the bound), and the rest of the
/// dump is analysed.
#[test]
fn a_pod_log_past_the_file_bound_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mg = dir.path().join("mg");
    std::fs::create_dir_all(&mg).unwrap();
    common::copy_tree(
        &common::root().join("fixtures/must-gather/seed1-blocked"),
        &mg,
    );
    let logs = walk_find(&mg, "namespaces").join("openshift-etcd/pods/etcd-m0/etcd/etcd/logs");
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::write(logs.join("current.log"), "x".repeat(3 << 20)).unwrap();
    let o = mglint_in(
        dir.path(),
        &[
            "analyze",
            "--format",
            "json",
            "--exit-zero",
            "--partial",
            "--max-file-bytes",
            "1MiB",
            "mg",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let unread = doc["unread"].to_string();
    assert!(
        unread.contains("current.log")
            && unread.contains("more than 1048576 bytes")
            && unread.contains(r#""kind":"container log""#),
        "{unread}"
    );
}
