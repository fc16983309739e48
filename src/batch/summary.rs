//! The batch summary: inputs and their clusters, clusters (rows) by outcome, the most frequent finding codes and how long the
//! completed updates took, computed from rows and printed as a small table.

use super::row::{Outcome, Row};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// How many codes the table lists.
pub const TOP_CODES: usize = 10;

/// One finding code across the batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeCount {
    pub code: String,
    /// Clusters (rows) with at least one finding of this code.
    pub inputs: usize,
    /// Findings of this code in all inputs.
    pub findings: usize,
}

/// Counts over a set of rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BatchSummary {
    /// Inputs with a row.
    pub inputs: usize,
    /// Rows: one per cluster of each input (an error row is one). `ok`, `findings` and
    /// `errors` count these.
    pub clusters: usize,
    pub ok: usize,
    pub findings: usize,
    pub errors: usize,
    /// Every code, most inputs first, then by code.
    pub codes: Vec<CodeCount>,
    /// Completed updates and their median and longest duration in seconds.
    pub updates_completed: usize,
    pub update_median_seconds: Option<f64>,
    pub update_max_seconds: Option<f64>,
    /// Inputs fetched over the network by this run (URL inputs with a `fetched_bytes`), and
    /// the bytes fetched for them in all.
    pub fetched_inputs: usize,
    pub fetched_bytes: u64,
}

/// A summary added to one input's rows at a time, holding counts, not rows: a batch of any
/// length keeps per input only what the median needs (one duration per completed update).
#[derive(Debug, Default)]
pub struct SummaryBuilder {
    s: BatchSummary,
    codes: BTreeMap<String, (usize, usize)>,
    secs: Vec<f64>,
}

impl SummaryBuilder {
    /// Adds the rows of one input (all of them, as `analyze` gave them).
    pub fn add_input(&mut self, rows: &[Row]) {
        let Some(first) = rows.first() else { return };
        self.s.inputs += 1;
        // An input's bytes are on each of its rows: counted once.
        if let Some(b) = first.fetched_bytes {
            self.s.fetched_inputs += 1;
            self.s.fetched_bytes += b;
        }
        for r in rows {
            self.add_row(r);
        }
    }

    fn add_row(&mut self, r: &Row) {
        let s = &mut self.s;
        s.clusters += 1;
        match r.outcome {
            Outcome::Ok => s.ok += 1,
            Outcome::Findings => s.findings += 1,
            Outcome::Error => s.errors += 1,
        }
        for c in &r.codes {
            match self.codes.get_mut(c.code.as_str()) {
                Some(e) => {
                    e.0 += 1;
                    e.1 += c.count;
                }
                None => {
                    self.codes.insert(c.code.clone(), (1, c.count));
                }
            }
        }
        self.secs.extend(
            r.updates
                .iter()
                .filter(|u| u.state == "completed")
                .filter_map(|u| u.duration_seconds.map(|s| s as f64)),
        );
    }

    pub fn finish(self) -> BatchSummary {
        let SummaryBuilder {
            mut s,
            codes,
            mut secs,
        } = self;
        s.codes = codes
            .into_iter()
            .map(|(code, (inputs, findings))| CodeCount {
                code,
                inputs,
                findings,
            })
            .collect();
        s.codes.sort_by(|a, b| {
            b.inputs
                .cmp(&a.inputs)
                .then(b.findings.cmp(&a.findings))
                .then(a.code.cmp(&b.code))
        });
        secs.sort_by(f64::total_cmp);
        s.updates_completed = secs.len();
        s.update_median_seconds = secs.get(secs.len() / 2).copied();
        s.update_max_seconds = secs.last().copied();
        s
    }
}

impl BatchSummary {
    /// The summary of rows in any order: an input's rows are those with its index and name.
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a Row>) -> BatchSummary {
        let mut b = SummaryBuilder::default();
        b.add_grouped(rows);
        b.finish()
    }
}

impl SummaryBuilder {
    /// Adds rows in any order, grouped into inputs by index and name (the rows of an
    /// earlier run, read back from its output).
    pub fn add_grouped<'a>(&mut self, rows: impl IntoIterator<Item = &'a Row>) {
        let mut inputs: BTreeMap<(usize, &str), Vec<&Row>> = BTreeMap::new();
        let mut order = Vec::new();
        for r in rows {
            let key = (r.index, r.input.as_str());
            let e = inputs.entry(key).or_default();
            if e.is_empty() {
                order.push(key);
            }
            e.push(r);
        }
        for key in order {
            let rows = &inputs[&key];
            self.s.inputs += 1;
            if let Some(b) = rows[0].fetched_bytes {
                self.s.fetched_inputs += 1;
                self.s.fetched_bytes += b;
            }
            for r in rows {
                self.add_row(r);
            }
        }
    }
}

impl BatchSummary {
    /// The summary as a small text table.
    pub fn render(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "inputs          {:>7}", self.inputs);
        let _ = writeln!(t, "clusters        {:>7}", self.clusters);
        let _ = writeln!(t, "ok              {:>7}", self.ok);
        let _ = writeln!(t, "with findings   {:>7}", self.findings);
        let _ = writeln!(t, "errors          {:>7}", self.errors);
        if self.fetched_inputs > 0 {
            let _ = writeln!(
                t,
                "fetched         {:>7} bytes for {} inputs, {} per input",
                self.fetched_bytes,
                self.fetched_inputs,
                self.fetched_bytes / self.fetched_inputs as u64
            );
        }
        if self.updates_completed > 0 {
            let _ = writeln!(
                t,
                "updates         {:>7} completed, median {}, longest {}",
                self.updates_completed,
                minutes(self.update_median_seconds),
                minutes(self.update_max_seconds)
            );
        }
        if !self.codes.is_empty() {
            let _ = writeln!(t, "\ntop codes      clusters  findings");
            for c in self.codes.iter().take(TOP_CODES) {
                let _ = writeln!(t, "{:<15} {:>7} {:>9}", c.code, c.inputs, c.findings);
            }
        }
        t
    }
}

fn minutes(s: Option<f64>) -> String {
    match s {
        Some(s) => format!("{:.1} min", s / 60.0),
        None => "-".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_rank_by_inputs_then_findings_then_code() {
        let mut a = Row::error(0, "a", Vec::new());
        a.outcome = Outcome::Findings;
        let cc = |code: &str, count| crate::batch::RowCodeCount {
            code: code.to_string(),
            count,
        };
        a.codes = vec![cc("CV002", 1), cc("LOG001", 5)];
        let mut b = Row::error(1, "b", Vec::new());
        b.outcome = Outcome::Ok;
        b.codes = vec![cc("CV002", 2)];
        let c = Row::error(2, "c", vec!["gone".into()]);
        let s = BatchSummary::of([&a, &b, &c]);
        assert_eq!(
            (s.inputs, s.clusters, s.ok, s.findings, s.errors),
            (3, 3, 1, 1, 1)
        );
        let order: Vec<_> = s
            .codes
            .iter()
            .map(|c| (c.code.as_str(), c.inputs, c.findings))
            .collect();
        assert_eq!(order, [("CV002", 2, 3), ("LOG001", 1, 5)]);
        assert!(
            s.render().contains("CV002                 2         3"),
            "{}",
            s.render()
        );
    }

    /// Added an input at a time as a batch runs, the summary is the one of all its rows at
    /// once: inputs of several rows (clusters), bytes fetched counted once an input, the
    /// median of the updates' durations.
    #[test]
    fn added_an_input_at_a_time_it_is_the_summary_of_all_the_rows() {
        let cc = |code: &str, count| crate::batch::RowCodeCount {
            code: code.to_string(),
            count,
        };
        let mut inputs: Vec<Vec<Row>> = Vec::new();
        for i in 0..7usize {
            let mut rows = Vec::new();
            for k in 0..=(i % 3) {
                let mut r = Row::error(i, &format!("job-{i}"), Vec::new());
                r.outcome = [Outcome::Ok, Outcome::Findings, Outcome::Error][(i + k) % 3];
                r.codes = vec![cc(["CV002", "LOG001", "KI009"][(i * 2 + k) % 3], i + k + 1)];
                r.fetched_bytes = (i % 2 == 0).then_some(1000 + i as u64);
                r.updates = serde_json::from_value(serde_json::json!([{
                    "from": "4.13.0", "to": "4.14.0", "start": "2024-06-25T10:00:00Z",
                    "end": null, "state": "completed",
                    "duration_seconds": (60 * (i + k + 1)) as i64
                }]))
                .unwrap();
                rows.push(r);
            }
            inputs.push(rows);
        }
        let all: Vec<&Row> = inputs.iter().flatten().collect();
        let whole = BatchSummary::of(all.iter().copied());
        let mut b = SummaryBuilder::default();
        for rows in inputs.iter().rev() {
            b.add_input(rows);
        }
        let added = b.finish();
        assert_eq!(added, whole);
        assert_eq!(
            (whole.inputs, whole.clusters, whole.fetched_inputs),
            (7, 13, 4)
        );
        assert_eq!(whole.fetched_bytes, 1000 + 1002 + 1004 + 1006);
        assert_eq!(whole.updates_completed, 13, "{whole:?}");
    }
}
