use mglint::reconciler::*;
#[test]
fn scratch() {
    let p = std::env::var("SCEN").unwrap();
    let s = load_scenario(&std::fs::read_to_string(&p).unwrap()).unwrap();
    let fl = std::env::var("FLAV").ok().and_then(|f| Flavour::parse(&f));
    let out = run(&s, &RunOptions { flavour: fl, history_fix: None });
    println!("{}", render_trace(&out.trace));
    println!("{}", render_yaml(&out.cluster_version).unwrap());
    println!("{}", render_mismatches(&out.expect_mismatches));
    println!("{:?}", out.notes);
}
