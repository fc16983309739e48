//! The object store: v2 packs (looked up first) and loose objects, read under a [`Budget`]
//! (a bound on each object's size, on the bytes inflated from the whole repository, and a
//! deadline). Nothing is inflated past what is asked for: a commit can be read as its first
//! bytes only, and an object over the size bound is refused from its header. Delta chains are
//! resolved iteratively with a bounded depth (a `REF_DELTA` loop ends) and a small cache of
//! bases.

use super::fs::GitDir;
use super::pack::{self, Base, Index};
use super::{GitError, Kind, Oid};
use flate2::bufread::ZlibDecoder;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

/// The largest pack index read (28 bytes an object: about 9 million objects).
const MAX_INDEX_BYTES: u64 = 256 << 20;
/// The most packs read.
const MAX_PACKS: usize = 1_000;
/// The longest delta chain followed (git writes at most 50 by default, 250 with
/// `--aggressive`).
pub const MAX_DELTA_DEPTH: usize = 1_000;
/// The bytes of delta bases kept for the next objects.
const CACHE_BYTES: usize = 32 << 20;
/// The most bytes of compressed input read for one loose object (over its size bound: a
/// stream of empty deflate blocks would otherwise be read without end).
const LOOSE_SLACK: u64 = 1 << 20;

/// What reading may cost.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// The largest object (or delta) inflated whole.
    pub max_object: u64,
    /// The most bytes inflated from the whole repository (delta bases and deltas included).
    pub max_inflated: u64,
    /// How long the whole read may take.
    pub deadline: Duration,
}

/// An object read: its kind, its bytes (all of them, or the first ones asked for) and the
/// size its header states.
#[derive(Debug)]
pub struct Object {
    pub kind: Kind,
    pub data: Vec<u8>,
    pub size: u64,
}

/// Where an entry is: a pack (its position in the list) and an offset in it.
type Place = (usize, u64);

struct Pack {
    name: String,
    index: Index,
    file: File,
    len: u64,
}

/// The object store of one repository.
pub struct Odb {
    dir: GitDir,
    packs: Vec<Pack>,
    budget: Budget,
    start: Instant,
    inflated: u64,
    cache: HashMap<Place, (Kind, Vec<u8>)>,
    cache_bytes: usize,
    /// Packs that could not be read (their objects read as missing).
    pub problems: Vec<GitError>,
}

fn kind_of(code: u8) -> Option<Kind> {
    Some(match code {
        pack::COMMIT => Kind::Commit,
        pack::TREE => Kind::Tree,
        pack::BLOB => Kind::Blob,
        pack::TAG => Kind::Tag,
        _ => return None,
    })
}

/// Reads a pack from an offset, by position (the file's cursor is never moved).
struct At<'a> {
    file: &'a File,
    pos: u64,
    end: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (buf.len() as u64).min(self.end.saturating_sub(self.pos)) as usize;
        if n == 0 {
            return Ok(0);
        }
        let got = self.file.read_at(&mut buf[..n], self.pos)?;
        self.pos += got as u64;
        Ok(got)
    }
}

impl Odb {
    /// The store of `dir`, its pack indexes read; a pack that cannot be read is noted in
    /// [`Odb::problems`] and left out.
    pub fn open(dir: GitDir, budget: Budget) -> Result<Odb, GitError> {
        let mut odb = Odb {
            packs: Vec::new(),
            budget,
            start: Instant::now(),
            inflated: 0,
            cache: HashMap::new(),
            cache_bytes: 0,
            problems: Vec::new(),
            dir,
        };
        for name in odb.dir.list("objects/pack", 4 * MAX_PACKS)? {
            let Some(stem) = name.strip_suffix(".idx") else {
                continue;
            };
            if odb.packs.len() == MAX_PACKS {
                odb.problems.push(GitError::BadFile {
                    path: ".git/objects/pack".into(),
                    why: format!("more than {MAX_PACKS} packs; the rest are not read"),
                });
                break;
            }
            match odb.open_pack(stem) {
                Ok(p) => odb.packs.push(p),
                Err(e) => odb.problems.push(e),
            }
        }
        Ok(odb)
    }

    fn open_pack(&self, stem: &str) -> Result<Pack, GitError> {
        let idx_path = format!("objects/pack/{stem}.idx");
        let pack_path = format!("objects/pack/{stem}.pack");
        let data = self
            .dir
            .read(&idx_path, MAX_INDEX_BYTES)?
            .ok_or_else(|| GitError::BadFile {
                path: format!(".git/{idx_path}"),
                why: "it vanished".into(),
            })?;
        let index = Index::parse(data).map_err(|why| GitError::BadFile {
            path: format!(".git/{idx_path}"),
            why: why.into(),
        })?;
        let (file, len) = self
            .dir
            .open_file(&pack_path)?
            .ok_or_else(|| GitError::BadFile {
                path: format!(".git/{pack_path}"),
                why: "it is missing beside its index".into(),
            })?;
        let mut head = [0u8; 12];
        let ok = file.read_exact_at(&mut head, 0).is_ok()
            && &head[..4] == b"PACK"
            && matches!(
                u32::from_be_bytes([head[4], head[5], head[6], head[7]]),
                2 | 3
            );
        if !ok {
            return Err(GitError::BadFile {
                path: format!(".git/{pack_path}"),
                why: "not a version 2 or 3 pack".into(),
            });
        }
        Ok(Pack {
            name: pack_path,
            index,
            file,
            len,
        })
    }

    /// The bytes inflated so far.
    pub fn inflated(&self) -> u64 {
        self.inflated
    }

    /// An error when the deadline has passed.
    pub fn check_deadline(&self) -> Result<(), GitError> {
        if self.start.elapsed() > self.budget.deadline {
            return Err(GitError::Deadline(self.budget.deadline.as_secs()));
        }
        Ok(())
    }

    /// The object `oid`, whole, or its first `prefix` bytes when given (an object over the
    /// size bound is refused when read whole, and cut when read by its prefix).
    pub fn read(&mut self, oid: &Oid, prefix: Option<usize>) -> Result<Object, GitError> {
        self.check_deadline()?;
        if let Some((p, offset)) = self.find_packed(oid)? {
            return self.read_packed(oid, p, offset, prefix);
        }
        self.read_loose(oid, prefix)?.ok_or(GitError::Missing(*oid))
    }

    fn find_packed(&self, oid: &Oid) -> Result<Option<(usize, u64)>, GitError> {
        for (i, p) in self.packs.iter().enumerate() {
            match p.index.lookup(oid) {
                Ok(Some(off)) => return Ok(Some((i, off))),
                Ok(None) => {}
                Err(why) => return Err(corrupt(oid, why)),
            }
        }
        Ok(None)
    }

    /// The loose object `oid`, `Ok(None)` when there is none.
    fn read_loose(&mut self, oid: &Oid, prefix: Option<usize>) -> Result<Option<Object>, GitError> {
        let hex = oid.hex();
        let rel = format!("objects/{}/{}", &hex[..2], &hex[2..]);
        let Some((file, _)) = self.dir.open_file(&rel)? else {
            return Ok(None);
        };
        let cap = self.budget.max_object + LOOSE_SLACK;
        let mut z = ZlibDecoder::new(BufReader::new(file.take(cap)));
        // The header, `<kind> <size>\0`, at most 32 bytes.
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        loop {
            let n = z
                .read(&mut byte)
                .map_err(|e| corrupt(oid, &format!("it does not inflate: {e}")))?;
            if n == 0 || head.len() > 32 {
                return Err(corrupt(oid, "a loose object without a header"));
            }
            if byte[0] == 0 {
                break;
            }
            head.push(byte[0]);
        }
        self.charge(head.len() as u64 + 1)?;
        let (name, size) = head
            .iter()
            .position(|&b| b == b' ')
            .map(|sp| (&head[..sp], &head[sp + 1..]))
            .ok_or_else(|| corrupt(oid, "a bad loose object header"))?;
        let kind = Kind::from_name(name).ok_or_else(|| corrupt(oid, "an unknown kind"))?;
        let size: u64 = std::str::from_utf8(size)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| corrupt(oid, "a bad size in its header"))?;
        let want = self.want(oid, size, prefix)?;
        let data = self.take(oid, &mut z, want, want == size)?;
        Ok(Some(Object { kind, data, size }))
    }

    /// How many bytes to inflate of an object of `size`.
    fn want(&self, oid: &Oid, size: u64, prefix: Option<usize>) -> Result<u64, GitError> {
        match prefix {
            Some(n) => Ok(size.min(n as u64).min(self.budget.max_object)),
            None if size > self.budget.max_object => Err(GitError::TooBig {
                oid: *oid,
                size,
                bound: self.budget.max_object,
            }),
            None => Ok(size),
        }
    }

    fn charge(&mut self, n: u64) -> Result<(), GitError> {
        self.inflated += n;
        if self.inflated > self.budget.max_inflated {
            return Err(GitError::Budget(self.budget.max_inflated));
        }
        Ok(())
    }

    /// `want` bytes of the zlib stream `z` (at most the object bound), charged to the
    /// budget; with `whole`, the stream must hold that many.
    fn take(
        &mut self,
        oid: &Oid,
        z: &mut impl Read,
        want: u64,
        whole: bool,
    ) -> Result<Vec<u8>, GitError> {
        let until = self.start + self.budget.deadline;
        let out = inflate(z, want, until).map_err(|why| corrupt(oid, &why))?;
        self.settle(oid, &out, want, whole)?;
        Ok(out)
    }

    /// Charges `out` to the budget and checks it is whole when it must be.
    fn settle(&mut self, oid: &Oid, out: &[u8], want: u64, whole: bool) -> Result<(), GitError> {
        self.charge(out.len() as u64)?;
        self.check_deadline()?;
        if whole && (out.len() as u64) < want {
            return Err(corrupt(
                oid,
                "it inflates to fewer bytes than its header says",
            ));
        }
        Ok(())
    }

    /// The entry at `offset` of pack `p`: its header and a reader of its zlib data.
    fn entry(
        &self,
        p: usize,
        offset: u64,
    ) -> Result<(pack::EntryHeader, BufReader<At<'_>>), String> {
        let pk = &self.packs[p];
        // The 20-byte checksum ends the pack.
        let end = pk.len.saturating_sub(20);
        if offset < 12 || offset >= end {
            return Err(format!("an offset out of `{}`", pk.name));
        }
        let mut head = [0u8; pack::MAX_ENTRY_HEADER];
        let n = (end - offset).min(head.len() as u64) as usize;
        pk.file
            .read_exact_at(&mut head[..n], offset)
            .map_err(|e| e.to_string())?;
        let h = pack::entry_header(&head[..n], offset)?;
        let at = At {
            file: &pk.file,
            pos: offset + h.len as u64,
            end,
        };
        Ok((h, BufReader::new(at)))
    }

    fn read_packed(
        &mut self,
        oid: &Oid,
        p: usize,
        offset: u64,
        prefix: Option<usize>,
    ) -> Result<Object, GitError> {
        // Down the chain to a whole object (or a cached base), the deltas kept on the way.
        let mut deltas: Vec<((usize, u64), Vec<u8>)> = Vec::new();
        let mut at = (p, offset);
        let (kind, mut data) = loop {
            if deltas.len() > MAX_DELTA_DEPTH {
                return Err(corrupt(
                    oid,
                    &format!("a delta chain longer than {MAX_DELTA_DEPTH} (a loop?)"),
                ));
            }
            if let Some((k, d)) = self.cache.get(&at) {
                if deltas.is_empty() {
                    let data = match prefix {
                        Some(n) => d[..d.len().min(n)].to_vec(),
                        None => d.to_vec(),
                    };
                    return Ok(Object {
                        kind: *k,
                        size: d.len() as u64,
                        data,
                    });
                }
                break (*k, d.to_vec());
            }
            let until = self.start + self.budget.deadline;
            let (h, want, bytes) = {
                let (h, r) = self.entry(at.0, at.1).map_err(|why| corrupt(oid, &why))?;
                let want = if h.base == Base::None && deltas.is_empty() {
                    self.want(oid, h.size, prefix)?
                } else if h.size > self.budget.max_object {
                    return Err(GitError::TooBig {
                        oid: *oid,
                        size: h.size,
                        bound: self.budget.max_object,
                    });
                } else {
                    h.size
                };
                let bytes = inflate(&mut ZlibDecoder::new(r), want, until)
                    .map_err(|why| corrupt(oid, &why))?;
                (h, want, bytes)
            };
            self.settle(oid, &bytes, want, want == h.size)?;
            match h.base {
                Base::None => {
                    let kind = kind_of(h.kind).ok_or_else(|| corrupt(oid, "an unknown kind"))?;
                    if deltas.is_empty() {
                        return Ok(Object {
                            kind,
                            data: bytes,
                            size: h.size,
                        });
                    }
                    self.remember(at, kind, &bytes);
                    break (kind, bytes);
                }
                Base::Offset(base) => {
                    deltas.push((at, bytes));
                    at = (at.0, base);
                }
                Base::Id(base) => {
                    deltas.push((at, bytes));
                    match self.find_packed(&base)? {
                        Some(next) => at = next,
                        None => {
                            let o = self
                                .read_loose(&base, None)?
                                .ok_or(GitError::Missing(base))?;
                            break (o.kind, o.data);
                        }
                    }
                }
            }
        };
        // Up the chain, each result a base for the next (and kept for other objects).
        while let Some((pos, delta)) = deltas.pop() {
            data = pack::apply_delta(&data, &delta, self.budget.max_object).map_err(|why| {
                match pack::delta_result_size(&delta) {
                    Ok(size) if size > self.budget.max_object => GitError::TooBig {
                        oid: *oid,
                        size,
                        bound: self.budget.max_object,
                    },
                    _ => corrupt(oid, why),
                }
            })?;
            self.charge(data.len() as u64)?;
            if !deltas.is_empty() {
                self.remember(pos, kind, &data);
            }
        }
        let size = data.len() as u64;
        if let Some(n) = prefix {
            data.truncate(n);
        }
        Ok(Object { kind, data, size })
    }

    fn remember(&mut self, at: (usize, u64), kind: Kind, data: &[u8]) {
        if data.len() > CACHE_BYTES / 4 {
            return;
        }
        if self.cache_bytes + data.len() > CACHE_BYTES {
            self.cache.clear();
            self.cache_bytes = 0;
        }
        self.cache_bytes += data.len();
        self.cache.insert(at, (kind, data.to_vec()));
    }
}

fn corrupt(oid: &Oid, why: &str) -> GitError {
    GitError::Corrupt {
        oid: oid.hex(),
        why: why.to_string(),
    }
}

/// Up to `want` bytes of the zlib stream `z`, fewer when it ends first or `until` passes
/// (the caller checks both).
fn inflate(z: &mut impl Read, want: u64, until: Instant) -> Result<Vec<u8>, String> {
    // `want` is at most the object bound: the buffer is its size, read into in steps.
    let mut out = vec![0u8; want as usize];
    let mut filled = 0;
    while filled < out.len() {
        let end = (filled + (64 << 10)).min(out.len());
        let got = z
            .read(&mut out[filled..end])
            .map_err(|e| format!("it does not inflate: {e}"))?;
        if got == 0 {
            break;
        }
        filled += got;
        if Instant::now() > until {
            break;
        }
    }
    out.truncate(filled);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::ZlibEncoder;
    use std::io::Write;

    fn z(bytes: &[u8]) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn budget() -> Budget {
        Budget {
            max_object: 1 << 20,
            max_inflated: 1 << 30,
            deadline: Duration::from_secs(600),
        }
    }

    /// A repository whose one pack holds `entries` (header bytes and data to compress) at
    /// the ids given, and `loose` objects (id, raw zlib bytes).
    fn repo(
        entries: &[([u8; 20], Vec<u8>, Vec<u8>)],
        loose: &[([u8; 20], Vec<u8>)],
    ) -> (tempfile::TempDir, Odb) {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        std::fs::create_dir_all(git.join("objects/pack")).unwrap();
        let mut pack = b"PACK\0\0\0\x02".to_vec();
        pack.extend_from_slice(&(entries.len() as u32).to_be_bytes());
        let mut ids: Vec<([u8; 20], u32)> = Vec::new();
        for (id, head, data) in entries {
            ids.push((*id, pack.len() as u32));
            pack.extend_from_slice(head);
            pack.extend_from_slice(&z(data));
        }
        pack.extend_from_slice(&[0; 20]);
        ids.sort();
        let idx = super::super::pack::tests::index(
            &ids.iter().map(|i| i.0).collect::<Vec<_>>(),
            &ids.iter().map(|i| i.1).collect::<Vec<_>>(),
            &[],
        );
        std::fs::write(git.join("objects/pack/pack-1.pack"), pack).unwrap();
        std::fs::write(git.join("objects/pack/pack-1.idx"), idx).unwrap();
        for (id, bytes) in loose {
            let hex = Oid(*id).hex();
            std::fs::create_dir_all(git.join(format!("objects/{}", &hex[..2]))).unwrap();
            std::fs::write(
                git.join(format!("objects/{}/{}", &hex[..2], &hex[2..])),
                bytes,
            )
            .unwrap();
        }
        let odb = Odb::open(GitDir::open(tmp.path()).unwrap(), budget()).unwrap();
        assert!(odb.problems.is_empty(), "{:?}", odb.problems);
        (tmp, odb)
    }

    fn ref_delta(size: u8, base: [u8; 20]) -> Vec<u8> {
        let mut h = vec![(pack::REF_DELTA << 4) | size];
        h.extend_from_slice(&base);
        h
    }

    #[test]
    fn objects_and_deltas_are_read_from_a_pack_and_loose() {
        let (a, b, c) = ([1u8; 20], [2u8; 20], [3u8; 20]);
        let blob = b"0123456789".to_vec();
        // b: a delta of a (copy 4 from 3, insert "xyz"); c: a loose blob, base of d.
        let delta = vec![10, 7, 0x91, 3, 4, 3, b'x', b'y', b'z'];
        let d = [4u8; 20];
        let (_t, mut odb) = repo(
            &[
                (a, vec![(pack::BLOB << 4) | 10], blob.clone()),
                (b, ref_delta(9, a), delta.clone()),
                (d, ref_delta(9, c), delta.clone()),
            ],
            &[(c, z(b"blob 10\x000123456789"))],
        );
        let o = odb.read(&Oid(a), None).unwrap();
        assert_eq!(
            (o.kind, o.data.as_slice()),
            (Kind::Blob, &b"0123456789"[..])
        );
        assert_eq!(odb.read(&Oid(b), None).unwrap().data, b"3456xyz");
        assert_eq!(odb.read(&Oid(b), Some(2)).unwrap().data, b"34");
        assert_eq!(odb.read(&Oid(c), Some(3)).unwrap().data, b"012");
        assert_eq!(odb.read(&Oid(d), None).unwrap().data, b"3456xyz");
        assert!(matches!(
            odb.read(&Oid([9; 20]), None),
            Err(GitError::Missing(_))
        ));
        assert!(odb.inflated() > 0);
    }

    #[test]
    fn a_delta_base_loop_ends_as_an_error() {
        let (a, b) = ([1u8; 20], [2u8; 20]);
        let delta = vec![3, 3, 0x90, 3];
        let (_t, mut odb) = repo(
            &[
                (a, ref_delta(4, b), delta.clone()),
                (b, ref_delta(4, a), delta),
            ],
            &[],
        );
        let e = odb.read(&Oid(a), None).unwrap_err().to_string();
        assert!(e.contains("a delta chain longer than"), "{e}");
    }

    #[test]
    fn malformed_entries_and_loose_objects_are_errors_not_panics() {
        let ids: Vec<[u8; 20]> = (1..=8u8).map(|i| [i; 20]).collect();
        let (_t, mut odb) = repo(
            &[
                // A blob whose data inflates to fewer bytes than its header says.
                (ids[0], vec![(pack::BLOB << 4) | 12], b"short".to_vec()),
                // A delta whose base is past the pack's start.
                (
                    ids[1],
                    vec![(pack::OFS_DELTA << 4) | 4, 0x7f],
                    vec![1, 1, 1, b'a'],
                ),
                // A delta over the object bound.
                (ids[2], vec![(pack::BLOB << 4) | 1], b"a".to_vec()),
                (
                    ids[3],
                    ref_delta(5, ids[2]),
                    vec![1, 0x80, 0x80, 0x80, 0x01],
                ),
                // A delta copying out of its base.
                (ids[4], ref_delta(5, ids[2]), vec![1, 4, 0x91, 0, 4]),
                // An entry of kind 5.
                (ids[5], vec![0x51], b"a".to_vec()),
                // A delta whose base is missing.
                (ids[6], ref_delta(3, [0xee; 20]), vec![1, 1, 1, b'a']),
            ],
            &[
                (ids[7], b"not zlib".to_vec()),
                ([0x77; 20], z(b"blob 99999999999999999999\0")),
                ([0x78; 20], z(b"nope 1\0a")),
                ([0x79; 20], z(&[b'x'; 100])),
            ],
        );
        for (id, want) in [
            (ids[0], "fewer bytes than its header says"),
            (ids[1], "a delta base offset out of the pack"),
            (ids[3], "over the 1048576-byte bound"),
            (ids[4], "a delta copy out of its base"),
            (ids[5], "an entry of an unknown kind"),
            (ids[6], "is missing"),
            (ids[7], "does not inflate"),
            ([0x77; 20], "a bad size"),
            ([0x78; 20], "an unknown kind"),
            ([0x79; 20], "without a header"),
        ] {
            let e = odb.read(&Oid(id), None).unwrap_err().to_string();
            assert!(e.contains(want), "{}: {e}", Oid(id));
        }
    }

    #[test]
    fn an_offset_out_of_the_pack_and_the_budget_are_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git/objects/pack");
        std::fs::create_dir_all(&git).unwrap();
        std::fs::write(git.join("p.pack"), b"PACK\0\0\0\x02\0\0\0\x01").unwrap();
        let idx = super::super::pack::tests::index(&[[5; 20]], &[1_000_000], &[]);
        std::fs::write(git.join("p.idx"), idx).unwrap();
        let mut odb = Odb::open(GitDir::open(tmp.path()).unwrap(), budget()).unwrap();
        let e = odb.read(&Oid([5; 20]), None).unwrap_err().to_string();
        assert!(e.contains("an offset out of"), "{e}");

        let (_t, mut odb) = repo(
            &[(
                [1; 20],
                vec![(pack::BLOB << 4) | 10],
                b"0123456789".to_vec(),
            )],
            &[],
        );
        odb.budget.max_inflated = 5;
        assert!(matches!(
            odb.read(&Oid([1; 20]), None),
            Err(GitError::Budget(5))
        ));
    }
}
