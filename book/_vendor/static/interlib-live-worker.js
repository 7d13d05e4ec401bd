// Interconnects live demos: the Web Worker that runs Python (hand-written, no dependencies).
// Started by interlib-live.js on the reader's request. It loads the vendored Pyodide from
// _static/pyodide/ (no CDN: the trimmed pyodide-lock.json lists only the shipped wheels),
// numpy and matplotlib, then the book's own interlib wheel, and answers frame requests with
// interlib.widgets.live.frame (the same figure code JupyterLab's demos use).
//
// It runs as a shared worker (one Python for every page of the book open in the browser,
// and for the next page after a link: interlib-live.js asks the browser to keep it a while
// after its last page closes) or, where there is none, as a page's own worker: the same
// messages either way, a shared worker's on each page's port.
//
// Messages in:  {type: "init", pyodide: URL of _static/pyodide/, wheel: URL, total: bytes}
//               {type: "frame", id, demo, params: JSON text}
// Messages out: {type: "progress", stage, text, pct}  {type: "ready", versions, timings,
//               reused: true when Python was already running for an earlier page}
//               {type: "failed", error}  {type: "frame", id, result: JSON text from frame()}
"use strict";

const SHARED = typeof SharedWorkerGlobalScope !== "undefined" &&
  self instanceof SharedWorkerGlobalScope;
const listeners = new Set();  // where progress, ready and failure go: the pages waiting
let starting = null;          // the one start of Python: a promise of its "ready" message
function tell(m) { for (const p of listeners) p.postMessage(m); }

let frameFn = null;
let doneBytes = 0;
let totalBytes = 0;
let floorPct = 0;
const seen = new Set();

function progress(stage, text, pct) {
  if (pct !== undefined) floorPct = Math.max(floorPct, pct);
  const measured = totalBytes ? Math.round((100 * doneBytes) / totalBytes) : 0;
  tell({type: "progress", stage, text, pct: Math.min(99, Math.max(floorPct, measured))});
}

let stageText = ["runtime", "Loading the Python runtime"];
let watcher = null;
function watchDownloads() {
  // Finished downloads (resource timing) as a fraction of the bytes going live fetches.
  if (typeof PerformanceObserver === "undefined") return;
  try {
    watcher = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (seen.has(e.name)) continue;
        seen.add(e.name);
        doneBytes += e.encodedBodySize || e.transferSize || 0;
      }
      progress(stageText[0], stageText[1]);
    });
    watcher.observe({type: "resource", buffered: true});
  } catch (err) {
    // Progress stays by stage only.
  }
}

async function init(m) {
  const t0 = performance.now();
  const timings = {};
  const lap = (name) => { timings[name] = Math.round(performance.now() - t0); };
  totalBytes = m.total || 0;
  watchDownloads();
  progress("runtime", "Loading the Python runtime", 1);
  // Fetched while the runtime compiles and starts (each is needed only after it):
  // matplotlib's font cache, made by tools/vendor_pyodide.py with this very Pyodide (without
  // it, importing matplotlib first reads every bundled font) ...
  const fontlistText = fetch(m.pyodide + "matplotlib-fontlist.json")
    .then((r) => (r.ok ? r.text() : null))
    .catch(() => null);  // then matplotlib builds its own cache (slower, same result)
  // ... the bytecode of the modules that importing them loads (the wheels hold sources
  // only; compiling them is much of the import time) ...
  const pycache = fetch(m.pyodide + "site-packages-pycache.zip")
    .then((r) => (r.ok ? r.arrayBuffer() : null))
    .catch(() => null);  // then Python compiles the sources (slower, same result)
  // ... and the book's own wheel.
  const wheelBytes = fetch(m.wheel).then((r) => {
    if (!r.ok) throw new Error(`${m.wheel} answered HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  wheelBytes.catch(() => {});  // reported where it is awaited
  importScripts(m.pyodide + "pyodide.js");
  // Pyodide 0.27 only warns when pyodide.asm.wasm cannot be fetched or instantiated (a
  // missing file, out of memory) and its loadPyodide() then never settles: turn that
  // warning into a failure the page can show.
  let wasmFailed = null;
  const wasmFailure = new Promise((resolve, reject) => { wasmFailed = reject; });
  const warn = console.warn;
  let failing = false;
  console.warn = function (...args) {
    const text = args.map(String).join(" ");
    if (text.includes("wasm instantiation failed")) { failing = true; return; }
    if (failing) {
      wasmFailed(new Error("the WebAssembly runtime (pyodide.asm.wasm) could not be " +
                           "loaded or started: " + text));
      return;
    }
    warn.apply(console, args);
  };
  const pyodide = await Promise.race([wasmFailure, loadPyodide({
    indexURL: m.pyodide,
    stdout: () => {},
    stderr: () => {},
  })]);
  console.warn = warn;
  lap("runtime");
  stageText = ["packages", "Loading numpy and matplotlib"];
  progress("packages", stageText[1], Math.round(100 * (m.share ? m.share.runtime : 0.5)));
  const errors = [];
  await pyodide.loadPackage(["numpy", "matplotlib"], {
    messageCallback: () => {},
    errorCallback: (s) => errors.push(s),
  });
  const loaded = pyodide.loadedPackages || {};
  const absent = ["numpy", "matplotlib"].filter((p) => !(p in loaded));
  if (absent.length || errors.length) {
    throw new Error("could not load " + (absent.join(", ") || "a package") +
                    (errors.length ? ": " + errors.join("; ") : ""));
  }
  lap("packages");
  stageText = ["interlib", "Loading interlib"];
  progress("interlib", stageText[1], Math.round(100 * (m.share ? m.share.packages : 0.97)));
  const wheel = await wheelBytes;
  lap("wheel");
  stageText = ["import", "Starting interlib, numpy and matplotlib"];
  progress("import", stageText[1], 99);
  const site = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(wheel, "wheel", {extractDir: site});
  const fontlist = await fontlistText;
  const pyc = await pycache;
  if (pyc) pyodide.unpackArchive(pyc, "zip", {extractDir: site});
  pyodide.FS.mkdirTree("/tmp/mplconfig");
  // Pyodide's matplotlib keeps its font cache beside font_manager.py (its own patch).
  if (fontlist) pyodide.FS.writeFile(site + "/matplotlib/fontlist.json", fontlist);
  pyodide.runPython(
    "import importlib, os\n" +
    "os.environ['MPLCONFIGDIR'] = '/tmp/mplconfig'\n" +
    "os.environ['MPLBACKEND'] = 'Agg'\n" +
    "importlib.invalidate_caches()\n" +
    // The figure and the Agg canvas only: interlib's figures are pyplot-free (pyplot
    // would add its own import time for nothing).
    "import matplotlib\nmatplotlib.use('Agg')\n" +
    "import matplotlib.figure, matplotlib.backends.backend_agg\n");
  lap("matplotlib");
  pyodide.runPython("from interlib.widgets import live as _interlib_live\n");
  const live = pyodide.pyimport("interlib.widgets.live");
  frameFn = live.frame;
  const versions = JSON.parse(live.versions());
  lap("import");
  if (watcher) watcher.disconnect();
  return {type: "ready", versions, timings};
}

async function handle(port, m) {
  if (m.type === "init") {
    listeners.add(port);
    const first = starting === null;
    if (first) starting = init(m);
    try {
      const ready = await starting;
      listeners.delete(port);
      port.postMessage({...ready, reused: !first});
    } catch (err) {
      tell({type: "failed", error: String((err && err.message) || err)});
      listeners.clear();
      if (SHARED) self.close();  // the next page starts a fresh Python
    }
  } else if (m.type === "frame") {
    let result;
    try {
      if (!frameFn) throw new Error("Python is not running");
      result = frameFn(m.demo, m.params, !!m.narrow);
    } catch (err) {
      result = JSON.stringify({ok: false, error: String((err && err.message) || err)});
    }
    port.postMessage({type: "frame", id: m.id, result});
  }
}

if (SHARED) {
  self.onconnect = (event) => {
    const port = event.ports[0];
    port.onmessage = (e) => handle(port, e.data || {});
    port.start();
  };
} else {
  self.onmessage = (event) => handle(self, event.data || {});
}
