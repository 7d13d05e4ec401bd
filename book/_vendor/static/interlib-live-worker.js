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
// Messages in:  {type: "init", pyodide: URL of _static/pyodide/, wheel: URL, total: bytes,
//                modules: the page's demos' modules, levers: {snapshot, ownModules,
//                prefetch} (make bench only: each true unless turned off)}
//               {type: "frame", id, demo, module: its chapter module, params: JSON text}
// Messages out: {type: "hello"} (the script runs), {type: "progress", stage, text, pct}  {type: "ready", versions, timings,
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

// --- levers that bring the first figure sooner (each measured by make bench, which turns
// each on or off with the init message's `levers`; a reader's page sends none: these) ---
// prefetch is off: fetching the wheels while Python starts made no difference make bench
// could measure (on 127.0.0.1 the downloads take little; loading is the packages' own
// unpacking and compiling), so it stays a lever the bench measures, not what the site does.
const LEVERS = {snapshot: true, ownModules: true, prefetch: false};

function hex(buf) {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The interpreter snapshot (tools/vendor_pyodide.py): a started Python with no package
// loaded, restored instead of starting one. Its bytes are checked against the sha256 its
// JSON records (Pyodide checks that it was made by this very build); null, with the reason,
// when it cannot be used, and Python then starts the plain way.
async function fetchSnapshot(base) {
  if (typeof DecompressionStream !== "function" || !(self.crypto && crypto.subtle)) {
    return {bytes: null, why: "this browser cannot unpack or check it"};
  }
  try {
    const info = await fetch(base + "pyodide-snapshot.json").then((r) => {
      if (!r.ok) throw new Error("pyodide-snapshot.json answered HTTP " + r.status);
      return r.json();
    });
    const gz = await fetch(base + "pyodide-snapshot.bin.gz").then((r) => {
      if (!r.ok) throw new Error("pyodide-snapshot.bin.gz answered HTTP " + r.status);
      return r.arrayBuffer();
    });
    if (hex(await crypto.subtle.digest("SHA-256", gz)) !== info.gz_sha256) {
      throw new Error("its sha256 differs from pyodide-snapshot.json's");
    }
    const raw = await new Response(
      new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    if (raw.byteLength !== info.snapshot_bytes) throw new Error("it unpacked to the wrong size");
    return {bytes: new Uint8Array(raw), why: null};
  } catch (err) {
    return {bytes: null, why: String((err && err.message) || err)};
  }
}

// The wheels loadPackage will ask for (the lock's closure of `names`), fetched while the
// interpreter starts, so its own requests find them in the browser's HTTP cache.
async function prefetchPackages(base, names) {
  const lock = await fetch(base + "pyodide-lock.json").then((r) => r.json());
  const pkgs = lock.packages || {};
  const key = (n) => n.toLowerCase().replace(/_/g, "-");
  const byKey = new Map(Object.keys(pkgs).map((k) => [key(k), k]));
  const seen = new Set();
  const todo = names.slice();
  while (todo.length) {
    const k = byKey.get(key(todo.pop()));
    if (!k || seen.has(k)) continue;
    seen.add(k);
    todo.push(...(pkgs[k].depends || []));
  }
  await Promise.all([...seen].map((k) => fetch(base + pkgs[k].file_name)
    .then((r) => r.arrayBuffer()).catch(() => null)));
  return seen.size;
}

const MODULE = /^interlib\.widgets\.[a-z][a-z0-9_]*$/;
let pyodideRef = null;
const imported = new Set();
// A demo's own chapter module, imported when a frame first needs it (the widgets package's
// __init__, which imports every chapter, is not run: see init).
// A demo that names no module (a page built before data-module): the package's own
// __init__ is run once, which imports every chapter.
function ensureModule(name) {
  if (!pyodideRef || imported.has(name || "*")) return;
  if (!name) {
    pyodideRef.runPython("import importlib, sys\n" +
                         "importlib.reload(sys.modules['interlib.widgets'])\n");
    imported.add("*");
  } else if (MODULE.test(name)) {
    pyodideRef.pyimport(name);
    imported.add(name);
  }
}

// Start Python (from a snapshot's bytes, or plainly). Pyodide 0.27 only warns when
// pyodide.asm.wasm cannot be fetched or instantiated (a missing file, out of memory) and its
// loadPyodide() then never settles: that warning becomes this start's failure.
async function startPython(indexURL, snapshotBytes) {
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
  const options = {indexURL, stdout: () => {}, stderr: () => {}};
  if (snapshotBytes) options._loadSnapshot = snapshotBytes;
  try {
    return await Promise.race([wasmFailure, loadPyodide(options)]);
  } finally {
    console.warn = warn;
  }
}

async function init(m) {
  const t0 = performance.now();
  const timings = {};
  const lap = (name) => { timings[name] = Math.round(performance.now() - t0); };
  const levers = Object.assign({}, LEVERS, m.levers || {});
  timings.levers = levers;
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
  // ... the book's own wheel ...
  const wheelBytes = fetch(m.wheel).then((r) => {
    if (!r.ok) throw new Error(`${m.wheel} answered HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  wheelBytes.catch(() => {});  // reported where it is awaited
  // ... the interpreter's snapshot, and numpy's and matplotlib's wheels.
  const snapshot = levers.snapshot ? fetchSnapshot(m.pyodide)
                                   : Promise.resolve({bytes: null, why: "turned off"});
  const prefetched = levers.prefetch ? prefetchPackages(m.pyodide, ["numpy", "matplotlib"])
    .catch(() => 0) : Promise.resolve(0);
  importScripts(m.pyodide + "pyodide.js");
  let pyodide = null;
  const snap = await snapshot;
  timings.start = "plain" + (snap.why ? " (snapshot not used: " + snap.why + ")" : "");
  if (snap.bytes) {
    try {
      pyodide = await startPython(m.pyodide, snap.bytes);
      // The snapshot holds the state of `random` as it was made: reseed it from the
      // browser's randomness (os.urandom), as a fresh start would.
      pyodide.runPython("import random\nrandom.seed()\n");
      timings.start = "snapshot";
      // one draw, for the tests: it must differ between starts (a reseeded generator)
      timings.random = pyodide.runPython("random.Random(random.getrandbits(64)).random()");
    } catch (err) {  // whatever went wrong with it, a plain start may still work
      pyodide = null;
      timings.start = "plain (snapshot not restored: " + String((err && err.message) || err)
        .split("\n")[0] + ")";
    }
  }
  if (!pyodide) pyodide = await startPython(m.pyodide, null);
  pyodideRef = pyodide;
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
  timings.prefetched = await prefetched;
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
  if (levers.ownModules) {
    // The widgets package without its __init__ (which imports every chapter's demos):
    // each page's own chapter modules are imported, now and as frames need them.
    pyodide.runPython(
      "import importlib.util, sys\n" +
      "if 'interlib.widgets' not in sys.modules:\n" +
      "    _spec = importlib.util.find_spec('interlib.widgets')\n" +
      "    sys.modules['interlib.widgets'] = importlib.util.module_from_spec(_spec)\n" +
      "from interlib.widgets import live as _interlib_live\n");
    for (const name of m.modules || []) ensureModule(name);
  } else {
    pyodide.runPython("import interlib.widgets\nfrom interlib.widgets import live as _interlib_live\n");
    for (const name of [...(m.modules || []), "*"]) imported.add(name);
  }
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
      ensureModule(m.module);
      result = frameFn(m.demo, m.params, !!m.narrow);
    } catch (err) {
      result = JSON.stringify({ok: false, error: String((err && err.message) || err)});
    }
    port.postMessage({type: "frame", id: m.id, result});
  }
}

// "hello" at once, to each page: the script runs (the page gives up on a worker that never
// answers).
if (SHARED) {
  self.onconnect = (event) => {
    const port = event.ports[0];
    port.onmessage = (e) => handle(port, e.data || {});
    port.start();
    port.postMessage({type: "hello"});
  };
} else {
  self.onmessage = (event) => handle(self, event.data || {});
  self.postMessage({type: "hello"});
}
