//! Commit and tree bodies. Both parsers take whatever bytes they are given (a commit may be
//! only its first bytes, see [`super::odb::Odb::read`]) and never panic: a malformed body is
//! an error, a cut one gives what it holds.

use super::Oid;

/// What the history needs of a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    pub tree: Oid,
    /// The first parent (the line of history followed), `None` for a root commit.
    pub parent: Option<Oid>,
    /// The author time, in seconds since the Unix epoch.
    pub author_time: Option<i64>,
    /// The subject as `git log --format=%s` gives it (the first paragraph, its lines joined
    /// by a space), cut to `max_subject` bytes on a character boundary.
    pub subject: String,
}

/// The commit in `body`; `Err` names what is wrong.
pub fn commit(body: &[u8], max_subject: usize) -> Result<Commit, &'static str> {
    let mut tree = None;
    let mut parent = None;
    let mut author_time = None;
    let mut rest = body;
    loop {
        let (line, after) = match rest.iter().position(|&b| b == b'\n') {
            Some(n) => (&rest[..n], &rest[n + 1..]),
            // A cut commit: the headers so far, no message.
            None => (rest, &[][..]),
        };
        rest = after;
        if line.is_empty() {
            break;
        }
        if let Some(hex) = line.strip_prefix(b"tree ") {
            tree = Some(Oid::from_hex(hex).ok_or("a bad `tree` line")?);
        } else if let Some(hex) = line.strip_prefix(b"parent ") {
            let p = Oid::from_hex(hex).ok_or("a bad `parent` line")?;
            parent.get_or_insert(p);
        } else if let Some(who) = line.strip_prefix(b"author ") {
            author_time = signature_time(who);
        }
        if rest.is_empty() {
            break;
        }
    }
    let tree = tree.ok_or("no `tree` line")?;
    Ok(Commit {
        tree,
        parent,
        author_time,
        subject: subject(rest, max_subject),
    })
}

/// The seconds of `Name <email> 1699954872 +0000`.
fn signature_time(who: &[u8]) -> Option<i64> {
    let gt = who.iter().rposition(|&b| b == b'>')?;
    let mut f = who[gt + 1..]
        .split(|&b| b == b' ')
        .filter(|s| !s.is_empty());
    std::str::from_utf8(f.next()?).ok()?.parse().ok()
}

/// The first paragraph of `message`, its lines trimmed and joined by a space, at most `max`
/// bytes.
fn subject(message: &[u8], max: usize) -> String {
    let mut out = String::new();
    for line in message.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() {
            if out.is_empty() {
                continue;
            }
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&String::from_utf8_lossy(line));
        if out.len() >= max {
            break;
        }
    }
    if out.len() > max {
        let mut cut = max;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

/// One entry of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    pub mode: &'a [u8],
    pub name: &'a [u8],
    pub oid: Oid,
}

impl Entry<'_> {
    /// Whether the entry is a directory (a tree).
    pub fn is_tree(&self) -> bool {
        self.mode == b"40000" || self.mode == b"040000"
    }

    /// Whether the entry is a file (a blob, executable or not; not a symbolic link).
    pub fn is_file(&self) -> bool {
        self.mode == b"100644" || self.mode == b"100755" || self.mode == b"100664"
    }
}

/// The entries of a tree body, in order. An entry cut at the end of `body` (a tree read only
/// in part) ends the iteration; a malformed one yields an error and ends it.
pub struct Entries<'a> {
    rest: &'a [u8],
}

/// The entries of the tree `body`.
pub fn entries(body: &[u8]) -> Entries<'_> {
    Entries { rest: body }
}

impl<'a> Iterator for Entries<'a> {
    type Item = Result<Entry<'a>, &'static str>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let Some(sp) = self.rest.iter().position(|&b| b == b' ') else {
            self.rest = &[];
            return None;
        };
        let mode = &self.rest[..sp];
        if mode.is_empty() || mode.len() > 7 || !mode.iter().all(|b| (b'0'..=b'7').contains(b)) {
            self.rest = &[];
            return Some(Err("a tree entry with a bad mode"));
        }
        let after = &self.rest[sp + 1..];
        let Some(nul) = after.iter().position(|&b| b == 0) else {
            self.rest = &[];
            return None;
        };
        let name = &after[..nul];
        let Some(id) = after.get(nul + 1..nul + 21) else {
            self.rest = &[];
            return None;
        };
        let mut oid = [0u8; 20];
        oid.copy_from_slice(id);
        self.rest = &after[nul + 21..];
        if name.is_empty() {
            self.rest = &[];
            return Some(Err("a tree entry without a name"));
        }
        Some(Ok(Entry {
            mode,
            name,
            oid: Oid(oid),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn a_commit_gives_its_tree_first_parent_author_time_and_subject() {
        let body = format!(
            "tree {T}\nparent {T}\nparent 1111111111111111111111111111111111111111\n\
             author A <a@b> 1699954872 +0100\ncommitter C <c@d> 1699954999 +0000\n\
             gpgsig -----BEGIN\n -----END\n\n  first line \nsecond\n\nbody\n"
        );
        let c = commit(body.as_bytes(), 1024).unwrap();
        assert_eq!(c.tree.hex(), T);
        assert_eq!(c.parent.unwrap().hex(), T);
        assert_eq!(c.author_time, Some(1699954872));
        assert_eq!(c.subject, "first line second");
        let cut = commit(body.as_bytes(), 3).unwrap();
        assert_eq!(cut.subject, "fir");
        // A subject cut inside a character keeps whole characters.
        let body = format!("tree {T}\n\nééé");
        assert_eq!(commit(body.as_bytes(), 3).unwrap().subject, "é");
    }

    #[test]
    fn malformed_commits_are_errors_not_panics() {
        for body in [
            &b""[..],
            b"tree xyz\n\n",
            b"parent 0123\n",
            b"\n\ntree",
            b"author \xff>\n",
        ] {
            assert!(commit(body, 10).is_err(), "{body:?}");
        }
        // Cut in the headers: what is there.
        let body = format!("tree {T}\nauthor A <a@b> 12");
        assert_eq!(commit(body.as_bytes(), 10).unwrap().author_time, Some(12));
    }

    #[test]
    fn tree_entries_are_read_until_the_body_ends() {
        let mut body = Vec::new();
        body.extend_from_slice(b"100644 a.yaml\0");
        body.extend_from_slice(&[1; 20]);
        body.extend_from_slice(b"40000 dir\0");
        body.extend_from_slice(&[2; 20]);
        let all: Vec<_> = entries(&body).collect::<Result<_, _>>().unwrap();
        assert_eq!(all.len(), 2);
        assert!(all[0].is_file() && all[1].is_tree());
        assert_eq!(all[1].name, b"dir");
        // Cut anywhere: the whole entries before the cut, no panic.
        for n in 0..body.len() {
            let got: Vec<_> = entries(&body[..n]).collect();
            assert!(got.len() <= 2);
        }
        assert!(entries(b"1x0 a\0").next().unwrap().is_err());
        assert!(
            entries(b"100644 \0aaaaaaaaaaaaaaaaaaaa")
                .next()
                .unwrap()
                .is_err()
        );
    }
}
