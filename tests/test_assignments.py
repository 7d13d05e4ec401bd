"""Graded assignments (issue 27 item 3): `make assignments` builds an otter-grader
assignment per problem set; `otter run` grades a correct, a partly wrong and a malformed
submission, and the scores are what the points and the rules say.

Expected scores by hand: a question of p points has a public test (the answer can be read)
and a hidden test (it is right), p/2 each. A readable wrong answer keeps p/2; an unreadable
one ("fast", NaN) gets 0.
"""

from __future__ import annotations

import json
import re
import sys
import warnings

import pytest

from conftest import REPO
from interlib.book import instructor, problems

with warnings.catch_warnings():  # otter's own imports pass traitlets a type, not an
    warnings.simplefilter("ignore", DeprecationWarning)  # instance: its warning, not ours
    import otter  # noqa: E402,F401 - the developer's lock (requirements-dev.in): missing fails
sys.path.insert(0, str(REPO / "tools"))
import assignments  # noqa: E402

SET, SEED = "A", 3


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    return assignments.build(SET, SEED, tmp_path_factory.mktemp("assignments"))


def _points(key):
    return assignments.POINTS[problems.get(key, SEED).difficulty]


def test_the_students_notebook_carries_no_answer_and_no_hidden_test(dist):
    nb = (dist / "student" / f"{assignments.NAMES[SET]}.ipynb").read_text()
    for key in problems.SETS[SET]:
        assert f"{assignments.var(key)} = ..." in nb
        assert repr(instructor.answer(key, SEED)) not in nb
        assert f"seed={SEED}" in nb
    assert "HIDDEN" not in nb and "grader.check" not in nb and "import otter" not in nb
    assert assignments.autograder_zip(dist).exists()


def _submission(dist, tmp_path, name, changes):
    sol = json.loads((dist / "autograder" / f"{assignments.NAMES[SET]}.ipynb").read_text())
    for c in sol["cells"]:
        src = "".join(c["source"])
        for key, value in changes.items():
            src = re.sub(rf"^{assignments.var(key)} = .*$", f"{assignments.var(key)} = {value}",
                         src, flags=re.M)
        c["source"] = src
    path = tmp_path / f"{name}.ipynb"
    path.write_text(json.dumps(sol))
    return path


def test_otter_grades_three_submissions(dist, tmp_path):
    keys = problems.SETS[SET]
    total = sum(_points(k) for k in keys)
    wrong = {"A1": repr(instructor.answer("A1", SEED) * 10),
             "A2": repr(instructor.answer("A2", SEED) - 1)}
    malformed = {"A3": '"fast"', "A4": 'float("nan")'}
    cases = {"correct": ({}, total),
             "partly-wrong": (wrong, total - _points("A1") / 2 - _points("A2") / 2),
             "malformed": (malformed, total - _points("A3") - _points("A4"))}
    for name, (changes, expected) in cases.items():
        sub = _submission(dist, tmp_path, name, changes)
        scores = assignments.grade(dist, sub, tmp_path / f"out-{name}")
        got = sum(s for s, _ in scores.values())
        assert sum(m for _, m in scores.values()) == total
        assert got == pytest.approx(expected), (name, scores)
