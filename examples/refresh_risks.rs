//! Writes the bundled update-risk catalogue (`rules/update-risks/catalogue.json`) from a
//! cincinnati-graph-data checkout: `cargo run --example refresh_risks -- CHECKOUT [COMMIT]`
//! (`scripts/refresh-risks.sh` runs it). The commit is read from the checkout's `.git` when
//! not given. Problems name their files on stderr and exit 1.

use mglint::risks::catalogue::Catalogue;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: refresh_risks CHECKOUT [COMMIT]");
        std::process::exit(2);
    };
    let mut loaded = match Catalogue::from_checkout(Path::new(dir)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if let Some(c) = args.get(1) {
        loaded.catalogue.commit = c.clone();
    }
    for p in &loaded.problems {
        eprintln!("error: {p}");
    }
    print!("{}", loaded.catalogue.to_json());
    if !loaded.problems.is_empty() {
        std::process::exit(1);
    }
}
