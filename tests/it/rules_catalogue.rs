//! The rule catalogue is complete and consistent: unique codes with a family prefix, one page
//! per rule in `rules/` (embedded, front matter matching the declaration, the four sections),
//! no orphan pages, and a failing and a passing fixture for every rule.

use mglint::rules::{Family, catalogue, explain};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `key: value` pairs and `references` items of a page's front matter.
fn front_matter(page: &str) -> (Vec<(String, String)>, Vec<String>) {
    let body = page
        .strip_prefix("---\n")
        .expect("page starts with front matter");
    let (fm, _) = body
        .split_once("\n---\n")
        .expect("front matter ends with ---");
    let mut pairs = Vec::new();
    let mut refs = Vec::new();
    for line in fm.lines() {
        if let Some(item) = line.strip_prefix("  - ") {
            refs.push(item.to_string());
        } else if let Some((k, v)) = line.split_once(':') {
            pairs.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    (pairs, refs)
}

#[test]
fn codes_and_slugs_are_unique_and_prefixed() {
    let rules = catalogue();
    assert!(rules.len() >= 25, "only {} rules", rules.len());
    let mut codes = BTreeSet::new();
    let mut names = BTreeSet::new();
    for m in &rules {
        assert!(codes.insert(m.code), "code {} used twice", m.code);
        assert!(names.insert(m.name), "slug {} used twice", m.name);
        let prefix = m.family.prefix();
        let digits = m
            .code
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{} lacks prefix {prefix}", m.code));
        assert!(
            digits.len() == 3 && digits.chars().all(|c| c.is_ascii_digit()),
            "{}: bad code",
            m.code
        );
        assert!(
            m.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}: slug `{}`",
            m.code,
            m.name
        );
        assert!(!m.needs.is_empty(), "{} declares no inputs", m.code);
        assert!(
            !m.summary.ends_with('.') && !m.help.ends_with('.'),
            "{}: trailing period",
            m.code
        );
    }
    for fam in Family::ALL {
        assert!(
            rules.iter().any(|m| m.family == fam),
            "no rule in family {}",
            fam.prefix()
        );
    }
}

#[test]
fn every_rule_has_its_page_with_matching_front_matter() {
    for m in catalogue() {
        let path = root().join("rules").join(m.page_file());
        let on_disk =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            on_disk, m.page,
            "{}: embedded page differs from the file",
            m.code
        );
        let (pairs, refs) = front_matter(m.page);
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("code"), Some(m.code), "{}", m.code);
        assert_eq!(get("name"), Some(m.name), "{}", m.code);
        assert_eq!(get("severity"), Some(m.severity.as_str()), "{}", m.code);
        assert_eq!(get("category"), Some(m.family.name()), "{}", m.code);
        let want: Vec<String> = m.references.iter().map(|s| s.to_string()).collect();
        assert_eq!(refs, want, "{}: references", m.code);
        let mut at = 0;
        for section in [
            "## What it flags",
            "## Why it matters",
            "## How to fix",
            "## Example",
        ] {
            let pos = m.page[at..]
                .find(section)
                .unwrap_or_else(|| panic!("{}: missing `{section}`", m.code));
            at += pos + section.len();
        }
        assert_eq!(explain(m.code), Some(m.page));
        assert_eq!(explain(&m.code.to_ascii_lowercase()), Some(m.page));
        assert_eq!(explain(m.name), Some(m.page));
    }
    assert_eq!(explain("ZZ999"), None);
}

#[test]
fn no_orphan_pages() {
    let known: BTreeSet<String> = catalogue().iter().map(|m| m.page_file()).collect();
    for e in std::fs::read_dir(root().join("rules")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        assert!(known.contains(&name), "rules/{name} belongs to no rule");
    }
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[test]
fn every_rule_has_a_failing_and_a_passing_fixture() {
    let codes: BTreeSet<&str> = catalogue().iter().map(|m| m.code).collect();
    for code in &codes {
        for kind in ["fail", "pass"] {
            let dir = root().join("fixtures/rules").join(code).join(kind);
            assert!(
                !entries(&dir).is_empty(),
                "fixtures/rules/{code}/{kind} is empty"
            );
        }
    }
    for e in entries(&root().join("fixtures/rules")) {
        if e.is_dir() {
            let name = e.file_name().unwrap().to_string_lossy().to_string();
            assert!(
                codes.contains(name.as_str()),
                "fixtures/rules/{name} belongs to no rule"
            );
        }
    }
}
