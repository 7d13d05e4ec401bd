"""The exam bank and `make exam SEED=n` (issue 35 item 5): at least 40 items (multi-part
problems, conceptual short answers with rubrics, at least 10 challenging); a midterm and a
final drawn per seed; papers without answers; keys only in the instructor edition.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO
from interlib.book.answers import fmt

sys.path.insert(0, str(REPO / "tools"))
import exam  # noqa: E402
from course import exam_bank as E, keys, problems  # noqa: E402


def test_the_bank_is_large_varied_and_rubricked():
    bank = E.bank()
    assert len(bank) >= 40
    assert sum(it.difficulty == "challenging" for it in bank) >= 10
    kinds = {it.kind for it in bank}
    assert {"multi-part", "short"} <= kinds
    assert len({it.id for it in bank}) == len(bank)
    for it in bank:
        assert it.difficulty in E.DIFFICULTIES and it.chapters
        assert set(it.chapters) <= set(range(1, 9))
        for part in it.parts:
            if part.problem:
                assert part.problem in problems.get(part.problem).key
            else:  # a short answer: a prompt and a rubric of at least three criteria
                assert part.prompt.rstrip().endswith("?") or part.prompt.rstrip().endswith(".")
                assert len(part.rubric) >= 3 and all(p >= 1 for _, p in part.rubric)
    # every chapter has conceptual items, and every problem of the sets a follow-up
    assert {c for it in bank if it.kind == "short" for c in it.chapters} == set(range(1, 9))
    assert set(E.FOLLOW) == {k for ks in problems.SETS.values() for k in ks}
    with pytest.raises(ValueError, match="^item_id='E99'"):
        E.item("E99")


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 2027])
def test_each_seed_draws_a_midterm_and_a_final_by_the_rules(seed):
    d = E.draw(seed)
    assert d == E.draw(seed)  # deterministic
    mid, fin = d["midterm"], d["final"]
    assert not {i.id for i in mid} & {i.id for i in fin}
    for name, items in d.items():
        rule = E.EXAMS[name]
        assert len(items) == rule["items"]
        assert all(set(i.chapters) <= set(rule["chapters"]) for i in items)
        assert sum(i.difficulty == "challenging" for i in items) >= rule["challenging"]
        assert sum(i.kind == "short" for i in items) >= rule["short"]
    assert {(c + 1) // 2 for i in fin for c in i.chapters} == {1, 2, 3, 4}
    assert {(c + 1) // 2 for i in mid for c in i.chapters} == {1, 2}


def test_seeds_draw_different_exams():
    draws = {tuple(i.id for i in E.draw(s)["final"]) for s in range(1, 9)}
    assert len(draws) >= 6


@pytest.mark.parametrize("name", list(E.EXAMS))
def test_papers_carry_no_answer_and_keys_carry_them_all(name):
    seed = 11
    paper, key = E.paper(name, seed), E.key(name, seed)
    assert "Name: ____" in paper and "Student id: ____" in paper
    assert "rubric" not in paper.lower()
    for it in E.draw(seed)[name]:
        assert it.title in paper and it.title in key
        for part in it.parts:
            if part.problem:
                sd = E.exam_seed(seed, part.problem)
                assert sd != 0 and sd in problems.variants(part.problem)
                p = problems.get(part.problem, sd)
                assert p.statement in paper
                shown = f"{fmt(p.numeric.answer)} {p.numeric.unit}"
                assert shown in key and f"({shown.strip()}" not in paper
                assert p.numeric.explanation in key
            else:
                assert part.prompt in paper
                assert all(c in key for c, _ in part.rubric)


def test_make_exam_writes_papers_and_tagged_pdfs(tmp_path):
    from browser_support import require_chromium

    require_chromium()
    paths = exam.build(5, tmp_path)
    names = sorted(p.name for p in paths)
    assert names == ["final.md", "final.pdf", "midterm.md", "midterm.pdf"]
    for p in paths:
        if p.suffix == ".pdf":
            info = subprocess.run(["pdfinfo", str(p)], capture_output=True, text=True,
                                  check=True).stdout
            assert "Tagged:          yes" in info, info
            assert f"Title:           Interconnects: {p.stem} (seed 5)" in info, info
            text = subprocess.run(["pdftotext", str(p), "-"], capture_output=True,
                                  text=True, check=True).stdout
            assert "Student id" in text and "Rubric" not in text


def test_make_exam_needs_a_seed_and_the_keys_go_to_the_instructor_edition():
    env = {k: v for k, v in os.environ.items() if k not in ("SEED", "MAKEFLAGS", "MFLAGS")}
    proc = subprocess.run(["make", "-s", "exam"], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode != 0 and "SEED" in proc.stderr
    nb = keys.solutions_notebook(4, exams=E.keys_markdown(4))
    src = "".join(c["source"] for c in nb["cells"])
    assert "## Exams: keys" in src
    for name in E.EXAMS:
        assert E.key(name, 4) in src
    assert all("instructor-only" in c["metadata"]["tags"] for c in nb["cells"])
