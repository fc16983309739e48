//! Writes the timeline chart as static HTML and inline SVG: an axis (ticks for every zoom
//! level, only level 1 visible without JavaScript), a grid behind the rows, one row per lane
//! that has something on it (a sticky label and an SVG strip of bars and marks with `<title>`
//! hover text), the folded quiet lanes, and a legend. Every element that moves on zoom
//! carries its zoom-1 position in `data-x` (and `data-w`), so the page script only multiplies.

use super::Scope;
use super::lane_model::{Bar, Chart, Data, Glyph, Group, Lane, Mark};
use super::scale::{Scale, TICK_ZOOMS, ZOOMS, gap_label};
use super::text::Text;
use crate::model::Time;
use crate::timeline::fmt_short;
use maud::{Markup, html};

/// Width of the plot at zoom 1, in pixels.
pub const PLOT_W: f64 = 1080.0;
/// Smallest drawn bar width.
const MIN_BAR: f64 = 1.5;

/// A coordinate as written: one decimal.
fn n(x: f64) -> String {
    format!("{x:.1}")
}

/// An optional `data-*` value.
fn opt(v: &Option<String>) -> Option<Text<'_>> {
    v.as_deref().map(Text)
}

/// `display:none` for the tick sets of every zoom level but 1.
fn hidden_level(z: u32) -> Option<&'static str> {
    (z != 1).then_some("display:none")
}

fn lane_height(l: &Lane) -> f64 {
    let tracks = l.tracks.max(1) as f64;
    (6.0 + tracks * l.track_h + (tracks - 1.0)).max(18.0)
}

fn bar_svg(b: &Bar, sc: &Scale, l: &Lane) -> Markup {
    let x0 = sc.x(&b.start);
    let w = sc.x(&b.end) - x0;
    let y = 3.0 + b.track.min(l.tracks.saturating_sub(1)) as f64 * (l.track_h + 1.0);
    let d: &Data = &b.data;
    let rect = html! {
        rect class={ "bar " (b.class) @if b.open { " open" } } x=(n(x0)) width=(n(w.max(MIN_BAR)))
            y=(n(y)) height=(n(l.track_h)) rx="2" data-x=(n(x0)) data-w=(n(w))
            data-start=[opt(&d.start)] data-end=[opt(&d.end)] data-actual=[opt(&d.actual)]
            data-recorded=[opt(&d.recorded)] data-cond=[opt(&d.cond)]
            data-version=[opt(&d.version)] data-state=[opt(&d.state)]
            data-episode=[opt(&d.episode)] data-release=[opt(&d.release)]
            data-what=[opt(&d.what)] data-count=[opt(&d.count)]
            data-interval=[opt(&d.interval)] data-code=[opt(&d.code)] {
            title { (Text(&b.tip)) }
        }
    };
    if b.label.is_empty() || l.track_h < 12.0 {
        return rect;
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
    html! {
        (rect)
        @if w >= need || !l.outside_labels {
            text class=(if w >= need { "bl" } else { "bl hid" }) x=(n(x0 + 4.0)) y=(ty)
                data-x=(n(x0)) data-dx="4" data-w=(n(w)) data-need=(n(need)) { (Text(label)) }
        } @else if x0 + w + width_of(&b.label) <= sc.width {
            text class="bl out" x=(n(x0 + w + 4.0)) y=(ty) data-x=(n(x0 + w)) data-dx="4" {
                (Text(&b.label))
            }
        } @else {
            text class="bl out" text-anchor="end" x=(n(x0 - 4.0)) y=(ty) data-x=(n(x0))
                data-dx="-4" { (Text(&b.label)) }
        }
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
fn mark_svg(m: &Mark, sc: &Scale, y: f64, note_y: f64) -> Markup {
    let x = sc.x(&m.time);
    let (dx, anchor) = if m.note_left {
        (-4.0, "end")
    } else {
        (4.0, "start")
    };
    let shape = match m.glyph {
        Glyph::Diamond => "diamond",
        Glyph::Cross => "cross",
        Glyph::Tick => "tick",
        Glyph::Dot => "dot",
    };
    let d: &Data = &m.data;
    let body = html! {
        path class={ "mark " (shape) " " (m.class) } d=(glyph_path(m.glyph))
            transform={ "translate(" (n(x)) " " (n(y)) ")" } data-x=(n(x)) data-y=(n(y))
            data-t=(fmt_short(&m.time))
            data-start=[opt(&d.start)] data-end=[opt(&d.end)] data-actual=[opt(&d.actual)]
            data-recorded=[opt(&d.recorded)] data-cond=[opt(&d.cond)]
            data-version=[opt(&d.version)] data-state=[opt(&d.state)]
            data-episode=[opt(&d.episode)] data-release=[opt(&d.release)]
            data-what=[opt(&d.what)] data-count=[opt(&d.count)]
            data-interval=[opt(&d.interval)] data-code=[opt(&d.code)] {
            title { (Text(&m.tip)) }
        }
    };
    html! {
        @if !m.note.is_empty() {
            text class="note" x=(n(x + dx)) y=(n(note_y)) text-anchor=(anchor) data-x=(n(x))
                data-dx=(dx) { (Text(&m.note)) }
        }
        @match &m.link {
            Some(href) => a href=(Text(href)) aria-label=(Text(&m.tip)) { (body) },
            None => (body),
        }
    }
}

/// The most characters a lane label shows (what the label column holds at 12 px).
const LABEL_CHARS: usize = 30;

/// `label` cut in the middle to `head` and `tail` characters around `…` (the end of a name
/// is what tells `co/openshift-controller-manager` from `…-operator`).
fn cut_middle(label: &str, head: usize, tail: usize) -> String {
    let chars: Vec<char> = label.chars().collect();
    if chars.len() <= head + tail + 1 {
        return label.to_string();
    }
    let mut s: String = chars[..head].iter().collect();
    s.push('…');
    s.extend(&chars[chars.len() - tail..]);
    s
}

/// The text each lane's label shows: whole when it fits, else cut in the middle; two
/// different labels never show the same text (a collision keeps more of the end, then
/// all but the first characters, then the whole label).
pub(crate) fn shown_labels(labels: &[&str]) -> Vec<String> {
    let tries = [(14, 15), (6, 23), (1, 28)];
    let mut out: Vec<String> = labels
        .iter()
        .map(|l| cut_middle(l, tries[0].0, tries[0].1))
        .collect();
    for &(head, tail) in tries[1..].iter().chain(&[(usize::MAX / 4, 0)]) {
        let mut clash = vec![false; out.len()];
        for i in 0..out.len() {
            for j in i + 1..out.len() {
                if out[i] == out[j] && labels[i] != labels[j] {
                    clash[i] = true;
                    clash[j] = true;
                }
            }
        }
        if !clash.contains(&true) {
            break;
        }
        for (i, c) in clash.iter().enumerate() {
            if *c {
                out[i] = if head > LABEL_CHARS {
                    labels[i].to_string()
                } else {
                    cut_middle(labels[i], head, tail)
                };
            }
        }
    }
    out
}

fn lane_row(l: &Lane, shown: &str, sc: &Scale) -> Markup {
    let h = lane_height(l);
    let with_notes = l.marks.iter().any(|m| !m.note.is_empty());
    let y = match l.marks_track {
        Some(t) => 3.0 + t as f64 * (l.track_h + 1.0) + l.track_h / 2.0,
        None if with_notes => 3.0 + l.track_h / 2.0,
        None => h / 2.0,
    };
    let note_y = 3.0 + 2.0 * l.track_h - 2.5;
    html! {
        div class="row lane" data-group=(l.group.key()) data-lane=(Text(&l.key))
            data-bars=(l.bars.len()) data-marks=(l.marks.len()) {
            div class="lbl" title=(Text(&format!("{} ({})", l.label, l.key))) { (Text(shown)) }
            // A lane whose marks link to findings is a group of links, not an image.
            svg class="plot" width=(n(sc.width)) height=(n(h))
                role=(if l.marks.iter().any(|m| m.link.is_some()) { "group" } else { "img" })
                aria-label=(Text(&l.label)) {
                @for b in &l.bars { (bar_svg(b, sc, l)) }
                @for m in &l.marks { (mark_svg(m, sc, y, note_y)) }
            }
        }
        "\n"
    }
}

fn axis_row(sc: &Scale, class: &str) -> Markup {
    html! {
        div class={ "row axis " (class) } {
            div class="lbl" { "UTC" }
            svg class="plot" width=(n(sc.width)) height="22" {
                @for z in TICK_ZOOMS {
                    g class="z" data-z=(z) style=[hidden_level(z)] {
                        @for t in sc.ticks(z) {
                            text class="tick" x=(n(t.x + 3.0)) y="15" data-x=(n(t.x)) data-dx="3" {
                                (t.label)
                            }
                        }
                    }
                }
                @for b in sc.breaks() {
                    text class="brk-l" x=(n((b.x0 + b.x1) / 2.0 - 3.0)) y="15"
                        data-x=(n((b.x0 + b.x1) / 2.0)) data-dx="-3" {
                        title { (gap_label(b.t1 - b.t0)) " of nothing folded" }
                        "≈"
                    }
                }
            }
        }
        "\n"
    }
}

fn grid(sc: &Scale, reference: Option<&Time>) -> Markup {
    html! {
        div class="grid" aria-hidden="true" {
            svg class="gridsvg" width=(n(sc.width)) height="100%" {
                @for z in TICK_ZOOMS {
                    g class="z" data-z=(z) style=[hidden_level(z)] {
                        @for t in sc.ticks(z) {
                            line class="gl" x1=(n(t.x)) x2=(n(t.x)) y1="0" y2="100%" data-x=(n(t.x)) {}
                        }
                    }
                }
                @for b in sc.breaks() {
                    rect class="brk" x=(n(b.x0)) width=(n(b.x1 - b.x0)) y="0" height="100%"
                        data-x=(n(b.x0)) data-w=(n(b.x1 - b.x0)) {
                        title {
                            (gap_label(b.t1 - b.t0)) " folded: nothing happened between "
                            (seg_time(b.t0)) " and " (seg_time(b.t1))
                        }
                    }
                }
                @if let Some(r) = reference {
                    @let x = sc.x(r);
                    line class="refl" x1=(n(x)) x2=(n(x)) y1="0" y2="100%" data-x=(n(x)) {
                        title { "collected " (fmt_short(r)) }
                    }
                }
            }
        }
        "\n"
    }
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

fn legend() -> Markup {
    html! {
        div class="legend" {
            @for (class, text) in LEGEND {
                span {
                    svg width="22" height="12" aria-hidden="true" {
                        rect class={ "bar " (class) } x="1" y="1" width="20" height="10" rx="2" {}
                    }
                    (text)
                }
            }
            @for (class, text) in [
                ("sev-error", "error finding"),
                ("sev-warning", "warning finding"),
                ("sev-info", "info finding"),
            ] {
                span {
                    svg width="14" height="14" aria-hidden="true" {
                        path class={ "mark diamond " (class) } d=(glyph_path(Glyph::Diamond))
                            transform="translate(7 7)" {}
                    }
                    (text)
                }
            }
            span {
                "ClusterOperator rows, top to bottom: Progressing, Degraded, Available=False, Upgradeable=False"
            }
            span { "≈ folded idle time" }
        }
        "\n"
    }
}

/// The controls the page script shows: zoom, lane groups, lane filter, time read-out.
fn controls(chart: &Chart, scope: Scope<'_>) -> Markup {
    html! {
        div id=(scope.id("controls")) class="controls" hidden {
            span class="zoom" {
                button type="button" data-zoom="-1" title="zoom out" { "−" }
                span id=(scope.id("zoomlevel")) class="zoomlevel" { "1×" }
                button type="button" data-zoom="1" title="zoom in" { "+" }
                button type="button" data-zoom="0" { "fit" }
            }
            span class="groups" {
                @for g in Group::ALL {
                    @if chart.lanes.iter().any(|l| l.group == g && !l.is_quiet()) {
                        label { input type="checkbox" checked data-group=(g.key()); " " (g.title()) }
                    }
                }
            }
            input type="search" id=(scope.id("lanefilter")) class="lanefilter" placeholder="filter lanes" aria-label="filter lanes";
            span id=(scope.id("cursor")) class="cursor" {}
        }
        "\n"
    }
}

/// The folded quiet lanes, by group.
fn quiet_lanes(quiet: &[&Lane]) -> Markup {
    html! {
        details class="quiet" {
            summary { (quiet.len()) " quiet lanes folded (nothing non-healthy or in progress)" }
            ul {
                @for g in Group::ALL {
                    @let names: Vec<&&Lane> = quiet.iter().filter(|l| l.group == g).collect();
                    @if !names.is_empty() {
                        li {
                            (g.title()) ": "
                            @for (i, l) in names.iter().enumerate() {
                                @if i > 0 { ", " }
                                span data-quiet=(Text(&l.key)) { (Text(&l.label)) }
                            }
                        }
                    }
                }
            }
        }
        "\n"
    }
}

/// The chart section's inner HTML.
pub fn render(chart: &Chart, scope: Scope<'_>) -> Markup {
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
    let quiet: Vec<&Lane> = chart.lanes.iter().filter(|l| l.is_quiet()).collect();
    html! {
        (controls(chart, scope))
        div class="chart" id=(scope.id("chart")) tabindex="0" role="region" aria-label="Timeline chart (scrolls sideways)"
            data-w=(n(sc.width)) data-segs=(sc.encode())
            data-zooms=(ZOOMS.map(|z| z.to_string()).join(" ")) data-start=(fmt_short(&chart.start))
            data-end=(fmt_short(&chart.end)) {
            "\n"
            div class="inner" {
                "\n"
                (grid(&sc, chart.reference.as_ref()))
                (axis_row(&sc, "top"))
                @for g in Group::ALL {
                    @let lanes: Vec<&Lane> = chart.lanes.iter().filter(|l| l.group == g).collect();
                    @let shown: Vec<&&Lane> = lanes.iter().filter(|l| !l.is_quiet()).collect();
                    @if !shown.is_empty() {
                        @let folded = lanes.len() - shown.len();
                        div class="row ghead" data-group=(g.key()) {
                            div class="lbl" {
                                (g.title())
                                @if folded > 0 {
                                    " " span class="muted" { "(" (folded) " quiet folded)" }
                                }
                            }
                        }
                        "\n"
                        @for (l, text) in shown.iter().zip(shown_labels(&shown.iter().map(|l| l.label.as_str()).collect::<Vec<_>>())) {
                            (lane_row(l, &text, &sc))
                        }
                    }
                }
                (axis_row(&sc, "bottom"))
            }
        }
        "\n"
        @if !quiet.is_empty() { (quiet_lanes(&quiet)) }
        (legend())
    }
}
