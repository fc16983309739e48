//! A batch row as text for people (`mglint batch --format text`): one line per cluster
//! (input, outcome, update or version, finding counts, codes), then each of its errors
//! indented on a line of its own. Everything from the input is kept on its line with its
//! control characters shown escaped ([`crate::vocab::escape::one_line`]), so a hostile name
//! cannot forge a row.

use super::row::{Outcome, Row};
use crate::vocab::escape::one_line;
use crate::vocab::text::plural;

impl Row {
    /// The row as text, ending with a newline.
    pub fn render_text(&self) -> String {
        let mut head = one_line(&self.input).into_owned();
        if self.clusters > 1 {
            head.push_str(&format!(
                " (cluster {} of {})",
                self.cluster_index + 1,
                self.clusters
            ));
        }
        head.push_str("  ");
        head.push_str(self.outcome.as_str());
        let mut parts: Vec<String> = Vec::new();
        match (&self.from, &self.to, &self.version) {
            (Some(from), Some(to), _) if from != to => {
                parts.push(format!("{} to {}", one_line(from), one_line(to)));
            }
            (_, Some(v), _) | (_, None, Some(v)) => parts.push(format!("at {}", one_line(v))),
            _ => {}
        }
        if self.outcome != Outcome::Error || !self.codes.is_empty() {
            let s = &self.summary;
            parts.push(format!(
                "{}, {}, {} info",
                plural(s.errors, "error", "errors"),
                plural(s.warnings, "warning", "warnings"),
                s.info
            ));
        }
        let mut line = head;
        if !parts.is_empty() {
            line.push_str("  ");
            line.push_str(&parts.join(", "));
        }
        if !self.codes.is_empty() {
            let codes: Vec<String> = self
                .codes
                .iter()
                .map(|c| match c.count {
                    1 => c.code.clone(),
                    n => format!("{} ({n})", c.code),
                })
                .collect();
            line.push_str(": ");
            line.push_str(&codes.join(", "));
        }
        line.push('\n');
        for e in &self.errors {
            line.push_str("  ");
            line.push_str(&one_line(e));
            line.push('\n');
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::RowCodeCount;

    #[test]
    fn a_row_is_one_line_then_its_errors() {
        let mut r = Row::error(0, "jobs/1", Vec::new());
        r.outcome = Outcome::Findings;
        r.from = Some("4.14.0".into());
        r.to = Some("4.14.1".into());
        r.summary.errors = 2;
        r.summary.warnings = 1;
        r.codes = vec![
            RowCodeCount {
                code: "CI001".into(),
                count: 1,
            },
            RowCodeCount {
                code: "CV005".into(),
                count: 2,
            },
        ];
        r.errors = vec!["`a.yaml`: truncated\nforged".into()];
        r.clusters = 2;
        r.cluster_index = 1;
        assert_eq!(
            r.render_text(),
            "jobs/1 (cluster 2 of 2)  findings  4.14.0 to 4.14.1, 2 errors, 1 warning, 0 info: CI001, CV005 (2)\n  `a.yaml`: truncated\\x0aforged\n"
        );
        let bad = Row::error(3, "/no/such", vec!["no such file or directory".into()]);
        assert_eq!(
            bad.render_text(),
            "/no/such  error\n  no such file or directory\n"
        );
    }
}
