//! `lib/validation` `ValidateClusterVersion` as the CVO runs it at the start of every
//! Operator.sync (cvo-reference §1.1, §3.8): `spec.upstream` must parse as a URL (Go's
//! `net/url.Parse`), `spec.clusterID` must be an RFC 4122 version-4 UUID (github.com/google/uuid
//! `Parse`, whose partly decoded bytes the CVO reads even when parsing fails), and
//! `spec.desiredUpdate` must name a version or image that can be resolved. Each error is a
//! Kubernetes field error in its exact wording; together they make the `Invalid` condition.
//! Only errors under `spec.desiredUpdate.` make the CVO ignore the target
//! (`ClearInvalidFields`): an invalid upstream or cluster ID does not block a sync.

use super::errors::go_quote;
use super::semantics::Semantics;
use crate::model::ClusterVersion;

/// One field error of `ValidateClusterVersion`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field path, e.g. `spec.upstream`.
    pub field: &'static str,
    /// The whole error text, `{field}: {type}: {detail}`.
    pub message: String,
}

impl FieldError {
    fn invalid(field: &'static str, value: &str, detail: &str) -> FieldError {
        FieldError {
            field,
            message: format!("{field}: Invalid value: {}: {detail}", go_quote(value)),
        }
    }

    fn required(field: &'static str, detail: &str) -> FieldError {
        FieldError {
            field,
            message: format!("{field}: Required value: {detail}"),
        }
    }
}

/// Whether `ClearInvalidFields` drops `spec.desiredUpdate` for these errors: only an error on
/// a field under it (`spec.desiredUpdate.version`), not one on `spec.desiredUpdate` itself
/// (the 4.13+ "must specify architecture, version, or image").
pub fn clears_desired_update(errs: &[FieldError]) -> bool {
    errs.iter()
        .any(|e| e.field.starts_with("spec.desiredUpdate."))
}

/// blang/semver `Parse`: three dot-separated numbers without leading zeros (each fits in 64
/// bits), an optional `-` pre-release of non-empty identifiers (alphanumerics and `-`, numeric
/// ones without leading zeros) and an optional `+` build of non-empty identifiers.
fn is_semver(v: &str) -> bool {
    let numeric = |s: &str| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && (s.len() == 1 || !s.starts_with('0'))
            && s.parse::<u64>().is_ok()
    };
    let ident =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let mut parts = v.splitn(3, '.');
    let (Some(major), Some(minor), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (rest, None),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((p, pre)) => (p, Some(pre)),
        None => (rest, None),
    };
    let pre_ok = |p: &str| {
        p.split('.')
            .all(|id| match id.bytes().all(|b| b.is_ascii_digit()) {
                true => numeric(id),
                false => ident(id),
            })
    };
    numeric(major)
        && numeric(minor)
        && numeric(patch)
        && pre.is_none_or(pre_ok)
        && build.is_none_or(|b| b.split('.').all(ident))
}

/// Go's `strings.Cut`.
fn cut(s: &str, sep: char) -> (&str, &str) {
    s.split_once(sep).unwrap_or((s, ""))
}

/// Go's `net/url` encoding modes that `Parse` unescapes with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

/// `shouldEscape` for the bytes `unescape` checks in host and zone mode.
fn host_should_escape(c: u8) -> bool {
    !(c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
                | b'-'
                | b'_'
                | b'.'
                | b'~'
        ))
}

/// Whether Go's `unescape(s, mode)` succeeds: every `%` starts two hex digits; in a host a
/// %-escape is only for non-ASCII bytes (or `%25`), in a zone only for bytes a host may hold
/// (or a space), and neither holds an ASCII byte that would need escaping.
fn unescapes(s: &str, mode: Mode) -> bool {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (Some(h), Some(l)) = (
                    b.get(i + 1).copied().and_then(hex),
                    b.get(i + 2).copied().and_then(hex),
                ) else {
                    return false;
                };
                let is_25 = h == 2 && l == 5;
                if mode == Mode::Host && h < 8 && !is_25 {
                    return false;
                }
                let v = (h << 4) | l;
                if mode == Mode::Zone && !is_25 && v != b' ' && host_should_escape(v) {
                    return false;
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && host_should_escape(c) {
                    return false;
                }
                i += 1;
            }
        }
    }
    true
}

/// `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(p: &str) -> bool {
    p.is_empty()
        || p.strip_prefix(':')
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

/// `parseHost`: `[IPv6]` with an optional `%25` zone and port, or a host with an optional
/// numeric port.
fn host_ok(host: &str) -> bool {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return false;
        };
        if !valid_optional_port(&host[i + 1..]) {
            return false;
        }
        if let Some(zone) = host[..i].find("%25") {
            return unescapes(&host[..zone], Mode::Host)
                && unescapes(&host[zone..i], Mode::Zone)
                && unescapes(&host[i..], Mode::Host);
        }
    } else if let Some(i) = host.rfind(':')
        && !valid_optional_port(&host[i..])
    {
        return false;
    }
    unescapes(host, Mode::Host)
}

/// `parseAuthority`: `[userinfo@]host`, the userinfo of RFC 3986 characters only.
fn authority_ok(authority: &str) -> bool {
    let Some(at) = authority.rfind('@') else {
        return host_ok(authority);
    };
    if !host_ok(&authority[at + 1..]) {
        return false;
    }
    let userinfo = &authority[..at];
    let valid = userinfo.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    });
    let (user, password) = cut(userinfo, ':');
    valid && unescapes(user, Mode::UserPassword) && unescapes(password, Mode::UserPassword)
}

/// Whether Go's `net/url.Parse` (Go 1.12 and later) accepts `raw`.
fn url_parses(raw: &str) -> bool {
    let (u, frag) = cut(raw, '#');
    if u.bytes().any(|b| b < b' ' || b == 0x7f) {
        return false;
    }
    if !unescapes(frag, Mode::Fragment) {
        return false;
    }
    if u == "*" {
        return true;
    }
    // getScheme: letters, then letters, digits, `+`, `-` or `.` up to a `:`.
    let mut scheme = "";
    let mut rest = u;
    for (i, c) in u.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return false,
            b':' => {
                (scheme, rest) = (&u[..i], &u[i + 1..]);
                break;
            }
            _ => break,
        }
    }
    rest = match rest.strip_suffix('?') {
        Some(r) if !r.contains('?') => r,
        _ => cut(rest, '?').0,
    };
    if !rest.starts_with('/') {
        if !scheme.is_empty() {
            return true;
        }
        if cut(rest, '/').0.contains(':') {
            return false;
        }
    }
    if (!scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let after = &rest[2..];
        let (authority, path) = match after.find('/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, ""),
        };
        if !authority_ok(authority) {
            return false;
        }
        rest = path;
    }
    unescapes(rest, Mode::Path)
}

/// The bytes github.com/google/uuid `Parse` decodes from `s`, and whether it succeeded. On
/// failure the bytes decoded so far stay set (the CVO ignores the error and reads them); in
/// the 32-digit form the byte that failed holds its garbage value. The `{…}` and 32-digit
/// forms exist from 4.3 (the uuid release vendored there).
fn parse_uuid(s: &str, braces_and_raw: bool) -> [u8; 16] {
    const NIBBLE_BAD: u8 = 255;
    let nib = |c: u8| (c as char).to_digit(16).map_or(NIBBLE_BAD, |d| d as u8);
    let xtob = |a: u8, b: u8| {
        let (h, l) = (nib(a), nib(b));
        (h.wrapping_shl(4) | l, h != NIBBLE_BAD && l != NIBBLE_BAD)
    };
    let mut id = [0u8; 16];
    let b = s.as_bytes();
    let body = match b.len() {
        36 => b,
        45 if b[..9].eq_ignore_ascii_case(b"urn:uuid:") => &b[9..],
        38 if braces_and_raw => &b[1..],
        32 if braces_and_raw => {
            for (i, slot) in id.iter_mut().enumerate() {
                let (v, ok) = xtob(b[2 * i], b[2 * i + 1]);
                *slot = v;
                if !ok {
                    break;
                }
            }
            return id;
        }
        _ => return id,
    };
    if [8, 13, 18, 23].iter().any(|&i| body[i] != b'-') {
        return id;
    }
    const AT: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    for (slot, &x) in id.iter_mut().zip(AT.iter()) {
        let (v, ok) = xtob(body[x], body[x + 1]);
        if !ok {
            break;
        }
        *slot = v;
    }
    id
}

/// The field errors of `ValidateClusterVersion` in the CVO version `sem` models, in its order:
/// upstream, cluster ID, desired update (the object name is always `version`, which is valid).
pub fn validate(cv: &ClusterVersion, sem: &Semantics) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let spec = &cv.spec;
    if !spec.upstream.is_empty() && !url_parses(&spec.upstream) {
        errs.push(FieldError::invalid(
            "spec.upstream",
            &spec.upstream,
            "must be a valid URL or empty",
        ));
    }
    if !spec.cluster_id.is_empty() {
        let id = parse_uuid(&spec.cluster_id, sem.minor >= 3);
        let detail = if id[8] & 0xc0 != 0x80 {
            Some("must be an RFC4122-variant UUID")
        } else if id[6] >> 4 != 4 {
            Some("must be a version-4 UUID")
        } else {
            None
        };
        if let Some(d) = detail {
            errs.push(FieldError::invalid("spec.clusterID", &spec.cluster_id, d));
        }
    }
    let Some(u) = &spec.desired_update else {
        return errs;
    };
    let field = "spec.desiredUpdate.version";
    let new_wording = sem.minor >= 13;
    let reconciles_risks = sem.reconciles_accept_risks();
    if sem.validates_accept_risks() && !reconciles_risks && !u.accept_risks.is_empty() {
        errs.push(FieldError {
            field: "spec.desiredUpdate.acceptRisks",
            message: "spec.desiredUpdate.acceptRisks: Forbidden: acceptRisks must not be specified"
                .into(),
        });
    } else if reconciles_risks && u.version.is_empty() && u.image.is_empty() {
        if u.architecture.is_empty() && u.accept_risks.is_empty() {
            errs.push(FieldError::required(
                "spec.desiredUpdate",
                "must specify architecture, version, image, or acceptRisks",
            ));
        }
    } else if u.version.is_empty() && u.image.is_empty() {
        if new_wording {
            if u.architecture.is_empty() {
                errs.push(FieldError::required(
                    "spec.desiredUpdate",
                    "must specify architecture, version, or image",
                ));
            }
        } else {
            errs.push(FieldError::required(field, "must specify version or image"));
        }
    } else if !u.version.is_empty() && !is_semver(&u.version) {
        errs.push(FieldError::invalid(
            field,
            &u.version,
            "must be a semantic version (1.2.3[-...])",
        ));
    } else if !u.version.is_empty() && u.image.is_empty() {
        let n = cv
            .status
            .available_updates
            .iter()
            .filter(|a| a.version == u.version && !a.image.is_empty())
            .count();
        let in_history = cv
            .status
            .history
            .iter()
            .find(|h| h.version == u.version)
            .is_some_and(|h| !h.image.is_empty());
        if n == 0 && !in_history {
            let detail = match new_wording {
                true => "when image is empty the update must be an available update",
                false => {
                    "when image is empty the update must be a previous version or an available update"
                }
            };
            errs.push(FieldError::invalid(field, &u.version, detail));
        } else if n > 1 {
            errs.push(FieldError::invalid(
                field,
                &u.version,
                "there are multiple possible payloads for this version, specify the exact image",
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_check_matches_the_api() {
        for ok in [
            "4.3.10",
            "4.3.0-0.ci-2019-09-27-182824",
            "1.0.0-abc",
            "4.1.0+build.1",
            "0.0.1-abc",
        ] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in [
            "4.3",
            "v4.3.1",
            "04.3.1",
            "4.3.1-",
            "",
            "4.3.1.2",
            "4.3.1-01",
            "4.3.1+",
            "4.3.1+a..b",
            "99999999999999999999.0.0",
        ] {
            assert!(!is_semver(bad), "{bad}");
        }
    }

    #[test]
    fn urls_as_go_parses_them() {
        for ok in [
            "https://api.openshift.com/api/upgrades_info/v1/graph",
            "http://localhost:8080/graph",
            "graph",
            "/graph?x=%20",
            "mailto:x@y",
            "http://[fe80::1%25en0]:80/",
            "http://user:p%40ss@host/",
            "#frag",
            "*",
            "http://host:/",
        ] {
            assert!(url_parses(ok), "{ok}");
        }
        for bad in [
            "#%GG",
            "://x",
            ":b/c",
            "1http:x",
            "http://host:port/",
            "http://[::1/",
            "http://ho%20st/",
            "http://h st/",
            "http://us{er@host/",
            "http://x/%zz",
            "http://x/\u{7}",
        ] {
            assert!(!url_parses(bad), "{bad:?}");
        }
        // A first path segment with a colon and no valid scheme.
        assert!(!url_parses("1a:b"));
    }

    #[test]
    fn uuids_as_the_cvo_reads_them() {
        let sem = Semantics::fixed();
        let cv = |id: &str| ClusterVersion {
            spec: crate::model::ClusterVersionSpec {
                cluster_id: id.into(),
                ..Default::default()
            },
            ..Default::default()
        };
        let errs = |id: &str| -> Vec<String> {
            validate(&cv(id), &sem)
                .into_iter()
                .map(|e| e.message)
                .collect()
        };
        assert!(errs("3f2d6c9e-1b7a-4c3e-9a5f-0e8d2b6a7c11").is_empty());
        assert!(errs("3f2d6c9e1b7a4c3e9a5f0e8d2b6a7c11").is_empty());
        assert!(errs("URN:uuid:3f2d6c9e-1b7a-4c3e-9a5f-0e8d2b6a7c11").is_empty());
        assert_eq!(
            errs("not-valid-cluster-id"),
            [
                "spec.clusterID: Invalid value: \"not-valid-cluster-id\": must be an RFC4122-variant UUID"
            ]
        );
        assert_eq!(
            errs("3f2d6c9e-1b7a-1c3e-9a5f-0e8d2b6a7c11"),
            [
                "spec.clusterID: Invalid value: \"3f2d6c9e-1b7a-1c3e-9a5f-0e8d2b6a7c11\": must be a version-4 UUID"
            ]
        );
        // Parsing stops at the bad digit, but the variant and version bytes were read.
        assert_eq!(
            errs("3f2d6c9e-1b7a-4c3e-9a5f-0e8d2b6a7cZZ"),
            Vec::<String>::new()
        );
        // 4.1-4.2 know no 32-digit form.
        let old = Semantics::new(super::super::semantics::Flavour::Legacy, Some(2));
        assert_eq!(
            validate(&cv("3f2d6c9e1b7a4c3e9a5f0e8d2b6a7c11"), &old).len(),
            1
        );
    }
}
