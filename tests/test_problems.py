"""Problem sets: variants (seeds), fresh problems, difficulty labels, givens on paper.

For many seeds every variant must be solvable by its worked (taught) method, which agrees
with interlib; the key answer must be accepted and each recognised mistake must stay
distinct from the answer and be named. Counts (fresh problems, sets, Gb/s answers) are
issue 27's requirements.
"""

from __future__ import annotations

import re

import pytest

from interlib.book import instructor, problems

ALL = [k for keys in problems.SETS.values() for k in keys]
SEEDS = range(0, 30)


@pytest.mark.parametrize("key", ALL)
def test_every_variant_is_solvable_and_its_mistakes_stay_distinct(key):
    statements = set()
    for seed in SEEDS:
        p = problems.get(key, seed)
        q = p.numeric
        assert p.solution.agrees, (seed, p.solution.text())
        assert problems.check(key, q.answer, seed).startswith("right"), seed
        for value, why in q.mistakes:
            assert abs(value - q.answer) > 2 * q.tolerance * abs(q.answer), (seed, why)
            assert problems.check(key, value, seed) == f"wrong: Not quite: {why}", seed
        # far off is wrong, not right (the check can fail)
        assert not problems.check(key, q.answer * 5, seed).startswith("right")
        statements.add(p.statement)
        if seed:
            assert f"seed={seed}" in p.markdown()
    # seeds really change the givens (the book's numbers are seed 0)
    assert len(statements) >= 2, key


def test_seed_zero_is_the_books_numbers():
    assert problems.get("A1").statement == problems.get("A1", 0).statement
    assert instructor.answer("A2") == 98  # 1 + 0.02 E_n >= 1.05 (tests/test_worked.py)


def test_fresh_problems_difficulties_and_units():
    fresh = {k: problems.get(k) for k in ALL if problems.get(k).fresh}
    assert len(fresh) >= 20
    for s, keys in problems.SETS.items():
        assert sum(problems.get(k).fresh for k in keys) >= 5, s
    assert all(p.difficulty in problems.DIFFICULTIES for p in map(problems.get, ALL))
    assert {p.difficulty for p in fresh.values()} == set(problems.DIFFICULTIES)
    assert sum(p.numeric.unit == "Gb/s" for p in fresh.values()) >= 2
    titles = [p.title for p in map(problems.get, ALL)]
    assert len(set(titles)) == len(titles)


# numbers the derivations list as givens that are the first step of the work, not data:
# T = 1 + 5 % (A2), both directions = 2 x per direction (B3), the leaf's split (C2)
DERIVED = {"A2": {"1.05"}, "B3": {"1.8"}, "C2": {"85", "43"}}


@pytest.mark.parametrize("key", ALL)
def test_the_statement_prints_what_the_solution_uses(key):
    """Every number in the worked solution's givens appears in the statement (the student
    works from the statement alone)."""
    p = problems.get(key)
    shown = p.statement.replace(",", "")
    for g in p.solution.givens:
        for num in re.findall(r"\d+(?:\.\d+)?", g.replace(",", "")):
            if num in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10") \
                    or num in DERIVED.get(key, ()):
                continue
            assert num in shown, (key, num, g)


def test_problem_html_checks_in_the_page():
    h = problems.show("C4")._repr_mimebundle_()["text/html"]
    assert 'class="interlib-quiz-check"' in h and "data-check" in h
    assert "interlibAnswers" in h and "Step by step" not in h


def test_practice_exam_covers_every_set_and_its_key_is_the_instructors():
    assert {k[0] for k in problems.EXAM} == set(problems.SETS)
    md = problems.exam().markdown()
    for key in problems.EXAM:
        p = problems.get(key, problems.EXAM_SEED)
        assert p.solution.agrees
        assert problems.check(key, p.numeric.answer, problems.EXAM_SEED).startswith("right")
        assert p.statement in md
        assert repr(p.numeric.answer) not in md and "Step by step" not in md
    src = "".join(c["source"] for c in instructor.solutions_notebook()["cells"])
    assert all(f'instructor.solution("{k}", {problems.EXAM_SEED})' in src
               for k in problems.EXAM)
