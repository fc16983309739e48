//! The HTML report in a real browser: each page is opened offline in headless Chromium
//! (Debian's `chromium`; `CHROMIUM` overrides the path), which dumps the DOM after its script
//! ran, takes a screenshot, and writes a network log. Checked: the DOM holds the expected
//! lanes and findings (seed 1: the stall of 4.3.10 reconciliation and the failing
//! precondition; seed 2: recorded versus actual install completion; a real must-gather), the
//! script ran (its CSP hash is right), the screenshot is not blank, the page made no network
//! request, and with JavaScript disabled the chart and findings are still there. Skipped with
//! a note when Chromium is absent. Screenshots are kept in `CARGO_TARGET_TMPDIR` for viewing.

use mglint::output::html::{HtmlMeta, render_html};
use regex::Regex;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn chromium() -> Option<PathBuf> {
    if !crate::common::heavy("the browser test") {
        return None;
    }
    let p = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if p.is_file() {
        Some(p)
    } else {
        eprintln!(
            "note: {} not found; skipping the browser test (install Debian's `chromium`)",
            p.display()
        );
        None
    }
}

fn html(input: &str) -> String {
    let run = crate::common::load(&[input.to_string()], &[]);
    let a = run.analysis();
    render_html(
        a.report(),
        a.timeline(),
        a.stretches(),
        &HtmlMeta::from_bundle(&a.bundle, a.plan()),
    )
}

/// Runs Chromium with the given extra arguments on a file and returns its standard output.
fn run_chromium(bin: &Path, url: &str, extra: &[String]) -> Vec<u8> {
    let profile = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(bin);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ])
    .args(
        (!extra.iter().any(|a| a.starts_with("--window-size=")))
            .then_some("--window-size=1400,2000"),
    )
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .args(extra)
    .arg(url)
    .stdout(Stdio::piped())
    .stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 120 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

/// What Chromium made of a page.
struct Rendered {
    dom: String,
    png: Vec<u8>,
    /// http(s) URLs the page itself asked for (browser housekeeping excluded).
    page_requests: Vec<String>,
}

/// Opens a page; with `js` false the page's own script is blocked by turning its CSP's
/// `script-src` to `'none'` (Chromium's `--dump-dom` needs JavaScript in the browser itself,
/// so switching it off globally would leave nothing to inspect).
fn render_in_chromium(bin: &Path, name: &str, page_html: &str, js: bool) -> Rendered {
    render_at(bin, name, page_html, js, "")
}

/// As [`render_in_chromium`], opening the page at `fragment` (e.g. `#zoom=8`).
fn render_at(bin: &Path, name: &str, page_html: &str, js: bool, fragment: &str) -> Rendered {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join(format!("{name}.html"));
    let page_html = if js {
        page_html.to_string()
    } else {
        let csp = Regex::new(r"script-src 'sha256-[A-Za-z0-9+/=]+'").unwrap();
        assert!(csp.is_match(page_html), "no script hash in the CSP");
        csp.replace(page_html, "script-src 'none'").to_string()
    };
    std::fs::write(&page, page_html).unwrap();
    let url = format!("file://{}{fragment}", page.display());
    let netlog = dir.path().join("net.json");
    let extra = vec![
        "--dump-dom".to_string(),
        format!("--log-net-log={}", netlog.display()),
    ];
    let dom = String::from_utf8_lossy(&run_chromium(bin, &url, &extra)).to_string();
    let shot = dir.path().join("shot.png");
    run_chromium(bin, &url, &[format!("--screenshot={}", shot.display())]);
    let png = std::fs::read(&shot).unwrap_or_default();
    let suffix = if js { "" } else { "-nojs" };
    let keep = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("html-{name}{suffix}.png"));
    if std::fs::write(&keep, &png).is_ok() {
        eprintln!("screenshot: {}", keep.display());
    }
    let page_requests = page_requests(&std::fs::read_to_string(&netlog).unwrap_or_default());
    Rendered {
        dom,
        png,
        page_requests,
    }
}

/// URL requests in a Chromium net log started by a page (an origin or `null` initiator);
/// Chromium's own requests (update checks and the like) have `not an origin`.
fn page_requests(netlog: &str) -> Vec<String> {
    let log: serde_json::Value = serde_json::from_str(netlog)
        .unwrap_or_else(|e| panic!("the net log is not JSON ({e}): {netlog:.200}"));
    let events = log["events"].as_array().expect("net log events");
    assert!(!events.is_empty());
    events
        .iter()
        .filter_map(|e| {
            let p = &e["params"];
            let initiator = p["initiator"].as_str()?;
            let url = p["url"].as_str()?;
            (initiator != "not an origin"
                && (url.starts_with("http://") || url.starts_with("https://")))
            .then(|| url.to_string())
        })
        .collect()
}

/// Decodes an 8-bit RGB or RGBA PNG and returns (width, height, pixels as RGB).
fn decode_png(png: &[u8]) -> (usize, usize, Vec<[u8; 3]>) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let mut pos = 8;
    let (mut w, mut h, mut ctype) = (0usize, 0usize, 0u8);
    let mut idat = Vec::new();
    while pos + 8 <= png.len() {
        let len = u32::from_be_bytes(png[pos..pos + 4].try_into().unwrap()) as usize;
        let kind = &png[pos + 4..pos + 8];
        let data = &png[pos + 8..pos + 8 + len];
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                h = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                assert_eq!(data[8], 8, "bit depth");
                ctype = data[9];
                assert_eq!(data[12], 0, "interlaced");
            }
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        pos += 12 + len;
    }
    let bpp = match ctype {
        2 => 3,
        6 => 4,
        other => panic!("colour type {other}"),
    };
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = w * bpp;
    let mut prev = vec![0u8; stride];
    let mut px = Vec::with_capacity(w * h);
    for y in 0..h {
        let line = &raw[y * (stride + 1)..(y + 1) * (stride + 1)];
        let filter = line[0];
        let mut cur = line[1..].to_vec();
        for i in 0..stride {
            let a = if i >= bpp { cur[i - bpp] as i32 } else { 0 };
            let b = prev[i] as i32;
            let c = if i >= bpp { prev[i - bpp] as i32 } else { 0 };
            let add = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let p = a + b - c;
                    let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("filter {f}"),
            };
            cur[i] = cur[i].wrapping_add(add as u8);
        }
        for x in 0..w {
            px.push([cur[x * bpp], cur[x * bpp + 1], cur[x * bpp + 2]]);
        }
        prev = cur;
    }
    (w, h, px)
}

/// Fails when the screenshot is blank or nearly so: enough non-white pixels and colours.
fn assert_not_blank(png: &[u8], what: &str) {
    let (w, h, px) = decode_png(png);
    assert!(w >= 1000 && h >= 1000, "{what}: {w}x{h}");
    let non_white = px.iter().filter(|p| p.iter().any(|c| *c < 235)).count();
    let mut colours: Vec<[u8; 3]> = px
        .iter()
        .map(|p| [p[0] & 0xf0, p[1] & 0xf0, p[2] & 0xf0])
        .collect();
    colours.sort_unstable();
    colours.dedup();
    let share = non_white as f64 / px.len() as f64;
    assert!(share > 0.03, "{what}: only {:.1}% non-white", share * 100.0);
    assert!(
        colours.len() >= 12,
        "{what}: only {} colours",
        colours.len()
    );
    // The chart's colours are there: some clearly red and some clearly green pixels.
    let red = px
        .iter()
        .filter(|p| p[0] > 180 && p[1] < 110 && p[2] < 110)
        .count();
    let green = px
        .iter()
        .filter(|p| p[1] > 120 && p[0] < 90 && p[2] < 140)
        .count();
    assert!(red > 50 && green > 50, "{what}: red {red}, green {green}");
}

/// The common checks: the script ran, nothing was fetched, the screenshot has content.
fn common(r: &Rendered, what: &str) {
    assert!(
        r.dom.contains("data-js=\"on\""),
        "{what}: the page script did not run"
    );
    assert!(
        r.page_requests.is_empty(),
        "{what}: requests {:?}",
        r.page_requests
    );
    let loaded = Regex::new(r#"<(img|script|link|iframe|embed|object|source|video|audio|image|use)\b[^>]*\s(?:src|href|data|xlink:href)="(https?://[^"]*)""#).unwrap();
    assert!(
        !loaded.is_match(&r.dom),
        "{what}: a remote resource in the DOM"
    );
    assert_not_blank(&r.png, what);
}

fn lanes(dom: &str) -> Vec<String> {
    let re = Regex::new(r#"<div class="row lane" data-group="[^"]+" data-lane="([^"]+)""#).unwrap();
    re.captures_iter(dom).map(|c| c[1].to_string()).collect()
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn seed1_returned_shows_the_stall_and_the_failing_precondition() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/must-gather/seed1-returned");
    let r = render_in_chromium(&bin, "seed1-returned", &page, true);
    common(&r, "seed1-returned");
    let l = lanes(&r.dom);
    for want in [
        "cv/history",
        "cv/episodes",
        "cvo/reconciliation",
        "cvo/passes",
        "cvo/preconditions",
        "co/kube-apiserver",
    ] {
        assert!(l.iter().any(|x| x == want), "lane {want} missing: {l:?}");
    }
    let stall = Regex::new(r#"class="bar stall"[^>]*data-start="(2020-04-09T18:27:4[7-9][^"]*)" data-end="(2020-04-09T18:55:16[^"]*)""#).unwrap();
    assert!(stall.is_match(&r.dom), "no stall bar 18:27:4x → 18:55:16");
    assert!(r.dom.contains("4.3.10 not reconciled 18:27:47 → 18:55:16"));
    assert!(
        r.dom
            .contains(r#"data-what="precondition-failed ClusterVersionUpgradeable""#)
    );
    assert!(r.dom.contains(r#"data-code="LOG003""#));
    // The script moved every `<title>` into data-tip for its own tooltip.
    assert!(
        r.dom
            .contains("data-tip=\"stall (precondition-failed): 4.3.10 not reconciled")
    );
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn seed1_blocked_shows_the_open_stall_and_cv002() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/must-gather/seed1-blocked");
    let r = render_in_chromium(&bin, "seed1-blocked", &page, true);
    common(&r, "seed1-blocked");
    assert!(r.dom.contains(r#"class="bar stall open""#));
    assert!(r.dom.contains(r#"data-cond="Failing=True""#));
    assert!(
        r.dom
            .contains(r#"<article class="finding sev-error" id="f-1" data-code="CV002""#)
    );
    assert!(r.dom.contains(r#"<details class="rule" id="rule-CV002">"#));
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn seed2_shows_recorded_versus_actual_install_completion() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/ci/seed2-rollback-4.3");
    let r = render_in_chromium(&bin, "seed2-rollback-4.3", &page, true);
    common(&r, "seed2");
    assert!(r.dom.contains(r#"class="bar claimed""#));
    assert!(
        r.dom
            .contains(r#"data-actual="2019-09-27T21:41:05Z" data-recorded="2019-09-27T21:45:59Z""#)
    );
    assert!(r.dom.contains("actual ≤ 21:41:05") && r.dom.contains("recorded 21:45:59"));
    let l = lanes(&r.dom);
    assert!(l.iter().any(|x| x.starts_with("node/")), "{l:?}");
    assert!(l.iter().any(|x| x == "ci/prow"), "{l:?}");
    assert!(r.dom.contains(r#"data-code="CV001""#));
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn real_must_gather_renders() {
    let Some(bin) = chromium() else { return };
    let corpus = root().join("../shared/corpus/must-gathers/must-gather-aws.tar.xz");
    if !corpus.is_file() {
        eprintln!("note: ../shared/corpus not found; skipping the corpus browser test");
        return;
    }
    let page = html(corpus.to_str().unwrap());
    let r = render_in_chromium(&bin, "must-gather-aws", &page, true);
    common(&r, "must-gather-aws");
    let l = lanes(&r.dom);
    for want in [
        "cv/history",
        "cv/episodes",
        "cvo/passes",
        "cvo/reconciliation",
    ] {
        assert!(l.iter().any(|x| x == want), "lane {want} missing: {l:?}");
    }
    // A healthy install: every operator settled, so their lanes are folded.
    assert!(r.dom.contains("data-quiet=\"co/etcd\""));
    assert!(r.dom.contains("data-episode=\"install\""));
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn hostile_fixture_shows_text_and_runs_no_injected_script() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/files/co-hostile-message.yaml");
    let r = render_in_chromium(&bin, "hostile", &page, true);
    assert!(r.dom.contains("data-js=\"on\""));
    assert!(r.page_requests.is_empty(), "{:?}", r.page_requests);
    // The browser parsed the page into exactly our elements: the markup is text.
    for tag in ["<img", "<iframe", "<svg onload"] {
        assert!(!r.dom.contains(tag), "{tag} was injected");
    }
    assert_eq!(r.dom.matches("<script").count(), 1);
    assert!(r.dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let title = Regex::new(r"<title>([^<]*)</title>").unwrap();
    assert_eq!(
        title.captures(&r.dom).map(|c| c[1].to_string()).as_deref(),
        Some("mglint report: fixtures/files/co-hostile-message.yaml")
    );
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn without_javascript_the_chart_and_findings_are_there() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/must-gather/seed1-returned");
    let r = render_in_chromium(&bin, "seed1-returned", &page, false);
    assert!(
        !r.dom.contains("data-js=\"on\""),
        "JavaScript was not disabled"
    );
    assert!(r.page_requests.is_empty());
    assert!(lanes(&r.dom).len() >= 10);
    assert!(r.dom.contains(r#"class="bar stall""#));
    assert!(
        r.dom
            .contains(r#"<article class="finding sev-warning" id="f-1""#)
    );
    // The controls need the script; they stay hidden without it.
    assert!(
        r.dom
            .contains(r#"<div id="controls" class="controls" hidden="">"#)
    );
    assert_not_blank(&r.png, "seed1-returned without JavaScript");
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn deep_link_zooms_the_chart() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/must-gather/seed1-returned");
    let r = render_at(
        &bin,
        "seed1-returned-zoom8",
        &page,
        true,
        "#zoom=8&at=2020-04-09T18:27:47Z",
    );
    common(&r, "seed1-returned zoomed");
    assert!(
        r.dom
            .contains(r#"<span id="zoomlevel" class="zoomlevel">8×</span>"#)
    );
    assert!(
        r.dom.contains(r#"class="plot" width="8640.0""#),
        "plots not widened"
    );
    assert!(
        r.dom
            .contains(r#"<g class="z" data-z="1" style="display: none;">"#)
    );
    assert!(
        r.dom.contains(r#"<g class="z" data-z="4" style="">"#),
        "the zoom-4 ticks serve zoom 8"
    );
    // Every bar moved to eight times its zoom-1 position.
    let rect = Regex::new(r#"<rect class="bar stall" x="([0-9.]+)" width="([0-9.]+)"[^>]*data-x="([0-9.]+)" data-w="([0-9.]+)""#).unwrap();
    let c = rect.captures(&r.dom).expect("stall bar");
    let f = |i: usize| c[i].parse::<f64>().unwrap();
    assert!(
        (f(1) - 8.0 * f(3)).abs() < 0.2 && (f(2) - 8.0 * f(4)).abs() < 0.2,
        "{:?}",
        &c[0]
    );
}

/// Drives the page script the way a user would (zoom in twice, hover the stall, filter the
/// lanes) from a second script appended for the test, and checks what it did to the DOM.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn page_script_zooms_hovers_and_filters() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/must-gather/seed1-blocked");
    let csp = Regex::new(r"script-src 'sha256-[A-Za-z0-9+/=]+'").unwrap();
    let driver = r#"<script>
      document.querySelector('button[data-zoom="1"]').click();
      document.querySelector('button[data-zoom="1"]').click();
      var bar = document.querySelector('rect.bar.stall');
      var r = bar.getBoundingClientRect();
      bar.dispatchEvent(new MouseEvent('mousemove', {bubbles: true, clientX: r.left + 5, clientY: r.top + 5}));
      var f = document.getElementById('lanefilter');
      f.value = 'kube';
      f.dispatchEvent(new Event('input'));
      document.querySelector('input[data-group="cvo"]').click();
    </script>"#;
    let page = csp
        .replace(&page, "script-src 'unsafe-inline'")
        .replace("</body>", &format!("{driver}</body>"));
    let r = render_in_chromium(&bin, "seed1-blocked-driven", &page, true);
    assert!(
        r.dom
            .contains(r#"<span id="zoomlevel" class="zoomlevel">4×</span>"#),
        "zoom buttons"
    );
    assert!(r.dom.contains(r#"class="plot" width="4320.0""#));
    let tip = Regex::new(r#"<div id="tip" role="tooltip" style="display: block;[^"]*">stall \(precondition-failed\): 4.3.10 not reconciled"#).unwrap();
    assert!(tip.is_match(&r.dom), "hover tooltip");
    let cursor =
        Regex::new(r#"id="cursor" class="cursor">2020-04-09 18:\d\d:\d\d(\.\d+)?Z? UTC<"#).unwrap();
    assert!(cursor.is_match(&r.dom), "cursor read-out");
    let shown = |lane: &str| {
        let re = Regex::new(&format!(
            r#"data-lane="{}"[^>]*?(style="display: none;")?>"#,
            regex::escape(lane)
        ))
        .unwrap();
        re.captures(&r.dom).map(|c| c.get(1).is_none())
    };
    assert_eq!(
        shown("co/kube-apiserver"),
        Some(true),
        "matching lane stays"
    );
    assert_eq!(shown("cv/history"), Some(false), "filtered out");
    assert_eq!(shown("cvo/passes"), Some(false), "group switched off");
    let head =
        Regex::new(r#"<div class="row ghead" data-group="cv" style="display: none;">"#).unwrap();
    assert!(
        head.is_match(&r.dom),
        "the head of a group with no lane left is hidden"
    );
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn the_network_check_sees_a_page_request() {
    // The check above must be able to fail: a page that loads an image is caught.
    let Some(bin) = chromium() else { return };
    let page = "<!DOCTYPE html><html><body><img src=\"http://127.0.0.1:9/probe.png\"><p>x</p></body></html>";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("probe.html");
    std::fs::write(&path, page).unwrap();
    let netlog = dir.path().join("net.json");
    let url = format!("file://{}", path.display());
    run_chromium(
        &bin,
        &url,
        &[
            "--dump-dom".into(),
            format!("--log-net-log={}", netlog.display()),
        ],
    );
    let reqs = page_requests(&std::fs::read_to_string(&netlog).unwrap());
    assert!(
        reqs.iter().any(|u| u.contains("127.0.0.1:9/probe.png")),
        "{reqs:?}"
    );
}

/// The page's width at a window of `width` pixels: a script (allowed by widening the CSP for
/// this test only) writes `document.documentElement.scrollWidth` into the DOM.
fn scroll_width(bin: &Path, name: &str, page_html: &str, width: u32) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let csp = Regex::new(r"script-src 'sha256-[A-Za-z0-9+/=]+'").unwrap();
    assert!(csp.is_match(page_html), "no script hash in the CSP");
    let probe = "<script>window.addEventListener('load',()=>{document.body.setAttribute('data-scroll-width',String(document.documentElement.scrollWidth))})</script>";
    let page_html = csp
        .replace(page_html, "script-src 'unsafe-inline'")
        .replace("</body>", &format!("{probe}</body>"));
    let page = dir.path().join(format!("{name}.html"));
    std::fs::write(&page, page_html).unwrap();
    let dom = run_chromium(
        bin,
        &format!("file://{}", page.display()),
        &[
            "--dump-dom".to_string(),
            format!("--window-size={width},1000"),
        ],
    );
    let dom = String::from_utf8_lossy(&dom);
    let w = Regex::new(r#"data-scroll-width="([0-9]+)""#).unwrap();
    let c = w
        .captures(&dom)
        .unwrap_or_else(|| panic!("{name}: no width measured"));
    c[1].parse().unwrap()
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn no_sideways_scroll_at_800_pixels() {
    let Some(bin) = chromium() else { return };
    // seed1-blocked's CV004 holds an unbreakable `oc adm upgrade --to-image …@sha256:…` span.
    for input in [
        "fixtures/must-gather/seed1-blocked",
        "fixtures/ci/seed2-rollback-4.3",
    ] {
        let page = html(input);
        assert!(page.contains("--to-image") || !input.contains("blocked"));
        let w = scroll_width(&bin, "narrow", &page, 800);
        assert!(
            w <= 800,
            "{input}: the page is {w} px wide in an 800 px window"
        );
    }
}

/// Two clusters (seed 1 blocked, the 4.14 CI job) on one page, labelled "first" and "second".
fn two_cluster_page() -> String {
    page_of(
        &[
            "fixtures/must-gather/seed1-blocked".to_string(),
            "fixtures/ci/modern-upgrade-4.14".to_string(),
        ],
        Some(&["first", "second"]),
    )
}

/// Two clusters on one page: each has its own chart and controls that the script wires up
/// apart (zooming the second leaves the first alone), and every id is unique.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn two_clusters_share_one_page_and_their_charts_stay_apart() {
    let page = two_cluster_page();
    assert_eq!(page.matches("<!DOCTYPE html>").count(), 1);
    let ids: Vec<&str> = Regex::new(r#" id="([^"]+)""#)
        .unwrap()
        .captures_iter(&page)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    let unique: std::collections::BTreeSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "duplicate ids");
    assert!(
        page.contains(r##"<a href="#c2">second</a>"##),
        "table of contents"
    );
    let Some(bin) = chromium() else { return };
    let csp = Regex::new(r"script-src 'sha256-[A-Za-z0-9+/=]+'").unwrap();
    let driver = r#"<script>
      document.querySelector('#c2 button[data-zoom="1"]').click();
    </script>"#;
    let page = csp
        .replace(&page, "script-src 'unsafe-inline'")
        .replace("</body>", &format!("{driver}</body>"));
    let r = render_in_chromium(&bin, "two-clusters", &page, true);
    assert!(
        r.dom.contains(r#"<div id="c1-controls" class="controls">"#)
            && r.dom.contains(r#"<div id="c2-controls" class="controls">"#),
        "the script showed both charts' controls"
    );
    assert!(
        r.dom
            .contains(r#"<span id="c1-zoomlevel" class="zoomlevel">1×</span>"#)
    );
    assert!(
        r.dom
            .contains(r#"<span id="c2-zoomlevel" class="zoomlevel">2×</span>"#)
    );
}

/// axe-core's script (npm `axe-core`, which `.ci/run` installs under `target/axe`;
/// `AXE_CORE_JS` names another copy), or `None` with a note (a failure under `CI=true`).
fn axe_core() -> Option<String> {
    let path = std::env::var_os("AXE_CORE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/axe/node_modules/axe-core/axe.min.js"));
    match std::fs::read_to_string(&path) {
        Ok(js) => Some(js),
        Err(e) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{}: {e} (.ci/run installs axe-core)",
                path.display()
            );
            eprintln!(
                "note: {}: {e}; skipping the accessibility test",
                path.display()
            );
            None
        }
    }
}

/// The serious and critical accessibility violations axe-core finds on a page, as
/// `rule: target, …` lines (axe runs in the page; its answer is written into the DOM).
fn axe_violations(bin: &Path, name: &str, page: &str, axe: &str) -> Vec<String> {
    let csp = Regex::new(r"script-src 'sha256-[A-Za-z0-9+/=]+'").unwrap();
    let runner = r#"<script>
      axe.run(document, { resultTypes: ['violations'] }).then(function (r) {
        var out = r.violations
          .filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
          .map(function (v) {
            return v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); }).join(', ');
          });
        var pre = document.createElement('pre');
        pre.id = 'axe-result';
        pre.textContent = out.join('\n');
        document.body.appendChild(pre);
      });
    </script>"#;
    let page = csp
        .replace(page, "script-src 'unsafe-inline'")
        .replace("</body>", &format!("<script>{axe}</script>{runner}</body>"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.html"));
    std::fs::write(&file, page).unwrap();
    let dom = run_chromium(
        bin,
        &format!("file://{}", file.display()),
        &["--dump-dom".into(), "--virtual-time-budget=20000".into()],
    );
    let dom = String::from_utf8_lossy(&dom);
    let open = r#"<pre id="axe-result">"#;
    let start = dom.find(open).expect("axe did not finish") + open.len();
    let end = dom[start..].find("</pre>").expect("axe result cut") + start;
    dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// axe-core finds nothing serious or critical on any fixture's report page (every
/// must-gather, CI job and single file, a hostile input, HyperShift's three clusters and two
/// clusters on one page) nor on the real dumps'.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn axe_core_finds_no_serious_or_critical_violation() {
    let Some(bin) = chromium() else { return };
    let Some(axe) = axe_core() else { return };
    for (name, page) in &fixture_pages() {
        let v = axe_violations(&bin, "axe", page, &axe);
        assert!(v.is_empty(), "{name}:\n{}", v.join("\n"));
    }
}

/// "fit" shows the whole span in the visible width: at 800 and at 1280 px the plot is as
/// wide as the chart's visible part (no sideways scroll inside the chart), and the page
/// itself never scrolls sideways.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn fit_shows_the_whole_timeline_in_the_window_at_800_and_1280_pixels() {
    let Some(bin) = chromium() else { return };
    let page = html("fixtures/must-gather/seed1-returned");
    let csp = Regex::new(r"script-src 'sha256-[A-Za-z0-9+/=]+'").unwrap();
    let probe = r#"<script>window.addEventListener('load', function () {
      document.querySelector('button[data-zoom="0"]').click();
      var chart = document.querySelector('.chart');
      var plot = chart.querySelector('svg.plot');
      document.body.setAttribute('data-fit', [chart.scrollWidth, chart.clientWidth,
        Math.round(plot.getBoundingClientRect().width), document.documentElement.scrollWidth,
        document.querySelector('.zoomlevel').textContent].join(' '));
    });</script>"#;
    let page = csp
        .replace(&page, "script-src 'unsafe-inline'")
        .replace("</body>", &format!("{probe}</body>"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fit.html");
    std::fs::write(&file, page).unwrap();
    let measure = Regex::new(r#"data-fit="(\d+) (\d+) (\d+) (\d+) ([^"]+)""#).unwrap();
    for width in [800u64, 1280] {
        let dom = run_chromium(
            &bin,
            &format!("file://{}", file.display()),
            &["--dump-dom".into(), format!("--window-size={width},1000")],
        );
        let dom = String::from_utf8_lossy(&dom);
        let c = measure
            .captures(&dom)
            .unwrap_or_else(|| panic!("{width}: no measure"));
        let n = |i: usize| c[i].parse::<u64>().unwrap();
        let (scroll, client, plot, page_w) = (n(1), n(2), n(3), n(4));
        assert_eq!(&c[5], "fit", "{width}");
        assert!(
            scroll <= client + 2,
            "{width}: the chart scrolls ({scroll} > {client})"
        );
        assert!(
            plot + 300 >= client && plot <= client,
            "{width}: plot {plot} in {client}"
        );
        assert!(page_w <= width, "{width}: page {page_w} wide");
    }
}

/// Measures a page in Chromium at `width` pixels with its own script running (a probe added
/// by widening the CSP for the test): the page's scroll width, and every problem a reader
/// would see: a severity or rule code broken over two lines, a bar label that spills out of
/// its bar or hides under the lane labels, a scrollable region that cannot take focus.
fn layout_problems(bin: &Path, name: &str, page_html: &str, width: u32) -> (u64, Vec<String>) {
    let csp = Regex::new(r"script-src 'sha256-[A-Za-z0-9+/=]+'").unwrap();
    assert!(csp.is_match(page_html), "no script hash in the CSP");
    let probe = r#"<script>window.addEventListener('load', function () { setTimeout(function () {
      var bad = [];
      document.querySelectorAll('table.list .sev, table.list td.nw code, table.list td.nw').forEach(function (e) {
        var lines = new Set(Array.from(e.getClientRects()).map(function (r) { return Math.round(r.top); }));
        if (lines.size > 1) bad.push('broken: ' + e.textContent);
      });
      document.querySelectorAll('.chart').forEach(function (chart) {
        var c = chart.getBoundingClientRect();
        chart.querySelectorAll('text.bl').forEach(function (t) {
          var style = getComputedStyle(t);
          if (style.display === 'none' || style.visibility === 'hidden' || t.classList.contains('hid')) return;
          var bar = t.previousElementSibling;
          var row = t.closest('.row');
          var lbl = row && row.querySelector('.lbl');
          var r = t.getBoundingClientRect();
          if (r.width === 0) return;
          var plot = t.closest('svg').getBoundingClientRect();
          if (t.classList.contains('out')) {
            // Beside its bar by design: whole within the plot.
            if (r.left < plot.left - 1 || r.right > plot.right + 1) bad.push('label past the plot: ' + t.textContent);
          } else if (bar && bar.tagName === 'rect') {
            var b = bar.getBoundingClientRect();
            if (r.left < b.left - 1 || r.right > b.right + 1) bad.push('label outside its bar: ' + t.textContent);
          }
          if (lbl && r.left < lbl.getBoundingClientRect().right - 1 && r.right > c.left) bad.push('label under the lane names: ' + t.textContent);
        });
      });
      document.querySelectorAll('*').forEach(function (e) {
        var s = getComputedStyle(e);
        if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && e.scrollWidth > e.clientWidth + 1 && e.tabIndex < 0 && !e.querySelector('a,button,[tabindex]'))
          bad.push('scrollable region without focus: ' + (e.className || e.tagName));
      });
      window.parent.document.body.setAttribute('data-probe', JSON.stringify({ w: document.documentElement.scrollWidth, bad: bad }));
    }, 300); });</script>"#;
    let page_html = csp
        .replace(page_html, "script-src 'unsafe-inline'")
        .replace("</body>", &format!("{probe}</body>"));
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join(format!("{name}.html"));
    std::fs::write(&page, page_html).unwrap();
    // Headless Chromium's window is at least 500 px wide: the page is opened in a frame of
    // the width measured (media queries see the frame's width).
    let frame = dir.path().join("frame.html");
    std::fs::write(
        &frame,
        format!(
            "<!DOCTYPE html><html><body style=\"margin:0\"><iframe src=\"{name}.html\" style=\"width:{width}px;height:1000px;border:0\"></iframe></body></html>"
        ),
    )
    .unwrap();
    let dom = run_chromium(
        bin,
        &format!("file://{}", frame.display()),
        &[
            "--dump-dom".to_string(),
            "--allow-file-access-from-files".to_string(),
            "--virtual-time-budget=5000".to_string(),
            format!("--window-size={},1100", width.max(600) + 40),
        ],
    );
    let dom = String::from_utf8_lossy(&dom);
    let c = Regex::new(r#"data-probe="([^"]*)""#)
        .unwrap()
        .captures(&dom)
        .unwrap_or_else(|| panic!("{name} at {width}: no probe result"))[1]
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let v: serde_json::Value = serde_json::from_str(&c).unwrap();
    let bad = v["bad"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_string())
        .collect();
    (v["w"].as_u64().unwrap(), bad)
}

/// One page for every fixture input (each must-gather, CI job and single file, every
/// cluster of it on the page), CV025's failing fixture, the two-cluster page and the real
/// dumps of the corpus.
fn fixture_pages() -> Vec<(String, String)> {
    let mut inputs: Vec<String> = Vec::new();
    for dir in ["fixtures/must-gather", "fixtures/ci", "fixtures/files"] {
        let mut names: Vec<_> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .flatten()
            .map(|e| format!("{dir}/{}", e.file_name().to_string_lossy()))
            .collect();
        names.sort();
        inputs.extend(names);
    }
    // A page whose "Published update risks" section has a risk that applies (CV025's fixture).
    inputs.push("fixtures/rules/CV025/fail".to_string());
    if let Some(corpus) = crate::common::corpus() {
        for real in ["must-gather-aws.tar.xz", "must-gather-metal.tar.xz"] {
            inputs.push(
                corpus
                    .join("must-gathers")
                    .join(real)
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
    let mut pages: Vec<(String, String)> = inputs
        .iter()
        .map(|i| (i.clone(), all_clusters_page(std::slice::from_ref(i))))
        .collect();
    pages.push(("two clusters".into(), two_cluster_page()));
    pages
}

/// The page `mglint analyze INPUT... -o report.html` writes: every cluster of the inputs.
fn all_clusters_page(inputs: &[String]) -> String {
    page_of(inputs, None)
}

/// One page of every cluster of `inputs`, headed `labels` (there must be as many clusters),
/// else "cluster 1", "cluster 2", ….
fn page_of(inputs: &[String], labels: Option<&[&str]>) -> String {
    let run = crate::common::load(inputs, &[]);
    let n = run.analyses().len();
    let labels: Vec<String> = match labels {
        Some(l) => {
            assert_eq!(n, l.len(), "clusters of {inputs:?}");
            l.iter().map(|s| s.to_string()).collect()
        }
        None => (1..=n).map(|i| format!("cluster {i}")).collect(),
    };
    let metas: Vec<HtmlMeta> = run
        .analyses()
        .iter()
        .map(|a| HtmlMeta::from_bundle(&a.bundle, a.plan()))
        .collect();
    let pages: Vec<mglint::output::html::ClusterPage<'_>> = run
        .analyses()
        .iter()
        .zip(&metas)
        .zip(&labels)
        .map(|((a, meta), label)| mglint::output::html::ClusterPage {
            label,
            report: a.report(),
            timeline: a.timeline(),
            stretches: a.stretches(),
            meta,
        })
        .collect();
    mglint::output::html::render_html_clusters(&pages)
}

/// The pages a support engineer forwards, at a phone's, a laptop's and a wide window's width:
/// no sideways page scroll, no severity or code broken mid-word, no clipped bar label, every
/// scrollable region focusable; on every fixture page kind, hostile and multi-cluster ones and
/// a real dump included.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn every_page_reads_at_375_1280_and_1920_pixels() {
    let Some(bin) = chromium() else { return };
    for (name, page) in &fixture_pages() {
        for width in [375u32, 1280, 1920] {
            let (w, bad) = layout_problems(&bin, "layout", page, width);
            assert!(
                w <= u64::from(width),
                "{name}: the page is {w} px wide in a {width} px window"
            );
            assert!(bad.is_empty(), "{name} at {width} px:\n{}", bad.join("\n"));
        }
    }
}

/// Printed to PDF (Chromium's print, A4), the chart shows its whole span: the last tick of
/// its axis is on the page, and so is the stall the page shows.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn a_printed_report_holds_the_whole_timeline() {
    let Some(bin) = chromium() else { return };
    let Ok(o) = Command::new("pdftotext").arg("-v").output() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pdftotext is missing (.ci/run installs poppler-utils)"
        );
        eprintln!("note: pdftotext not installed; the print test is skipped");
        return;
    };
    let _ = o;
    let page = html("fixtures/must-gather/seed1-returned");
    // The axis ticks shown at zoom 1 (the page as printed), in order.
    let ticks: Vec<String> = Regex::new(r#"<text class="tick"[^>]*>([^<]+)</text>"#)
        .unwrap()
        .captures_iter(
            page.split(r#"row axis top"#)
                .nth(1)
                .expect("the chart has a top axis")
                .split(r#"class="z" data-z="1">"#)
                .nth(1)
                .expect("the axis has zoom-1 ticks")
                .split("</g>")
                .next()
                .unwrap(),
        )
        .map(|c| c[1].to_string())
        .collect();
    assert!(ticks.len() >= 2, "no axis ticks found");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("print.html");
    std::fs::write(&file, &page).unwrap();
    let pdf = dir.path().join("print.pdf");
    run_chromium(
        &bin,
        &format!("file://{}", file.display()),
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
    );
    let text = Command::new("pdftotext")
        .args(["-layout"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    let last = ticks.last().unwrap();
    assert!(
        text.contains(last.as_str()),
        "the printed chart is cut: its last tick `{last}` is not on the page"
    );
    assert!(
        text.contains("stall"),
        "the stall is not on the printed page"
    );
}
