//! Prints the files under a directory that `mglint` reads (its own path classifier), one per
//! line, for the benchmark's "read the same bytes" reference.
//!
//! `cargo run --release --example needed_files -- <dir>`

use mglint::vocab::kind::classify_path;
use std::path::Path;

fn walk(root: &Path, dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            walk(root, &p);
        } else if ft.is_file() {
            let rel = p
                .strip_prefix(root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            if classify_path(&rel).is_some() {
                println!("{}", p.display());
            }
        }
    }
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: needed_files <dir>");
        std::process::exit(2);
    };
    walk(Path::new(&dir), Path::new(&dir));
}
