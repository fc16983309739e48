//! Fuzzes the in-process git reader's parsers (the resourcewatch history): commit and tree
//! bodies, a v2 pack index with lookups, pack entry headers and deltas applied to a base, all
//! from the same bytes. The first byte picks how the rest is split.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::ingest::git::{Oid, object, pack};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let _ = object::commit(rest, 1024);
    for e in object::entries(rest).take(100_000) {
        if e.is_err() {
            break;
        }
    }
    let offset = u64::from(pick) * 1_000;
    let _ = pack::entry_header(rest, offset);
    let cut = (pick as usize).min(rest.len());
    let (base, delta) = rest.split_at(cut);
    let _ = pack::delta_result_size(delta);
    let _ = pack::apply_delta(base, delta, 1 << 20);
    if let Ok(index) = pack::Index::parse(rest.to_vec()) {
        let mut id = [pick; 20];
        id[19] = id[19].wrapping_add(1);
        let _ = index.lookup(&Oid(id));
        let _ = index.lookup(&Oid([0; 20]));
        let _ = index.lookup(&Oid([0xff; 20]));
    }
});
