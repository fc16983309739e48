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

impl BatchSummary {
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a Row>) -> BatchSummary {
        let mut s = BatchSummary::default();
        let mut codes: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut secs: Vec<f64> = Vec::new();
        let mut inputs: std::collections::BTreeSet<(usize, &str)> = Default::default();
        for r in rows {
            // An input's bytes are on each of its rows: counted once.
            if let Some(b) = r.fetched_bytes
                && !inputs.contains(&(r.index, r.input.as_str()))
            {
                s.fetched_inputs += 1;
                s.fetched_bytes += b;
            }
            inputs.insert((r.index, r.input.as_str()));
            s.clusters += 1;
            match r.outcome {
                Outcome::Ok => s.ok += 1,
                Outcome::Findings => s.findings += 1,
                Outcome::Error => s.errors += 1,
            }
            for c in &r.codes {
                let e = codes.entry(&c.code).or_default();
                e.0 += 1;
                e.1 += c.count;
            }
            secs.extend(
                r.updates
                    .iter()
                    .filter(|u| u.state == "completed")
                    .filter_map(|u| u.duration_seconds.map(|s| s as f64)),
            );
        }
        s.inputs = inputs.len();
        s.codes = codes
            .into_iter()
            .map(|(code, (inputs, findings))| CodeCount {
                code: code.to_string(),
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
}
