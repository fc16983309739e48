//! Renders the HTML report of each input and prints figures: ingest, timeline, rules and HTML
//! render times, the page size, and the number of lanes, bars and marks. A measurement, not a
//! test (no assertions on time).
//!
//! ```text
//! cargo run --release --example html_report -- ../shared/corpus/must-gathers/must-gather-aws.tar.xz [--out DIR] [--runs N]
//! ```

use mglint::ingest::{IngestOptions, ingest};
use mglint::output::html::{HtmlMeta, render_html};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut inputs = Vec::new();
    let mut out_dir: Option<PathBuf> = None;
    let mut runs = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out_dir = args.next().map(PathBuf::from),
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(5),
            _ => inputs.push(a),
        }
    }
    if inputs.is_empty() {
        eprintln!("usage: html_report INPUT... [--out DIR] [--runs N]");
        std::process::exit(2);
    }
    for input in inputs {
        let t0 = Instant::now();
        let bundle = match ingest(std::slice::from_ref(&input), &IngestOptions::default()) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{input}: {e}");
                continue;
            }
        };
        let t_ingest = t0.elapsed();
        let t1 = Instant::now();
        let timeline = mglint::timeline::build(&bundle);
        let t_timeline = t1.elapsed();
        let t2 = Instant::now();
        let facts = mglint::rules::FactStore::default();
        let report = mglint::rules::analyze_with(
            &bundle,
            &timeline,
            &facts,
            &mglint::rules::Selection::default(),
        );
        let t_rules = t2.elapsed();
        let meta = HtmlMeta::from_bundle(&bundle, facts.plan(&bundle));
        // The condition stretches are a fact of the analysis, made once before the page.
        let stretches = mglint::timeline::condition_stretches(&timeline);
        let mut html = String::new();
        let mut best = f64::MAX;
        for _ in 0..runs.max(1) {
            let t3 = Instant::now();
            html = render_html(&report, &timeline, &stretches, &meta);
            best = best.min(t3.elapsed().as_secs_f64());
        }
        let lanes = html.matches("class=\"row lane\"").count();
        let bars = html.matches("<rect class=\"bar ").count();
        let marks = html.matches("<path class=\"mark ").count();
        println!(
            "{input}\n  events {}  passes {}  findings {}\n  ingest {:.3} s  timeline {:.3} s  rules {:.3} s  html render {:.2} ms (best of {runs})\n  html {} bytes ({:.1} KiB), {lanes} lanes drawn, {bars} bars, {marks} marks",
            timeline.events.len(),
            timeline.passes.len(),
            report.findings.len(),
            t_ingest.as_secs_f64(),
            t_timeline.as_secs_f64(),
            t_rules.as_secs_f64(),
            best * 1000.0,
            html.len(),
            html.len() as f64 / 1024.0,
        );
        if let Some(dir) = &out_dir {
            let name = std::path::Path::new(&input)
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_else(|| "report".into());
            let path = dir.join(format!("{name}.html"));
            if let Err(e) = std::fs::write(&path, &html) {
                eprintln!("cannot write `{}`: {e}", path.display());
            } else {
                println!("  wrote {}", path.display());
            }
        }
    }
}
