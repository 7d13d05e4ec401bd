#!/usr/bin/env python3
"""Execute the book's notebooks in place, top to bottom on a fresh kernel, reproducibly.

Usage (from the repository root, with the project's virtual environment)::

    .venv/bin/python tools/execute_notebooks.py                 # every .ipynb in _toc.yml
    .venv/bin/python tools/execute_notebooks.py chapters/01_why_connect.ipynb

Each notebook runs with nbclient on the ``python3`` kernel, with the notebook's folder as
working directory, and with widget state stored (``metadata.widgets``) so the static site
can render the widgets. The result is then normalised so that executing an unchanged
notebook twice leaves the file byte-identical:

* widget model ids (random uuids from the kernel) are renumbered to uuid5 values derived
  from the notebook path and the order in which each id first appears; every occurrence is
  rewritten (widget-view outputs, ``metadata.widgets`` keys, ``IPY_MODEL_<id>`` references);
* per-cell ``execution`` timing metadata is dropped (``record_timing=False`` and a sweep);
* ``metadata.kernelspec`` is set to python3 and ``metadata.language_info`` to a fixed form
  without the patch version;
* the file is written with nbformat (indent 1, trailing newline).

Figures quoted in prose: a markdown cell may quote a value computed by an earlier code cell
with MyST's inline expression role, ``{eval}`prose.name```. When the run reaches such a
cell, the kernel evaluates each expression (Jupyter's ``user_expressions``, what
jupyterlab-myst sends when a reader runs the cell) and the results are stored in the cell's
metadata, ``user_expressions``, in jupyterlab-myst's format. JupyterLab shows them from
there; the book build reads them through book/_ext/book_site.py. An expression that fails
stops the run.

``MPLBACKEND`` is removed from the kernel's environment: ``MPLBACKEND=Agg`` would make
``%matplotlib inline`` figures disappear from the outputs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import uuid
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbclient.util import ensure_async

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toc import toc_notebooks  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
KERNEL = "python3"
TIMEOUT_S = 300
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# Widget model ids as ipykernel makes them (uuid4().hex, 32 hex digits), and uuid strings.
# Not \b: in "IPY_MODEL_<id>" the id follows "_", a word character.
_ID_RE = re.compile(
    r"(?<![0-9a-f])(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])"
)
_REF_RE = re.compile(r"IPY_MODEL_([0-9a-f]{32}|[0-9a-f-]{36})")
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": f"{sys.version_info.major}.{sys.version_info.minor}",
}


def _collect_widget_ids(nb: nbformat.NotebookNode) -> list[str]:
    """Widget model ids in a deterministic order that does not depend on the ids themselves.

    Walk the widget-view outputs in cell order and, depth first, every ``IPY_MODEL_<id>``
    reference inside each model's saved state (state keys in sorted order). Models that no
    view reaches come last, ordered by their content with ids masked out.
    """
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    order: list[str] = []
    seen: set[str] = set()

    def visit(mid: str) -> None:
        if mid in seen:
            return
        seen.add(mid)
        order.append(mid)
        model = state.get(mid)
        if model is not None:
            for ref in _REF_RE.findall(json.dumps(model, sort_keys=True)):
                visit(ref)

    for cell in nb.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view and "model_id" in view:
                visit(view["model_id"])

    def content_key(mid: str) -> str:
        return _ID_RE.sub("<id>", json.dumps(state[mid], sort_keys=True))

    for mid in sorted((m for m in state if m not in seen), key=content_key):
        visit(mid)
    return order


def _stable_id(nb_key: str, index: int) -> str:
    return uuid.uuid5(uuid.NAMESPACE_URL, f"interconnects:{nb_key}:widget:{index}").hex


def renumber_widgets(nb: nbformat.NotebookNode, nb_key: str) -> nbformat.NotebookNode:
    """Replace every widget model id by a deterministic one, everywhere in the notebook."""
    ids = _collect_widget_ids(nb)
    if not ids:
        return nb
    mapping = {mid: _stable_id(nb_key, i) for i, mid in enumerate(ids)}

    def sub(text: str) -> str:
        return _ID_RE.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)

    # Round-trip through JSON text so ids are replaced wherever they occur: dict keys of the
    # state, "IPY_MODEL_<id>" references, widget-view outputs, Output widgets' msg_id fields.
    text = json.dumps(nb, sort_keys=True)
    return nbformat.from_dict(json.loads(sub(text)))


def sort_widget_state(nb: nbformat.NotebookNode) -> None:
    """Keep the saved widget state in a stable key order (by the renumbered creation order)."""
    widgets = nb.metadata.get("widgets")
    if not widgets or WIDGET_STATE not in widgets:
        return
    blob = widgets[WIDGET_STATE]
    state = blob.get("state", {})
    ids = _collect_widget_ids(nb)
    rank = {mid: i for i, mid in enumerate(ids)}
    blob["state"] = {k: state[k] for k in sorted(state, key=lambda k: rank.get(k, len(rank)))}
    nb.metadata["widgets"] = {WIDGET_STATE: blob}


def clean_metadata(nb: nbformat.NotebookNode) -> None:
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = dict(LANGUAGE_INFO)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.metadata.pop("scrolled", None)
            cell.metadata.pop("collapsed", None)


def merge_streams(nb: nbformat.NotebookNode) -> None:
    """Join adjacent stream outputs of the same stream (stdout/stderr).

    How the kernel's output is chunked into messages depends on timing (a loaded machine can
    deliver one ``print`` as "text" and "\\n"), so the stored form would vary between runs.
    Joining consecutive chunks makes it canonical; the text is unchanged.
    """
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        merged = []
        for out in cell.outputs:
            if (merged and out.get("output_type") == "stream"
                    and merged[-1].get("output_type") == "stream"
                    and merged[-1].get("name") == out.get("name")):
                merged[-1]["text"] = merged[-1]["text"] + out["text"]
            else:
                merged.append(out)
        cell.outputs = merged


EVAL_RE = re.compile(r"\{eval\}`([^`]+)`")
"""An inline expression in a markdown cell: {eval}`expression`."""


def eval_expressions(source: str) -> list[str]:
    """The distinct inline expressions of a markdown cell, in order of appearance."""
    return list(dict.fromkeys(EVAL_RE.findall(source)))


class _Client(NotebookClient):
    """nbclient that also evaluates the markdown cells' inline expressions, in order."""

    async def async_execute_cell(self, cell, cell_index, execution_count=None,
                                 store_history=True):
        if cell.cell_type != "markdown":
            return await super().async_execute_cell(cell, cell_index, execution_count,
                                                    store_history)
        cell.metadata.pop("user_expressions", None)
        exprs = eval_expressions(cell.source)
        if not exprs:
            return cell
        msg_id = await ensure_async(self.kc.execute(
            "", silent=True, store_history=False,
            user_expressions={str(i): e for i, e in enumerate(exprs)}))
        reply = await self.async_wait_for_reply(msg_id, cell)
        results = reply["content"]["user_expressions"]
        stored = []
        for i, expr in enumerate(exprs):
            r = results[str(i)]
            if r.get("status") != "ok":
                raise RuntimeError(f"markdown cell {cell_index}: {{eval}}`{expr}` failed: "
                                   f"{r.get('ename')}: {r.get('evalue')}")
            stored.append({"expression": expr,
                           "result": {"status": "ok", "data": dict(r.get("data", {})),
                                      "metadata": dict(r.get("metadata", {}))}})
        cell.metadata["user_expressions"] = stored
        return cell


def kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    # Hash seeds and similar sources of run-to-run variation.
    env["PYTHONHASHSEED"] = "0"
    return env


def execute(path: Path) -> None:
    path = path.resolve()
    nb = nbformat.read(path, as_version=4)
    # Start from a clean slate so no stale output or widget state survives.
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    client = _Client(
        nb,
        kernel_name=KERNEL,
        timeout=TIMEOUT_S,
        record_timing=False,
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    saved = os.environ.get("MPLBACKEND")
    os.environ.pop("MPLBACKEND", None)  # the kernel inherits this process's environment
    try:
        client.execute(env=kernel_env())
    finally:
        if saved is not None:
            os.environ["MPLBACKEND"] = saved
    try:
        key = path.relative_to(REPO).as_posix()
    except ValueError:
        key = path.name
    nb = renumber_widgets(nb, key)
    sort_widget_state(nb)
    merge_streams(nb)
    clean_metadata(nb)
    nbformat.validate(nb)
    text = nbformat.writes(nb, version=4)  # indent=1, sorted keys
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every .ipynb in _toc.yml")
    args = parser.parse_args(argv)
    paths = args.notebooks or toc_notebooks()
    if not paths:
        print("no notebooks to execute", file=sys.stderr)
        return 0
    for p in paths:
        print(f"executing {p}", flush=True)
        execute(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
