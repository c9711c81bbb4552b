// fairwitness report viewer. Everything that came from a report is put on the page with
// textContent and attribute setters only; the page makes no request of any kind.
(function () {
  "use strict";

  var MUST_PASS = 1, UNSTABLE = 2, FAILING = 4, REGRESSED = 8, IMPROVED = 16, MUST_FAILED = 32;
  var ONLY_CAND = 64, ONLY_BASE = 128;
  var ROW_HEIGHT = 30;
  var SVG = "http://www.w3.org/2000/svg";
  var D = null, S = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return parent;
  }
  function str(i) { return i === undefined || i === null || i < 0 ? null : S[i]; }
  function num(x, digits) {
    if (x === null || x === undefined) return "not measured";
    if (Math.abs(x) >= 1000 || x === Math.round(x)) return String(Math.round(x * 1000) / 1000);
    return x.toFixed(digits === undefined ? 3 : digits);
  }
  function figure(f) {
    if (!f || f.n === 0 || f.value === null) return "not measured";
    if (f.n < 10) return (Math.round(f.k * 100) / 100) + "/" + f.n;
    var text = num(f.value);
    if (f.lo !== null && f.lo !== undefined) text += " [" + num(f.lo) + ", " + num(f.hi) + "]";
    return text + " (n " + f.n + ")";
  }
  function section(title, id) {
    var s = el("section", "block");
    s.setAttribute("id", id);
    add(s, el("h2", null, title));
    return s;
  }
  function table(headers) {
    var t = el("table");
    var head = el("tr");
    headers.forEach(function (h) { add(head, el("th", null, h)); });
    add(t, add(el("thead"), head));
    var body = el("tbody");
    add(t, body);
    return { table: t, body: body };
  }
  function row(body, cells) {
    var tr = el("tr");
    cells.forEach(function (c) {
      var td = el("td");
      if (c instanceof Node) add(td, c); else td.textContent = c === null || c === undefined ? "" : String(c);
      add(tr, td);
    });
    add(body, tr);
    return tr;
  }

  // -- data -------------------------------------------------------------------------------
  function base64Bytes(text) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    var bin = atob(text), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }
  function load() {
    var text = document.getElementById("fw-data").textContent.trim();
    var stream = new Blob([base64Bytes(text)]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  // -- summary ----------------------------------------------------------------------------
  function header(app) {
    var h = D.head;
    document.title = "fairwitness: " + h.suite + " (" + h.split + ")";
    var top = el("header", "top");
    add(top, el("h1", null, "fairwitness report: " + h.suite), el("p", "sub", "split " + h.split));
    var t = table(["", "baseline", "candidate"]);
    function side(s, pick) { return s ? pick(s) : "\u2014"; }
    [
      ["file", function (s) { return s.file || "(unnamed)"; }],
      ["fairwitness", function (s) { return s.run.tool_version; }],
      ["commit", function (s) { return s.run.git_sha || "unknown"; }],
      ["started", function (s) { return s.run.created_at; }],
      ["target", function (s) { return s.run.target; }],
      ["models", function (s) { return s.run.models.join(", ") || "not reported"; }],
      ["repeats", function (s) { return s.run.repeats; }],
      ["complete", function (s) { return s.complete ? "yes" : "no: " + (s.incomplete_reason || ""); }],
    ].forEach(function (r) { row(t.body, [r[0], side(h.base, r[1]), side(h.cand, r[1])]); });
    add(top, t.table);
    add(app, top);
  }

  var VERDICT_CLASS = { 0: "pass", 1: "fail", 2: "fail", 3: "warn", 4: "fail" };
  function decisionBlock(app) {
    var s = section("Decision", "decision");
    var d = D.decision;
    if (!d) {
      add(s, el("p", "verdict none", "No baseline was given: nothing was compared or decided."));
    } else {
      var v = el("p", "verdict " + (VERDICT_CLASS[d.exit_code] || "warn"), d.verdict + " (exit " + d.exit_code + ")");
      v.setAttribute("id", "verdict");
      add(s, v, el("p", "summary", d.summary));
      var reasons = el("ul");
      reasons.setAttribute("id", "reasons");
      d.reasons.forEach(function (r) { add(reasons, el("li", null, r)); });
      if (!d.reasons.length) add(reasons, el("li", "muted", "no reason to fail"));
      add(s, el("h3", null, "Reasons"), reasons);
      if (d.notes && d.notes.length) {
        var notes = el("ul");
        d.notes.forEach(function (n) { add(notes, el("li", null, typeof n === "string" ? n : JSON.stringify(n))); });
        add(s, el("h3", null, "Notes"), notes);
      }
      var up = d.unpaired || {};
      var missing = (up.missing_from_candidate || []).length, extra = (up.new_in_candidate || []).length;
      if (missing || extra) add(s, el("p", "muted", "Unpaired: " + missing + " case(s) missing from the candidate, " + extra + " new in it."));
    }
    add(app, s);
  }

  var COUNTS = ["cases", "planned", "trials", "ok", "crashed", "timed_out", "not_run", "unscored",
    "replayed", "live_calls", "faults_declared", "faults_fired"];
  function countsBlock(app) {
    var s = section("Counts and usage", "counts");
    var t = table(["", "baseline", "candidate"]);
    COUNTS.forEach(function (name) {
      var tr = row(t.body, [name.replace(/_/g, " ")]);
      ["base", "cand"].forEach(function (side) {
        var td = el("td", "num");
        var h = D.head[side];
        td.textContent = h ? String(h.counts[name]) : "\u2014";
        td.setAttribute("data-count", side + "." + name);
        add(tr, td);
      });
    });
    function usage(u) {
      if (!u) return "\u2014";
      return u.cost_usd === null ? "unknown (" + (u.cost_unknown_reason || "no reason given") + ")" : "$" + u.cost_usd;
    }
    function tokens(u) {
      if (!u) return "\u2014";
      return (u.input_tokens === null ? "unknown" : u.input_tokens) + " in, " + (u.output_tokens === null ? "unknown" : u.output_tokens) + " out";
    }
    function stab(st) {
      if (!st) return "\u2014";
      return st.unstable_share === null ? "not measured (" + (st.reason || "") + ")" : st.unstable_cases + " of " + st.measured_cases + " cases";
    }
    var b = D.head.base, c = D.head.cand;
    row(t.body, ["tokens", tokens(b && b.usage), tokens(c.usage)]);
    row(t.body, ["cost", usage(b && b.usage), usage(c.usage)]);
    row(t.body, ["unstable", stab(b && b.stability), stab(c.stability)]);
    add(s, t.table);
    add(app, s);
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }
  function chart(metric) {
    var figs = [metric.base && metric.base.headline, metric.cand && metric.cand.headline];
    var lo = 0, hi = 1;
    figs.forEach(function (f) {
      if (!f || f.value === null) return;
      [f.value, f.lo, f.hi].forEach(function (x) {
        if (x === null || x === undefined) return;
        lo = Math.min(lo, x); hi = Math.max(hi, x);
      });
    });
    var W = 220, L = 22, R = 8;
    function x(v) { return L + (W - L - R) * (v - lo) / (hi - lo || 1); }
    var root = svg("svg", { width: W, height: 40, viewBox: "0 0 " + W + " 40", role: "img", "class": "chart" });
    add(root, svg("line", { x1: x(lo), x2: x(hi), y1: 36, y2: 36, "class": "axis" }));
    [lo, (lo + hi) / 2, hi].forEach(function (t) { add(root, svg("line", { x1: x(t), x2: x(t), y1: 33, y2: 39, "class": "axis" })); });
    var label = [];
    ["B", "C"].forEach(function (name, i) {
      var f = figs[i], y = 10 + i * 14;
      var t = svg("text", { x: 2, y: y + 4, "class": "lbl" });
      t.textContent = name;
      add(root, t);
      if (!f || f.value === null) {
        var none = svg("text", { x: L, y: y + 4, "class": "none" });
        none.textContent = f ? "not measured" : "absent";
        add(root, none);
        label.push((i ? "candidate " : "baseline ") + "not measured");
        return;
      }
      var cls = i ? "cand" : "base";
      if (f.lo !== null && f.lo !== undefined) add(root, svg("line", { x1: x(f.lo), x2: x(f.hi), y1: y, y2: y, "class": "ci " + cls }));
      add(root, svg("circle", { cx: x(f.value), cy: y, r: 4, "class": "pt " + cls }));
      label.push((i ? "candidate " : "baseline ") + figure(f));
    });
    root.setAttribute("aria-label", metric.name + ": " + label.join("; "));
    return root;
  }
  function passK(side) {
    if (!side || !side.pass_k || !side.pass_k.length) return "\u2014";
    return side.pass_k.map(function (p) {
      return "k=" + p.k + ": " + (p.pass_hat === null ? "not measured" : p.cases < 10 ? num(p.pass_hat, 2) + " (n " + p.cases + ")" : num(p.pass_hat));
    }).join("; ");
  }
  function metricsBlock(app) {
    var s = section("Metrics", "metrics");
    add(s, el("p", "muted", "Each metric's headline figure with its 95% interval: baseline (B, grey) above candidate (C). Rates out of fewer than 10 cases are shown as k/n."));
    var t = table(["metric", "interval", "baseline", "candidate", "per-trial rate (B / C)", "pass^k (B / C)", "excluded (C)"]);
    D.metrics.forEach(function (m) {
      var name = el("div");
      add(name, el("strong", null, m.name), el("div", "muted", m.description), el("div", "muted", (m.higher_is_better ? "higher is better" : "lower is better") + (m.collapse ? ", repeats: " + m.collapse : "")));
      function head(side) { return side ? figure(side.headline) + (side.which === "per_trial" ? " per trial" : "") : "absent"; }
      function pt(side) { return side && side.per_trial ? figure(side.per_trial) : "\u2014"; }
      var ex = m.cand ? Object.keys(m.cand.excluded).map(function (k) { return k + " " + m.cand.excluded[k]; }).join(", ") : "";
      var tr = row(t.body, [name, chart(m), head(m.base), head(m.cand), pt(m.base) + " / " + pt(m.cand), passK(m.base) + " / " + passK(m.cand), ex || "none"]);
      tr.setAttribute("data-metric", m.name);
    });
    add(s, t.table);
    add(app, s);
  }

  // -- trend over the default branch's earlier runs -----------------------------------------
  function trendChart(metric, runs) {
    var pts = metric.points, n = pts.length;
    var lo = Infinity, hi = -Infinity;
    pts.forEach(function (p) {
      if (!p) return;
      [p[0], p[1], p[2]].forEach(function (x) {
        if (x === null || x === undefined) return;
        lo = Math.min(lo, x); hi = Math.max(hi, x);
      });
    });
    if (lo === Infinity) { lo = 0; hi = 1; }
    if (hi - lo < 1e-9) { lo -= 0.05; hi += 0.05; }
    var STEP = 52, L = 30, W = L + STEP * Math.max(n, 1), H = 96, TOP = 20, BOTTOM = 78;
    function x(i) { return L + STEP * i + STEP / 2; }
    function y(v) { return BOTTOM - (BOTTOM - TOP) * (v - lo) / (hi - lo); }
    var root = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "class": "chart trend" });
    root.setAttribute("data-metric", metric.name);
    add(root, svg("line", { x1: L, x2: W, y1: BOTTOM + 4, y2: BOTTOM + 4, "class": "axis" }));
    [[lo, BOTTOM], [hi, TOP]].forEach(function (t) {
      var tick = svg("text", { x: 2, y: t[1] + 3, "class": "lbl" });
      tick.textContent = num(t[0], 2);
      add(root, tick);
    });
    var line = [];
    pts.forEach(function (p, i) { if (p) line.push(x(i) + "," + y(p[0])); });
    if (line.length > 1) add(root, svg("polyline", { points: line.join(" "), "class": "trendline" }));
    var label = [];
    pts.forEach(function (p, i) {
      var run = runs[i], cls = run.cand ? "cand" : "base";
      var g = svg("g", { "class": "tp " + cls });
      g.setAttribute("data-run", String(i));
      var title = svg("title", {});
      title.textContent = run.label + ": " + (p ? p[3] : "not measured") + " (" + run.file + ")";
      add(g, title);
      if (!p) {
        var none = svg("text", { x: x(i), y: BOTTOM, "class": "none", "text-anchor": "middle" });
        none.textContent = "n/m";
        add(g, none);
        label.push(run.label + " not measured");
      } else {
        g.setAttribute("data-value", String(p[0]));
        if (p[1] !== null && p[2] !== null) add(g, svg("line", { x1: x(i), x2: x(i), y1: y(p[1]), y2: y(p[2]), "class": "ci " + cls }));
        if (run.cand) add(g, svg("rect", { x: x(i) - 5, y: y(p[0]) - 5, width: 10, height: 10, "class": "pt cand" }));
        else add(g, svg("circle", { cx: x(i), cy: y(p[0]), r: 3.5, "class": "pt base" }));
        var top = p[2] !== null && p[2] !== undefined ? Math.min(y(p[2]), y(p[0])) : y(p[0]);
        var value = svg("text", { x: x(i), y: Math.max(top - 7, 9), "class": "val" + (run.cand ? " cand" : ""), "text-anchor": "middle" });
        value.textContent = p[3];
        add(g, value);
        label.push(run.label + " " + p[3]);
      }
      var when = svg("text", { x: x(i), y: H - 3, "class": "lbl", "text-anchor": "middle" });
      when.textContent = run.cand ? "this run" : (run.sha ? run.sha.slice(0, 7) : String(i + 1));
      add(g, when);
      add(root, g);
    });
    root.setAttribute("aria-label", metric.name + " over " + n + " runs: " + label.join("; "));
    return root;
  }
  function trendBlock(app) {
    var t = D.trend;
    if (!t) return;
    var s = section("Trend", "trend");
    add(s, el("p", "muted", "Each gated metric over " + t.source + ", then this run (the square, last). Every value is the one its report saved."));
    if (!t.metrics.length) add(s, el("p", "muted", "No gated metric to chart."));
    t.metrics.forEach(function (m) {
      var fig = el("figure", "trend");
      fig.setAttribute("data-metric", m.name);
      add(fig, el("figcaption", null, m.name), trendChart(m, t.runs));
      add(s, fig);
    });
    if (t.notes.length) {
      var notes = el("ul", "notes");
      t.notes.forEach(function (n) { add(notes, el("li", null, n)); });
      add(s, notes);
    }
    add(app, s);
  }

  function pairedBlock(app) {
    var d = D.decision;
    if (!d) return;
    var s = section("Paired comparison", "paired");
    var t = table(["metric", "kind", "paired n", "baseline", "candidate", "good\u2192bad", "bad\u2192good", "test", "p", "Holm p", "decided", "floor", "detectable drop"]);
    d.metrics.forEach(function (m) {
      var tr = row(t.body, [m.name, m.kind + (m.gated ? "" : " (not gated)"), m.n, num(m.baseline), num(m.candidate), m.regressions, m.improvements,
        m.test || "\u2014", m.p === null ? "not tested" : num(m.p, 4), m.p_adjusted === null ? "\u2014" : num(m.p_adjusted, 4),
        m.rejected ? "regressed" : "not detected", m.floor === null ? "\u2014" : (m.floor_kind || "") + " " + m.floor + (m.floor_breached ? " breached" : ""),
        m.detectable_drop === null ? "\u2014" : num(m.detectable_drop)]);
      tr.setAttribute("data-metric", m.name);
      if (m.rejected || m.floor_breached) tr.className = "bad";
    });
    add(s, t.table);
    if (d.slices && d.slices.length) {
      var sl = table(["metric", "tag", "paired n", "baseline", "candidate", "got worse by", "p"]);
      d.slices.forEach(function (x) { row(sl.body, [x.metric, x.tag, x.n, num(x.baseline), num(x.candidate), num(x.drop), num(x.p, 4)]); });
      add(s, el("h3", null, "Where it got worse, by tag (shown, never decided on)"), sl.table);
    }
    add(app, s);
  }

  function diagValue(v) {
    if (v === null) return "not measured";
    if (typeof v === "object") return JSON.stringify(v);
    return String(v);
  }
  function diagnosticsBlock(app) {
    var s = section("Diagnostics", "diagnostics");
    [["candidate", D.diag.cand], ["baseline", D.diag.base]].forEach(function (pair) {
      var blocks = pair[1];
      if (!blocks) return;
      add(s, el("h3", null, pair[0]));
      var names = Object.keys(blocks);
      if (!names.length) add(s, el("p", "muted", "none were measured"));
      names.forEach(function (name) {
        var block = blocks[name], det = el("details");
        var gist = block ? block.advice || block.note || block.reason || "" : "";
        add(det, el("summary", null, name + (block && block.measured === false ? ": not measured" : "") + (gist ? ": " + gist : "")));
        var t = table(["field", "value"]);
        Object.keys(block || {}).forEach(function (k) {
          var v = block[k];
          if (typeof v === "string" && v.length > 60) add(det, el("p", "note", k + ": " + v));
          else row(t.body, [k, diagValue(v)]);
        });
        add(det, t.table);
        add(s, det);
      });
    });
    add(app, s);
  }

  // -- cases ------------------------------------------------------------------------------
  var state = { outcome: "all", metric: -1, tag: -1, q: "" };
  var shown = [], applies = {}, hay = null, ids = null;
  var listBox, spacer, pool = [], countLabel, viewBox, buttons = {};
  var OUTCOMES = [["all", "all"], ["regressed", "regressed"], ["improved", "improved"], ["failing", "failing"], ["unstable", "unstable"], ["must-pass", "must-pass"]];

  function scoresOf(flat, metric) {
    for (var i = 0; i < flat.length; i += 2) if (flat[i] === metric) return i + 1;
    return -1;
  }
  function applicable(metric) {
    if (applies[metric]) return applies[metric];
    var out = new Uint8Array(D.cases.length);
    for (var i = 0; i < D.cases.length; i++) {
      var c = D.cand[i], b = D.base ? D.base[i] : null;
      out[i] = (c && scoresOf(c[0], metric) >= 0) || (b && scoresOf(b[0], metric) >= 0) ? 1 : 0;
    }
    applies[metric] = out;
    return out;
  }
  function haystack() {
    if (hay) return hay;
    hay = new Array(D.cases.length);
    for (var i = 0; i < D.cases.length; i++) {
      var r = D.cases[i], parts = [S[r[0]]];
      r[2].forEach(function (t) { parts.push(D.tags[t]); });
      var input = str(r[6]);
      if (input === null) input = firstInput(i);
      if (input !== null) parts.push(input);
      hay[i] = parts.join("\n").toLowerCase();
    }
    return hay;
  }
  function firstInput(i) {
    var sides = [D.cand[i], D.base ? D.base[i] : null];
    for (var s = 0; s < 2; s++) {
      var side = sides[s];
      if (!side) continue;
      for (var k = 0; k < side[2].length; k++) { var tr = side[2][k][8]; if (tr !== -1) return str(tr[8]); }
    }
    return null;
  }
  function matches(i) {
    var r = D.cases[i], f = r[1], m = state.metric;
    if (m >= 0 && !applicable(m)[i]) return false;
    switch (state.outcome) {
      case "regressed": if (m >= 0 ? r[4].indexOf(m) < 0 : !(f & REGRESSED)) return false; break;
      case "improved": if (m >= 0 ? r[5].indexOf(m) < 0 : !(f & IMPROVED)) return false; break;
      case "failing": if (m >= 0 ? r[3].indexOf(m) < 0 : !(f & FAILING)) return false; break;
      case "unstable": if (!(f & UNSTABLE)) return false; break;
      case "must-pass": if (!(f & MUST_PASS)) return false; break;
    }
    if (state.tag >= 0 && r[2].indexOf(state.tag) < 0) return false;
    if (state.q && haystack()[i].indexOf(state.q) < 0) return false;
    return true;
  }
  function refilter() {
    shown = [];
    for (var i = 0; i < D.cases.length; i++) if (matches(i)) shown.push(i);
    countLabel.textContent = shown.length + " of " + D.cases.length + " cases";
    countLabel.setAttribute("data-shown", String(shown.length));
    spacer.style.height = (shown.length * ROW_HEIGHT) + "px";
    listBox.scrollTop = 0;
    paint();
  }
  function badge(text, cls) { return el("span", "badge " + cls, text); }
  function fillRow(node, i) {
    var r = D.cases[i], f = r[1];
    node.textContent = "";
    node.setAttribute("data-case", S[r[0]]);
    add(node, el("span", "cid", S[r[0]]));
    if (f & MUST_FAILED) add(node, badge("must-pass failed", "fail"));
    else if (f & MUST_PASS) add(node, badge("must-pass", "info"));
    if (f & REGRESSED) add(node, badge("regressed: " + r[4].map(function (m) { return D.m[m]; }).join(", "), "fail"));
    if (f & IMPROVED) add(node, badge("improved: " + r[5].map(function (m) { return D.m[m]; }).join(", "), "pass"));
    if ((f & FAILING) && !(f & REGRESSED)) add(node, badge("failing: " + r[3].map(function (m) { return D.m[m]; }).join(", "), "warn"));
    if (f & UNSTABLE) add(node, badge("unstable", "info"));
    if (f & ONLY_CAND) add(node, badge("new", "info"));
    if (f & ONLY_BASE) add(node, badge("missing from candidate", "warn"));
    r[2].forEach(function (t) { add(node, el("span", "tag", D.tags[t])); });
  }
  function paint() {
    var first = Math.floor(listBox.scrollTop / ROW_HEIGHT);
    var count = Math.ceil(listBox.clientHeight / ROW_HEIGHT) + 2;
    while (pool.length < count) {
      var node = el("div", "row");
      node.addEventListener("click", onRowClick);
      pool.push(node);
      add(spacer, node);
    }
    for (var k = 0; k < pool.length; k++) {
      var node2 = pool[k], at = first + k;
      if (k >= count || at >= shown.length) { node2.hidden = true; node2.removeAttribute("data-case"); continue; }
      node2.hidden = false;
      node2.style.top = (at * ROW_HEIGHT) + "px";
      if (node2.fwIndex !== shown[at]) { fillRow(node2, shown[at]); node2.fwIndex = shown[at]; }
      node2.classList.toggle("open", viewBox.getAttribute("data-case") === S[D.cases[shown[at]][0]]);
    }
  }
  function onRowClick(event) {
    var id = event.currentTarget.getAttribute("data-case");
    if (id !== null) location.hash = "case=" + encodeURIComponent(id);
  }
  function select(options, onChange, testId) {
    var s = el("select");
    s.setAttribute("data-filter", testId);
    options.forEach(function (o) { var opt = el("option", null, o[1]); opt.value = String(o[0]); add(s, opt); });
    s.addEventListener("change", function () { onChange(parseInt(s.value, 10)); refilter(); });
    return s;
  }
  function outcomeCount(name) {
    var bit = { regressed: REGRESSED, improved: IMPROVED, failing: FAILING, unstable: UNSTABLE, "must-pass": MUST_PASS }[name];
    if (!bit) return D.cases.length;
    var n = 0;
    for (var i = 0; i < D.cases.length; i++) if (D.cases[i][1] & bit) n++;
    return n;
  }
  function casesBlock(app) {
    var s = section("Cases", "cases");
    var bar = el("div", "filters");
    OUTCOMES.forEach(function (o) {
      var b = el("button", null, o[1] + " (" + outcomeCount(o[0]) + ")");
      b.type = "button";
      b.setAttribute("data-outcome", o[0]);
      b.setAttribute("aria-pressed", o[0] === state.outcome ? "true" : "false");
      if (!D.decision && (o[0] === "regressed" || o[0] === "improved")) b.disabled = true;
      b.addEventListener("click", function () {
        state.outcome = o[0];
        Object.keys(buttons).forEach(function (k) { buttons[k].setAttribute("aria-pressed", k === o[0] ? "true" : "false"); });
        refilter();
      });
      buttons[o[0]] = b;
      add(bar, b);
    });
    add(bar, select([[-1, "every metric"]].concat(D.m.map(function (m, i) { return [i, m]; })), function (v) { state.metric = v; }, "metric"));
    var tagOptions = D.tags.map(function (t, i) { return [i, t]; }).sort(function (a, b) { return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0; });
    add(bar, select([[-1, "every tag"]].concat(tagOptions), function (v) { state.tag = v; }, "tag"));
    var search = el("input");
    search.type = "search";
    search.placeholder = "search ids, tags, inputs";
    search.setAttribute("data-filter", "q");
    search.addEventListener("input", function () { state.q = search.value.toLowerCase(); refilter(); });
    add(bar, search);
    countLabel = el("span", "count");
    countLabel.setAttribute("id", "shown");
    add(bar, countLabel);
    var pane = el("div", "pane");
    listBox = el("div", "list");
    spacer = el("div", "spacer");
    add(listBox, spacer);
    listBox.addEventListener("scroll", function () { requestAnimationFrame(paint); });
    viewBox = el("div", "caseview");
    viewBox.setAttribute("id", "case-view");
    add(viewBox, el("p", "muted", "Choose a case to see its repeats side by side with the baseline's."));
    add(pane, listBox, viewBox);
    add(s, bar, pane);
    add(app, s);
    ids = new Map();
    D.cases.forEach(function (r, i) { ids.set(S[r[0]], i); });
    refilter();
  }

  // -- one case ---------------------------------------------------------------------------
  var CALL_STATUS = ["Ok", "Empty", "Err"];
  function scoreText(flat, metric) {
    var at = scoresOf(flat, metric);
    if (at < 0) return "n/a";
    return flat[at] === null ? "not measured" : num(flat[at]);
  }
  // The answer as text, each deciding phrase (the labeller's evidence) wrapped in <mark>: text
  // nodes and elements only, so no character of the answer is ever read as markup.
  // Where a phrase stands in the answer: exactly, or with any run of whitespace between its
  // words (the labeller keeps a phrase with its whitespace collapsed).
  function findPhrase(text, phrase) {
    var at = text.indexOf(phrase);
    if (at >= 0) return [at, at + phrase.length];
    var words = phrase.split(" ").filter(Boolean).map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); });
    if (!words.length) return null;
    var m = new RegExp(words.join("\\s+")).exec(text);
    return m ? [m.index, m.index + m[0].length] : null;
  }
  function answerBlock(text, said) {
    var pre = el("pre", "answer");
    if (text === null) { pre.textContent = "(no answer)"; return pre; }
    var spans = [];
    said.forEach(function (i) {
      var phrase = str(i);
      if (phrase && phrase.slice(-1) === "\u2026") phrase = phrase.slice(0, -1);  // a cut phrase
      if (!phrase) return;
      var found = findPhrase(text, phrase);
      if (!found) return;
      var at = found[0], end = found[1];
      for (var j = 0; j < spans.length; j++) if (at < spans[j][1] && spans[j][0] < end) return;
      spans.push([at, end]);
    });
    spans.sort(function (a, b) { return a[0] - b[0]; });
    var from = 0;
    spans.forEach(function (span) {
      if (span[0] > from) pre.appendChild(document.createTextNode(text.slice(from, span[0])));
      var mark = el("mark", "said", text.slice(span[0], span[1]));
      mark.title = "the phrase that decided the label";
      pre.appendChild(mark);
      from = span[1];
    });
    if (from < text.length) pre.appendChild(document.createTextNode(text.slice(from)));
    return pre;
  }
  function trialBox(trial, other, side) {
    var box = el("div", "trial " + side);
    if (!trial) { add(box, el("p", "muted", side === "base" ? "no baseline repeat" : "no candidate repeat")); return box; }
    var title = "repeat " + trial[0] + (str(trial[1]) !== "base" ? " (" + str(trial[1]) + ")" : "") + ": " + str(trial[2]);
    add(box, el("h4", null, (side === "base" ? "baseline " : "candidate ") + title));
    var facts = el("p", "facts");
    add(facts, "verdict ", el("code", null, str(trial[3]) === null ? "none reported" : str(trial[3])), ", " + num(trial[4], 1) + " ms");
    var tr = trial[8];
    if (tr !== -1) {
      add(facts, ", tokens " + (tr[4] === null ? "unknown" : tr[4]) + " in / " + (tr[5] === null ? "unknown" : tr[5]) + " out, cost " + (tr[6] === null ? "unknown (" + (str(tr[7]) || "not reported") + ")" : "$" + tr[6]));
    }
    add(box, facts);
    if (str(trial[5]) !== null) add(box, el("p", "error", "error: " + str(trial[5])));
    if (tr === -1) {
      add(box, el("p", "muted", "trace not available: no trace file was given or found for this report"));
    } else {
      var calls = el("ol", "calls");
      tr[1].forEach(function (c) {
        var li = el("li");
        var kind = str(c[3]);
        add(li, el("code", "tool", str(c[0])), el("code", "args", str(c[1])), " \u2192 ",
          badge(CALL_STATUS[c[2]] + (c[2] === 2 && kind ? " " + kind : ""), c[2] === 0 ? "pass" : c[2] === 1 ? "warn" : "fail"),
          (c[5] & 1) ? badge("fault injected", "info") : null, (c[5] & 2) ? badge("truncated", "info") : null,
          el("span", "muted", " " + num(c[4], 1) + " ms" + (c[6] > 1 ? ", " + c[6] + " attempts" : "")));
        add(calls, li);
      });
      add(box, el("h5", null, "tool calls (" + tr[1].length + ")"), tr[1].length ? calls : el("p", "muted", "no tool was called"));
      add(box, el("h5", null, "faults: " + tr[2].length + " declared, " + tr[3].length + " fired"));
      if (tr[2].length) { var fd = el("ul", "faults"); tr[2].forEach(function (f) { add(fd, el("li", null, "declared " + str(f))); }); add(box, fd); }
      if (tr[3].length) { var ff = el("ul", "faults"); tr[3].forEach(function (f) { add(ff, el("li", null, "fired " + str(f))); }); add(box, ff); }
      add(box, el("h5", null, "answer"));
      add(box, answerBlock(str(tr[0]), trial[9] || []));
    }
    var st = table(["metric", "score"]);
    for (var i = 0; i < trial[6].length; i += 2) {
      var m = trial[6][i], here = scoreText(trial[6], m), there = other ? scoreText(other[6], m) : here;
      var r = row(st.body, [D.m[m], here]);
      if (other && here !== there) r.className = "changed";
    }
    add(box, el("h5", null, "scores"), st.table);
    var notes = Object.keys(trial[7]);
    if (notes.length) {
      var nl = el("ul", "notes");
      notes.forEach(function (k) { add(nl, el("li", null, k + ": " + str(trial[7][k]))); });
      add(box, nl);
    }
    return box;
  }
  function openCase(id) {
    var i = ids.get(id);
    viewBox.textContent = "";
    if (i === undefined) {
      viewBox.removeAttribute("data-case");
      add(viewBox, el("p", "error", "This report has no case with the id " + JSON.stringify(id) + "."));
      return;
    }
    var r = D.cases[i], cand = D.cand[i], base = D.base ? D.base[i] : null;
    viewBox.setAttribute("data-case", id);
    var close = el("button", "close", "close");
    close.type = "button";
    close.addEventListener("click", function () { history.replaceState(null, "", location.pathname + location.search); viewBox.removeAttribute("data-case"); viewBox.textContent = ""; paint(); });
    add(viewBox, close, el("h3", "cid", id));
    var tags = el("p");
    r[2].forEach(function (t) { add(tags, el("span", "tag", D.tags[t])); });
    if (r[1] & MUST_PASS) add(tags, badge("must-pass", "info"));
    add(viewBox, tags);
    var input = str(r[6]);
    if (input === null) input = firstInput(i);
    add(viewBox, el("h5", null, "input"), el("pre", "input", input === null ? "not known (no traces or dataset given)" : input));
    add(viewBox, el("h5", null, "expectations"), el("pre", "expect", str(r[7]) === null ? (D.head.expectations ? "none" : "not known (pass --cases with the dataset to show them)") : str(r[7])));
    add(viewBox, el("p", "muted", r[8] + " fault(s) declared"));
    var summary = table(["metric", "baseline", "candidate", "flip"]);
    D.m.forEach(function (name, m) {
      var b = base ? scoreText(base[0], m) : "\u2014", c = cand ? scoreText(cand[0], m) : "\u2014";
      if (b === "n/a" && c === "n/a") return;
      var flip = r[4].indexOf(m) >= 0 ? "regressed" : r[5].indexOf(m) >= 0 ? "improved" : "";
      var tr = row(summary.body, [name, b, c, flip]);
      tr.setAttribute("data-metric", name);
      if (flip) tr.className = flip === "regressed" ? "bad" : "good";
    });
    add(viewBox, el("h5", null, "scores, repeats collapsed"), summary.table);
    var n = Math.max(cand ? cand[2].length : 0, base ? base[2].length : 0);
    for (var k = 0; k < n; k++) {
      var bt = base ? base[2][k] : null, ct = cand ? cand[2][k] : null;
      var pair = el("div", "pair");
      add(pair, trialBox(bt, ct, "base"), trialBox(ct, bt, "cand"));
      add(viewBox, pair);
    }
    paint();
  }
  function fromHash() {
    var h = location.hash;
    if (h.indexOf("#case=") !== 0) return;
    var id;
    try { id = decodeURIComponent(h.slice(6)); } catch (e) { id = h.slice(6); }
    openCase(id);
    var i = ids.get(id), at = i === undefined ? -1 : shown.indexOf(i);
    if (at >= 0) { listBox.scrollTop = at * ROW_HEIGHT; paint(); }
    viewBox.scrollIntoView({ block: "start" });
  }

  function start(data) {
    D = data;
    S = data.s;
    var app = document.getElementById("app");
    app.textContent = "";
    header(app);
    decisionBlock(app);
    countsBlock(app);
    metricsBlock(app);
    trendBlock(app);
    pairedBlock(app);
    diagnosticsBlock(app);
    casesBlock(app);
    document.body.setAttribute("data-ready", "true");
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }

  load().then(start, function (error) {
    var app = document.getElementById("app");
    app.textContent = "";
    add(app, el("p", "error", "This report's data could not be read: " + error));
    document.body.setAttribute("data-ready", "error");
  });
})();
