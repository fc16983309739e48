//! What the terminal asks of the human view: colour by the conventions clap and most CLI
//! tools follow (`--color auto|always|never`; with `auto`, `NO_COLOR` turns it off,
//! `CLICOLOR_FORCE` (not `0`) on, `TERM=dumb` and a pipe off), and the width
//! (`COLUMNS`, then the terminal's size from `terminal_size`, else 100 columns).

use super::RenderOptions;
use std::io::IsTerminal;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour on a terminal that supports it, unless `NO_COLOR`; `CLICOLOR_FORCE` forces it.
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
