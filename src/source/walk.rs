//! Walking directories and streaming archives (tar, tar.gz, tar.xz, gzip/xz data, nested
//! archives) into [`VFile`]s, with size caps and per-entry diagnostics.

use super::sniff::{self, Capped, Magic};
use super::{
    Collected, Content, LayoutSeen, ReadError, SourceError, SourceOptions, VFile, normalise,
};
use crate::bundle::InputKind;
use crate::model::DiagLevel;
use crate::vocab::FileKind;
use crate::vocab::kind::classify_path;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::Arc;

/// Finds the files the analysis needs in one input. `Err` means the input itself cannot be
/// used at all (missing, unreadable); everything else becomes a diagnostic.
pub fn collect(input: &str, opts: &SourceOptions) -> Result<Collected, SourceError> {
    collect_as(input, input, opts)
}

/// Like [`collect`], but names the input `display` in provenance and summaries (e.g. the URL
/// a cached CI job was fetched from).
pub fn collect_as(
    input: &str,
    display: &str,
    opts: &SourceOptions,
) -> Result<Collected, SourceError> {
    let path = Path::new(input);
    let unreadable = |reason: ReadError| SourceError::Unreadable {
        input: input.to_string(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SourceError::NotFound {
            input: input.to_string(),
        },
        _ => unreadable(ReadError::io(&e)),
    })?;
    let name: Arc<str> = Arc::from(display);
    let mut seen = LayoutSeen::default();
    let mut out;
    if meta.is_dir() {
        out = Collected::new(display, InputKind::Directory);
        walk_dir(path, &name, opts, &mut out, &mut seen);
    } else if meta.is_file() {
        let f = std::fs::File::open(path).map_err(|e| unreadable(ReadError::io(&e)))?;
        let r: Box<dyn Read> = Box::new(BufReader::with_capacity(1 << 16, f));
        let (head, r) = peek(r, 512).map_err(unreadable)?;
        let magic = sniff::sniff(&head);
        if matches!(magic, Magic::Gzip | Magic::Xz | Magic::Tar) {
            out = Collected::new(display, InputKind::Archive);
            let fname = path
                .file_name()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
            read_stream(r, magic, "", &fname, 0, &name, opts, &mut out, &mut seen);
        } else if matches!(magic, Magic::Zip | Magic::Zstd) {
            return Err(SourceError::UnsupportedArchive {
                input: input.to_string(),
                what: if magic == Magic::Zip { "zip" } else { "zstd" },
            });
        } else {
            out = Collected::new(display, InputKind::File);
            out.info.files_seen = 1;
            let kind = classify_path(&input.replace('\\', "/"))
                .filter(|k| *k != FileKind::NestedArchive)
                .or_else(|| (opts.sniff)(&head));
            match kind {
                Some(kind) => out.files.push(VFile {
                    input: name.clone(),
                    path: Arc::from(""),
                    kind,
                    content: Content::Disk(path.to_path_buf()),
                }),
                None => {
                    return Err(SourceError::NotRecognised {
                        input: input.to_string(),
                    });
                }
            }
        }
    } else {
        return Err(SourceError::NotRegular {
            input: input.to_string(),
        });
    }
    out.info.must_gather_roots = seen.roots.into_iter().collect();
    out.info.ci_job = seen.ci;
    out.info.modified = meta
        .modified()
        .ok()
        .map(|m| crate::model::Time::from(chrono::DateTime::<chrono::Utc>::from(m)));
    if out.info.kind == InputKind::Directory {
        if seen.ci {
            out.info.kind = InputKind::CiJob;
        } else if !out.info.must_gather_roots.is_empty() {
            out.info.kind = InputKind::MustGather;
        }
    }
    Ok(out)
}

/// Reads an archive (or compressed file) held in memory, as if it were a file named `name`.
/// Used for remote objects and by the fuzzer.
pub fn collect_bytes(name: &str, data: Vec<u8>, opts: &SourceOptions) -> Collected {
    let input: Arc<str> = Arc::from(name);
    let mut out = Collected::new(name, InputKind::Archive);
    let mut seen = LayoutSeen::default();
    let r: Box<dyn Read> = Box::new(std::io::Cursor::new(data));
    match peek(r, 512) {
        Ok((head, r)) => {
            let magic = sniff::sniff(&head);
            read_stream(r, magic, "", name, 0, &input, opts, &mut out, &mut seen);
        }
        Err(e) => out.diag(&input, "", DiagLevel::Error, e),
    }
    out.info.must_gather_roots = seen.roots.into_iter().collect();
    out.info.ci_job = seen.ci;
    out
}

/// Reads up to `n` bytes from the front of `r` and gives back a reader that still yields them.
fn peek<'a>(
    mut r: Box<dyn Read + 'a>,
    n: usize,
) -> Result<(Vec<u8>, Box<dyn Read + 'a>), ReadError> {
    let mut head = Vec::with_capacity(n);
    (&mut r)
        .take(n as u64)
        .read_to_end(&mut head)
        .map_err(|e| ReadError::io(&e))?;
    let again = std::io::Cursor::new(head.clone()).chain(r);
    Ok((head, Box::new(again)))
}

fn walk_dir(
    root: &Path,
    input: &Arc<str>,
    opts: &SourceOptions,
    out: &mut Collected,
    seen: &mut LayoutSeen,
) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let rel_dir = rel(root, &dir);
        let rd = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) => {
                out.diag(
                    input,
                    &rel_dir,
                    DiagLevel::Warning,
                    format!("cannot read directory: {}", sniff::describe_io(&e)),
                );
                continue;
            }
        };
        let mut entries: Vec<_> = rd.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        // Push subdirectories in reverse so they are visited in name order.
        let mut subdirs = Vec::new();
        for e in entries {
            let p = e.path();
            let relp = rel(root, &p);
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_symlink() {
                // Never follow links: they can point outside the input or form loops.
                if classify_path(&relp).is_some() {
                    out.diag(
                        input,
                        &relp,
                        DiagLevel::Warning,
                        "symbolic link not followed".to_string(),
                    );
                }
                continue;
            }
            if ft.is_dir() {
                subdirs.push(p);
                continue;
            }
            out.info.files_seen += 1;
            seen.see(&relp);
            let Some(kind) = classify_path(&relp) else {
                continue;
            };
            if !ft.is_file() {
                out.diag(
                    input,
                    &relp,
                    DiagLevel::Warning,
                    "not a regular file (FIFO, socket or device); skipped".to_string(),
                );
                continue;
            }
            if kind == FileKind::NestedArchive {
                match std::fs::File::open(&p) {
                    Ok(f) => {
                        let r: Box<dyn Read> = Box::new(BufReader::with_capacity(1 << 16, f));
                        match peek(r, 512) {
                            Ok((head, r)) => {
                                let magic = sniff::sniff(&head);
                                let fname = p
                                    .file_name()
                                    .map(|s| s.to_string_lossy().to_string())
                                    .unwrap_or_default();
                                read_stream(
                                    r,
                                    magic,
                                    &format!("{relp}::"),
                                    &fname,
                                    1,
                                    input,
                                    opts,
                                    out,
                                    seen,
                                );
                            }
                            Err(e) => out.diag(input, &relp, DiagLevel::Error, e),
                        }
                    }
                    Err(e) => out.diag(input, &relp, DiagLevel::Error, sniff::describe_io(&e)),
                }
                continue;
            }
            out.files.push(VFile {
                input: input.clone(),
                path: Arc::from(relp.as_str()),
                kind,
                content: Content::Disk(p),
            });
        }
        stack.extend(subdirs.into_iter().rev());
    }
}

fn rel(root: &Path, p: &Path) -> String {
    let r = p.strip_prefix(root).unwrap_or(p);
    r.components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// Streams one archive (or compressed file) and collects the entries the analysis needs.
/// `prefix` is prepended to entry paths (`outer.tar::` for nested archives).
#[allow(clippy::too_many_arguments)]
fn read_stream<'a>(
    r: Box<dyn Read + 'a>,
    magic: Magic,
    prefix: &str,
    file_name: &str,
    depth: u32,
    input: &Arc<str>,
    opts: &SourceOptions,
    out: &mut Collected,
    seen: &mut LayoutSeen,
) {
    let here = prefix.trim_end_matches("::").to_string();
    if depth > opts.max_nesting {
        out.diag(
            input,
            &here,
            DiagLevel::Warning,
            format!(
                "archive nested deeper than {} levels; skipped",
                opts.max_nesting
            ),
        );
        return;
    }
    let decoded = match sniff::decoder(magic, r) {
        Ok(d) => d,
        Err(e) => {
            out.diag(input, &here, DiagLevel::Error, e);
            return;
        }
    };
    let capped = Capped {
        inner: decoded,
        left: opts.max_archive_bytes,
        cap: opts.max_archive_bytes,
        what: "archive",
        flag: "--max-archive-bytes",
    };
    let br: Box<dyn Read + 'a> = Box::new(BufReader::with_capacity(1 << 16, capped));
    let (head, br) = match peek(br, 512) {
        Ok(h) => h,
        Err(e) => {
            out.diag(input, &here, DiagLevel::Error, e);
            return;
        }
    };
    if sniff::sniff(&head) != Magic::Tar {
        // A single compressed file (e.g. gather-extra `events.json` stored gzip without suffix).
        let inner_name = file_name
            .trim_end_matches(".gz")
            .trim_end_matches(".xz")
            .to_string();
        out.info.files_seen += 1;
        let kind = classify_path(&format!("{here}/{inner_name}"))
            .or_else(|| classify_path(&inner_name))
            .filter(|k| *k != FileKind::NestedArchive)
            .or_else(|| (opts.sniff)(&head));
        let Some(kind) = kind else {
            out.diag(
                input,
                &here,
                DiagLevel::Warning,
                "compressed data is neither a tar archive nor a known file".to_string(),
            );
            return;
        };
        match sniff::read_capped(br, opts.max_file_bytes) {
            Ok(bytes) => out.files.push(VFile {
                input: input.clone(),
                path: Arc::from(here.as_str()),
                kind,
                content: Content::Mem(bytes),
            }),
            Err(e) => out.diag(input, &here, DiagLevel::Error, e),
        }
        return;
    }
    let mut archive = tar::Archive::new(br);
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => {
            out.diag(
                input,
                &here,
                DiagLevel::Error,
                format!("cannot read tar archive: {}", sniff::describe_io(&e)),
            );
            return;
        }
    };
    let mut names = std::collections::HashSet::new();
    // Where each entry of this archive went in `out.files`, so that a duplicate replaces its
    // earlier copy in one step (not a scan of every file kept so far).
    let mut slots: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut stale: Vec<usize> = Vec::new();
    read_entries(
        entries, prefix, depth, input, opts, out, seen, &here, &mut names, &mut slots, &mut stale,
    );
    if !stale.is_empty() {
        let stale: std::collections::HashSet<usize> = stale.into_iter().collect();
        let mut i = 0;
        out.files.retain(|_| {
            i += 1;
            !stale.contains(&(i - 1))
        });
    }
}

#[allow(clippy::too_many_arguments)]
fn read_entries<R: Read>(
    entries: tar::Entries<'_, R>,
    prefix: &str,
    depth: u32,
    input: &Arc<str>,
    opts: &SourceOptions,
    out: &mut Collected,
    seen: &mut LayoutSeen,
    here: &str,
    names: &mut std::collections::HashSet<String>,
    slots: &mut std::collections::HashMap<String, usize>,
    stale: &mut Vec<usize>,
) {
    for entry in entries {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                out.diag(input, here, DiagLevel::Error, format!("truncated or corrupt tar archive: {}; entries after this point were not read", sniff::describe_io(&e)));
                return;
            }
        };
        let raw_path = String::from_utf8_lossy(&entry.path_bytes()).to_string();
        let path = normalise(&raw_path);
        let full = format!("{prefix}{path}");
        let et = entry.header().entry_type();
        if et.is_dir() {
            continue;
        }
        if !et.is_file() {
            if classify_path(&path).is_some() {
                out.diag(
                    input,
                    &full,
                    DiagLevel::Warning,
                    "archive entry is a link or special file; skipped".to_string(),
                );
            }
            continue;
        }
        out.info.files_seen += 1;
        seen.see(&full);
        let Some(kind) = classify_path(&path) else {
            continue;
        };
        if !names.insert(path.clone()) {
            out.diag(
                input,
                &full,
                DiagLevel::Warning,
                "duplicate entry in archive; the later copy is used".to_string(),
            );
            if let Some(i) = slots.remove(&full) {
                // Dropped now (its bytes freed), removed from the list once at the end.
                out.files[i].content = Content::Mem(Vec::new());
                stale.push(i);
            }
        }
        // The size the archive reader will read: a PAX `size` record when there is one (what
        // tar writes for large files, with 0 in the ustar field), else the header's field.
        let size = entry.size().max(entry.header().size().unwrap_or(0));
        if size > opts.max_file_bytes {
            out.diag(
                input,
                &full,
                DiagLevel::Warning,
                format!(
                    "entry is {size} bytes, more than the {} byte cap; skipped",
                    opts.max_file_bytes
                ),
            );
            continue;
        }
        if kind == FileKind::NestedArchive {
            let inner: Box<dyn Read + '_> = Box::new(&mut entry);
            let (head, inner) = match peek(inner, 512) {
                Ok(h) => h,
                Err(e) => {
                    out.diag(input, &full, DiagLevel::Error, e);
                    continue;
                }
            };
            let magic = sniff::sniff(&head);
            let fname = path.rsplit('/').next().unwrap_or("").to_string();
            read_stream(
                inner,
                magic,
                &format!("{full}::"),
                &fname,
                depth + 1,
                input,
                opts,
                out,
                seen,
            );
            continue;
        }
        match sniff::read_capped(&mut entry, opts.max_file_bytes) {
            Ok(bytes) => {
                slots.insert(full.clone(), out.files.len());
                out.files.push(VFile {
                    input: input.clone(),
                    path: Arc::from(full.as_str()),
                    kind,
                    content: Content::Mem(bytes),
                });
            }
            Err(e) => {
                out.diag(input, &full, DiagLevel::Error, e);
                return;
            }
        }
    }
}
