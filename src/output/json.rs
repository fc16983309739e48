//! The JSON report: the [`Report`] model as-is (`"schema": "mglint/report/v2"`), pretty-printed
//! as a document of its own, or on one line as one cluster's of several (JSON Lines).

use crate::rules::Report;
use crate::vocab::text::JsonLayout;

/// The report in `layout` (pretty: with a final newline; a line: without one).
pub fn render(report: &Report, layout: JsonLayout) -> String {
    // Serializing plain data with string keys cannot fail; fall back to a stub all the same.
    match layout.write(report) {
        Ok(s) if layout == JsonLayout::Pretty => s + "\n",
        Ok(s) => s,
        Err(e) => format!(
            "{{\"schema\": \"{}\", \"error\": {:?}}}\n",
            crate::vocab::schema::REPORT,
            e.to_string()
        ),
    }
}
