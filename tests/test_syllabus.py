"""The syllabus and the instructor guide (issue 35 items 5, 7 and 9): a ten-week term with
the eight-week plan kept, assessment weights that add up, every learning objective mapped
to the sections that teach it and the problems that assess it (every problem assessed),
an accessibility statement, and the guide's commands all real targets.
"""

from __future__ import annotations

import re
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
from course import problems  # noqa: E402

SYLLABUS = (REPO / "book" / "syllabus.md").read_text()
GUIDE = (REPO / "book" / "instructors.md").read_text()


def _section(text: str, title: str) -> str:
    return text.split(title, 1)[1].split("\n## ", 1)[0]


def _weeks(table: str) -> list[int]:
    return [int(m) for m in re.findall(r"^\| (\d+) \|", table, re.M)]


def test_ten_weeks_and_the_eight_week_plan():
    assert _weeks(_section(SYLLABUS, "## The ten-week term")) == list(range(1, 11))
    assert _weeks(_section(SYLLABUS, "## The eight-week plan")) == list(range(1, 9))
    ten = _section(SYLLABUS, "## The ten-week term")
    for n in range(1, 9):  # every chapter read once, every set due once
        assert len(re.findall(rf"chapters/0{n}_", ten)) == 1
    for s in "ABCD":
        assert ten.count(f"Problem set {s}") == 1
    assert "Midterm" in ten and "Final" in ten


def test_assessment_weights_add_up_to_a_hundred():
    table = _section(SYLLABUS, "## Assessment")
    weights = [int(w) for w in re.findall(r"^\|[^|]+\| (\d+) % \|", table, re.M)]
    assert len(weights) == 5 and sum(weights) == 100
    eight = re.search(r"give its weight to the problem sets \((\d+) %\)\s+and the final\s+"
                      r"\((\d+) %\)", table)
    assert int(eight.group(1)) + int(eight.group(2)) + 10 + 15 == 100


def test_every_objective_names_its_sections_and_every_problem_is_assessed():
    table = _section(SYLLABUS, "## Learning objectives")
    rows = [r for r in table.splitlines() if r.startswith("| ") and "Objective" not in r]
    assert len(rows) >= 14
    keys = set()
    for r in rows:
        _, objective, taught, assessed, _ = r.split("|")
        assert re.search(r"\{doc\}`Chapter \d <\.\./chapters/0\d_[a-z0-9_]+>`", taught), r
        keys |= set(re.findall(r"\b([A-D]\d)\b", assessed))
    assert keys == {k for ks in problems.SETS.values() for k in ks}
    for doc in set(re.findall(r"\.\./chapters/(0\d_[a-z0-9_]+)", SYLLABUS)):
        assert (REPO / "chapters" / f"{doc}.ipynb").exists(), doc


def test_the_guide_states_accessibility_and_what_the_class_hub_tests():
    acc = _section(GUIDE, "## Accessibility")
    assert "tagged PDF" in acc and "Not yet checked" in acc and "WCAG 2.1 AA" in acc
    hub = _section(GUIDE, "## Running a class beyond one Binder")
    assert "Zero to JupyterHub" in hub and "What is tested here, and what is not" in hub
    assert "tests/test_class_hub.py" in hub and "Not tested here" in hub


def test_every_make_target_the_guide_names_exists():
    makefile = (REPO / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z-]+):", makefile, re.M))
    for name in set(re.findall(r"`make ([a-z-]+)", GUIDE + SYLLABUS)):
        assert name in targets, name
    for tool in set(re.findall(r"tools/([a-z_]+\.py)", GUIDE)):
        assert (REPO / "tools" / tool).exists(), tool


def test_reading_times_are_the_chapters_own():
    """Each plan's reading time for a chapter is the chapter's own "Estimated time" line:
    the main path, plus the folded "Going deeper" blocks when it has them ("40 + 5 min")."""
    import nbformat

    for table in (_section(SYLLABUS, "## The ten-week term"),
                  _section(SYLLABUS, "## The eight-week plan")):
        found = re.findall(r"chapters/(0\d_[a-z0-9_]+)` \((\d+)(?: \+ (\d+))? min\)", table)
        assert len(found) == 8, found
        for doc, main, deeper in found:
            nb = nbformat.read(REPO / "chapters" / f"{doc}.ipynb", as_version=4)
            line = re.search(r"Estimated time\*\*: (\d+) minutes(?:, plus (\d+) for the "
                             r"folded)?", nb.cells[0].source)
            assert line, doc
            assert (main, deeper) == (line.group(1), line.group(2) or ""), doc
