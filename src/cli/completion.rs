//! What clap_complete's scripts lack, added to them: in bash, a word that does not start
//! with `-` completes as the command's positional values (rule codes for `explain`, shells
//! for `completions`) or, where it takes paths, as file names (bash's default completion),
//! instead of offering only flags (all starting with `-`, so bash inserted a lone `-`); in
//! fish, `explain` completes rule codes and families. zsh's script already does both.

use clap_complete::Shell;

/// `script` (clap_complete's output for `shell`) with the completions above added; `cmd`
/// is the command it was generated from.
pub fn amend(shell: Shell, script: &str, cmd: &clap::Command) -> String {
    match shell {
        Shell::Bash => bash(script),
        Shell::Fish => fish(script, cmd),
        _ => script.to_string(),
    }
}

/// The bash script: in each subcommand's case, flags only for a word starting with `-`
/// (clap's script also offered them for the first word after the subcommand), and for other
/// words the non-flag values of the case, else file names.
fn bash(script: &str) -> String {
    let mut out = String::with_capacity(script.len() + 512);
    let mut in_sub = false;
    let mut after_esac = false;
    for line in script.split_inclusive('\n') {
        let t = line.trim();
        if t.ends_with(')') && t.starts_with("mglint") && !t.contains(' ') {
            in_sub = t != "mglint)";
            after_esac = false;
        }
        if t == "esac" {
            after_esac = true;
        }
        if in_sub && t.starts_with("if [[ ${cur} == -* || ${COMP_CWORD} -eq ") {
            out.push_str(&line.replace(
                &t[t.find(" || ").unwrap_or(0)..t.find(" ]]").unwrap_or(0)],
                "",
            ));
            continue;
        }
        if in_sub && after_esac && t == r#"COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )"# {
            after_esac = false;
            // The fallback at the end of a case: the values, not the flags.
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(&format!(
                "{indent}_mglint_positional \"${{opts}}\" \"${{cur}}\"\n"
            ));
            continue;
        }
        out.push_str(line);
    }
    out.push_str(BASH_POSITIONAL);
    out
}

/// Sets `COMPREPLY` for a word that is not a flag: the values among a case's options (rule
/// codes, shells, subcommands), else file names.
const BASH_POSITIONAL: &str = r#"
_mglint_positional() {
    local w values=()
    for w in $1; do
        [[ $w == -* || $w == '<'* ]] || values+=("$w")
    done
    if [[ ${#values[@]} -gt 0 ]]; then
        COMPREPLY=( $(compgen -W "${values[*]}" -- "$2") )
    else
        compopt -o filenames 2>/dev/null
        COMPREPLY=( $(compgen -f -- "$2") )
    fi
}
"#;

/// The fish script with `explain`'s codes (and families) as its argument's values.
fn fish(script: &str, cmd: &clap::Command) -> String {
    let mut out = script.to_string();
    let codes: Vec<String> = cmd
        .find_subcommand("explain")
        .and_then(|e| e.get_arguments().find(|a| a.get_id() == "code"))
        .map(|a| {
            a.get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect()
        })
        .unwrap_or_default();
    if !codes.is_empty() {
        out.push_str(&format!(
            "complete -c mglint -n \"__fish_mglint_using_subcommand explain\" -f -a \"{}\"\n",
            codes.join(" ")
        ));
    }
    out
}
