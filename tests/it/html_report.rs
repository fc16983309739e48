//! The HTML report without a browser: the structure of the seed reports (lanes, bars, marks,
//! episodes, findings) snapshotted as an outline, the facts the seeds are about present on
//! the chart, escaping of a hostile fixture (no injected element or attribute), no reference
//! to anything outside the page, determinism, and `mglint analyze --format html`.

use crate::common;
use mglint::output::html::{HtmlMeta, render_html};
use regex::Regex;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The HTML report of one input (path relative to the crate root, as the CLI would name it).
fn html(input: &str) -> String {
    let run = common::load(&[input.to_string()], &[]);
    let a = run.analysis();
    render_html(
        a.report(),
        a.timeline(),
        a.stretches(),
        &HtmlMeta::from_bundle(&a.bundle, a.plan()),
    )
}

const BLOCKED: &str = "fixtures/must-gather/seed1-blocked";
const RETURNED: &str = "fixtures/must-gather/seed1-returned";
const CI: &str = "fixtures/ci/seed2-rollback-4.3";
const HOSTILE: &str = "fixtures/files/co-hostile-message.yaml";

/// What the page shows, one line per lane, episode and finding: what a reviewer should see
/// change in a snapshot diff (not the pixels).
fn outline(html: &str) -> String {
    let mut out = Vec::new();
    let row = Regex::new(r#"<div class="row lane" data-group="([^"]+)" data-lane="([^"]+)" data-bars="(\d+)" data-marks="(\d+)">"#).unwrap();
    for c in row.captures_iter(html) {
        out.push(format!(
            "lane {} ({}) bars={} marks={}",
            &c[2], &c[1], &c[3], &c[4]
        ));
    }
    let quiet = Regex::new(r#"data-quiet="([^"]+)""#).unwrap();
    let q: Vec<&str> = quiet
        .captures_iter(html)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    out.push(format!("quiet {}", q.join(" ")));
    let ep = Regex::new(r#"<tr data-episode="([^"]+)" data-start="([^"]*)" data-end="([^"]*)""#)
        .unwrap();
    for c in ep.captures_iter(html) {
        out.push(format!("episode {} {} -> {}", &c[1], &c[2], &c[3]));
    }
    let f =
        Regex::new(r#"<article class="finding sev-(\w+)" id="(f-\d+)" data-code="(\w+)""#).unwrap();
    for c in f.captures_iter(html) {
        out.push(format!("finding {} {} {}", &c[2], &c[3], &c[1]));
    }
    let r = Regex::new(r#"<details class="rule" id="(rule-\w+)""#).unwrap();
    for c in r.captures_iter(html) {
        out.push(format!("explained {}", &c[1]));
    }
    out.join("\n")
}

#[test]
fn outline_seed1_blocked() {
    insta::assert_snapshot!(outline(&html(BLOCKED)));
}

#[test]
fn outline_seed1_returned() {
    insta::assert_snapshot!(outline(&html(RETURNED)));
}

#[test]
fn outline_seed2_ci() {
    insta::assert_snapshot!(outline(&html(CI)));
}

/// `(data-start, data-end)` of the bars with a class.
fn bars(html: &str, class: &str) -> Vec<(String, String)> {
    let re = Regex::new(&format!(
        r#"<rect class="bar {class}( open)?"[^>]*? data-start="([^"]+)" data-end="([^"]+)""#
    ))
    .unwrap();
    re.captures_iter(html)
        .map(|c| (c[2].to_string(), c[3].to_string()))
        .collect()
}

#[test]
fn seed1_returned_shows_the_stall_between_request_and_return() {
    let page = html(RETURNED);
    let stalls = bars(&page, "stall");
    assert_eq!(stalls.len(), 1, "{stalls:?}");
    let (start, end) = &stalls[0];
    // The first 4.3.11 pass (18:27:47.5) until the return to 4.3.10 (18:55:16).
    assert!(start.starts_with("2020-04-09T18:27:4"), "{start}");
    assert!(end.starts_with("2020-04-09T18:55:16"), "{end}");
    assert!(page.contains("4.3.10 not reconciled 18:27:47 → 18:55:16"));
    // The abandoned update, as history records it: 18:27:49 → 18:55:16.
    assert!(page.contains(r#"data-start="2020-04-09T18:27:49Z" data-end="2020-04-09T18:55:16Z" data-version="4.3.11" data-state="Partial""#));
    let pre = Regex::new(r#"data-what="precondition-failed ClusterVersionUpgradeable""#).unwrap();
    assert_eq!(pre.find_iter(&page).count(), 8, "eight failed attempts");
}

#[test]
fn seed1_blocked_shows_the_failing_precondition_and_an_open_stall() {
    let page = html(BLOCKED);
    let open = Regex::new(r#"<rect class="bar stall open"[^>]*data-start="2020-04-09T18:27:47.544Z" data-end="2020-04-09T18:41:43.413Z""#).unwrap();
    assert!(open.is_match(&page), "stall still going at collection");
    assert!(page.contains(r#"data-cond="Failing=True""#));
    assert!(page.contains("Precondition &quot;ClusterVersionUpgradeable&quot; failed"));
    assert!(page.contains(r#"<article class="finding sev-error" id="f-1" data-code="CV002""#));
    assert!(page.contains(r#"<details class="rule" id="rule-CV002">"#));
}

#[test]
fn seed2_shows_recorded_versus_actual_install_completion() {
    let page = html(CI);
    assert!(page.contains(r#"data-actual="2019-09-27T21:41:05Z" data-recorded="2019-09-27T21:45:59Z" data-version="4.3.0-0.ci-2019-09-27-181735""#));
    assert!(page.contains("actual ≤ 21:41:05"));
    assert!(page.contains("recorded 21:45:59"));
    assert!(page.contains(r#"data-code="CV001""#));
}

/// Every start tag and its attribute names.
fn tags(html: &str) -> Vec<(String, Vec<String>)> {
    let tag =
        Regex::new(r#"<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*/?>"#).unwrap();
    let attr = Regex::new(r#"\s+([^\s=>/]+)(?:="[^"]*")?"#).unwrap();
    tag.captures_iter(html)
        .map(|c| {
            let names = attr
                .captures_iter(&c[2])
                .map(|a| a[1].to_ascii_lowercase())
                .collect();
            (c[1].to_ascii_lowercase(), names)
        })
        .collect()
}

const ALLOWED_TAGS: &[&str] = &[
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "h5", "h6",
    "p", "table", "thead", "tbody", "tr", "th", "td", "ul", "ol", "li", "code", "pre", "nav", "a",
    "main", "section", "div", "span", "svg", "defs", "pattern", "rect", "g", "text", "line",
    "path", "details", "summary", "article", "dl", "dt", "dd", "label", "input", "button", "br",
    "b", "strong", "footer", "script",
];

#[test]
fn hostile_messages_appear_as_text_only() {
    let page = html(HOSTILE);
    // The scripts, images, frames and links in the fixture are text.
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(document.domain)&gt;"));
    assert!(page.contains("evil&quot;&gt;&lt;img src=x onerror=alert(4)&gt;"));
    assert!(page.contains("&lt;/title&gt;&lt;/svg&gt;&lt;script&gt;alert(2)&lt;/script&gt;"));
    assert!(
        page.contains("&lt;iframe src=&quot;https://attacker.example/x&quot;&gt;&lt;/iframe&gt;")
    );
    // No element or attribute came from the input.
    let all = tags(&page);
    assert!(all.len() > 100);
    for (name, attrs) in &all {
        assert!(ALLOWED_TAGS.contains(&name.as_str()), "unexpected <{name}>");
        for a in attrs {
            assert!(!a.starts_with("on"), "<{name} {a}=…>");
        }
    }
    assert_eq!(page.matches("<script").count(), 1);
    assert!(
        !page.contains("attacker.example/\""),
        "no live link to the attacker"
    );
}

#[test]
fn pages_reference_nothing_outside_themselves() {
    let src = Regex::new(r#"\s(?:src|srcset|data|poster|action|formaction|xlink:href)=""#).unwrap();
    let href = Regex::new(r#"<(\w+)\s[^>]*?\shref="([^"]*)""#).unwrap();
    for input in [BLOCKED, RETURNED, CI, HOSTILE] {
        let page = html(input);
        assert!(!src.is_match(&page), "{input}: a resource attribute");
        for c in href.captures_iter(&page) {
            let (tag, url) = (&c[1], &c[2]);
            // Only in-page anchors, and plain links to rule references (followed on click,
            // never loaded).
            assert!(
                url.starts_with('#') || (tag == "a" && url.starts_with("https://")),
                "{input}: <{tag} href={url}>"
            );
        }
        assert!(!page.contains("url(http"), "{input}: a CSS fetch");
        assert!(!page.contains("@import"), "{input}");
        assert!(page.contains("default-src 'none'"), "{input}: no CSP");
    }
}

#[test]
fn same_input_gives_the_same_bytes_on_one_thread_or_many() {
    let many = html(RETURNED);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let one = pool.install(|| html(RETURNED));
    assert!(
        many == one,
        "output differs between 1 thread and the default pool"
    );
    assert_eq!(many, html(RETURNED));
}

#[test]
fn cli_writes_html_with_format_and_with_output_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.html");
    let b = dir.path().join("b.html");
    let j = dir.path().join("b.json");
    // The built-in rules only, as the library page below is made.
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_mglint"))
            .current_dir(root())
            .args(args)
            .arg("--no-bundled-rules")
            .output()
            .unwrap()
    };
    let out = run(&[
        "analyze",
        BLOCKED,
        "--format",
        "html",
        "-o",
        a.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&[
        "analyze",
        BLOCKED,
        "--output",
        &format!("html={}", b.display()),
        "--output",
        &format!("json={}", j.display()),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page_a = std::fs::read_to_string(&a).unwrap();
    let page_b = std::fs::read_to_string(&b).unwrap();
    assert!(page_a.starts_with("<!DOCTYPE html>") && page_a.ends_with("</html>\n"));
    assert_eq!(page_a, page_b);
    assert_eq!(page_a, html(BLOCKED));
    assert!(
        std::fs::read_to_string(&j)
            .unwrap()
            .contains("\"schema\": \"mglint/report/v2\"")
    );
    // An unknown format is a usage error.
    let out = run(&["analyze", BLOCKED, "--format", "pdf"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Each corrupted-input case (a bad file laid over the good `_base` must-gather) still gives
/// a whole page with only the page's own script.
#[test]
fn every_bad_input_still_renders_a_whole_page() {
    let bad = root().join("fixtures/bad");
    let mut n = 0;
    for entry in std::fs::read_dir(&bad).unwrap().flatten() {
        let case = entry.path();
        if !case.is_dir() || entry.file_name().to_string_lossy().starts_with('_') {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        common::copy_tree(&bad.join("_base"), dir.path());
        common::copy_tree(&case.join("files"), dir.path());
        let input = dir.path().to_string_lossy().to_string();
        let run = common::load(&[input], &[]);
        let a = run.analysis();
        let page = render_html(
            a.report(),
            a.timeline(),
            a.stretches(),
            &HtmlMeta::from_bundle(&a.bundle, a.plan()),
        );
        let name = case.display();
        assert!(
            page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"),
            "{name}"
        );
        assert_eq!(page.matches("<script").count(), 1, "{name}");
        assert!(page.contains("class=\"row lane\""), "{name}: no chart");
        n += 1;
    }
    assert!(n >= 30, "only {n} bad inputs rendered");
}

/// The page's "Updates" section shows what `recommend` knows: every offered target, whether
/// it is recommended and its reason (the set's oc output lists the same two not recommended).
#[test]
fn the_updates_section_lists_every_target_with_its_verdict() {
    let set = crate::common::fixture("oc/recommend/conditional-not-recommended-first");
    let o = crate::common::mglint(&[
        "analyze",
        set.to_str().unwrap(),
        "--format",
        "html",
        "--exit-zero",
    ]);
    let html = String::from_utf8_lossy(&o.stdout);
    let at = html
        .find("<section id=\"updates\">")
        .expect("an Updates section");
    let sec = &html[at..at + html[at..].find("</section>").unwrap()];
    assert!(sec.contains("channel <code>stable-4.17</code>"), "{sec}");
    for (v, rec, reason) in [
        ("4.17.14", "no", "AzureDefaultVMType"),
        ("4.17.12", "yes", ""),
        ("4.17.11", "no", "OVNNetworkPolicyLongName"),
    ] {
        let row = format!("<tr><td><code>{v}</code></td><td>{rec}</td><td>{reason}</td>");
        assert!(sec.contains(&row), "{row} in {sec}");
    }
}

/// The page's "Published update risks" section (CV025's evaluation) lists the update in
/// progress and the offered one with the risk that applies; a page without one has none.
#[test]
fn the_published_risks_section_lists_the_updates_exposed() {
    let page = html("fixtures/rules/CV025/fail");
    let at = page
        .find("<section id=\"published-risks\">")
        .expect("a Published update risks section");
    let sec = &page[at..at + page[at..].find("</section>").unwrap()];
    for (to, stage) in [("4.19.1", "in progress"), ("4.19.2", "offered")] {
        let row = format!(
            "<tr><td class=\"nw\"><code>4.18.9</code> → <code>{to}</code></td><td class=\"nw\">{stage}</td><td><code>VSphereStorageMountIssues</code></td>"
        );
        assert!(sec.contains(&row), "{row} in {sec}");
    }
    assert!(!html(BLOCKED).contains("published-risks"));
}
