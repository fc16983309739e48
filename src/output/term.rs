//! What the terminal asks of the human view: colour by the conventions clap and most CLI
//! tools follow (`--color auto|always|never`; with `auto`, `NO_COLOR` turns it off,
//! `CLICOLOR_FORCE` (not `0`) on, `TERM=dumb` and a pipe off), and the width
//! (`COLUMNS`, then the terminal's size from `terminal_size`, else 100 columns).

use super::RenderOptions;
use std::io::IsTerminal;

/// `--color` (the CLI's values, `auto`, `always` and `never`, are derived): `Auto` colours
/// on a terminal that supports it, unless `NO_COLOR`; `CLICOLOR_FORCE` forces it. (The
/// variants have no doc comments: clap would list them as help under `--color`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Narrowest width the human view lays out for.
const MIN_WIDTH: usize = 40;
/// Width when neither `COLUMNS` nor a terminal says.
const DEFAULT_WIDTH: usize = 100;

impl ColorChoice {
    /// Whether output to standard output gets colour.
    pub fn for_stdout(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => auto_color(
                |k| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned()),
                std::io::stdout().is_terminal(),
            ),
        }
    }
}

/// `--color auto`: `NO_COLOR` (non-empty) turns colour off; `CLICOLOR_FORCE` non-empty and
/// not `0` turns it on (`CLICOLOR_FORCE=0` is "not forced", as the convention says and
/// `--help` promises); else colour on a terminal whose `TERM` is not `dumb`.
fn auto_color(env: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
    if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    if env("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
        return true;
    }
    terminal && env("TERM").is_none_or(|t| t != "dumb")
}

/// The width for standard output: `COLUMNS` when it is a number, else the terminal's width
/// when standard output is one, else 100; never below 40.
pub fn stdout_width() -> usize {
    let from_env = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| *w > 0);
    let from_tty = || {
        let out = std::io::stdout();
        out.is_terminal()
            .then(|| terminal_size::terminal_size_of(&out))
            .flatten()
            .map(|(w, _)| usize::from(w.0))
    };
    from_env
        .or_else(from_tty)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

impl RenderOptions {
    /// For standard output: colour as `choice` and the environment say, the terminal's width.
    pub fn for_stdout(choice: ColorChoice) -> Self {
        RenderOptions {
            color: choice.for_stdout(),
            width: stdout_width(),
            ..RenderOptions::default()
        }
    }
}

/// The width standard output asks for, when something says it: `COLUMNS` when it is a
/// number, else the terminal's width when standard output is one; `None` for a pipe without
/// `COLUMNS` (then lines stay whole, so `grep` and `cut` see one record a line).
pub fn known_stdout_width() -> Option<usize> {
    let from_env = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| *w > 0);
    from_env
        .or_else(|| {
            let out = std::io::stdout();
            out.is_terminal()
                .then(|| terminal_size::terminal_size_of(&out))
                .flatten()
                .map(|(w, _)| usize::from(w.0))
        })
        .map(|w| w.max(MIN_WIDTH))
}

/// Wraps each line of a text view (a summary, a timeline table, the rule list, a replay
/// verdict) that is wider than `width` at spaces. A continuation line is indented to where
/// the line's last column starts (after the last run of two spaces or more, when that lies
/// in the first half of the width), else two columns past the line's own indentation,
/// so a table's last column reads as a block under its heading. A word longer than the room
/// left is broken.
pub fn wrap_lines(text: &str, width: usize) -> String {
    let width = width.max(MIN_WIDTH);
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if textwrap::core::display_width(body) <= width {
            out.push_str(line);
            continue;
        }
        let indent = " ".repeat(continuation_indent(body, width));
        let opts = textwrap::Options::new(width)
            .subsequent_indent(&indent)
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .break_words(true)
            .word_separator(textwrap::WordSeparator::AsciiSpace);
        let lead = body.len() - body.trim_start_matches(' ').len();
        let wrapped = textwrap::wrap(&body[lead..], opts.initial_indent(&body[..lead]));
        for (i, l) in wrapped.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(l.trim_end());
        }
        out.push_str(nl);
    }
    out
}

/// Where a wrapped line's continuation starts (see [`wrap_lines`]).
fn continuation_indent(line: &str, width: usize) -> usize {
    let lead = line.len() - line.trim_start_matches(' ').len();
    let limit = width / 2;
    let mut col = None;
    let mut spaces = 0;
    for (i, c) in line.char_indices() {
        if c == ' ' {
            spaces += 1;
            continue;
        }
        if spaces >= 2 && i > lead && i <= limit {
            col = Some(textwrap::core::display_width(&line[..i]));
        }
        spaces = 0;
    }
    col.unwrap_or((lead + 2).min(limit))
}

#[cfg(test)]
mod color_tests {
    use super::auto_color;

    #[test]
    fn clicolor_force_0_does_not_force() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(!auto_color(env(&[("CLICOLOR_FORCE", "0")]), false));
        assert!(auto_color(env(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!auto_color(
            env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]),
            true
        ));
        assert!(!auto_color(env(&[("TERM", "dumb")]), true));
        assert!(auto_color(env(&[("TERM", "xterm")]), true));
        assert!(!auto_color(env(&[]), false));
    }
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap_lines;

    #[test]
    fn a_table_row_wraps_under_its_last_column_and_short_lines_stay() {
        let row = "2020-04-09 17:38:21.000  cluster-operator     clusteroperator/kube-controller-manager  `Upgradeable` → True (AsExpected)\nshort\n";
        let w = wrap_lines(row, 60);
        for l in w.lines() {
            assert!(l.chars().count() <= 60, "{l:?}");
        }
        let lines: Vec<&str> = w.lines().collect();
        assert_eq!(lines.last(), Some(&"short"));
        // Continuations start at the second column (after the time), the first half.
        assert!(lines[1].starts_with(&" ".repeat(25)) && !lines[1].starts_with(&" ".repeat(26)));
        let words = |t: &str| t.split_whitespace().collect::<String>();
        assert_eq!(words(&w), words(row));
    }
}
