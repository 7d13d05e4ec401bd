"""The book's table of contents: what ``_toc.yml`` lists, in order.

One walk of ``_toc.yml`` for the tools (``execute_notebooks.py``, ``bench.py``) and the
tests (``tests/conftest.py`` re-exports these).
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def toc_docnames(repo: Path = REPO) -> list[str]:
    """Every document named in _toc.yml (root, files), as written there, without a
    ``.md``/``.ipynb`` suffix."""
    import yaml  # PyYAML comes with jupyter-book

    toc = yaml.safe_load((repo / "_toc.yml").read_text())
    out: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("root", "file"):
                if isinstance(node.get(key), str):
                    out.append(node[key])
            for value in node.values():
                if isinstance(value, (dict, list)):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return [str(Path(d).with_suffix("")) if Path(d).suffix in {".md", ".ipynb"} else d
            for d in out]


def toc_notebooks(repo: Path = REPO) -> list[Path]:
    """Every .ipynb named in _toc.yml, in toc order."""
    return [repo / f"{d}.ipynb" for d in toc_docnames(repo) if (repo / f"{d}.ipynb").exists()]
