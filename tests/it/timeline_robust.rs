//! The timeline never panics: every malformed-input fixture that ingests at all yields a
//! timeline that renders as a table and as JSON.

use mglint::timeline::{Filter, build, render_json, render_table};

#[test]
fn malformed_fixtures_build_and_render() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bad");
    let mut built = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|d| d.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let files = dir.join("files");
        if !files.exists() {
            continue;
        }
        let Ok(bundle) =
            mglint::ingest::ingest(&[files.display().to_string()], &Default::default())
        else {
            continue;
        };
        let tl = build(&bundle);
        assert!(
            render_table(&tl, &Filter::default()).contains("\nEPISODES\n"),
            "{}",
            dir.display()
        );
        let doc: serde_json::Value = serde_json::from_str(&render_json(
            &tl,
            &Filter::default(),
            mglint::vocab::text::JsonLayout::Pretty,
        ))
        .unwrap();
        assert_eq!(doc["schema"], "mglint/timeline/v2");
        built += 1;
    }
    assert!(built > 0, "no malformed fixture ingested at all");
}
