//! What the terminal asks of the human view: colour by the conventions clap and most CLI
//! tools follow (`--color auto|always|never`; with `auto`, `NO_COLOR` turns it off,
//! `CLICOLOR_FORCE` on, `TERM=dumb` and a pipe off; resolved by `anstream`), and the width
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
        let choice = match self {
            ColorChoice::Always => return true,
            ColorChoice::Never => return false,
            ColorChoice::Auto => anstream::AutoStream::choice(&std::io::stdout()),
        };
        !matches!(choice, anstream::ColorChoice::Never)
    }
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
        }
    }
}
