"""Graded assignments with otter-grader (`make assignments SEED=n`; the developer's
environment has otter-grader, the reader's does not need it).

One assignment per problem set, for variant SEED: an otter "master" notebook is written
from interlib.book.problems (each problem's statement, an `answer_<key> = ...` cell the
student fills in, a public test that the answer can be read, and a hidden test that it is
right, by the same rules as the student's check), then `otter assign` makes

    assignments/seed-<n>/<set>/student/   the student's notebook and its public tests
    assignments/seed-<n>/<set>/autograder/ the solution and the autograder zip (hidden tests)

Grade a folder of submissions locally with
    otter run -a assignments/seed-<n>/<set>/autograder/<name>-autograder_*.zip <submission>
or `otter grade` (Docker) / Gradescope with the same zip. tests/test_assignments.py grades a
correct, a partly wrong and a malformed submission.

    .venv/bin/python tools/assignments.py [--seed N] [--sets A B C D]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from interlib.book import instructor, problems  # noqa: E402

OUT = REPO / "assignments"
NAMES = {"A": "problems-1-2", "B": "problems-3-4", "C": "problems-5-6", "D": "problems-7-8"}
POINTS = {"warm-up": 1, "standard": 2, "challenging": 3}


def _raw(src: str) -> dict:
    return {"cell_type": "raw", "metadata": {}, "source": src}


def _md(src: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": src}


def _code(src: str, result: str | None = None) -> dict:
    outputs = [] if result is None else [{
        "output_type": "execute_result", "execution_count": None, "metadata": {},
        "data": {"text/plain": result}}]
    return {"cell_type": "code", "execution_count": None, "metadata": {},
            "outputs": outputs, "source": src}


def var(key: str) -> str:
    return f"answer_{key.lower()}"


def master_notebook(s: str, seed: int) -> dict:
    """The otter master notebook of set ``s`` for variant ``seed``."""
    name = NAMES[s]
    sa = f", seed={seed}" if seed else ""
    cells = [
        _raw(f"# ASSIGNMENT CONFIG\nname: {name}\ninit_cell: false\ncheck_all_cell: false\n"
             "export_cell: false\nrun_tests: false\nsolutions_pdf: false\n"
             "generate: true\n"),
        _md(f"# Problem set {s}" + (f" (variant {seed})" if seed else "") + "\n\n"
            "Solve each problem on paper, then put your number (in the unit the problem "
            "asks for; a string with a unit such as `\"549 ms\"` works too) in its "
            "`answer_…` variable. `problems.check(...)` tells you whether it is right, as "
            "in the book. Save the notebook and hand it in: it is graded automatically."),
        _code("from interlib.book import problems"),
    ]
    for key in problems.SETS[s]:
        p = problems.get(key, seed)
        v = var(key)
        cells += [
            _raw(f"# BEGIN QUESTION\nname: {key.lower()}\npoints: {POINTS[p.difficulty]}"),
            _md(f"## Problem {key} ({p.difficulty})\n\n" + p.markdown().split("\n\n", 1)[1]
                .replace(f'problems.check("{key}", answer{sa})',
                         f'problems.check("{key}", {v}{sa})')),
            _raw("# BEGIN SOLUTION"),
            _code(f"{v} = {instructor.answer(key, seed)!r}  # SOLUTION\n"
                  f'print(problems.check("{key}", {v}{sa}))'),
            _raw("# END SOLUTION"),
            _raw("# BEGIN TESTS"),
            # public: the answer can be read (a number, or text with a unit)
            _code(f'problems.check("{key}", {v}{sa}).split(":")[0] != "invalid"', "True"),
            # hidden: it is right, by the student's own check
            _code(f'# HIDDEN\nproblems.check("{key}", {v}{sa}).startswith("right")', "True"),
            _raw("# END TESTS"),
            _raw("# END QUESTION"),
        ]
    return {"cells": cells, "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}


def otter_bin(name: str = "otter") -> str:
    candidate = Path(sys.executable).with_name(name)
    return str(candidate) if candidate.exists() else name


def build(s: str, seed: int, out: Path = OUT) -> Path:
    """Write the master notebook of set ``s`` and run ``otter assign``; return its folder."""
    d = out / f"seed-{seed}" / NAMES[s]
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    master = d / f"{NAMES[s]}.ipynb"
    master.write_text(json.dumps(master_notebook(s, seed), indent=1, ensure_ascii=False))
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    proc = subprocess.run([otter_bin(), "assign", master.name, "dist"], cwd=d, env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"otter assign failed for set {s}:\n{proc.stdout}\n{proc.stderr}")
    # the student's side stays light: no otter in the reader's environment, so the
    # student's notebook checks with problems.check and the grader's cells go
    student = d / "dist" / "student" / master.name
    nb = json.loads(student.read_text())
    nb["cells"] = [c for c in nb["cells"]
                   if not "".join(c["source"]).lstrip().startswith("grader.check")]
    student.write_text(json.dumps(nb, indent=1, ensure_ascii=False))
    return d / "dist"


def autograder_zip(dist: Path) -> Path:
    """The autograder zip otter assign wrote into ``dist``."""
    (z,) = sorted((dist / "autograder").glob("*-autograder_*.zip"))
    return z


def grade(dist: Path, submission: Path, out: Path) -> dict:
    """``otter run`` on one submission: {question: (score, max)} and the total."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    proc = subprocess.run([otter_bin(), "run", "-a", str(autograder_zip(dist)), "-o", str(out),
                           str(submission)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"otter run failed:\n{proc.stdout}\n{proc.stderr}")
    res = json.loads((out / "results.json").read_text())
    scores = {t["name"]: (t["score"], t["max_score"]) for t in res["tests"] if "score" in t}
    return scores


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sets", nargs="*", default=list(NAMES))
    args = ap.parse_args(argv)
    for s in args.sets:
        d = build(s, args.seed)
        print(f"set {s}: {d.relative_to(REPO)}/student and {d.relative_to(REPO)}/autograder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
