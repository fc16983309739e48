//! The layers: each top-level module of the library uses only modules below it (DESIGN.md:
//! vocabulary at the bottom, then model, parsers, the bundle, sources, ingestion, the
//! timeline, the reconciler, status, rules, outputs, the entry point, batch). A use of a
//! module above is a back-edge and fails here, naming the file and line.

use std::path::{Path, PathBuf};

/// Bottom to top. A module may use any module of a lower rank (and itself).
const LAYERS: &[&[&str]] = &[
    &["vocab", "safe_fs"],
    &["model", "yaml", "redact"],
    &["bundle"],
    &["source", "remote"],
    &["ingest"],
    &["timeline"],
    &["reconciler", "status", "recommend", "risks"],
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

/// The import circles among sibling modules that exist today (mostly two modules that use
/// each other's types). A ratchet: a new circle fails the test below, and so does a listed
/// one that is gone (take it off the list). The two where a caller was also the shared
/// vocabulary (`reconciler/replay/derive.rs`, `output/html/lanes.rs`) are broken: their
/// vocabulary lives in `replay/cx.rs` and `html/lane_model.rs`. So are the reconciler's: the
/// worker's state is the leaf `reconciler/worker/state.rs`, what a status sync reads is
/// `reconciler/model/input.rs`, and a replay setting is `reconciler/replay/variant.rs`. So
/// are the rules': the engine reads a pending target from the leaf `rules/pending.rs`, the
/// selection reads the catalogue through `rules`, a rule's declaration type is `rules/model.rs`.
const KNOWN_CIRCLES: &[&str] = &[];

/// Within a directory, the sibling modules' `use super::<sibling>` form no circle beyond
/// [`KNOWN_CIRCLES`]: a part a parent calls does not import the parent's caller back (the
/// shared vocabulary lives in a module of its own).
#[test]
fn sibling_modules_import_each_other_in_no_new_circle() {
    use std::collections::{BTreeMap, BTreeSet};
    let src = crate::common::root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // dir -> module -> siblings it uses
    let mut graphs: BTreeMap<PathBuf, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for f in &files {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        if name == "mod" || name == "lib" || name == "main" {
            continue;
        }
        let dir = f.parent().unwrap().to_path_buf();
        let text = std::fs::read_to_string(f).unwrap();
        let uses: BTreeSet<String> = text
            .match_indices("super::")
            .filter_map(|(i, _)| {
                let rest = &text[i + "super::".len()..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                let m = &rest[..end];
                (m != name && (dir.join(format!("{m}.rs")).is_file() || dir.join(m).is_dir()))
                    .then(|| m.to_string())
            })
            .collect();
        graphs.entry(dir).or_default().insert(name, uses);
    }
    let mut circles = Vec::new();
    for (dir, g) in &graphs {
        // A module reaches itself through its siblings.
        for start in g.keys() {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<Vec<String>> = vec![vec![start.clone()]];
            while let Some(path) = stack.pop() {
                let last = path.last().unwrap();
                for next in g.get(last).into_iter().flatten() {
                    if next == start {
                        // One name per circle: rotated to start at its smallest module.
                        let at = (0..path.len()).min_by_key(|&i| &path[i]).unwrap();
                        let mut c: Vec<String> =
                            path[at..].iter().chain(&path[..at]).cloned().collect();
                        c.push(c[0].clone());
                        circles.push(format!(
                            "{}: {}",
                            dir.strip_prefix(&src).unwrap().display(),
                            c.join(" -> ")
                        ));
                    } else if seen.insert(next.clone()) {
                        let mut p = path.clone();
                        p.push(next.clone());
                        stack.push(p);
                    }
                }
            }
        }
    }
    circles.sort();
    circles.dedup();
    let new: Vec<&String> = circles
        .iter()
        .filter(|c| !KNOWN_CIRCLES.contains(&c.as_str()))
        .collect();
    let gone: Vec<&&str> = KNOWN_CIRCLES
        .iter()
        .filter(|k| !circles.iter().any(|c| c == **k))
        .collect();
    assert!(new.is_empty(), "new import circles:\n{new:#?}");
    assert!(
        gone.is_empty(),
        "circles no longer there (take them off KNOWN_CIRCLES): {gone:?}"
    );
}
