//! `mglint completions SHELL` and `mglint man`: generated from the clap definitions
//! (clap_complete, clap_mangen), so they never drift from the real flags.

use super::{CliError, Ui, write_plain};
use crate::cli::{Cli, CompletionsArgs, ManArgs};
use clap::CommandFactory;
use std::io::Write;

pub fn completions(a: CompletionsArgs, ui: &Ui) -> Result<u8, CliError> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "mglint", &mut out);
    let script = crate::cli::completion::amend(a.shell, &String::from_utf8_lossy(&out), &cmd);
    write_plain(&script, None, ui)?;
    Ok(0)
}

/// `mglint man`: the top page on stdout, or with `--dir` one page per command (`mglint.1`,
/// `mglint-analyze.1`, `mglint-rules-check.1`, …; no page for clap's `help`, which is not a
/// command of its own), each written whole through a temporary file and renamed.
pub fn man(a: ManArgs, ui: &Ui) -> Result<u8, CliError> {
    let pages =
        pages().map_err(|e| CliError::Failed(format!("cannot render the man pages: {e}")))?;
    let Some(dir) = a.dir else {
        let top = &pages[0].1;
        write_plain(top, None, ui)?;
        return Ok(0);
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| CliError::Failed(format!("cannot create `{}`: {e}", dir.display())))?;
    for (name, text) in &pages {
        mglint::app::write_text(text, Some(&dir.join(name)))?;
    }
    if !ui.quiet {
        say!("wrote {} man pages to {}", pages.len(), dir.display());
    }
    Ok(0)
}

/// Every page, the top one first: `(file name, roff text)`.
fn pages() -> std::io::Result<Vec<(String, String)>> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, None, &mut out)?;
    Ok(out)
}

/// The page of `cmd` and of each of its visible subcommands, depth first.
fn walk(
    cmd: &clap::Command,
    parent: Option<&str>,
    out: &mut Vec<(String, String)>,
) -> std::io::Result<()> {
    let name = cmd
        .get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string();
    let children: Vec<&clap::Command> =
        cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    let mut see_also: Vec<String> = parent.map(str::to_string).into_iter().collect();
    see_also.extend(children.iter().map(|c| {
        c.get_display_name()
            .unwrap_or_else(|| c.get_name())
            .to_string()
    }));
    out.push((format!("{name}.1"), page(cmd, &see_also)?));
    for c in children {
        walk(c, Some(&name), out)?;
    }
    Ok(())
}

/// One page: clap_mangen's sections, then the long help's examples, exit codes and
/// environment as man sections of their own (examples in no-fill blocks), then SEE ALSO.
fn page(cmd: &clap::Command, see_also: &[String]) -> std::io::Result<String> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut w = Vec::new();
    man.render_title(&mut w)?;
    man.render_name_section(&mut w)?;
    man.render_synopsis_section(&mut w)?;
    man.render_description_section(&mut w)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut w)?;
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut w)?;
    }
    if let Some(after) = cmd.get_after_long_help().or(cmd.get_after_help()) {
        w.write_all(long_help_sections(&after.to_string()).as_bytes())?;
    }
    if cmd.get_version().is_some() {
        man.render_version_section(&mut w)?;
    }
    if !see_also.is_empty() {
        let refs: Vec<String> = see_also
            .iter()
            .map(|n| format!("\\fB{}\\fR(1)", roff_text(n)))
            .collect();
        writeln!(w, ".SH \"SEE ALSO\"\n{}", refs.join(", "))?;
    }
    Ok(String::from_utf8_lossy(&w).into_owned())
}

/// A long help text (`Examples:`, `Exit codes:`, `Environment:` blocks, see `cli::help`) as
/// man sections: EXAMPLES as no-fill blocks, EXIT STATUS and ENVIRONMENT as tagged
/// paragraphs, anything else as plain paragraphs.
fn long_help_sections(text: &str) -> String {
    let mut out = String::new();
    for block in text.split("\n\n") {
        let (head, body) = match block.split_once('\n') {
            Some((h, b)) if h.ends_with(':') => (h.trim_end_matches(':'), b),
            _ => match block.split_once(": ") {
                Some((h, b)) if !h.contains(' ') || h == "Exit codes" => (h, b),
                _ => ("", block),
            },
        };
        match head {
            "Examples" => {
                out.push_str(".SH EXAMPLES\n");
                for l in body.lines().filter(|l| !l.trim().is_empty()) {
                    out.push_str(".PP\n.RS 4\n.nf\n");
                    out.push_str(&roff_line(l.trim()));
                    out.push_str("\n.fi\n.RE\n");
                }
            }
            "Exit codes" | "Environment" => {
                let title = if head == "Exit codes" {
                    "EXIT STATUS"
                } else {
                    "ENVIRONMENT"
                };
                out.push_str(&format!(".SH \"{title}\"\n"));
                let rows: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
                let tagged = rows.iter().all(|l| l.starts_with("  "));
                if tagged {
                    for l in rows {
                        let l = l.trim();
                        let (tag, text) = l.split_once("  ").unwrap_or((l, ""));
                        out.push_str(&format!(
                            ".TP\n\\fB{}\\fR\n{}\n",
                            roff_text(tag.trim()),
                            roff_line(text.trim())
                        ));
                    }
                } else {
                    out.push_str(&format!(".PP\n{}\n", roff_line(&rows.join(" "))));
                }
            }
            _ => {
                let title = head.to_uppercase();
                if !title.is_empty() {
                    out.push_str(&format!(".SH \"{}\"\n", roff_text(&title)));
                }
                out.push_str(".PP\n.nf\n");
                for l in body.lines() {
                    out.push_str(&roff_line(l));
                    out.push('\n');
                }
                out.push_str(".fi\n");
            }
        }
    }
    out
}

/// Text for roff: backslashes and hyphen-minus escaped (so `--flag` prints as typed and
/// copies as ASCII).
fn roff_text(s: &str) -> String {
    s.replace('\\', "\\e").replace('-', "\\-")
}

/// [`roff_text`] for a whole line: a leading `.` or `'` is not taken for a request.
fn roff_line(s: &str) -> String {
    let t = roff_text(s);
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_has_see_also_naming_pages_that_exist_and_no_help_page() {
        let pages = pages().unwrap();
        let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names[0], "mglint.1");
        assert!(names.contains(&"mglint-analyze.1"), "{names:?}");
        assert!(names.contains(&"mglint-rules-check.1"), "{names:?}");
        assert!(!names.iter().any(|n| n.contains("help")), "{names:?}");
        for (name, text) in &pages {
            assert!(!text.contains("EXTRA"), "{name} has an EXTRA section");
            assert!(!text.contains("mglint\\-help"), "{name} names mglint-help");
            let see = text
                .split(".SH \"SEE ALSO\"\n")
                .nth(1)
                .unwrap_or_else(|| panic!("{name} has no SEE ALSO"));
            for r in see.lines().next().unwrap().split(", ") {
                let page = r
                    .trim_start_matches("\\fB")
                    .replace("\\fR(1)", ".1")
                    .replace("\\-", "-");
                assert!(names.contains(&page.as_str()), "{name}: {page} is no page");
            }
        }
        let top = &pages[0].1;
        let ex = top.split(".SH EXAMPLES\n").nth(1).expect("examples");
        assert!(
            ex.starts_with(".PP\n.RS 4\n.nf\nmglint analyze must\\-gather.tar.gz\n.fi\n"),
            "{ex}"
        );
        assert!(
            top.contains(".SH \"EXIT STATUS\"\n.TP\n\\fB0\\fR\n"),
            "{top}"
        );
    }
}
