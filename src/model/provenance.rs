//! A value with where it came from. Provenance itself (a file of the bundle's file table, a
//! line and a byte span) is vocabulary: see [`crate::vocab::Provenance`].

pub use crate::vocab::{FileRef, Provenance};

/// A value with its provenance: for an object parsed from a List, the span of its item.
#[derive(Debug, Clone)]
pub struct Sourced<T> {
    pub value: T,
    pub prov: Provenance,
}

impl<T> std::ops::Deref for Sourced<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}
