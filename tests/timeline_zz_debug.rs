#[test]
fn dump() {
    let inputs: Vec<String> = std::env::var("TL_INPUTS").unwrap_or_default().split(',').filter(|s| !s.is_empty()).map(String::from).collect();
    if inputs.is_empty() { return; }
    let b = mglint::ingest::ingest(&inputs, &Default::default()).unwrap();
    let tl = mglint::timeline::build(&b);
    let f = mglint::timeline::Filter::default();
    println!("{}", mglint::timeline::render_table(&tl, &f));
    println!("passes {}", tl.passes.len());
    for d in &b.diagnostics { println!("DIAG {:?}", d); }
}
