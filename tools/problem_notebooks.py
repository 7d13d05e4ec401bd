"""Write the book's problems into the reader's package and the problem-set notebooks.

1. ``interlib/book/problem_data.py``: every problem of the book (seed 0: statement,
   givens, the section that teaches it, the check's answer, tolerance, known mistakes and
   hints, no worked solution) and the practice exam's statements (no answers), from the
   instructor's builders in ``tools/course/problems.py``. The reader's
   ``interlib.book.problems`` reads it; ``tests/test_problems.py`` fails when it is stale.
2. ``book/problems_1_2.ipynb`` ...: one section per problem (its statement with givens and
   the in-page answer box; then, for JupyterLab, JupyterLite and Binder only, the
   ``answer = None`` cell and the check, tagged ``remove-cell`` so the website shows the
   working in-page check alone). Keeps each existing cell's id; outputs are made by
   tools/execute_notebooks.py afterwards.

    .venv/bin/python tools/problem_notebooks.py && \
        .venv/bin/python tools/execute_notebooks.py book/problems_*.ipynb book/practice_exam.ipynb
"""

from __future__ import annotations

import hashlib
import json
import pprint
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from course import problems  # noqa: E402

DATA = REPO / "interlib" / "book" / "problem_data.py"

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
        "and says which way to look. Each problem names the section of the book that "
        "teaches its method. Nothing is recorded. A graded assignment from your instructor "
        "gives you a variant of your own, in its own notebook. Worked solutions are in the "
        f"instructor edition ({{doc}}`instructors`).")


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
                  code(f"answer = None  # your answer, in {unit}", ["remove-cell"]),
                  code(f'print(problems.check("{k}", answer))', ["remove-cell"])]
    return cells


def data() -> dict:
    """The reader's copy of the book's problems (seed 0) and the practice exam's papers."""
    exam = []
    for k in problems.EXAM:
        p = problems.get(k, problems.EXAM_SEED)
        exam.append({"title": p.title, "difficulty": p.difficulty, "unit": p.numeric.unit,
                     "statement": p.statement})
    return {"generated_by": "tools/problem_notebooks.py (do not edit)",
            "sets": {s: list(keys) for s, keys in problems.SETS.items()},
            "problems": {k: problems.get(k).public() for keys in problems.SETS.values()
                         for k in keys},
            "practice_exam": {"minutes": problems.EXAM_MINUTES, "items": exam}}


def data_text() -> str:
    """The generated module's text: one dict literal (Python's repr of floats round-trips
    exactly, so the answers are the builders' to the last bit)."""
    return ('"""The book\'s problems (seed 0) and the practice exam\'s papers, for\n'
            ':mod:`interlib.book.problems`. Generated by tools/problem_notebooks.py from\n'
            'tools/course/problems.py: do not edit (tests/test_problems.py fails when stale).\n'
            '"""\n\n# fmt: off\nDATA = ' + pprint.pformat(data(), width=96, sort_dicts=False)
            + "\n")


def write_data() -> Path:
    DATA.write_text(data_text(), encoding="utf-8")
    return DATA


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
    print(write_data().relative_to(REPO))
    for s in FILES:
        print(write(s).relative_to(REPO))
