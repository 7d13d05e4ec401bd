"""Build the JupyterLite edition of the book into the built site (``_build/html/lite/``).

Every notebook of ``_toc.yml`` (chapters, front matter, appendices) opens in a real
JupyterLab in the reader's browser, with a Python kernel (Pyodide, WebAssembly) and no
server. Run by the site build itself (``book/_ext/lite_launch.py``, at the end of every
``jupyter-book build``), or by hand after one:

    python tools/build_lite.py [--site _build/html]

Nothing is fetched from the network, at build or at read time:

* Pyodide 0.27.7 (runtime and its wasm wheels) is the site's own copy, vendored in
  ``book/_vendor/static/pyodide/`` and served at ``_static/pyodide/``; the kernel is
  pointed there (``pyodideUrl``), never at a CDN, and PyPI fallback is off.
* ipywidgets, comm and networkx are the wheels in ``book/_vendor/piplite/`` (the same
  files, by sha256, as the reader's lock pins); interlib is a wheel built here from the
  repository.
* A copy of Pyodide's lock (``lite/pypi/pyodide-lock.json``) adds those four wheels, so
  the kernel loads ``interlib`` and everything it imports when it starts: notebooks run
  unchanged (``from interlib import ...``, ``%matplotlib inline``).

The build runs in a fresh temporary ``--lite-dir`` each time, so a stale
``.jupyterlite.doit.db`` (which makes jupyterlite skip the local Pyodide URL and fetch
one from a CDN) can never be picked up. It takes a few seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "book" / "_ext"))
from book_site import build_interlib_wheel  # noqa: E402  (the one packer of interlib)
from toc import toc_notebooks  # noqa: E402

PIPLITE_WHEELS = REPO / "book" / "_vendor" / "piplite"
# Where the site serves Pyodide, relative to the site root (Sphinx copies
# book/_vendor/static/ to _static/).
PYODIDE_IN_SITE = Path("_static") / "pyodide"
LITE_IN_SITE = "lite"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# The kernelspec the Pyodide kernel registers; the notebooks say python3 (CPython).
LITE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
# What each added wheel needs from Pyodide's own distribution, by Pyodide's package names.
# ipywidgets' front-end requirements (widgetsnbextension, jupyterlab_widgets) are served
# by JupyterLite itself; comm and networkx need nothing at import time.
ADDED_DEPENDS = {
    "comm": [],
    "ipywidgets": ["comm", "ipython", "traitlets"],
    "networkx": [],
    "interlib": ["numpy", "matplotlib", "ipywidgets", "networkx"],
}
# What the kernel itself loads at start-up from Pyodide's distribution (ssl, sqlite3 and
# ipython by jupyterlite-pyodide-kernel 0.5, micropip for piplite, matplotlib-pyodide
# via matplotlib); all of it, with dependencies, must be among the vendored files.
KERNEL_NEEDS = ["micropip", "ssl", "sqlite3", "ipython", "interlib"]
DATA_DIRS = ("chapters/data",)


def stage_contents(dest: Path) -> list[str]:
    """Copy the notebooks of _toc.yml (and their data folders) with the Pyodide kernelspec,
    so JupyterLite opens them without asking for a kernel. Returns their paths."""
    rels = []
    for nb in toc_notebooks(REPO):
        rel = Path(nb).resolve().relative_to(REPO)
        notebook = json.loads((REPO / rel).read_text())
        notebook.setdefault("metadata", {})["kernelspec"] = dict(LITE_KERNELSPEC)
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
        rels.append(rel.as_posix())
    for extra in DATA_DIRS:
        if (REPO / extra).is_dir():
            shutil.copytree(REPO / extra, dest / extra)
    return rels


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wheel_entry(wheel: Path, file_name: str) -> dict:
    """A pyodide-lock.json package entry for a pure-Python wheel."""
    name, version = wheel.name.split("-")[:2]
    with zipfile.ZipFile(wheel) as zf:
        tops = sorted({n.split("/")[0] for n in zf.namelist()
                       if not n.split("/")[0].endswith((".dist-info", ".data"))})
    imports = sorted({t[:-3] if t.endswith(".py") else t for t in tops})
    return {"name": name, "version": version, "file_name": file_name, "install_dir": "site",
            "sha256": _sha256(wheel), "package_type": "package", "imports": imports,
            "depends": ADDED_DEPENDS[name], "unvendored_tests": False,
            "shared_library": False}


def lite_lock(pyodide_dir: Path, wheels: list[Path], wheels_url_from_pyodide: str) -> dict:
    """Pyodide's lock plus the added wheels (file names relative to Pyodide's folder, as
    Pyodide resolves them). Fails if anything the kernel loads is not a local file."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    for wheel in wheels:
        entry = wheel_entry(wheel, f"{wheels_url_from_pyodide}/{wheel.name}")
        packages[entry["name"]] = entry
    def norm(name):  # Pyodide's lock writes depends both ways (prompt_toolkit)
        return name.lower().replace("_", "-")

    missing, seen, todo = [], set(), list(KERNEL_NEEDS)
    while todo:
        name = norm(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        if name not in packages:
            missing.append(f"{name} (not in pyodide-lock.json)")
            continue
        todo.extend(packages[name].get("depends", []))
        if name not in ADDED_DEPENDS and not (pyodide_dir / packages[name]["file_name"]).is_file():
            missing.append(packages[name]["file_name"])
    if missing:
        raise SystemExit(f"build_lite: Pyodide files missing from {pyodide_dir} (the kernel "
                         f"would load them): {', '.join(sorted(missing))}")
    return lock


def build(site: Path, quiet: bool = True) -> float:
    t0 = time.perf_counter()
    site = site.resolve()
    pyodide_dir = site / PYODIDE_IN_SITE
    if not (pyodide_dir / "pyodide.js").is_file():
        raise SystemExit(
            f"build_lite: no Pyodide at {pyodide_dir}: it comes from book/_vendor/static/"
            "pyodide/ (copied there by the site build). Build the site first.")
    out = site / LITE_IN_SITE
    stale_db = REPO / ".jupyterlite.doit.db"
    stale_db.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="interconnects-lite-") as tmp:
        tmp = Path(tmp)
        lite_dir, contents, wheels_dir = tmp / "lite", tmp / "contents", tmp / "wheels"
        for d in (lite_dir, contents, wheels_dir):
            d.mkdir()
        notebooks = stage_contents(contents)
        wheels = [build_interlib_wheel(wheels_dir)]
        for wheel in sorted(PIPLITE_WHEELS.glob("*.whl")):
            wheels.append(Path(shutil.copy2(wheel, wheels_dir / wheel.name)))
        wheels_url = Path(os.path.relpath(out / "pypi", pyodide_dir)).as_posix()
        lock = lite_lock(pyodide_dir, wheels, wheels_url)
        pyodide_url = Path(os.path.relpath(pyodide_dir / "pyodide.js", out)).as_posix()
        config = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
            "appName": "Interconnects (JupyterLite)",
            "exposeAppInBrowser": True,
            "litePluginSettings": {KERNEL_PLUGIN: {
                "pyodideUrl": f"./{pyodide_url}",
                "disablePyPIFallback": True,
                # keys ending in URL are resolved against the lite root by the extension
                "loadPyodideOptions": {"lockFileURL": "pypi/pyodide-lock.json",
                                       "packages": ["interlib"]}}}}}
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(config, indent=2))
        # Every cell attached to the page (JupyterLab's default 'full' windowing detaches
        # cells out of view; chapters are short enough to render whole).
        (lite_dir / "overrides.json").write_text(json.dumps(
            {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}, indent=2))
        (lite_dir / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {"output_dir": str(out), "contents": [str(contents)],
                                "no_sourcemaps": True, "no_unused_shared_packages": True},
            "PipliteAddon": {"piplite_urls": [str(w) for w in wheels]}}, indent=2))
        if out.exists():
            shutil.rmtree(out)
        cmd = [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite_dir)]
        env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1"}
        proc = subprocess.run(cmd, cwd=lite_dir, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"build_lite: jupyter lite build failed:\n{proc.stdout[-4000:]}\n"
                             f"{proc.stderr[-4000:]}")
        (out / "pypi" / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
        if not quiet:
            print(proc.stdout[-2000:])
    seconds = time.perf_counter() - t0
    print(f"build_lite: {len(notebooks)} notebooks, {len(wheels)} wheels -> "
          f"{out.relative_to(REPO) if out.is_relative_to(REPO) else out} in {seconds:.1f} s")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=REPO / "_build" / "html",
                        help="the built site (default: _build/html)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    build(args.site, quiet=not args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
