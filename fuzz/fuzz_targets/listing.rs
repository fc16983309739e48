//! Fuzzes the GCS listing page parser (names, sizes, next page token) and the bounded local
//! path every listed name is given.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::remote::{MAX_NAME_BYTES, MAX_PAGE_ITEMS, MAX_PATH_BYTES};

fuzz_target!(|data: &[u8]| {
    let Ok(page) = mglint::remote::parse_listing_page(data) else {
        return;
    };
    assert!(page.items.len() <= MAX_PAGE_ITEMS);
    for item in &page.items {
        let local = mglint::remote::local_path(&item.name);
        assert!(local.len() <= MAX_PATH_BYTES, "{local}");
        assert!(
            local.split('/').all(|c| c.len() <= MAX_NAME_BYTES),
            "{local}"
        );
        assert_eq!(local, mglint::remote::local_path(&item.name), "stable");
    }
});
