"""The package's layering (CONTRIBUTING.md, "Where the code lives"; STYLE.md, "The house").

The import-linter contracts in ``pyproject.toml`` state the layers (the book's apparatus >
widgets > plots > models > catalogue > base), that the models never import plots, widgets
or the apparatus, and that only plots and widgets import matplotlib, ipywidgets or IPython.
These tests run ``lint-imports`` on them, and check what the contracts cannot: that every
module sits in a layer, and that no import chain leads from a module back to itself.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tomllib

import grimp
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def _layer_modules() -> list[str]:
    (layers,) = [c["layers"] for c in CONFIG["contracts"] if c["type"] == "layers"]
    return [m.strip() for layer in layers for m in layer.replace("|", ":").split(":")]


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("interlib")


def test_lint_imports_keeps_every_contract():
    """import-linter's own verdict; on failure its message says which import broke what."""
    exe = pathlib.Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(exe), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(CONFIG["contracts"])
    assert f"Contracts: {n} kept, 0 broken." in r.stdout, r.stdout


def test_every_module_is_in_a_layer_once():
    """A module missing from the layers contract is unchecked by it: each top-level module
    or sub-package of interlib must be named in exactly one layer."""
    named = _layer_modules()
    assert len(named) == len(set(named)), sorted(m for m in named if named.count(m) > 1)
    pkg = ROOT / "interlib"
    top = {f"interlib.{p.stem}" for p in pkg.glob("*.py") if p.stem != "__init__"}
    top |= {f"interlib.{p.name}" for p in pkg.iterdir()
            if p.is_dir() and (p / "__init__.py").exists()}
    assert top == set(named), {"not in a layer": sorted(top - set(named)),
                               "no such module": sorted(set(named) - top)}


def test_no_module_imports_itself_back(graph):
    """No circle of imports, of any length, between interlib's modules (two modules that
    import each other are the shortest circle). A package importing its own sub-modules
    (``interlib.widgets`` registering its chapters) is not a circle unless a sub-module
    imports the package back."""
    circles = []
    for a in sorted(graph.modules):
        if not a.startswith("interlib"):
            continue
        for b in sorted(graph.find_modules_directly_imported_by(a)):
            if not b.startswith("interlib") or b == a:
                continue
            back = graph.find_shortest_chain(importer=b, imported=a)
            if back:
                circles.append(" -> ".join((a,) + tuple(back)))
    assert not circles, "\n".join(circles)
