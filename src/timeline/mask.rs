//! Secrets masked in the timeline as it is built (see [`crate::vocab::secrets`]): the texts
//! its events, episodes and history carry from the input (messages, summaries, evidence).

use super::{Evidence, Timeline};
use crate::vocab::secrets::mask_in_place;

impl Timeline {
    /// Masks every secret in the texts the timeline took from the input.
    ///
    /// The events on the pool: a steady year's are tens of thousands, each scanned for
    /// secrets' shapes, and the main thread did it alone while the other waited.
    pub fn mask_secrets(&mut self) {
        use rayon::prelude::*;
        self.events.par_iter_mut().with_min_len(1024).for_each(|e| {
            mask_in_place(&mut e.message);
            evidence(&mut e.evidence);
        });
        for ep in &mut self.episodes {
            // The headline masked alone, kept when the masked summary still begins with it
            // (else the whole summary is the headline: masked either way).
            let head = ep.headline_len.and_then(|n| {
                let mut h = ep.summary.get(..n)?.to_string();
                mask_in_place(&mut h);
                Some(h)
            });
            mask_in_place(&mut ep.summary);
            ep.headline_len = head
                .filter(|h| ep.summary.starts_with(h.as_str()))
                .map(|h| h.len());
            evidence(&mut ep.evidence);
            for m in &mut ep.milestones {
                evidence(&mut m.evidence);
            }
        }
        for h in &mut self.history {
            evidence(&mut h.evidence);
        }
        for u in &mut self.unread {
            mask_in_place(&mut u.reason);
        }
    }
}

fn evidence(list: &mut [Evidence]) {
    for e in list {
        mask_in_place(&mut e.text);
    }
}
