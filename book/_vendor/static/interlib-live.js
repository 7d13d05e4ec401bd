// Interconnects live demos on the static site (hand-written, no dependencies).
//
// Each demo is static HTML (interlib/widgets/page.py): labelled native controls, the figure
// and numbers at the default settings. Nothing more is loaded until a demo comes near the
// screen (then Python starts quietly, unless the browser asks to save data) or the reader
// asks: the "Run live" button of any demo, or the first move of any control, starts Python
// (Pyodide in interlib-live-worker.js: one shared worker for the book's pages in the browser,
// or the page's own where there is none) and from then on every control of every demo on
// the page recomputes its figure and numbers with interlib's own code.
//
// Contract with page.py: div.interlib-demo[data-demo][data-module][data-defaults] holds
// form.interlib-controls (inputs/selects/textareas with data-kind
// int|intlog|float|log|choice|text, data-format, data-default; a log slider's
// input.interlib-typed box for an exact value; data-lo/data-hi on a slider whose range
// follows other controls), button.interlib-live-button, span.interlib-live-status[role=status],
// div.interlib-plot (an img) and div.interlib-numbers. This script adds, per demo,
// div.interlib-live-error[role=alert] (hidden until something fails),
// progress.interlib-live-progress (while Python loads) and, after each live
// render, data-params on the demo (the values used, as Python's JSON) and
// data-live-renders (a count); data-moved="1" on each control the reader has moved; after a refused computation, data-failed-params (the values
// sent) and data-live-errors (a count).
(function () {
  "use strict";

  const script = document.currentScript;
  const NARROW_BELOW_PX = 600;  // interlib.widgets.core.NARROW_BELOW_PX
  const HELLO_MS = 60000;       // the worker's first answer comes within this, or it failed
  const STATIC = new URL(".", script ? script.src : document.baseURI);

  // --- Python-style format specs for the readouts: [,][.precision](d|f|e|g|%) ---------
  function trimZeros(s) {
    return s.indexOf(".") >= 0 ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
  }
  function expPart(s) {  // JS "1.2e+9" -> Python "1.2e+09"
    return s.replace(/e([+-])(\d)$/, "e$10$2");
  }
  // x.toFixed(p), but an exact tie rounds to even, as Python does (1234.5 -> "1234").
  function toFixedEven(x, p) {
    const s = x.toFixed(p);
    const scaled = Math.abs(x) * Math.pow(10, p);
    const down = Math.floor(scaled);
    if (scaled - down !== 0.5 || !Number.isSafeInteger(down) || down % 2 !== 0) return s;
    return (x < 0 ? "-" : "") + (down / Math.pow(10, p)).toFixed(p);
  }
  // x.toExponential(p), but an exact tie rounds to even, as Python does (12.5 -> "1.2e+1").
  function toExponentialEven(x, p) {
    const s = x.toExponential(p);
    const [mant, exp] = Math.abs(x).toExponential(100).split("e");  // exact for our values
    const digits = mant.replace(".", "");
    const tie = digits[p + 1] === "5" && /^0*$/.test(digits.slice(p + 2));
    if (!tie || Number(digits[p]) % 2 !== 0) return s;
    const kept = digits[0] + (p > 0 ? "." + digits.slice(1, p + 1) : "");
    return (x < 0 ? "-" : "") + kept + "e" + exp;
  }
  function group(s) {
    const neg = s[0] === "-";
    const body = neg ? s.slice(1) : s;
    const [i, f] = body.split(".");
    const g = i.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (neg ? "-" : "") + g + (f !== undefined ? "." + f : "");
  }
  // interlib.display.fmt_num, built from the same Python format specs: "1,024", "16.4 k",
  // "0.0078", "2.5 × 10⁻⁶".
  const SUP = {"-": "⁻", "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵",
               "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹"};
  function fmtNum(x) {
    const ax = Math.abs(x);
    if (ax === 0) return "0";
    if (ax >= 1e4) {
      for (const [exp, p] of [[9, "G"], [6, "M"], [3, "k"]]) {
        if (ax >= Math.pow(10, exp) * 0.9995 || exp === 3) {
          const s = pyFormat(x / Math.pow(10, exp), ".3g");
          if (s.indexOf("e") < 0 && Math.abs(Number(s)) < 1000) return s + " " + p;
        }
      }
      return pyFormat(x, ",.0f");
    }
    if (ax >= 1) {
      const d = Math.max(0, 2 - Math.floor(Math.log10(ax)));
      return trimZeros(pyFormat(x, ",." + d + "f"));
    }
    if (ax >= 1e-3) return pyFormat(x, ".2g");
    const [mant, e] = pyFormat(x, ".1e").split("e");
    return trimZeros(mant) + " × 10" + String(Number(e)).split("").map((c) => SUP[c]).join("");
  }
  function pyFormat(x, spec) {
    if (spec === "num") return Number.isFinite(x) ? fmtNum(x) : String(x);
    const m = /^(,?)(?:\.(\d+))?([dfeg%]?)$/.exec(spec || "");
    if (!m || !Number.isFinite(x)) return String(x);
    const comma = m[1] === ",";
    const type = m[3] || "g";
    let p = m[2] === undefined ? 6 : Number(m[2]);
    let s;
    if (type === "d") s = String(Math.round(x));
    else if (type === "f") s = toFixedEven(x, p);
    else if (type === "%") s = toFixedEven(x * 100, p) + "%";
    else if (type === "e") s = expPart(toExponentialEven(x, p));
    else {  // g: Python's rules (exponent from the rounded value; trailing zeros removed)
      if (p === 0) p = 1;
      if (x === 0) return "0";
      const exp = Number(toExponentialEven(x, p - 1).split("e")[1]);
      if (exp >= -4 && exp < p) s = trimZeros(toFixedEven(x, Math.max(0, p - 1 - exp)));
      else {
        const [mant, e] = toExponentialEven(x, p - 1).split("e");
        s = expPart(trimZeros(mant) + "e" + e);
      }
    }
    return comma ? group(s) : s;
  }

  // --- reading the controls ---------------------------------------------------------
  // A linear slider is a range over its values; a log slider a range over the indices of
  // its positions (data-values, Python's values: its ends are its labelled ends and its
  // default is one of them). A control the reader has not moved has its exact default
  // (data-default), as in JupyterLab. A value typed into a log slider's box (data-exact)
  // is used as typed.
  const parsed = new WeakMap();  // slider -> [data-values text, its values]
  function valuesOf(el) {
    const text = el.dataset.values || "[]";
    const got = parsed.get(el);
    if (got && got[0] === text) return got[1];
    const values = JSON.parse(text);
    parsed.set(el, [text, values]);
    return values;
  }
  const SLIDER = new Set(["int", "float", "intlog", "log"]);
  function isSlider(el) { return SLIDER.has(el.dataset.kind); }
  function indexed(el) { return el.dataset.values !== undefined; }  // a log slider
  function controlValue(el) {
    const kind = el.dataset.kind;
    if (kind === "choice") return JSON.parse(el.value);
    if (el.dataset.exact !== undefined) return JSON.parse(el.dataset.exact);
    if (el.dataset.moved !== "1") return JSON.parse(el.dataset.default);
    if (kind === "text") return el.value;  // a pasted log: stays in this page's worker
    if (!indexed(el)) return Number(el.value);
    const values = valuesOf(el);
    return values[Math.max(0, Math.min(values.length - 1, Math.round(Number(el.value))))];
  }
  function nearestIndex(values, x) {  // the position nearest x (in log terms when > 0)
    let best = 0, bestD = Infinity;
    values.forEach((v, i) => {
      const d = (x > 0 && v > 0) ? Math.abs(Math.log(v / x)) : Math.abs(v - x);
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  }
  function readParams(demo) {
    const params = {};
    for (const el of demo.querySelectorAll("form.interlib-controls [data-kind]")) {
      params[el.name] = controlValue(el);
    }
    return params;
  }
  // A number for the number box: plain decimals, no exponent (interlib.widgets.core.plain_decimal).
  function plainDecimal(x) {
    const s = String(x);
    const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
    if (!m) return s;
    const digits = m[2] + (m[3] || ""), e = Number(m[4]);
    if (e < 0) return m[1] + "0." + "0".repeat(-e - 1) + digits;
    return m[1] + digits + "0".repeat(Math.max(0, e - digits.length + 1));
  }
  // A number as a reader types it, exactly (interlib.widgets.core.value_text).
  function valueText(x) {
    if (typeof x !== "number" || !Number.isFinite(x)) return String(x);
    if (Number.isInteger(x) && Math.abs(x) < 1e15) return group(String(x));
    if (Math.abs(x) >= 1e-4) {
      const t = trimZeros(toFixedEven(x, 6));
      return Number(t) === x ? group(t) : group(pyFormat(x, ".10g"));
    }
    return fmtNum(x);
  }
  function labelOf(el) {
    const lab = document.querySelector(`label[for="${el.id}"]`);
    return lab ? lab.textContent : el.name;  // as written: "nccl-tests ...", "servers ..."
  }
  // Why a typed value cannot be used, in the words of interlib.widgets.core.Demo.refusal;
  // null when it can. Range and multiple: data-lo/hi/multiple of a slider whose valid
  // values follow other controls, else its positions' ends.
  function refusal(el, typed) {
    const label = labelOf(el);
    const keeps = " The demo keeps " + pyFormat(controlValue(el), el.dataset.format) + ".";
    const text = String(typed).trim().replace(/,/g, "");
    const x = text === "" ? NaN : Number(text);
    if (!Number.isFinite(x)) {
      const shown = String(typed).trim();
      return label + ": “" + (shown.length <= 20 ? shown : shown.slice(0, 19) + "…") +
             "” is not a number." + keeps;
    }
    const whole = el.dataset.kind === "int" || el.dataset.kind === "intlog";
    if (whole && !Number.isInteger(x)) return label + ": " + valueText(x) + " is not a whole number." + keeps;
    const values = indexed(el) ? valuesOf(el) : [Number(el.min), Number(el.max)];
    const dep = el.dataset.lo !== undefined;
    const lo = dep ? JSON.parse(el.dataset.lo) : values[0];
    const hi = dep ? JSON.parse(el.dataset.hi) : values[values.length - 1];
    const m = dep ? Number(el.dataset.multiple || 1) : 1;
    const why = dep ? (el.dataset.why || "") : "";
    const because = why ? " (" + why + ")" : "";
    if (!(lo <= x && x <= hi)) {
      return label + ": " + valueText(x) + " is outside " + valueText(lo) + " to " +
             valueText(hi) + because + "." + keeps;
    }
    if (m > 1 && x % m !== 0) {
      const below = Math.floor(x / m) * m;
      const near = [below, below + m].filter((v) => lo <= v && v <= hi);
      return label + ": " + valueText(x) + " is not a multiple of " + valueText(m) +
             (why ? " (" + why + ")" : "") + "; the nearest " + (near.length > 1 ? "are " : "is ") +
             near.map(valueText).join(" and ") + "." + keeps;
    }
    return null;
  }
  function showValue(el, value) {  // point a slider at a value (a position, or exactly)
    el.dataset.moved = "1";
    if (indexed(el)) {
      const values = valuesOf(el);
      const i = values.indexOf(value);
      el.value = String(i >= 0 ? i : nearestIndex(values, value));
      if (i >= 0) delete el.dataset.exact;
      else el.dataset.exact = JSON.stringify(value);
    } else {
      el.value = String(value);
      if (Number(el.value) !== value) el.dataset.exact = JSON.stringify(value);
      else delete el.dataset.exact;
    }
    updateReadout(el);
  }
  function updateReadout(el) {
    if (el.dataset.kind === "choice" || el.dataset.kind === "text") return;
    const row = el.closest(".interlib-control");
    const shown = pyFormat(controlValue(el), el.dataset.format);
    const out = row?.querySelector("output.interlib-readout");
    if (out) out.textContent = shown;
    el.setAttribute("aria-valuetext", shown);
    const typed = row?.querySelector("input.interlib-typed");
    if (typed && document.activeElement !== typed) typed.value = plainDecimal(controlValue(el));
  }
  function controlNote(el, text) {  // a refusal under its control (role=status), or none
    const row = el.closest(".interlib-control");
    if (!row) return;
    let note = row.querySelector(".interlib-control-msg");
    if (!text) { if (note) { note.hidden = true; note.textContent = ""; } return; }
    if (!note) {
      note = document.createElement("p");
      note.className = "interlib-control-msg";
      note.setAttribute("role", "status");
      row.appendChild(note);
    }
    note.textContent = text;
    note.hidden = false;
  }
  // After a frame: each dependent slider's valid values, then every slider shows the value
  // used.
  function applyUsed(demo, r) {
    let used;
    try { used = JSON.parse(r.params); } catch (err) { return; }
    for (const [key, lim] of Object.entries(r.limits || {})) {
      const el = demo.querySelector(`form.interlib-controls [name="${key}"]`);
      if (!el || !isSlider(el)) continue;
      el.dataset.lo = JSON.stringify(lim.lo);
      el.dataset.hi = JSON.stringify(lim.hi);
      el.dataset.multiple = String(lim.multiple);
      el.dataset.why = lim.why || "";
      if (indexed(el)) {
        el.dataset.values = JSON.stringify(lim.values);
        el.max = String(lim.values.length - 1);
      } else if (lim.hi < Number(el.min)) {
        el.min = String(lim.lo);
        el.max = String(lim.hi);
      } else {
        el.max = String(lim.hi);
        el.min = String(lim.lo);
      }
      const typed = el.closest(".interlib-control")?.querySelector("input.interlib-typed");
      if (typed) { typed.min = plainDecimal(lim.lo); typed.max = plainDecimal(lim.hi); }
    }
    for (const el of demo.querySelectorAll("form.interlib-controls [data-kind]")) {
      if (!isSlider(el) || !(el.name in used)) continue;
      const want = used[el.name];
      if (controlValue(el) === want) {  // the same value: its positions may have changed
        if (indexed(el) && el.dataset.exact === undefined) {
          const i = valuesOf(el).indexOf(want);
          if (i >= 0) el.value = String(i);
        }
        continue;
      }
      showValue(el, want);
    }
  }

  // --- what each demo shows ---------------------------------------------------------
  const demos = Array.from(document.querySelectorAll(".interlib-demo[data-demo]"));
  window.interlibLive = {format: pyFormat};  // for tests/test_site_live.py
  if (!demos.length) return;
  const info = new Map();  // demo element -> {busy, queued, renders}
  for (const d of demos) info.set(d, {busy: false, queued: null, renders: 0});

  function status(demo, text) {
    const s = demo.querySelector(".interlib-live-status");
    if (s && s.textContent !== text) s.textContent = text;
  }
  function progressBar(demo, pct) {
    let bar = demo.querySelector("progress.interlib-live-progress");
    if (!bar && pct !== null) {
      bar = document.createElement("progress");
      bar.className = "interlib-live-progress";
      bar.max = 100;
      bar.setAttribute("aria-label", "Loading Python in your browser");
      demo.querySelector(".interlib-live-status")?.insertAdjacentElement("afterend", bar);
    }
    if (!bar) return;
    if (pct === null) { bar.remove(); return; }
    bar.value = pct;
    bar.textContent = pct + "%";
  }
  function alertBox(demo) {
    let box = demo.querySelector(".interlib-live-error");
    if (!box) {
      box = document.createElement("div");
      box.className = "interlib-live-error";
      box.setAttribute("role", "alert");
      box.hidden = true;
      const bar = demo.querySelector(".interlib-live-bar");
      (bar || demo.firstChild).insertAdjacentElement("afterend", box);
    }
    return box;
  }
  function showError(demo, text) {
    const box = alertBox(demo);
    box.textContent = text;
    box.hidden = false;
  }
  function clearError(demo) {
    const box = demo.querySelector(".interlib-live-error");
    if (box && !box.hidden) { box.hidden = true; box.textContent = ""; }
  }
  function setButtons(text, disabled) {
    for (const d of demos) {
      const b = d.querySelector(".interlib-live-button");
      if (b) { b.textContent = text; b.disabled = disabled; }
    }
  }

  // --- the worker -------------------------------------------------------------------
  // Python starts when the reader asks (the "Run live" button or a control) or, earlier
  // and quietly, when a demo comes near the screen or the pointer/focus reaches a "Run live"
  // button (not when the browser asks to save data: navigator.connection.saveData or
  // prefers-reduced-data). Started quietly, the page looks static until the reader asks; the
  // worker then also draws the demo in view once (the first figure of a process is its
  // slowest), so a later click finds Python ready and the figure drawn.
  let phase = "idle";  // idle | loading | ready | failed
  let asked = false;   // the reader has asked: the page shows the loading, then live mode
  let worker = null;
  let nextId = 1;
  const waiting = new Map();  // request id -> {demo element, params sent (JSON), warm}
  const wanted = new Set();   // demos to render once Python is ready
  let loadingText = null, loadingPct = null, failure = null, readyMsg = null, warmDemo = null;
  const saveData = !!(navigator.connection && navigator.connection.saveData) ||
    !!(window.matchMedia && window.matchMedia("(prefers-reduced-data: reduce)").matches);

  function loading(text, pct) {  // remembered while quiet; shown once the reader asks
    if (text !== undefined && text !== null) loadingText = text;
    if (pct !== undefined) loadingPct = pct;
    if (!asked || phase !== "loading") return;
    for (const d of demos) {
      if (loadingText) status(d, loadingText);
      if (loadingPct !== null) progressBar(d, loadingPct);
    }
  }

  function fail(reason) {
    if (phase === "failed") return;
    phase = "failed";
    failure = reason;
    if (worker) { worker.terminate(); worker = null; }
    waiting.clear();
    if (asked) showFailure();
  }

  function showFailure() {
    setButtons("Live mode unavailable", true);
    for (const d of demos) {
      progressBar(d, null);
      d.querySelector(".interlib-plot")?.removeAttribute("aria-busy");
      status(d, "Static: the figure and numbers show the default settings.");
      showError(d, "Could not run this demo live in your browser: " + failure +
                   ". The figure and numbers above show the default settings; the book's " +
                   "notebooks run every demo in JupyterLab (see How to use this book).");
    }
    if (window.console) console.warn("interlib live demos: " + failure);
  }

  function ask() {  // the reader asked: show where Python is
    if (asked) return;
    asked = true;
    if (phase === "failed") showFailure();
    else if (phase === "ready") showReady();
    else {
      setButtons("Starting…", true);
      loading(loadingText || "Loading Python in your browser…");
    }
  }

  function start(quiet) {
    if (!quiet) ask();
    if (phase !== "idle") return;
    phase = "loading";
    if (!quiet) loading("Loading Python in your browser…");
    if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
      fail("this browser has no WebAssembly or Web Workers");
      return;
    }
    // The worker also fetches the interpreter's snapshot (pyodide-snapshot.json gives its
    // size): counted in the bytes the page says going live downloads.
    const snapshotBytes = fetch(new URL("pyodide/pyodide-snapshot.json", STATIC))
      .then((r) => (r.ok ? r.json() : null)).then((i) => (i && i.gz_bytes) || 0)
      .catch(() => 0);
    fetch(new URL("interlib-live.json", STATIC), {cache: "no-cache"})
      .then((r) => {
        if (!r.ok) throw new Error("interlib-live.json answered HTTP " + r.status);
        return r.json();
      })
      .then((manifest) => snapshotBytes.then((extra) => launch(manifest, extra)))
      .catch((err) => fail(String((err && err.message) || err)));
  }

  function prestart(demo) {
    if (saveData || phase !== "idle") return;
    warmDemo = warmDemo || demo;
    start(true);
  }

  // One Python for every page of the book open in this browser, and for the next page
  // after following a link: a shared worker (named by interlib's wheel, so a rebuilt book
  // never talks to an older Python) that the browser keeps for a while after its last page
  // closes (extendedLifetime, where supported: Chromium). Where there is no SharedWorker
  // (Chrome on Android, for one), or it cannot start, a worker of this page's own. Both
  // are driven through the same four members: postMessage, onmessage, onerror, terminate.
  function openWorker(url, version) {
    if (typeof SharedWorker === "function") {
      try {
        const shared = new SharedWorker(url, {name: "interlib-live-" + version,
                                              extendedLifetime: true});
        const port = shared.port;
        const ch = {
          shared: true,
          postMessage: (m) => port.postMessage(m),
          terminate: () => port.close(),
          set onmessage(f) { port.onmessage = f; },
          set onmessageerror(f) { port.onmessageerror = f; },
          set onerror(f) { shared.onerror = f; },
        };
        port.start();
        return ch;
      } catch (err) {
        // a dedicated worker below
      }
    }
    const w = new Worker(url);
    w.shared = false;
    return w;
  }

  function launch(manifest, snapshotBytes) {
    const b = manifest.bytes || {};
    const runtime = (b.runtime || 0) + (snapshotBytes || 0);
    const total = runtime + (b.packages || 0) + (b.interlib || 0);
    const mb = (n) => (n / 1e6).toFixed(1) + " MB";
    const version = String(manifest.wheel_sha256 || "").slice(0, 12);
    try {
      worker = openWorker(new URL("interlib-live-worker.js", STATIC), version);
    } catch (err) {
      fail("the Python worker could not start (" + err.message + ")");
      return;
    }
    worker.onerror = (e) => {
      if (e && e.preventDefault) e.preventDefault();
      fail("the Python worker stopped (" + ((e && e.message) || "script error") + ")");
    };
    worker.onmessageerror = () => fail("the Python worker sent an unreadable message");
    // The worker says hello as soon as its script runs. A worker script that cannot be
    // fetched fires an error event above; should a browser not report it (a shared worker
    // under load), no hello within HELLO_MS says it instead of a page waiting for ever.
    let hello = setTimeout(() => {
      fail("the Python worker did not start (no answer from interlib-live-worker.js within " +
           HELLO_MS / 1000 + " s)");
    }, HELLO_MS);
    worker.onmessage = (e) => {
      if (hello !== null) { clearTimeout(hello); hello = null; }
      onMessage(e.data, total, mb);
    };
    const wheel = new URL(manifest.wheel, STATIC);
    wheel.search = "v=" + version;
    worker.postMessage({
      type: "init",
      pyodide: new URL("pyodide/", STATIC).href,
      wheel: wheel.href,
      // the chapter modules of this page's demos (the worker imports only those)
      modules: [...new Set(demos.map((d) => d.dataset.module).filter(Boolean))],
      levers: window.interlibLiveLevers,  // make bench only (tools/bench.py): each on if unset
      total,
      share: total ? {runtime: runtime / total, packages: (runtime + b.packages) / total}
                   : null,
    });
    loading("Loading Python in your browser (" + mb(total) + ", downloaded once; the book's other pages use the same Python)…");
  }

  function onMessage(m, total, mb) {
    if (!m || m.type === "hello") return;
    if (m.type === "progress") {
      if (phase !== "loading") return;  // a late report from the worker's download watcher
      // The status line (a polite live region) changes once per stage; the percentage goes
      // to a <progress> bar beside it, so screen readers are not told every step.
      loading(m.text + " (" + mb(total) + " in all, downloaded once)…", m.pct);
    } else if (m.type === "failed") {
      fail(m.error);
    } else if (m.type === "ready") {
      phase = "ready";
      readyMsg = m;
      if (asked) showReady();
      else if (warmDemo) send(warmDemo, JSON.stringify(readParams(warmDemo)), true);
    } else if (m.type === "frame") {
      const req = waiting.get(m.id);
      waiting.delete(m.id);
      if (req) show(req.demo, m.result, req.params, req.warm && !asked);
    }
  }

  function showReady() {
    const m = readyMsg;
    setButtons("Running live", true);
    for (const d of demos) {
      progressBar(d, null);
      d.dataset.live = "ready";
      d.dataset.liveTimings = JSON.stringify(m.timings || {});
      d.dataset.liveShared = m.reused ? "reused" : (worker && worker.shared ? "new" : "own");
      status(d, "Live: the figure and numbers follow the controls, computed in your " +
                "browser by interlib (Python " + m.versions.python + ", numpy " +
                m.versions.numpy + ", matplotlib " + m.versions.matplotlib + ").");
    }
    for (const d of wanted) request(d);
    wanted.clear();
  }

  function request(demo) {
    const st = info.get(demo);
    if (phase === "failed") { ask(); return; }
    if (phase !== "ready") {
      wanted.add(demo);
      start(false);
      return;
    }
    if (!asked) ask();
    const params = JSON.stringify(readParams(demo));
    if (st.busy) { st.queued = params; return; }  // coalesce: only the latest values
    send(demo, params);
  }

  function send(demo, params, warm) {
    const st = info.get(demo);
    st.busy = true;
    const id = nextId++;
    waiting.set(id, {demo, params, warm: !!warm});
    if (!warm) demo.querySelector(".interlib-plot")?.setAttribute("aria-busy", "true");
    // A box narrower than the page's breakpoint (a phone) gets the phone layout.
    const plot = demo.querySelector(".interlib-plot");
    const narrow = !!plot && plot.clientWidth > 0 && plot.clientWidth < NARROW_BELOW_PX;
    worker.postMessage({type: "frame", id, demo: demo.dataset.demo,
                        module: demo.dataset.module, params, narrow});
  }

  function show(demo, resultText, sent, discard) {
    const st = info.get(demo);
    if (discard) {  // drawn while quiet: the page stays static until the reader asks
      st.busy = false;
      if (st.queued !== null) { const params = st.queued; st.queued = null; send(demo, params); }
      return;
    }
    let r;
    try { r = JSON.parse(resultText); } catch (err) { r = {ok: false, error: String(err)}; }
    if (r.ok) {
      const img = demo.querySelector(".interlib-plot img");
      // The live image replaces both static ones (wide and phone layouts).
      for (const s of demo.querySelectorAll(".interlib-plot picture source")) s.remove();
      if (img) {
        img.alt = r.alt;
        img.src = r.src;
      }
      const numbers = demo.querySelector(".interlib-numbers");
      if (numbers) numbers.innerHTML = r.summary_html;
      if (st.queued === null) applyUsed(demo, r);
      st.renders += 1;
      demo.dataset.params = r.params;
      demo.dataset.liveRenders = String(st.renders);
      clearError(demo);
    } else {
      // interlib's reason in the reader's words (live.frame's "error"); the figure,
      // numbers and readouts stay at the last setting computed
      showError(demo, "This setting could not be computed: " + r.error);
      if (r.detail && window.console) console.info("interlib: " + r.detail);
      demo.dataset.failedParams = sent;
      demo.dataset.liveErrors = String(Number(demo.dataset.liveErrors || 0) + 1);
    }
    st.busy = false;
    demo.querySelector(".interlib-plot")?.removeAttribute("aria-busy");
    if (st.queued !== null) {
      const params = st.queued;
      st.queued = null;
      send(demo, params);
    }
  }

  // A number typed into a log slider's box: used exactly if the demo can use it (the
  // slider moves to it); else refused in place, in words, and the box, the readout and the
  // figure stay at the value in use.
  function typedValue(demo, box) {
    const el = document.getElementById(box.dataset.for);
    if (!el) return;
    const said = refusal(el, box.value);
    if (said !== null) {
      controlNote(el, said);
      box.value = plainDecimal(controlValue(el));
      return;
    }
    controlNote(el, null);
    const x = Number(String(box.value).trim().replace(/,/g, ""));
    if (x === controlValue(el)) return;
    showValue(el, x);
    request(demo);
  }

  // --- wiring -----------------------------------------------------------------------
  for (const demo of demos) {
    // A demo with many controls in groups (the capstone): on a phone only the first group
    // stays open, so the figure is within the first screen; a tap on a title opens another.
    const groups = demo.querySelectorAll("details.interlib-group");
    if (groups.length > 1 && demo.clientWidth > 0 && demo.clientWidth < NARROW_BELOW_PX) {
      groups.forEach((g, i) => { if (i > 0) g.open = false; });
    }
    const form = demo.querySelector("form.interlib-controls");
    if (form) {
      form.addEventListener("input", (e) => {
        const el = e.target;
        if (!el || !el.dataset || !el.dataset.kind) return;
        el.dataset.moved = "1";
        delete el.dataset.exact;
        controlNote(el, null);
        updateReadout(el);
        request(demo);
      });
      form.addEventListener("change", (e) => {  // selects fire change; keep readouts exact
        const el = e.target;
        if (el && el.classList && el.classList.contains("interlib-typed")) {
          typedValue(demo, el);
          return;
        }
        if (el && el.dataset && el.dataset.kind) { el.dataset.moved = "1"; updateReadout(el); }
      });
    }
    // A file chosen for a text control is read here, in the browser, into its textarea
    // (nothing is uploaded); a file over the control's limit is refused with a message.
    for (const file of demo.querySelectorAll("input[type=file][data-file-for]")) {
      file.addEventListener("change", () => {
        const f = file.files && file.files[0];
        const area = document.getElementById(file.dataset.fileFor);
        if (!f || !area) return;
        const limit = Number(file.dataset.maxChars);
        if (f.size > limit) {
          showError(demo, "The file is " + (f.size / 1e6).toFixed(1) + " MB; the limit is " +
                          (limit / 1e6).toFixed(0) + " MB: keep only the nccl-tests output.");
          file.value = "";
          return;
        }
        f.text().then((text) => {
          area.value = text;
          area.dispatchEvent(new Event("input", {bubbles: true}));
        }).catch((err) => showError(demo, "Could not read the file: " + err));
      });
    }
    const button = demo.querySelector(".interlib-live-button");
    if (button) {
      button.addEventListener("click", () => request(demo));
      button.addEventListener("pointerenter", () => prestart(demo));
      button.addEventListener("focus", () => prestart(demo));
    }
  }
  if (!saveData && typeof IntersectionObserver === "function") {
    // A demo within half a screen below the visible part of the page.
    const near = new IntersectionObserver((entries) => {
      const seen = entries.find((e) => e.isIntersecting);
      if (!seen) return;
      near.disconnect();
      prestart(seen.target);
    }, {rootMargin: "0px 0px 50% 0px"});
    for (const d of demos) near.observe(d);
  }
  // for the tests and bench: sent = frames asked of Python so far
  window.interlibLive.state = () => ({phase, asked, saveData, sent: nextId - 1,
                                      inflight: waiting.size});
})();
