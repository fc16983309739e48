//! Fuzzes the known-issue rule-file format: the YAML, the rule definitions, their matchers,
//! regexes, versions and message templates, compiled as a local rule and as a catalogue
//! rule (`rules::known::load::parse`, what `mglint rules check` and `analyze --rules` run).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::rules::known::{Origin, load};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for origin in [Origin::Local, Origin::Bundled] {
        let parsed = load::parse("fuzz.yaml", text, origin, &|code| code == "CV002");
        // Every problem renders (the YAML around it, the span underlined).
        for p in &parsed.problems {
            let _ = p.render();
            let _ = p.one_line();
        }
    }
});
