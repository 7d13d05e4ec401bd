"""The figures quoted in prose (``{eval}`prose.name```, stored in each markdown cell's
``user_expressions``) are what a fresh run of the notebook computes.

nbval compares code cells' outputs with a fresh run; it does not look at markdown cells'
metadata. So every notebook that quotes figures this way is executed again here, into a
temporary copy, with the same tool that stores them (tools/execute_notebooks.py), and the
stored values must equal the fresh ones.
"""

from __future__ import annotations

import shutil
import sys

import nbformat
import pytest

from conftest import REPO, toc_notebooks

sys.path.insert(0, str(REPO / "tools"))
from execute_notebooks import eval_expressions, execute  # noqa: E402

QUOTING = [p for p in toc_notebooks()
           if any(c.cell_type == "markdown" and eval_expressions(c.source)
                  for c in nbformat.read(p, as_version=4).cells)]


def _expressions(nb) -> list:
    return [(i, item["expression"], item["result"].get("data"))
            for i, c in enumerate(nb.cells) if c.cell_type == "markdown"
            for item in c.metadata.get("user_expressions", [])]


def test_some_notebooks_quote_figures():
    assert QUOTING, "no notebook quotes a figure with {eval}: this module would check nothing"


@pytest.mark.parametrize("path", QUOTING, ids=[p.relative_to(REPO).as_posix() for p in QUOTING])
def test_stored_prose_figures_are_current(path, tmp_path):
    rel = path.relative_to(REPO)
    copy = tmp_path / rel
    copy.parent.mkdir(parents=True)
    shutil.copy2(path, copy)
    for extra in ("chapters/data",):  # data files a notebook may read
        if (REPO / extra).is_dir() and not (tmp_path / extra).exists():
            shutil.copytree(REPO / extra, tmp_path / extra)
    execute(copy)
    stored = _expressions(nbformat.read(path, as_version=4))
    fresh = _expressions(nbformat.read(copy, as_version=4))
    assert stored, f"{rel}: no stored prose figures"
    assert stored == fresh, (f"{rel}: stored prose figures differ from a fresh run "
                             f"(run make execute):\n"
                             + "\n".join(f"cell {a[0]} {a[1]}: stored {a[2]}, fresh {b[2]}"
                                         for a, b in zip(stored, fresh) if a != b))
