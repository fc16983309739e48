//! The walk's accounting, file by file: every count a walk makes (a file looked at, skipped,
//! an archive opened, a file not read and why) goes through [`Collected::count`], which
//! applies it to the input's [`InputInfo`] and, while the input may hold several
//! must-gathers, notes it with its path. An input that turns out to hold several clusters is
//! then cut into each cluster's [`Part`] with [`Collected::part`]: the notes are replayed for
//! the part's paths alone, giving the counts, layout and diagnostics the part's own walk
//! gives, without walking or reading anything again.

use super::{Collected, LayoutSeen, Part};
use crate::bundle::{InputInfo, InputKind, NotReadReason};
use crate::model::{Diagnostic, Provenance};
use crate::vocab::files::is_under;

/// One count of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Count {
    /// A file looked at whose path tells the layout (a regular file, a FIFO, an entry).
    Seen,
    /// Something looked at whose path says nothing of the layout (a link, a special entry,
    /// compressed data that is one file).
    SeenOnly,
    /// A file outside every layout whose content is nothing mglint reads.
    Skipped,
    /// An archive inside the input opened.
    Opened,
    /// An archive counted as opened that could not be read after all.
    Unopened,
    /// A file not read, and why.
    NotRead(NotReadReason),
}

/// Applies one count to an input's figures.
fn apply(info: &mut InputInfo, path: &str, c: Count) {
    match c {
        Count::Seen | Count::SeenOnly => info.files_seen += 1,
        Count::Skipped => info.files_skipped += 1,
        Count::Opened => info.archives_opened += 1,
        Count::Unopened => info.archives_opened = info.archives_opened.saturating_sub(1),
        Count::NotRead(why) => info.not_read.add(why, path),
    }
}

/// The kind an input's walk ends with, from the kind it started with and the layout seen. A
/// directory whose only must-gather-like folders are Insights archives' own (an archive's
/// `cluster-scoped-resources/`) stays a directory: it is no must-gather.
pub(super) fn final_kind(started: InputKind, seen: &LayoutSeen) -> InputKind {
    let must_gather = seen.roots.iter().any(|r| !seen.insights_roots.contains(r));
    match started {
        InputKind::Directory if seen.ci => InputKind::CiJob,
        InputKind::Directory if must_gather => InputKind::MustGather,
        other => other,
    }
}

impl Collected {
    /// Counts `c` for the file at `path` (relative to the input).
    pub(super) fn count(&mut self, path: &str, c: Count) {
        apply(&mut self.info, path, c);
        self.ledger.push((Box::from(path), c));
    }

    /// Ends the notes: an input with fewer than two roots (must-gathers and Prow jobs) is
    /// never cut into parts, so its notes are dropped.
    pub(super) fn settle_ledger(&mut self) {
        if self.info.must_gather_roots.len() + self.info.ci_roots.len() < 2 {
            self.ledger = Vec::new();
        }
    }

    /// This input's part `part` as its own walk would have collected it: the counts and
    /// diagnostics of the paths the part holds, and the layout they show. A part that is an
    /// input of its own ([`Part::own_input`]: a folder of a directory) is named
    /// `<input>/<folder>` and its paths are relative to the folder. `others` are the keep
    /// paths of every part of this input: a diagnostic on no part's path (the archive's own
    /// stream) belongs to every part of an archive. A part of its own has no modification
    /// time here (the walk knows no local paths).
    pub fn part(&self, part: &Part, others: &[String]) -> Collected {
        if part.keep.is_empty() && part.drop.is_empty() {
            // The whole input.
            return Collected {
                info: self.info.clone(),
                files: Vec::new(),
                found: self.found,
                diagnostics: self.diagnostics.clone(),
                ledger: Vec::new(),
            };
        }
        let (name, _) = part.name_of(&self.info.name, "");
        let strip = |path: &str| part.name_of("", path).1;
        let started = match self.info.kind {
            InputKind::MustGather | InputKind::CiJob => InputKind::Directory,
            k => k,
        };
        let mut out = Collected::new(&name, started);
        let mut seen = LayoutSeen::default();
        for (path, c) in &self.ledger {
            if !part.holds(path) {
                continue;
            }
            let here = strip(path);
            if *c == Count::Seen {
                seen.see(&here);
            }
            apply(&mut out.info, &here, *c);
        }
        out.info.kind = final_kind(started, &seen);
        out.info.must_gather_roots = seen.roots.iter().cloned().collect();
        out.info.ci_job = seen.ci;
        out.info.ci_roots = seen.ci_roots.iter().cloned().collect();
        out.info.insights_roots = seen.insights_roots.iter().cloned().collect();
        if !part.own_input {
            out.info.modified = self.info.modified;
        }
        let stream_level =
            |path: &str| !part.own_input && !others.iter().any(|k| is_under(path, k));
        out.diagnostics = self
            .diagnostics
            .iter()
            .filter(|d| part.holds(d.prov.file.path()) || stream_level(d.prov.file.path()))
            .map(|d| Diagnostic {
                prov: Provenance {
                    line: d.prov.line,
                    span: d.prov.span,
                    ..Provenance::detached(&name, &strip(d.prov.file.path()))
                },
                ..d.clone()
            })
            .collect();
        out
    }
}
