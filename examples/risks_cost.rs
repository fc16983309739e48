//! What judging the whole update-risk catalogue costs beside `analyze` on a dump: loads each
//! input as `mglint risks` does, times the analysis (the report, as `analyze` computes it) and
//! the catalogue (series, every candidate, and every one of the catalogue's risks judged),
//! best of N rounds. `cargo run --release --example risks_cost -- INPUT... [-n N]`.

use mglint::risks::catalogue::Catalogue;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 5;
    if let Some(i) = args.iter().position(|a| a == "-n") {
        rounds = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(5);
        args.drain(i..(i + 2).min(args.len()));
    }
    let cat = Catalogue::bundled().expect("the bundled catalogue");
    for input in &args {
        let mut best_analyze = f64::MAX;
        let mut best_risks = f64::MAX;
        let mut judged = 0;
        for _ in 0..rounds {
            let mut wants = mglint::vocab::wants::Wants::default();
            mglint::risks::series::add_wants(&mut wants);
            let mut known = mglint::rules::known::KnownSet::load(&Default::default());
            known.wants = Arc::new(wants);
            let settings = mglint::Settings {
                known: Arc::new(known),
                ..Default::default()
            };
            let t = Instant::now();
            let run = mglint::app::load(std::slice::from_ref(input), &settings).expect("load");
            let a = run.analysis();
            let _ = a.report();
            best_analyze = best_analyze.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let (m, e) = mglint::risks::evaluate(&cat, &a.bundle, &["4.10.38".to_string()]);
            judged = 0;
            for r in &cat.risks {
                let _ = mglint::risks::verdict::judge(r, &m);
                judged += 1;
            }
            std::hint::black_box(&e);
            best_risks = best_risks.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{input}: analyze {:.1} ms, every risk ({judged}) judged {:.2} ms: +{:.2} %",
            best_analyze * 1e3,
            best_risks * 1e3,
            best_risks / best_analyze * 100.0
        );
    }
}
