//! The byte formats of packs: the v2 pack index (fan-out, sorted ids, 31-bit offsets with a
//! table of large ones), a pack entry's header (kind, size, the base of an `OFS_DELTA` or
//! `REF_DELTA`) and a delta's instructions. Pure functions on bytes: every length, offset and
//! size is checked against what is there, so malformed input is an error, never a panic or
//! an allocation past the stated bound.

use super::Oid;

/// A pack entry of one of these kinds holds an object whole.
pub const COMMIT: u8 = 1;
pub const TREE: u8 = 2;
pub const BLOB: u8 = 3;
pub const TAG: u8 = 4;
/// A delta against the entry at an earlier offset of the same pack.
pub const OFS_DELTA: u8 = 6;
/// A delta against the object with the given id (in any pack or loose).
pub const REF_DELTA: u8 = 7;

/// The most bytes an entry header takes (type and size, then an offset or an id).
pub const MAX_ENTRY_HEADER: usize = 10 + 20;

const IDX_MAGIC: [u8; 4] = [0xff, b't', b'O', b'c'];
const FANOUT: usize = 8;
const IDS: usize = FANOUT + 256 * 4;

/// A v2 pack index, held whole (its size is bounded by the caller).
pub struct Index {
    data: Vec<u8>,
    count: usize,
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

impl Index {
    /// The index in `data`, checked for its layout (version 2 only).
    pub fn parse(data: Vec<u8>) -> Result<Index, &'static str> {
        if data.get(..4) != Some(&IDX_MAGIC[..]) {
            return Err("not a version 2 pack index");
        }
        if be32(&data, 4) != Some(2) {
            return Err("a pack index version other than 2");
        }
        let mut prev = 0;
        for i in 0..256 {
            let n = be32(&data, FANOUT + 4 * i).ok_or("cut in its fan-out table")?;
            if n < prev {
                return Err("a fan-out table that decreases");
            }
            prev = n;
        }
        let count = prev as usize;
        let need = count
            .checked_mul(28)
            .and_then(|n| n.checked_add(IDS + 40))
            .ok_or("too many objects")?;
        if data.len() < need {
            return Err("shorter than its object count needs");
        }
        Ok(Index { data, count })
    }

    /// How many objects the index lists.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the index lists no object.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn id(&self, i: usize) -> &[u8] {
        &self.data[IDS + 20 * i..IDS + 20 * i + 20]
    }

    /// The offset in the pack of the object `oid`, `Ok(None)` when the index does not list
    /// it; `Err` when its offset is malformed.
    pub fn lookup(&self, oid: &Oid) -> Result<Option<u64>, &'static str> {
        let first = oid.0[0] as usize;
        let bound = |i: usize| be32(&self.data, FANOUT + 4 * i).unwrap_or(0) as usize;
        let lo = if first == 0 { 0 } else { bound(first - 1) };
        let hi = bound(first).min(self.count);
        if lo >= hi {
            return Ok(None);
        }
        let (mut lo, mut hi) = (lo, hi);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.id(mid).cmp(&oid.0[..]) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.offset(mid).map(Some),
            }
        }
        Ok(None)
    }

    fn offset(&self, i: usize) -> Result<u64, &'static str> {
        let at = IDS + 24 * self.count + 4 * i;
        let off = be32(&self.data, at).ok_or("cut in its offset table")?;
        if off & 0x8000_0000 == 0 {
            return Ok(off as u64);
        }
        let k = (off & 0x7fff_ffff) as usize;
        let at = IDS + 28 * self.count + 8 * k;
        // The large offsets end before the two trailing checksums.
        if at + 8 + 40 > self.data.len() {
            return Err("a large offset out of its table");
        }
        Ok(u64::from_be_bytes(
            self.data[at..at + 8].try_into().map_err(|_| "cut")?,
        ))
    }
}

/// What a delta entry is a delta against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    None,
    /// The entry at this (absolute) offset of the same pack.
    Offset(u64),
    Id(Oid),
}

/// A pack entry's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryHeader {
    pub kind: u8,
    /// The inflated size of the entry's data (the object, or the delta).
    pub size: u64,
    pub base: Base,
    /// Where the entry's zlib data starts, after `offset`.
    pub len: usize,
}

/// The header of the entry at `offset`, from the bytes there (at least
/// [`MAX_ENTRY_HEADER`] of them unless the pack ends first).
pub fn entry_header(bytes: &[u8], offset: u64) -> Result<EntryHeader, &'static str> {
    let mut i = 0;
    let mut c = *bytes.get(i).ok_or("an entry cut in its header")?;
    i += 1;
    let kind = (c >> 4) & 7;
    let mut size = (c & 15) as u64;
    let mut shift = 4;
    while c & 0x80 != 0 {
        c = *bytes.get(i).ok_or("an entry cut in its header")?;
        i += 1;
        if shift > 60 {
            return Err("an entry size over 64 bits");
        }
        size |= ((c & 0x7f) as u64) << shift;
        shift += 7;
    }
    let base = match kind {
        COMMIT | TREE | BLOB | TAG => Base::None,
        OFS_DELTA => {
            let mut c = *bytes.get(i).ok_or("an entry cut in its base offset")?;
            i += 1;
            let mut back = (c & 0x7f) as u64;
            while c & 0x80 != 0 {
                c = *bytes.get(i).ok_or("an entry cut in its base offset")?;
                i += 1;
                back = back
                    .checked_add(1)
                    .and_then(|b| b.checked_mul(128))
                    .ok_or("a base offset over 64 bits")?
                    | (c & 0x7f) as u64;
            }
            if back == 0 || back > offset {
                return Err("a delta base offset out of the pack");
            }
            Base::Offset(offset - back)
        }
        REF_DELTA => {
            let id = bytes.get(i..i + 20).ok_or("an entry cut in its base id")?;
            i += 20;
            let mut oid = [0u8; 20];
            oid.copy_from_slice(id);
            Base::Id(Oid(oid))
        }
        _ => return Err("an entry of an unknown kind"),
    };
    Ok(EntryHeader {
        kind,
        size,
        base,
        len: i,
    })
}

/// A delta's little-endian base-128 size, and the bytes after it.
fn varint(b: &[u8]) -> Result<(u64, &[u8]), &'static str> {
    let mut v = 0u64;
    for (i, &c) in b.iter().enumerate() {
        if i >= 10 || (i == 9 && c & 0x7e != 0) {
            break;
        }
        v |= ((c & 0x7f) as u64)
            .checked_shl(7 * i as u32)
            .ok_or("a delta size over 64 bits")?;
        if c & 0x80 == 0 {
            return Ok((v, &b[i + 1..]));
        }
    }
    Err("a delta size cut or over 64 bits")
}

/// The size of the object a delta builds (its second header size), to check before applying.
pub fn delta_result_size(delta: &[u8]) -> Result<u64, &'static str> {
    let (_, rest) = varint(delta)?;
    Ok(varint(rest)?.0)
}

/// The object `delta` builds from `base`, refused when it would be over `max` bytes.
pub fn apply_delta(base: &[u8], delta: &[u8], max: u64) -> Result<Vec<u8>, &'static str> {
    let (base_size, rest) = varint(delta)?;
    let (size, mut ops) = varint(rest)?;
    if base_size != base.len() as u64 {
        return Err("a delta for a base of another size");
    }
    if size > max {
        return Err("a delta result over the object bound");
    }
    // Reserved from the stated size only up to 1 MiB: the rest grows as it is built.
    let mut out = Vec::with_capacity(size.min(1 << 20) as usize);
    while let Some((&op, rest)) = ops.split_first() {
        ops = rest;
        if op & 0x80 != 0 {
            let mut field = |bits: u8, bytes: usize| -> Result<u64, &'static str> {
                let mut v = 0u64;
                for k in 0..bytes {
                    if op & (bits << k) != 0 {
                        let (&b, rest) = ops.split_first().ok_or("a delta cut in a copy")?;
                        ops = rest;
                        v |= (b as u64) << (8 * k);
                    }
                }
                Ok(v)
            };
            let off = field(0x01, 4)?;
            let mut len = field(0x10, 3)?;
            if len == 0 {
                len = 0x10000;
            }
            let end = off.checked_add(len).ok_or("a delta copy out of its base")?;
            if end > base.len() as u64 {
                return Err("a delta copy out of its base");
            }
            if out.len() as u64 + len > size {
                return Err("a delta that builds more than its stated size");
            }
            out.extend_from_slice(&base[off as usize..end as usize]);
        } else if op != 0 {
            let n = op as usize;
            let data = ops.get(..n).ok_or("a delta cut in an insert")?;
            ops = &ops[n..];
            if (out.len() + n) as u64 > size {
                return Err("a delta that builds more than its stated size");
            }
            out.extend_from_slice(data);
        } else {
            return Err("a delta with the reserved instruction 0");
        }
    }
    if out.len() as u64 != size {
        return Err("a delta that builds less than its stated size");
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An index listing `ids` (sorted) at `offsets`, with large offsets as given.
    pub(crate) fn index(ids: &[[u8; 20]], offsets: &[u32], large: &[u64]) -> Vec<u8> {
        let mut d = IDX_MAGIC.to_vec();
        d.extend_from_slice(&2u32.to_be_bytes());
        for b in 0..256usize {
            let n = ids.iter().filter(|id| (id[0] as usize) <= b).count() as u32;
            d.extend_from_slice(&n.to_be_bytes());
        }
        for id in ids {
            d.extend_from_slice(id);
        }
        d.extend(std::iter::repeat_n(0, 4 * ids.len()));
        for o in offsets {
            d.extend_from_slice(&o.to_be_bytes());
        }
        for l in large {
            d.extend_from_slice(&l.to_be_bytes());
        }
        d.extend(std::iter::repeat_n(0, 40));
        d
    }

    #[test]
    fn an_index_gives_offsets_and_refuses_bad_layouts() {
        let ids = [[1u8; 20], [7u8; 20], [200u8; 20]];
        let i = Index::parse(index(&ids, &[12, 0x8000_0000, 99], &[1 << 33])).unwrap();
        assert_eq!(i.len(), 3);
        assert_eq!(i.lookup(&Oid([1; 20])), Ok(Some(12)));
        assert_eq!(i.lookup(&Oid([7; 20])), Ok(Some(1 << 33)));
        assert_eq!(i.lookup(&Oid([200; 20])), Ok(Some(99)));
        assert_eq!(i.lookup(&Oid([8; 20])), Ok(None));
        // A large offset past its table.
        let i = Index::parse(index(&ids, &[12, 0x8000_0005, 99], &[1])).unwrap();
        assert!(i.lookup(&Oid([7; 20])).is_err());
        // Cut anywhere: refused or read, never a panic.
        let whole = index(&ids, &[12, 0x8000_0000, 99], &[1 << 33]);
        for n in 0..whole.len() {
            if let Ok(i) = Index::parse(whole[..n].to_vec()) {
                let _ = i.lookup(&Oid([7; 20]));
            }
        }
        // A fan-out that claims more objects than the file holds.
        let mut big = whole.clone();
        big[FANOUT + 4 * 255..FANOUT + 4 * 256].copy_from_slice(&u32::MAX.to_be_bytes());
        assert!(Index::parse(big).is_err());
        assert!(Index::parse(b"\xfftOc\0\0\0\x01".to_vec()).is_err());
    }

    #[test]
    fn entry_headers_and_their_bases() {
        // A blob of 300 bytes: size 300 = 12 + (18 << 4).
        let h = entry_header(&[0x80 | (BLOB << 4) | 12, 18], 50).unwrap();
        assert_eq!((h.kind, h.size, h.base, h.len), (BLOB, 300, Base::None, 2));
        // An OFS_DELTA 130 bytes back: 130 = ((0 + 1) << 7) + 2.
        let h = entry_header(&[(OFS_DELTA << 4) | 5, 0x80, 2], 1000).unwrap();
        assert_eq!(h.base, Base::Offset(870));
        // A base before the pack's start, or the entry itself.
        assert!(entry_header(&[(OFS_DELTA << 4) | 5, 0x80, 2], 100).is_err());
        assert!(entry_header(&[(OFS_DELTA << 4) | 5, 0], 100).is_err());
        // Bad varints: endless continuation bytes.
        assert!(entry_header(&[0xff; 30], 100).is_err());
        assert!(
            entry_header(
                &[
                    (OFS_DELTA << 4),
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    1
                ],
                1 << 40
            )
            .is_err()
        );
        // Cut, and kinds 0 and 5.
        assert!(entry_header(&[(REF_DELTA << 4) | 1, 1, 2], 100).is_err());
        assert!(entry_header(&[], 100).is_err());
        assert!(entry_header(&[0x50], 100).is_err());
        assert!(entry_header(&[0x00], 100).is_err());
    }

    #[test]
    fn deltas_copy_and_insert_within_their_bounds() {
        let base = b"0123456789";
        // Base size 10, result 7: copy 4 bytes from 3, insert "xyz".
        let d = [10, 7, 0x91, 3, 4, 3, b'x', b'y', b'z'];
        assert_eq!(apply_delta(base, &d, 100).unwrap(), b"3456xyz");
        assert_eq!(delta_result_size(&d), Ok(7));
        // Over the bound, wrong base, copy out of range, size mismatch, reserved 0, cut.
        assert!(apply_delta(base, &d, 6).is_err());
        assert!(apply_delta(b"012", &d, 100).is_err());
        assert!(apply_delta(base, &[10, 4, 0x91, 8, 4], 100).is_err());
        assert!(apply_delta(base, &[10, 5, 0x91, 3, 4], 100).is_err());
        assert!(apply_delta(base, &[10, 3, 0x91, 3, 4], 100).is_err());
        assert!(apply_delta(base, &[10, 1, 0], 100).is_err());
        assert!(apply_delta(base, &[10, 3, 5, b'a'], 100).is_err());
        assert!(apply_delta(base, &[10, 3, 0x91, 3], 100).is_err());
        // A copy of size 0 means 0x10000 bytes: out of a 10-byte base.
        assert!(apply_delta(base, &[10, 3, 0x81, 0], 100).is_err());
        // Bad varints: never ending, over 64 bits.
        assert!(apply_delta(base, &[0xff; 12], 100).is_err());
        assert!(
            apply_delta(
                base,
                &[
                    10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f
                ],
                u64::MAX
            )
            .is_err()
        );
        assert!(delta_result_size(&[0x80]).is_err());
        // Every cut of a valid delta: an error, no panic.
        for n in 0..d.len() {
            assert!(apply_delta(base, &d[..n], 100).is_err());
        }
    }
}
