//! Fuzzes the scenario format and, for scenarios that load, the reference reconciler run.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(s) = mglint::reconciler::load_scenario(text) {
        // Bound the work per input: long event lists are valid but slow to fuzz.
        if s.events.len() <= 64 {
            let out = mglint::reconciler::run(&s, &mglint::reconciler::RunOptions::default());
            let _ = mglint::reconciler::render_yaml(&out.cluster_version);
        }
    }
});
