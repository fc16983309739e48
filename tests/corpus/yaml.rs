//! The YAML shortcut (`mglint::yaml::simple`) against the YAML library on every YAML text of
//! the corpus: the loose files and every `.yaml` inside the two real must-gathers, whole and
//! (for a List) as the envelope and items that ingestion reads one at a time. Whatever the
//! shortcut reads, it must read as the library does, charging the same budget; and it must
//! read most of them, or it gains nothing.

use std::io::Read;
use std::path::Path;

use mglint::yaml::value::Budget;
use mglint::yaml::{check_text, expansion_bound, library_values_within, simple};

/// The YAML texts of the corpus: loose files, then the must-gathers' entries.
fn texts(c: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = crate::common::dir_files(c, "")
        .into_iter()
        .filter(|(name, _)| name.ends_with(".yaml") || name.ends_with(".yml"))
        .filter_map(|(name, bytes)| Some((name, String::from_utf8(bytes).ok()?)))
        .collect();
    for archive in ["must-gather-aws.tar.xz", "must-gather-metal.tar.xz"] {
        let f = std::fs::File::open(c.join("must-gathers").join(archive)).unwrap();
        let mut a = tar::Archive::new(liblzma::read::XzDecoder::new(f));
        for e in a.entries().unwrap() {
            let mut e = e.unwrap();
            let name = e.path().unwrap().display().to_string();
            if !(name.ends_with(".yaml") || name.ends_with(".yml")) {
                continue;
            }
            let mut text = String::new();
            if e.read_to_string(&mut text).is_ok() {
                out.push((format!("{archive}:{name}"), text));
            }
        }
    }
    out
}

/// The parts ingestion reads: the whole text, and for a List its envelope and each item.
fn parts(text: &str) -> Vec<String> {
    let mut out = vec![text.to_string()];
    if let Some(spans) = mglint::vocab::locate::list_item_spans(text) {
        let (first, last) = (spans[0].0, spans[spans.len() - 1].1);
        out.push(format!("{}{}", &text[..first], &text[last..]));
        out.extend(spans.iter().map(|&(a, b)| text[a..b].to_string()));
    }
    out
}

pub fn every_real_yaml_text_reads_the_same_with_the_shortcut(c: &Path) {
    let texts = texts(c);
    assert!(texts.len() > 2000, "{} YAML texts", texts.len());
    let (mut files, mut files_taken, mut bytes, mut bytes_taken, mut checked) = (0, 0, 0, 0, 0);
    for (name, text) in &texts {
        if check_text(text).is_err() {
            continue;
        }
        files += 1;
        bytes += text.len();
        for (i, part) in parts(text).iter().enumerate() {
            let budget = Budget::new(expansion_bound(part.len()));
            let Some(fast) = simple::values(part, &budget) else {
                continue;
            };
            checked += 1;
            if i == 0 {
                files_taken += 1;
                bytes_taken += text.len();
            }
            let lib_budget = Budget::new(expansion_bound(part.len()));
            let lib = library_values_within(part, &lib_budget).unwrap_or_else(|e| {
                panic!("{name} (part {i}): taken, but the library refuses it: {e}")
            });
            assert!(fast == lib, "{name} (part {i}): read differently");
            assert_eq!(
                budget.left(),
                lib_budget.left(),
                "{name} (part {i}): charged differently"
            );
        }
    }
    eprintln!(
        "yaml shortcut: {files_taken} of {files} files ({bytes_taken} of {bytes} bytes) taken whole; {checked} texts checked"
    );
    assert!(
        files_taken * 10 >= files * 9,
        "{files_taken} of {files} files"
    );
    assert!(
        bytes_taken * 10 >= bytes * 9,
        "{bytes_taken} of {bytes} bytes"
    );
}

pub const TESTS: &[crate::CorpusTest] = &[(
    "every_real_yaml_text_reads_the_same_with_the_shortcut",
    every_real_yaml_text_reads_the_same_with_the_shortcut,
)];
