//! The rule catalogue is complete and consistent: unique codes with a family prefix, each rule
//! in the file its code and slug name, one page per rule in `rules/` (embedded, the four
//! sections, no repeat of what the declaration says), no orphan pages, and a failing and a
//! passing fixture for every rule.

use mglint::rules::known::KnownSet;
use mglint::rules::{Family, catalogue, rule_files};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A built-in rule's page (no known-issue rules loaded).
fn explain(code: &str) -> Option<String> {
    mglint::rules::explain(code, &KnownSet::default())
}

#[test]
fn codes_and_slugs_are_unique_and_prefixed() {
    let rules = catalogue();
    assert!(rules.len() >= 25, "only {} rules", rules.len());
    let mut codes = BTreeSet::new();
    let mut names = BTreeSet::new();
    for m in &rules {
        assert!(codes.insert(&m.code), "code {} used twice", m.code);
        assert!(names.insert(&m.name), "slug {} used twice", m.name);
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
fn every_rule_lives_in_the_file_its_code_and_slug_name() {
    let files = rule_files();
    assert_eq!(files.len(), catalogue().len());
    for (m, file) in catalogue().iter().zip(files) {
        let want = format!(
            "{}_{}",
            m.code.to_ascii_lowercase(),
            m.name.replace('-', "_")
        );
        assert!(
            file.ends_with(&format!("/{want}")),
            "{}: declared in {file}, expected …/{want}.rs",
            m.code
        );
    }
}

#[test]
fn every_rule_has_its_page_with_the_four_sections() {
    for m in catalogue() {
        let path = root().join("rules").join(m.page_file());
        let on_disk =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            on_disk, m.page,
            "{}: embedded page differs from the file",
            m.code
        );
        assert!(
            !m.page.starts_with("---") && !m.page.starts_with("# "),
            "{}: the title and front matter come from the declaration",
            m.code
        );
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
        let page = explain(&m.code).unwrap();
        assert!(
            page.starts_with(&format!(
                "# {} `{}`\n\n{} · {}",
                m.code,
                m.name,
                m.severity,
                m.family.name()
            )),
            "{page}"
        );
        for r in m.references.iter() {
            assert!(page.contains(r), "{}: reference {r}", m.code);
        }
        assert_eq!(explain(&m.code.to_ascii_lowercase()), Some(page.clone()));
        assert_eq!(explain(&m.name), Some(page));
    }
    assert_eq!(explain("ZZ999"), None);
}

#[test]
fn no_orphan_pages() {
    let known: BTreeSet<String> = catalogue().iter().map(|m| m.page_file()).collect();
    for e in std::fs::read_dir(root().join("rules")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        if name == "known-issues" {
            // The known-issue catalogue: rule files, whose pages are generated from them.
            continue;
        }
        if name == "update-risks" {
            // The published update-risk catalogue (docs/risks.md): data, not rule pages.
            continue;
        }
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
    let codes: BTreeSet<String> = catalogue().iter().map(|m| m.code.to_string()).collect();
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
