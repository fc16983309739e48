//! Writes the timeline chart as static HTML and inline SVG: an axis (ticks for every zoom
//! level, only level 1 visible without JavaScript), a grid behind the rows, one row per lane
//! that has something on it (a sticky label and an SVG strip of bars and marks with `<title>`
//! hover text), the folded quiet lanes, and a legend. Every element that moves on zoom
//! carries its zoom-1 position in `data-x` (and `data-w`), so the page script only multiplies.

use super::escape::esc;
use super::lanes::{Bar, Chart, Glyph, Group, Lane, Mark};
use super::scale::{Scale, TICK_ZOOMS, ZOOMS, gap_label};
use crate::model::Time;
use crate::timeline::fmt_short;
use std::fmt::Write;

/// Width of the plot at zoom 1, in pixels.
pub const PLOT_W: f64 = 1080.0;
/// Smallest drawn bar width.
const MIN_BAR: f64 = 1.5;

fn n(x: f64) -> String {
    format!("{x:.1}")
}

fn data_attrs(data: &[(&'static str, String)]) -> String {
    data.iter()
        .map(|(k, v)| format!(" data-{k}=\"{}\"", esc(v)))
        .collect()
}

fn lane_height(l: &Lane) -> f64 {
    let tracks = l.tracks.max(1) as f64;
    (6.0 + tracks * l.track_h + (tracks - 1.0)).max(18.0)
}

fn bar_svg(out: &mut String, b: &Bar, sc: &Scale, l: &Lane) {
    let x0 = sc.x(&b.start);
    let w = sc.x(&b.end) - x0;
    let y = 3.0 + b.track.min(l.tracks.saturating_sub(1)) as f64 * (l.track_h + 1.0);
    let open = if b.open { " open" } else { "" };
    let _ = write!(
        out,
        "<rect class=\"bar {}{open}\" x=\"{}\" width=\"{}\" y=\"{}\" height=\"{}\" rx=\"2\" data-x=\"{}\" data-w=\"{}\"{}><title>{}</title></rect>",
        b.class,
        n(x0),
        n(w.max(MIN_BAR)),
        n(y),
        n(l.track_h),
        n(x0),
        n(w),
        data_attrs(&b.data),
        esc(&b.tip)
    );
    if b.label.is_empty() || l.track_h < 12.0 {
        return;
    }
    let width_of = |s: &str| 8.0 + 6.2 * s.chars().count() as f64;
    // A label that does not fit may drop its parenthesis (`Progressing=True (Reason)`).
    let mut label = b.label.as_str();
    if width_of(label) > w
        && let Some((head, _)) = label.split_once(" (")
        && width_of(head) <= w
    {
        label = head;
    }
    let need = width_of(label);
    let ty = n(y + l.track_h - 3.5);
    if w >= need || !l.outside_labels {
        let hid = if w >= need { "" } else { " hid" };
        let _ = write!(
            out,
            "<text class=\"bl{hid}\" x=\"{}\" y=\"{ty}\" data-x=\"{}\" data-dx=\"4\" data-w=\"{}\" data-need=\"{}\">{}</text>",
            n(x0 + 4.0),
            n(x0),
            n(w),
            n(need),
            esc(label)
        );
    } else if x0 + w + width_of(&b.label) <= sc.width {
        let _ = write!(
            out,
            "<text class=\"bl out\" x=\"{}\" y=\"{ty}\" data-x=\"{}\" data-dx=\"4\">{}</text>",
            n(x0 + w + 4.0),
            n(x0 + w),
            esc(&b.label)
        );
    } else {
        let _ = write!(
            out,
            "<text class=\"bl out\" text-anchor=\"end\" x=\"{}\" y=\"{ty}\" data-x=\"{}\" data-dx=\"-4\">{}</text>",
            n(x0 - 4.0),
            n(x0),
            esc(&b.label)
        );
    }
}

fn glyph_path(g: Glyph) -> &'static str {
    match g {
        Glyph::Diamond => "M0,-5.5L5.5,0L0,5.5L-5.5,0Z",
        Glyph::Cross => "M-4,-4L4,4M4,-4L-4,4",
        Glyph::Tick => "M0,-7V7",
        Glyph::Dot => "M-3.5,0a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0",
    }
}

/// Draws a mark at height `y`; its note (if any) goes on the line below, at `note_y`.
fn mark_svg(out: &mut String, m: &Mark, sc: &Scale, y: f64, note_y: f64) {
    let x = sc.x(&m.time);
    if !m.note.is_empty() {
        let (dx, anchor) = if m.note_left {
            (-4.0, "end")
        } else {
            (4.0, "start")
        };
        let _ = write!(
            out,
            "<text class=\"note\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" data-x=\"{}\" data-dx=\"{dx}\">{}</text>",
            n(x + dx),
            n(note_y),
            n(x),
            esc(&m.note)
        );
    }
    let shape = match m.glyph {
        Glyph::Diamond => "diamond",
        Glyph::Cross => "cross",
        Glyph::Tick => "tick",
        Glyph::Dot => "dot",
    };
    let body = format!(
        "<path class=\"mark {shape} {}\" d=\"{}\" transform=\"translate({} {})\" data-x=\"{}\" data-y=\"{}\" data-t=\"{}\"{}><title>{}</title></path>",
        m.class,
        glyph_path(m.glyph),
        n(x),
        n(y),
        n(x),
        n(y),
        fmt_short(&m.time),
        data_attrs(&m.data),
        esc(&m.tip)
    );
    match &m.link {
        Some(href) => {
            let _ = write!(out, "<a href=\"{}\">{body}</a>", esc(href));
        }
        None => out.push_str(&body),
    }
}

fn lane_row(out: &mut String, l: &Lane, sc: &Scale) {
    let h = lane_height(l);
    let _ = write!(
        out,
        "<div class=\"row lane\" data-group=\"{}\" data-lane=\"{}\" data-bars=\"{}\" data-marks=\"{}\"><div class=\"lbl\" title=\"{}\">{}</div><svg class=\"plot\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\">",
        l.group.key(),
        esc(&l.key),
        l.bars.len(),
        l.marks.len(),
        esc(&l.key),
        esc(&l.label),
        n(sc.width),
        n(h),
        esc(&l.label)
    );
    for b in &l.bars {
        bar_svg(out, b, sc, l);
    }
    let with_notes = l.marks.iter().any(|m| !m.note.is_empty());
    let y = match l.marks_track {
        Some(t) => 3.0 + t as f64 * (l.track_h + 1.0) + l.track_h / 2.0,
        None if with_notes => 3.0 + l.track_h / 2.0,
        None => h / 2.0,
    };
    let note_y = 3.0 + 2.0 * l.track_h - 2.5;
    for m in &l.marks {
        mark_svg(out, m, sc, y, note_y);
    }
    out.push_str("</svg></div>\n");
}

fn axis_row(out: &mut String, sc: &Scale, class: &str) {
    let _ = write!(
        out,
        "<div class=\"row axis {class}\"><div class=\"lbl\">UTC</div><svg class=\"plot\" width=\"{}\" height=\"22\">",
        n(sc.width)
    );
    for z in TICK_ZOOMS {
        let hide = if z == 1 {
            ""
        } else {
            " style=\"display:none\""
        };
        let _ = write!(out, "<g class=\"z\" data-z=\"{z}\"{hide}>");
        for t in sc.ticks(z) {
            let _ = write!(
                out,
                "<text class=\"tick\" x=\"{}\" y=\"15\" data-x=\"{}\" data-dx=\"3\">{}</text>",
                n(t.x + 3.0),
                n(t.x),
                esc(&t.label)
            );
        }
        out.push_str("</g>");
    }
    for b in sc.breaks() {
        let _ = write!(
            out,
            "<text class=\"brk-l\" x=\"{}\" y=\"15\" data-x=\"{}\" data-dx=\"-3\"><title>{} of nothing folded</title>≈</text>",
            n((b.x0 + b.x1) / 2.0 - 3.0),
            n((b.x0 + b.x1) / 2.0),
            gap_label(b.t1 - b.t0)
        );
    }
    out.push_str("</svg></div>\n");
}

fn grid(out: &mut String, sc: &Scale, reference: Option<&Time>) {
    let _ = write!(
        out,
        "<div class=\"grid\" aria-hidden=\"true\"><svg class=\"gridsvg\" width=\"{}\" height=\"100%\">",
        n(sc.width)
    );
    for z in TICK_ZOOMS {
        let hide = if z == 1 {
            ""
        } else {
            " style=\"display:none\""
        };
        let _ = write!(out, "<g class=\"z\" data-z=\"{z}\"{hide}>");
        for t in sc.ticks(z) {
            let _ = write!(
                out,
                "<line class=\"gl\" x1=\"{}\" x2=\"{}\" y1=\"0\" y2=\"100%\" data-x=\"{}\"/>",
                n(t.x),
                n(t.x),
                n(t.x)
            );
        }
        out.push_str("</g>");
    }
    for b in sc.breaks() {
        let _ = write!(
            out,
            "<rect class=\"brk\" x=\"{}\" width=\"{}\" y=\"0\" height=\"100%\" data-x=\"{}\" data-w=\"{}\"><title>{} folded: nothing happened between {} and {}</title></rect>",
            n(b.x0),
            n(b.x1 - b.x0),
            n(b.x0),
            n(b.x1 - b.x0),
            gap_label(b.t1 - b.t0),
            seg_time(b.t0),
            seg_time(b.t1)
        );
    }
    if let Some(r) = reference {
        let x = sc.x(r);
        let _ = write!(
            out,
            "<line class=\"refl\" x1=\"{}\" x2=\"{}\" y1=\"0\" y2=\"100%\" data-x=\"{}\"><title>collected {}</title></line>",
            n(x),
            n(x),
            n(x),
            fmt_short(r)
        );
    }
    out.push_str("</svg></div>\n");
}

fn seg_time(s: f64) -> String {
    chrono::DateTime::from_timestamp(s as i64, 0)
        .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

const LEGEND: &[(&str, &str)] = &[
    ("good", "Available / ReleaseAccepted True, passed"),
    ("bad", "Available False, Failing True, not ready, failed"),
    ("prog", "Progressing / Updating True"),
    ("warn", "Degraded True"),
    ("upg", "Upgradeable False"),
    ("hist-completed", "history Completed"),
    ("hist-partial", "history Partial"),
    ("claimed", "recorded completion later than the evidence"),
    ("stall", "running release not reconciled"),
    ("unmanaged", "no CVO leading"),
    ("pass-init", "pass Initializing"),
    ("pass-upd", "pass Updating"),
    ("pass-rec", "pass Reconciling"),
    ("pass-failed", "pass failed"),
    ("pass-stuck", "pass stopped before any manifest"),
];

fn legend(out: &mut String) {
    out.push_str("<div class=\"legend\">");
    for (class, text) in LEGEND {
        let _ = write!(
            out,
            "<span><svg width=\"22\" height=\"12\" aria-hidden=\"true\"><rect class=\"bar {class}\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" rx=\"2\"/></svg>{text}</span>"
        );
    }
    for (class, text) in [
        ("sev-error", "error finding"),
        ("sev-warning", "warning finding"),
        ("sev-info", "info finding"),
    ] {
        let _ = write!(
            out,
            "<span><svg width=\"14\" height=\"14\" aria-hidden=\"true\"><path class=\"mark diamond {class}\" d=\"{}\" transform=\"translate(7 7)\"/></svg>{text}</span>",
            glyph_path(Glyph::Diamond)
        );
    }
    out.push_str(
        "<span>ClusterOperator rows, top to bottom: Progressing, Degraded, Available=False, Upgradeable=False</span><span>≈ folded idle time</span></div>\n",
    );
}

/// The chart section's inner HTML.
pub fn render(out: &mut String, chart: &Chart) {
    let activity: Vec<Time> = chart
        .lanes
        .iter()
        .flat_map(|l| {
            l.bars
                .iter()
                .flat_map(|b| [b.start, b.end])
                .chain(l.marks.iter().map(|m| m.time))
        })
        .collect();
    let sc = Scale::new(chart.start, chart.end, &activity, PLOT_W);
    out.push_str("<div id=\"controls\" class=\"controls\" hidden><span class=\"zoom\"><button type=\"button\" data-zoom=\"-1\" title=\"zoom out\">−</button><span id=\"zoomlevel\">1×</span><button type=\"button\" data-zoom=\"1\" title=\"zoom in\">+</button><button type=\"button\" data-zoom=\"0\">fit</button></span><span class=\"groups\">");
    for g in Group::ALL {
        if chart.lanes.iter().any(|l| l.group == g && !l.is_quiet()) {
            let _ = write!(
                out,
                "<label><input type=\"checkbox\" checked data-group=\"{}\"> {}</label>",
                g.key(),
                g.title()
            );
        }
    }
    out.push_str("</span><input type=\"search\" id=\"lanefilter\" placeholder=\"filter lanes\" aria-label=\"filter lanes\"><span id=\"cursor\" class=\"cursor\"></span></div>\n");
    let _ = writeln!(
        out,
        "<div class=\"chart\" id=\"chart\" data-w=\"{}\" data-segs=\"{}\" data-zooms=\"{}\" data-start=\"{}\" data-end=\"{}\">",
        n(sc.width),
        sc.encode(),
        ZOOMS.map(|z| z.to_string()).join(" "),
        fmt_short(&chart.start),
        fmt_short(&chart.end)
    );
    out.push_str("<div class=\"inner\">\n");
    grid(out, &sc, chart.reference.as_ref());
    axis_row(out, &sc, "top");
    let mut quiet: Vec<&Lane> = Vec::new();
    for g in Group::ALL {
        let lanes: Vec<&Lane> = chart.lanes.iter().filter(|l| l.group == g).collect();
        let shown: Vec<&&Lane> = lanes.iter().filter(|l| !l.is_quiet()).collect();
        quiet.extend(lanes.iter().filter(|l| l.is_quiet()));
        if shown.is_empty() {
            continue;
        }
        let folded = lanes.len() - shown.len();
        let note = if folded > 0 {
            format!(" <span class=\"muted\">({folded} quiet folded)</span>")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "<div class=\"row ghead\" data-group=\"{}\"><div class=\"lbl\">{}{note}</div></div>",
            g.key(),
            g.title()
        );
        for l in shown {
            lane_row(out, l, &sc);
        }
    }
    axis_row(out, &sc, "bottom");
    out.push_str("</div></div>\n");
    if !quiet.is_empty() {
        let _ = write!(
            out,
            "<details class=\"quiet\"><summary>{} quiet lanes folded (nothing non-healthy or in progress)</summary><ul>",
            quiet.len()
        );
        for g in Group::ALL {
            let names: Vec<String> = quiet
                .iter()
                .filter(|l| l.group == g)
                .map(|l| {
                    format!(
                        "<span data-quiet=\"{}\">{}</span>",
                        esc(&l.key),
                        esc(&l.label)
                    )
                })
                .collect();
            if !names.is_empty() {
                let _ = write!(out, "<li>{}: {}</li>", g.title(), names.join(", "));
            }
        }
        out.push_str("</ul></details>\n");
    }
    legend(out);
}
