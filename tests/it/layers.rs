//! The layers: each top-level module of the library uses only modules below it (DESIGN.md:
//! vocabulary at the bottom, then model, parsers, the bundle, sources, ingestion, the
//! timeline, the reconciler, status, rules, outputs, the entry point, batch). A use of a
//! module above is a back-edge and fails here, naming the file and line.

use std::path::{Path, PathBuf};

/// Bottom to top. A module may use any module of a lower rank (and itself).
const LAYERS: &[&[&str]] = &[
    &["vocab"],
    &["model", "yaml", "redact"],
    &["bundle"],
    &["source", "remote"],
    &["ingest"],
    &["timeline"],
    &["reconciler", "status", "recommend"],
    &["rules"],
    &["output", "summary"],
    &["app"],
    &["batch"],
];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for e in entries {
            rust_files(&e, out);
        }
    } else if p.extension().is_some_and(|e| e == "rs") {
        out.push(p.to_path_buf());
    }
}

#[test]
fn no_module_uses_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if matches!(name.as_str(), "lib" | "main" | "cli" | "commands") {
            continue; // the crate root and the binary sit above everything
        }
        let Some(own) = rank(&name) else {
            problems.push(format!(
                "src/{name}: not in LAYERS (add it where it belongs)"
            ));
            continue;
        };
        let mut files = Vec::new();
        rust_files(&path, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (no, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for (i, _) in line.match_indices("crate::") {
                    let used: String = line[i + 7..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let Some(r) = rank(&used) else { continue };
                    if r > own {
                        problems.push(format!(
                            "{}:{}: `{name}` uses `{used}`, a layer above it",
                            f.strip_prefix(&src).unwrap().display(),
                            no + 1
                        ));
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "only {checked} lines looked at");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
