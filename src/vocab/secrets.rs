//! Secret masking: the one list of secret shapes, and the one function that masks them
//! ([`mask`]). It is applied where text from the input enters what the views render (a
//! report's findings, a timeline's events, evidence snippets, and through [`Masked`] the
//! models of `status`, `recommend`, `summary` and `replay`), so every format gets the
//! masked value whatever its escaping; [`mask_rendered`] is the second net over rendered
//! text, which also knows the escaped forms (JSON `\"`, HTML/XML `&quot;` and `&#34;`).
//!
//! The shapes, masked always, with or without `--redact` (the value becomes `<secret>`):
//!
//! - a value after a secret-naming key, quoted or not, `:` or `=`: `auth` (a pull secret's
//!   `{"auths":{"quay.io":{"auth":"…"}}}`, in JSON, YAML or escaped JSON), `password`,
//!   `passwd`, `token` (a kubeconfig user's), `access_token`, `refresh_token`,
//!   `id_token`, `secret`, `client_secret`, `access_key`, `secret_key`, `api_key`,
//!   `private_key`, `aws_secret_access_key`, `client-key-data` (a kubeconfig's key; its
//!   `client-certificate-data` is a certificate, public, and kept), `.dockerconfigjson`
//!   and `.dockercfg`; a lowercase word is no secret (`token: none`, `secret: required`);
//! - a base64 Docker config (`eyJhdXRocyI6…`, the encoded `{"auths":`);
//! - `Bearer` and `Basic` credentials (`Authorization: Basic dXNlcjpw…`);
//! - JSON Web Tokens (`eyJ….eyJ….sig`);
//! - the password of URL userinfo (`https://user:<secret>@host`);
//! - PEM private key blocks (`-----BEGIN [RSA |EC |DSA |OPENSSH |ENCRYPTED ]PRIVATE KEY-----`
//!   to the matching `-----END …-----`, over lines or in one line with `\n` escapes), and
//!   such a block base64-encoded (`LS0tLS1CRUdJTiBSU0EgUFJJ…`);
//! - AWS access key IDs (`AKIA`/`ASIA` and 16 more);
//! - GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
//!
//! Ordinary text is left alone: release digests (`sha256:…`), UUIDs (`--redact` handles
//! those), words such as `tokenizer` or "secret not found", condition reasons. Text with
//! none of a few literals every shape holds is returned as it is, without running a regex.

use regex::{Captures, Regex};
use std::borrow::Cow;
use std::sync::LazyLock;

/// What a masked value becomes.
pub const PLACEHOLDER: &str = "<secret>";

/// The shapes, as bits: which a text may hold, told by the literals below.
const KEY_VALUE: u16 = 1;
const SCHEME: u16 = 1 << 1;
const BASE64_JSON: u16 = 1 << 2;
const PEM: u16 = 1 << 3;
const PEM_BASE64: u16 = 1 << 4;
const AWS_KEY_ID: u16 = 1 << 5;
const GITHUB: u16 = 1 << 6;
const URL: u16 = 1 << 7;

/// Literals, one of which every shape holds (the keys in their usual casings: `password`,
/// `Password`, `PASSWORD`), each with the shapes it may begin. A literal search (SIMD) over
/// them is the cheap test before any shape's regex runs; only the shapes found run.
const TRIGGERS: &[(&str, u16)] = &[
    ("auth", KEY_VALUE),
    ("Auth", KEY_VALUE),
    ("AUTH", KEY_VALUE),
    ("pass", KEY_VALUE),
    ("Pass", KEY_VALUE),
    ("PASS", KEY_VALUE),
    ("token", KEY_VALUE),
    ("Token", KEY_VALUE),
    ("TOKEN", KEY_VALUE),
    ("secret", KEY_VALUE),
    ("Secret", KEY_VALUE),
    ("SECRET", KEY_VALUE),
    ("key", KEY_VALUE),
    ("Key", KEY_VALUE),
    ("KEY", KEY_VALUE | PEM),
    ("dockerc", KEY_VALUE),
    ("bearer", SCHEME),
    ("Bearer", SCHEME),
    ("BEARER", SCHEME),
    ("basic", SCHEME),
    ("Basic", SCHEME),
    ("BASIC", SCHEME),
    ("eyJ", BASE64_JSON),
    ("ewo", BASE64_JSON),
    ("eyAi", BASE64_JSON),
    ("LS0tLS1CRUdJTi", PEM_BASE64),
    ("AKIA", AWS_KEY_ID),
    ("ASIA", AWS_KEY_ID),
    ("ghp_", GITHUB),
    ("gho_", GITHUB),
    ("ghu_", GITHUB),
    ("ghs_", GITHUB),
    ("ghr_", GITHUB),
    ("github_pat_", GITHUB),
    ("://", URL),
];

static PREFILTER: LazyLock<Regex> = LazyLock::new(|| {
    let alternation: Vec<String> = TRIGGERS.iter().map(|(l, _)| regex::escape(l)).collect();
    Regex::new(&alternation.join("|")).expect("static regex")
});

/// The shapes `text` may hold (no bit: it holds none).
fn shapes_in(text: &str) -> u16 {
    let mut bits = 0;
    for m in PREFILTER.find_iter(text) {
        if let Some((_, b)) = TRIGGERS.iter().find(|(l, _)| *l == m.as_str()) {
            bits |= b;
        }
    }
    // A value follows a key after `:` or `=`; userinfo ends with `@`.
    if bits & KEY_VALUE != 0 && !text.contains([':', '=']) {
        bits &= !KEY_VALUE;
    }
    if bits & URL != 0 && !text.contains('@') {
        bits &= !URL;
    }
    bits
}

/// The keys whose value is a secret (see the module doc).
const KEYS: &str = r"(?:(?-u:\b)(?:auth|password|passwd|token|access[_-]?token|refresh[_-]?token|id[_-]?token|secret|client[_-]?secret|access[_-]?key|secret[_-]?key|api[_-]?key|private[_-]?key|aws[_-]?secret[_-]?access[_-]?key|client-key-data)|\.dockerconfigjson|\.dockercfg)";

/// A quote around a key or a value: in the model, `"` or `'`; in rendered text, also the
/// escaped forms.
const QUOTE_PLAIN: &str = r#"["']?"#;
const QUOTE_RENDERED: &str = r#"(?:\\?["']|&quot;|&#34;|&#39;|&#x27;|&apos;)?"#;
/// A value's characters up to its end (a quote, a space, a separator).
const VALUE_PLAIN: &str = r#"[^"'\s,;}\]<]+"#;
const VALUE_RENDERED: &str = r#"(?:[^"'\s,;}\]<&\\]|\\[\\/_*]|&amp;)+"#;

/// The PEM private key labels.
const PEM_KIND: &str = r"((?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY)";

/// One set of shape regexes (for the model's plain text, or for rendered text).
struct Shapes {
    key_value: Regex,
    pem: Regex,
    pem_open: Regex,
    url_userinfo: Regex,
}

impl Shapes {
    fn new(rendered: bool) -> Shapes {
        let (q, v) = if rendered {
            (QUOTE_RENDERED, VALUE_RENDERED)
        } else {
            (QUOTE_PLAIN, VALUE_PLAIN)
        };
        // A block without its end (cut evidence) is masked to the end of the text; in
        // rendered text, to the end of the string it is in.
        let open_body = if rendered {
            r#"(?:[^"<\\]|\\[^"])*"#
        } else {
            r"(?s:.*)"
        };
        // Markdown writes `_` as `\_` in rendered text.
        let keys = if rendered {
            KEYS.replace("[_-]", r"(?:\\?[_-])")
        } else {
            KEYS.to_string()
        };
        Shapes {
            key_value: Regex::new(&format!(r"(?i)({q}{keys}{q}\s*[:=]\s*{q})({v})"))
                .expect("static regex"),
            pem: Regex::new(&format!(
                r"(?s)-----BEGIN {PEM_KIND}-----.*?-----END (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----"
            ))
            .expect("static regex"),
            pem_open: Regex::new(&format!(r"-----BEGIN {PEM_KIND}-----{open_body}"))
                .expect("static regex"),
            url_userinfo: Regex::new(r#"(://[^/\s:@"'<>&]+:)[^@\s/"'<>]+@"#)
                .expect("static regex"),
        }
    }
}

static PLAIN: LazyLock<Shapes> = LazyLock::new(|| Shapes::new(false));
static RENDERED: LazyLock<Shapes> = LazyLock::new(|| Shapes::new(true));

/// Shapes whose characters no format escapes: one regex each, masked whole.
static WHOLE: LazyLock<Vec<(u16, Regex)>> = LazyLock::new(|| {
    [
        // JSON Web Tokens.
        (
            BASE64_JSON,
            r"(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ),
        // A base64 Docker config (`{"auths":`, `{\n  "auths"`, `{\n\t"auths"`, `{ "auths"`).
        (
            BASE64_JSON,
            r"(?-u:\b)(?:eyJhdXRocyI|ewogICJhdXRocyI|ewoJImF1dGhzI|eyAiYXV0aHMi)[A-Za-z0-9+/]*={0,2}",
        ),
        // A base64 PEM private key block.
        (
            PEM_BASE64,
            r"(?-u:\b)LS0tLS1CRUdJTiB(?:QUklWQVRF|SU0EgUFJJ|FQyBQUklW|PUEVOU1NI|FTkNSWVBU|EU0EgUFJJ)[A-Za-z0-9+/]*={0,2}",
        ),
        // AWS access key IDs.
        (AWS_KEY_ID, r"(?-u:\b)(?:AKIA|ASIA)[A-Z0-9]{16}(?-u:\b)"),
        // GitHub tokens.
        (
            GITHUB,
            r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})(?-u:\b)",
        ),
    ]
    .into_iter()
    .map(|(bit, r)| (bit, Regex::new(r).expect("static regex")))
    .collect()
});

/// `Bearer` and `Basic` credentials.
static AUTH_SCHEME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(bearer|basic)(\s+)([A-Za-z0-9._~+/-]{8,}=*)").expect("static regex")
});

/// Whether `text` may hold a secret (one of the literals every shape holds): the cheap test
/// before any shape's regex runs.
pub fn may_hold_secret(text: &str) -> bool {
    shapes_in(text) != 0
}

/// `text` with every secret shape of the module doc masked; borrowed when nothing was.
pub fn mask(text: &str) -> Cow<'_, str> {
    mask_with(text, &PLAIN, PLACEHOLDER)
}

/// [`mask`] for a rendered document, which also finds values in their escaped forms (JSON
/// `\"auth\":\"…\"`, HTML and XML `&quot;auth&quot;`). In an XML or HTML document the
/// placeholder is written escaped (`&lt;secret&gt;`), so every format stays valid.
pub fn mask_rendered(text: &str) -> Cow<'_, str> {
    let head = text.trim_start();
    let markup = head.starts_with("<?xml")
        || head.starts_with("<!DOCTYPE")
        || head.starts_with("<!doctype")
        || head.starts_with("<html");
    let placeholder = if markup {
        "&lt;secret&gt;"
    } else {
        PLACEHOLDER
    };
    mask_with(text, &RENDERED, placeholder)
}

/// Whether a value is an ordinary word rather than a secret: lowercase letters (and `-`)
/// only (`none`, `required`, `not-found`), or already masked.
fn is_word(v: &str) -> bool {
    v.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
        || v.starts_with("&lt;secret")
        || v == "…"
}

fn mask_with<'a>(text: &'a str, re: &Shapes, placeholder: &str) -> Cow<'a, str> {
    let shapes = shapes_in(text);
    let mut out = Cow::Borrowed(text);
    if shapes == 0 {
        return out;
    }
    if shapes & PEM != 0 {
        let pem = |c: &Captures| {
            format!(
                "-----BEGIN {}-----{placeholder}-----END {}-----",
                &c[1], &c[1]
            )
        };
        replace(&mut out, &re.pem, pem);
        replace(&mut out, &re.pem_open, |c| {
            let head = format!("-----BEGIN {}-----", &c[1]);
            if c[0][head.len()..].starts_with(placeholder) {
                // A whole block masked above.
                c[0].to_string()
            } else {
                head + placeholder
            }
        });
    }
    for (bit, re) in WHOLE.iter() {
        if shapes & bit != 0 {
            replace(&mut out, re, |_| placeholder.to_string());
        }
    }
    if shapes & SCHEME != 0 {
        replace(&mut out, &AUTH_SCHEME, |c| {
            let v = &c[3];
            if v.bytes().all(|b| b.is_ascii_lowercase()) {
                c[0].to_string()
            } else {
                format!("{}{}{placeholder}", &c[1], &c[2])
            }
        });
    }
    if shapes & KEY_VALUE != 0 {
        replace(&mut out, &re.key_value, |c| {
            let v = &c[2];
            let bare = v.trim_end_matches('…');
            if (bare.len() < 4 && !v.ends_with('…')) || is_word(v) {
                c[0].to_string()
            } else {
                format!("{}{placeholder}", &c[1])
            }
        });
    }
    if shapes & URL != 0 {
        replace(&mut out, &re.url_userinfo, |c| {
            format!("{}{placeholder}@", &c[1])
        });
    }
    out
}

/// Replaces every match of `re` in `text` by what `f` makes of it (owned only when a match
/// changed something).
fn replace(text: &mut Cow<'_, str>, re: &Regex, f: impl Fn(&Captures) -> String) {
    if !re.is_match(text) {
        return;
    }
    let replaced = re.replace_all(text, |c: &Captures| f(c));
    if let Cow::Owned(s) = replaced
        && s != **text
    {
        *text = Cow::Owned(s);
    }
}

/// Masks a string in place (it is left untouched when nothing is secret).
pub fn mask_in_place(s: &mut String) {
    if let Cow::Owned(m) = mask(s) {
        *s = m;
    }
}

/// A value that carries text from the input into a view (an object's conditions, a status
/// assessment, a recommend plan, a summary, a replay), masked in place where the view is
/// built, so that every format of it gets the masked text whatever its escaping.
pub trait Masked {
    /// Masks every secret in the texts the value took from the input.
    fn mask_secrets(&mut self);
}

impl Masked for String {
    fn mask_secrets(&mut self) {
        mask_in_place(self);
    }
}

impl<T: Masked> Masked for Vec<T> {
    fn mask_secrets(&mut self) {
        self.iter_mut().for_each(Masked::mask_secrets);
    }
}

impl<T: Masked> Masked for Option<T> {
    fn mask_secrets(&mut self) {
        if let Some(v) = self {
            v.mask_secrets();
        }
    }
}

/// A map's values and its keys (a label or config-map key taken from the input is text from
/// it too); keys that mask alike merge, the last value kept.
impl<V: Masked> Masked for std::collections::BTreeMap<String, V> {
    fn mask_secrets(&mut self) {
        self.values_mut().for_each(Masked::mask_secrets);
        if self.keys().any(|k| may_hold_secret(k)) {
            *self = std::mem::take(self)
                .into_iter()
                .map(|(mut k, v)| {
                    mask_in_place(&mut k);
                    (k, v)
                })
                .collect();
        }
    }
}

/// Every string in a JSON value taken from the input (a risk's matching rules as written),
/// object keys included.
impl Masked for serde_json::Value {
    fn mask_secrets(&mut self) {
        match self {
            serde_json::Value::String(s) => mask_in_place(s),
            serde_json::Value::Array(a) => a.mask_secrets(),
            serde_json::Value::Object(o) => {
                o.values_mut().for_each(Masked::mask_secrets);
                if o.keys().any(|k| may_hold_secret(k)) {
                    *o = std::mem::take(o)
                        .into_iter()
                        .map(|(mut k, v)| {
                            mask_in_place(&mut k);
                            (k, v)
                        })
                        .collect();
                }
            }
            serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => {
            }
        }
    }
}

impl<T: Masked, E: Masked> Masked for Result<T, E> {
    fn mask_secrets(&mut self) {
        match self {
            Ok(v) => v.mask_secrets(),
            Err(e) => e.mask_secrets(),
        }
    }
}

/// Implements [`Masked`] for a struct by masking the listed fields (each itself
/// [`Masked`]: a `String`, a list or option of them, or a struct with its own impl):
/// `masked_fields!(Condition: reason, message);`.
macro_rules! masked_fields {
    ($ty:ty: $($field:ident),+ $(,)?) => {
        impl $crate::vocab::secrets::Masked for $ty {
            fn mask_secrets(&mut self) {
                $($crate::vocab::secrets::Masked::mask_secrets(&mut self.$field);)+
            }
        }
    };
}
pub(crate) use masked_fields;

/// Masks a file's text line by line, keeping its lines (so line numbers and the lines around
/// a span stay where they were): a PEM private key block's lines each become the placeholder.
/// `None` when nothing was masked.
pub fn mask_lines(text: &str) -> Option<String> {
    if !may_hold_secret(text) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut in_key = false;
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let opens = body.contains("-----BEGIN ") && body.contains("PRIVATE KEY-----");
        let closes = body.contains("-----END ") && body.contains("PRIVATE KEY-----");
        if in_key && !opens {
            out.push_str(if closes { body } else { PLACEHOLDER });
            changed |= !closes;
            in_key = !closes;
        } else {
            let m = mask(body);
            changed |= matches!(m, Cow::Owned(_));
            out.push_str(&m);
            // A block opened and not closed on this line goes on on the next ones.
            in_key = opens && !body[body.rfind("-----BEGIN ").unwrap_or(0)..].contains("-----END ");
        }
        out.push_str(end);
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests;
