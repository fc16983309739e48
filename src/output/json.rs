//! The JSON report: the [`Report`] model as-is (`"schema": "mglint/report/v2"`), pretty-printed.

use crate::rules::Report;

pub fn render(report: &Report) -> String {
    // Serializing plain data with string keys cannot fail; fall back to a stub all the same.
    match serde_json::to_string_pretty(report) {
        Ok(s) => s + "\n",
        Err(e) => format!(
            "{{\"schema\": \"{}\", \"error\": {:?}}}\n",
            crate::vocab::schema::REPORT,
            e.to_string()
        ),
    }
}
