//! The page's inline stylesheet, SVG patterns and script. The script only adds interaction
//! (zoom, lane filtering, hover details, a time read-out, opening a linked rule page, deep
//! links such as `#zoom=8&at=2020-04-09T18:27:47Z`); the
//! page reads the same without it. It reads no input data except `data-*` attributes, and
//! the page's Content-Security-Policy allows exactly this script (by hash).

use maud::{Markup, html};

pub const CSS: &str = r#"
:root{--bad-ink:#b42318;--good-ink:#116329;--warn-ink:#9a5700;--info-ink:#2458b3;--good:#3a9e5c;--bad:#d64541;--prog:#4a7fd4;--warn:#e8913d;--upg:#b8860b;--neutral:#b8c2cc;--info:#4a7fd4;--fg:#1d2430;--muted:#667085;--line:#dde1e7;--lblw:230px}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:#fff}
header,main,footer{padding:12px 24px}
header{border-bottom:1px solid var(--line);background:#f7f8fa}
h1{font-size:22px;margin:0 0 6px}
h2{font-size:18px;margin:22px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px}
code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef0f3;padding:0 3px;border-radius:3px;overflow-wrap:anywhere}
pre{background:#f3f4f6;padding:8px;overflow-x:auto;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere}
pre code{background:none;padding:0}
table{border-collapse:collapse}
table.meta th{text-align:left;padding:2px 14px 2px 0;color:var(--muted);font-weight:600;vertical-align:top;white-space:nowrap}
table.meta td{padding:2px 0}
table.meta ul{margin:0;padding-left:18px}
table.list{width:100%;font-size:13px}
table.list th,table.list td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
table.list th{background:#f7f8fa}
table.list td{overflow-wrap:anywhere}
table.list code{overflow-wrap:anywhere;word-break:break-word}
.muted{color:var(--muted);font-weight:normal}
.verdict{font-weight:600;margin:4px 0 8px}
.verdict.fail{color:var(--bad-ink)}
.verdict.pass{color:var(--good-ink)}
nav a{margin-right:14px}
.sev{display:inline-block;border-radius:9px;padding:0 8px;color:#fff;font-size:12px;font-weight:600}
.sev.sev-error{background:var(--bad-ink)}
.sev.sev-warning{background:var(--warn-ink)}
.sev.sev-info{background:var(--info-ink)}
.finding{border-left:4px solid var(--neutral);background:#fafbfc;padding:8px 12px;margin:12px 0;border-radius:2px}
.finding.sev-error{border-color:var(--bad)}
.finding.sev-warning{border-color:var(--warn)}
.finding.sev-info{border-color:var(--info)}
.finding dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:6px 0 0}
.finding dt{color:var(--muted);font-weight:600}
.finding dd{margin:0;min-width:0;overflow-wrap:anywhere}
a{overflow-wrap:anywhere}
.msg{margin:4px 0}
.finding,p,li{overflow-wrap:anywhere}
ul.ev{margin:0;padding-left:16px}
ul.ev li{margin:2px 0}
details.rule{border:1px solid var(--line);border-radius:4px;padding:4px 10px;margin:8px 0}
details.rule summary{cursor:pointer;font-weight:600}
details.quiet{margin:6px 0;font-size:13px}
.controls[hidden]{display:none}
.controls{display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center;margin:6px 0;font-size:13px}
.controls button{min-width:28px}
.controls .groups label{margin-right:10px}
.cursor{font-family:ui-monospace,monospace;color:var(--muted)}
.chart{position:relative;overflow-x:auto;border:1px solid var(--line);border-radius:4px;background:#fff}
.inner{position:relative;width:max-content;min-width:100%}
.row{display:flex;align-items:stretch}
.lbl{position:sticky;left:0;z-index:2;flex:none;width:var(--lblw);padding:1px 8px;background:#fff;border-right:1px solid var(--line);font-size:12px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.lane{border-top:1px solid #f1f3f6}
.lane .lbl{display:flex;align-items:center}
.ghead{background:#f3f5f8;border-top:1px solid var(--line)}
.ghead .lbl{background:#f3f5f8;font-weight:600;overflow:visible}
.axis .lbl{color:var(--muted)}
svg.plot{display:block;flex:none;position:relative;z-index:1;overflow:visible}
.grid{position:absolute;left:var(--lblw);top:0;bottom:0;pointer-events:none;z-index:0}
.gridsvg{display:block}
.gl{stroke:#e8ebf0;stroke-width:1}
.refl{stroke:#7a4fc9;stroke-width:1.5;stroke-dasharray:4 3}
.brk{fill:url(#pat-fold)}
.tick{font-size:11px;fill:#475467}
.brk-l{font-size:13px;fill:var(--muted)}
.bar{stroke:none}
.bar.open{stroke:#0003;stroke-dasharray:3 2}
.bar.good{fill:var(--good)}
.bar.bad{fill:var(--bad)}
.bar.prog{fill:var(--prog)}
.bar.warn{fill:var(--warn)}
.bar.upg{fill:var(--upg)}
.bar.neutral{fill:var(--neutral)}
.bar.unknown{fill:#e3e6ea}
.bar.hist-completed{fill:#2f8f6f}
.bar.hist-partial{fill:#d9822b}
.bar.claimed{fill:url(#pat-claimed);stroke:var(--bad);stroke-width:1}
.bar.stall{fill:url(#pat-stall);stroke:var(--bad);stroke-width:1}
.bar.unmanaged{fill:url(#pat-unmanaged);stroke:var(--warn);stroke-width:1}
.bar.ep-install{fill:#5b8c85}
.bar.ep-update{fill:#3d6fb6}
.bar.ep-cancel{fill:#c46a2b}
.bar.ep-rollback{fill:#8e4fb0}
.bar.pass-init{fill:#8e6cc4}
.bar.pass-upd{fill:#4a7fd4}
.bar.pass-rec{fill:#6bb38a}
.bar.pass-failed{fill:#e79b98;stroke:var(--bad);stroke-width:1}
.bar.pass-stuck{fill:var(--bad)}
.bar.pod-life{fill:#9aa7b8}
.bar.pre-run{fill:#f6d3d2;stroke:var(--bad);stroke-width:1}
.bar.ci-upgrade{fill:#3d6fb6}
.bl{font-size:10.5px;fill:#fff;pointer-events:none}
.bar.neutral+.bl,.bar.unknown+.bl,.bar.claimed+.bl,.bar.stall+.bl,.bar.unmanaged+.bl,.bar.pod-life+.bl,.bar.pre-run+.bl{fill:#1d2430}
.bar.stall+.bl,.bar.claimed+.bl,.bl.out{font-weight:700;fill:#8a1f1c}
.hid{display:none}
.note{font-size:10.5px;fill:#1d2430;font-weight:600}
.mark{stroke-width:2}
.mark.cross,.mark.tick{fill:none}
.mark.diamond{stroke:#fff;stroke-width:1}
.mark.dot{fill:#fff;stroke-width:1.8}
.m-good{stroke:var(--good)}
.m-bad{stroke:var(--bad)}
.m-warn{stroke:var(--warn)}
.m-node{stroke:#475467;stroke-width:1.2}
.m-milestone{stroke:#1d2430;stroke-width:1.5}
.mark.sev-error{fill:var(--bad)}
.mark.sev-warning{fill:var(--warn)}
.mark.sev-info{fill:var(--info)}
a .mark{cursor:pointer}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:var(--muted);margin:8px 0}
.legend span{display:inline-flex;align-items:center;gap:4px}
.defs{position:absolute;width:0;height:0}
#tip{position:fixed;display:none;pointer-events:none;background:#1d2430;color:#fff;padding:6px 8px;font-size:12px;white-space:pre-wrap;max-width:620px;z-index:20;border-radius:4px;box-shadow:0 2px 8px #0004}
.cursorline{position:absolute;top:0;bottom:0;width:0;border-left:1px solid #0006;pointer-events:none;display:none;z-index:3}
html:not([data-js]) .js-only{display:none}
button.js-only{font-size:11px;padding:0 4px}
footer{color:var(--muted);font-size:12px;border-top:1px solid var(--line);margin-top:24px}
.nw{white-space:nowrap}
.tablewrap{overflow-x:auto;max-width:100%}
.tablewrap:focus-visible,.chart:focus-visible{outline:2px solid var(--info-ink);outline-offset:2px}
main,section{min-width:0}
@media (max-width:700px){header,main,footer{padding:8px 10px}:root{--lblw:120px}h1{font-size:18px}table.meta th{white-space:normal}.finding dl{grid-template-columns:1fr}nav a{display:inline-block;margin:2px 10px 2px 0}}
@media print{@page{size:A4 landscape;margin:10mm}.controls,#tip,.js-only{display:none}.chart{overflow:visible;border:none}.chart .inner{zoom:.78}.lbl{position:static}.tablewrap{overflow:visible}.finding{break-inside:avoid}}
"#;

/// One hatched fill: a `size`-pixel tile of `bg` with a `stripe`-wide band of `fg`, turned by
/// `rotate`.
fn pattern(id: &str, size: &str, rotate: &str, bg: &str, stripe: &str, fg: &str) -> Markup {
    html! {
        pattern id=(id) width=(size) height=(size) patternUnits="userSpaceOnUse"
            patternTransform={ "rotate(" (rotate) ")" } {
            rect width=(size) height=(size) fill=(bg) {}
            rect width=(stripe) height=(size) fill=(fg) {}
        }
    }
}

/// Patterns referenced by the bars (`url(#pat-…)`), in a zero-size SVG.
pub fn defs() -> Markup {
    html! {
        svg class="defs" aria-hidden="true" focusable="false" {
            defs {
                (pattern("pat-claimed", "6", "45", "#fbe3e2", "2.5", "#d64541"))
                (pattern("pat-stall", "8", "45", "#fdeeed", "1.5", "#ec9a97"))
                (pattern("pat-unmanaged", "6", "-45", "#fff3e3", "2", "#e8913d"))
                (pattern("pat-fold", "8", "-30", "#f1f2f5", "1", "#c9ced6"))
            }
        }
    }
}

pub const JS: &str = r#"
(function () {
  'use strict';
  var d = document;
  d.documentElement.setAttribute('data-js', 'on');
  function openHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? d.getElementById(id) : null;
    for (var p = el; p; p = p.parentElement) { if (p.tagName === 'DETAILS') { p.open = true; } }
  }
  window.addEventListener('hashchange', openHash);
  openHash();
  // One chart per cluster: each `[data-cluster]` section (or the page, for one cluster) has
  // its own chart, controls and read-out; the tooltip is the page's.
  function setup(root, first) {
  var chart = root.querySelector('.chart');
  if (!chart) { return; }
  var controls = root.querySelector('.controls');
  controls.hidden = false;
  var inner = chart.querySelector('.inner');
  var LBL = parseFloat(getComputedStyle(d.documentElement).getPropertyValue('--lblw')) || 230;
  var W = parseFloat(chart.getAttribute('data-w'));
  var zooms = chart.getAttribute('data-zooms').split(' ').map(Number);
  var segs = chart.getAttribute('data-segs').split(';').map(function (s) { return s.split(' ').map(Number); });
  // zi indexes `zooms`; -1 is "fit": the whole span in the visible width, whatever it is.
  var zi = 0;
  function curZ() { return zi < 0 ? Math.max(viewW() / W, 0.05) : zooms[zi]; }
  var movers = chart.querySelectorAll('[data-x]');
  var plots = chart.querySelectorAll('svg.plot, svg.gridsvg');
  var levels = chart.querySelectorAll('g.z');
  var tip = d.getElementById('tip');
  var line = d.createElement('div');
  line.className = 'cursorline';
  inner.appendChild(line);
  var readout = root.querySelector('.cursor');

  chart.querySelectorAll('title').forEach(function (t) {
    var p = t.parentNode;
    if (p && p.setAttribute) { p.setAttribute('data-tip', t.textContent); p.removeChild(t); }
  });

  function tToX(ms) {
    for (var i = 0; i < segs.length; i++) {
      var s = segs[i];
      if (ms <= s[3]) { return s[0] + (Math.max(ms, s[2]) - s[2]) / Math.max(s[3] - s[2], 1) * (s[1] - s[0]); }
    }
    return W;
  }
  function xToT(x) {
    for (var i = 0; i < segs.length; i++) {
      var s = segs[i];
      if (x <= s[1]) { return s[2] + (Math.max(x, s[0]) - s[0]) / Math.max(s[1] - s[0], 1e-9) * (s[3] - s[2]); }
    }
    return segs[segs.length - 1][3];
  }
  function viewW() { return Math.max(chart.clientWidth - LBL, 50); }

  function apply() {
    var z = curZ();
    plots.forEach(function (p) { p.setAttribute('width', (W * z).toFixed(1)); });
    movers.forEach(function (el) {
      var x = parseFloat(el.getAttribute('data-x')) * z;
      var tag = el.tagName.toLowerCase();
      if (tag === 'rect') {
        var w = parseFloat(el.getAttribute('data-w')) * z;
        el.setAttribute('x', x.toFixed(1));
        el.setAttribute('width', Math.max(w, el.classList.contains('bar') ? 1.5 : 0).toFixed(1));
      } else if (tag === 'text') {
        el.setAttribute('x', (x + parseFloat(el.getAttribute('data-dx') || '0')).toFixed(1));
        var need = el.getAttribute('data-need');
        if (need !== null) { el.classList.toggle('hid', parseFloat(el.getAttribute('data-w')) * z < parseFloat(need)); }
      } else if (tag === 'line') {
        el.setAttribute('x1', x.toFixed(1));
        el.setAttribute('x2', x.toFixed(1));
      } else {
        el.setAttribute('transform', 'translate(' + x.toFixed(1) + ' ' + el.getAttribute('data-y') + ')');
      }
    });
    var best = 1;
    levels.forEach(function (g) { var gz = Number(g.getAttribute('data-z')); if (gz <= z && gz > best) { best = gz; } });
    levels.forEach(function (g) { g.style.display = Number(g.getAttribute('data-z')) === best ? '' : 'none'; });
    controls.querySelector('.zoomlevel').textContent = zi < 0 ? 'fit' : z + '\u00d7';
  }
  function zoomTo(nzi, baseX) {
    nzi = Math.max(0, Math.min(zooms.length - 1, nzi));
    var oz = curZ();
    if (baseX === undefined) { baseX = (chart.scrollLeft + viewW() / 2) / oz; }
    var off = baseX * oz - chart.scrollLeft;
    zi = nzi;
    apply();
    chart.scrollLeft = baseX * curZ() - off;
  }
  controls.querySelectorAll('button[data-zoom]').forEach(function (b) {
    b.addEventListener('click', function () {
      var step = Number(b.getAttribute('data-zoom'));
      if (step === 0) {
        zi = -1; apply(); chart.scrollLeft = 0;
      } else if (zi < 0) {
        // From "fit", + goes to the first zoom closer in; − stays at the whole span.
        var f = curZ(), k = 0;
        while (k < zooms.length - 1 && zooms[k] <= f) { k++; }
        if (step > 0) { zoomTo(k); }
      } else {
        zoomTo(zi + step);
      }
    });
  });
  chart.addEventListener('dblclick', function (e) {
    var r = plots[0].getBoundingClientRect();
    zoomTo(Math.max(zi, 0) + (e.shiftKey ? -1 : 1), (e.clientX - r.left) / curZ());
  });

  var groupsOn = {};
  var filterBox = root.querySelector('.lanefilter');
  function refilter() {
    var q = filterBox.value.trim().toLowerCase();
    var seen = {};
    chart.querySelectorAll('.row.lane').forEach(function (row) {
      var g = row.getAttribute('data-group');
      var on = groupsOn[g] !== false;
      if (on && q) {
        on = (row.getAttribute('data-lane') + ' ' + row.textContent).toLowerCase().indexOf(q) >= 0;
      }
      row.style.display = on ? '' : 'none';
      if (on) { seen[g] = true; }
    });
    chart.querySelectorAll('.row.ghead').forEach(function (row) {
      row.style.display = seen[row.getAttribute('data-group')] ? '' : 'none';
    });
  }
  controls.querySelectorAll('input[type=checkbox][data-group]').forEach(function (c) {
    c.addEventListener('change', function () { groupsOn[c.getAttribute('data-group')] = c.checked; refilter(); });
  });
  filterBox.addEventListener('input', refilter);

  function fmt(ms) { return new Date(ms).toISOString().replace('T', ' ').replace('.000Z', 'Z'); }
  chart.addEventListener('mousemove', function (e) {
    var r = plots[0].getBoundingClientRect();
    var px = e.clientX - r.left;
    var inPlot = px >= 0 && e.clientX - chart.getBoundingClientRect().left > LBL;
    line.style.display = inPlot ? 'block' : 'none';
    if (inPlot) {
      line.style.left = (LBL + px) + 'px';
      readout.textContent = fmt(xToT(px / curZ())) + ' UTC';
    }
    var el = e.target.closest ? e.target.closest('[data-tip]') : null;
    if (el) {
      tip.textContent = el.getAttribute('data-tip');
      tip.style.display = 'block';
      var x = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
      var y = e.clientY + 16;
      if (y + tip.offsetHeight > window.innerHeight) { y = e.clientY - tip.offsetHeight - 10; }
      tip.style.left = Math.max(x, 4) + 'px';
      tip.style.top = Math.max(y, 4) + 'px';
    } else {
      tip.style.display = 'none';
    }
  });
  chart.addEventListener('mouseleave', function () { tip.style.display = 'none'; line.style.display = 'none'; });

  // Deep links: `#zoom=8&at=2020-04-09T18:27:47Z` opens the chart zoomed at that moment.
  function fromHash() {
    var z = /(?:^#|&)zoom=(\d+)/.exec(location.hash);
    var at = /(?:^#|&)at=([^&]+)/.exec(location.hash);
    if (!z && !at) { return; }
    if (z) { zi = Math.max(zooms.indexOf(Number(z[1])), 0); apply(); }
    var t = at ? Date.parse(decodeURIComponent(at[1])) : NaN;
    if (!isNaN(t)) {
      chart.scrollLeft = Math.max(tToX(t) * curZ() - viewW() / 2, 0);
      chart.scrollIntoView({ block: 'start' });
    }
  }
  window.addEventListener('resize', function () { if (zi < 0) { apply(); } });
  if (first) {
    window.addEventListener('hashchange', fromHash);
    fromHash();
  }

  root.querySelectorAll('button[data-show-start]').forEach(function (b) {
    b.addEventListener('click', function () {
      var a = tToX(Date.parse(b.getAttribute('data-show-start')));
      var z = tToX(Date.parse(b.getAttribute('data-show-end')));
      var want = 0;
      for (var i = 0; i < zooms.length; i++) { if (Math.max(z - a, 1) * zooms[i] <= viewW() * 0.9) { want = i; } }
      zi = want;
      apply();
      chart.scrollLeft = Math.max(a * curZ() - 40, 0);
      chart.scrollIntoView({ block: 'start' });
    });
  });
  }
  var roots = d.querySelectorAll('[data-cluster]');
  if (roots.length) {
    roots.forEach(function (r, i) { setup(r, i === 0); });
  } else {
    setup(d, true);
  }
})();
"#;
