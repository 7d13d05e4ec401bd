"""Write the student's problem-set notebooks (book/problems_1_2.ipynb ...) from
interlib.book.problems.SETS: one section per problem (its statement with givens and answer
box, the `answer = None` cell, the check). Keeps each existing cell's id; outputs are made
by tools/execute_notebooks.py afterwards.

    .venv/bin/python tools/problem_notebooks.py && \
        .venv/bin/python tools/execute_notebooks.py book/problems_*.ipynb
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from interlib.book import problems  # noqa: E402

FILES = {"A": ("problems_1_2", "Chapters 1 and 2", "why GPUs connect and PCIe"),
         "B": ("problems_3_4", "Chapters 3 and 4", "NVLink and NVSwitch"),
         "C": ("problems_5_6", "Chapters 5 and 6", "InfiniBand and RoCEv2"),
         "D": ("problems_7_8", "Chapters 7 and 8",
               "the bandwidth hierarchy and what communication costs a training job")}


def intro(s: str, chapters: str, topics: str) -> str:
    return (
        f"# Problem set {s}: {chapters}\n\n"
        f"Problems on {topics}: most are new, a few revisit a chapter's exercise with other "
        "numbers. Each prints every given it needs, so it can be solved on paper, and carries a difficulty label "
        "(warm-up, standard, challenging). Work it out first, then check your number:\n\n"
        "- **On this website:** type it in the problem's box, with its unit if you like "
        "(`549 ms`, `0.549 s`, `400 Gb/s`), and press *Check*.\n"
        "- **In the notebook** (JupyterLab, Binder, or with nothing to install: the launch "
        "menu's *Open in a browser tab (JupyterLite)*): set `answer` under the problem and "
        "run the check cell.\n\n"
        "The check says *right*, *close* (a rounding or a small slip) or *wrong*, names the "
        "usual mistakes (bits for bytes, ms for s, GiB for GB, a fraction for a percentage) "
        "and says which way to look. Nothing is recorded. If your instructor gives you a "
        "variant, pass its seed: `problems.show(\"A1\", seed=7)` and "
        "`problems.check(\"A1\", answer, seed=7)`. Worked solutions are in the instructor "
        f"edition ({{doc}}`instructors`).")


def _id(name: str, n: int) -> str:
    return hashlib.sha1(f"{name}/{n}".encode()).hexdigest()[:8]


def cells_for(s: str) -> list[dict]:
    name, chapters, topics = FILES[s]
    md = lambda src, tags=None: {"cell_type": "markdown", "metadata": ({"tags": tags} if tags else {}), "source": src}  # noqa: E731
    code = lambda src, tags=None: {"cell_type": "code", "execution_count": None,  # noqa: E731
                                   "metadata": ({"tags": tags} if tags else {}),
                                   "outputs": [], "source": src}
    cells = [md(intro(s, chapters, topics)),
             code("from interlib.book import problems", ["remove-cell"])]
    for k in problems.SETS[s]:
        p = problems.get(k)
        unit = p.numeric.unit or "no unit"
        cells += [md(f"## Problem {k}"),
                  code(f'problems.show("{k}")', ["remove-input"]),
                  code(f"answer = None  # your answer, in {unit}", ["worked-problem-input"]),
                  code(f'print(problems.check("{k}", answer))')]
    return cells


def write(s: str) -> Path:
    name = FILES[s][0]
    path = REPO / "book" / f"{name}.ipynb"
    old = json.loads(path.read_text()) if path.exists() else None
    nb = {"cells": cells_for(s), "metadata": (old or {}).get("metadata") or {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                       "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    for i, c in enumerate(nb["cells"]):
        c["id"] = _id(name, i)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return path


if __name__ == "__main__":
    for s in FILES:
        print(write(s).relative_to(REPO))
