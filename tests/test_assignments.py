"""Graded assignments (issue 35 items 1-3): a variant per student, frozen literal hidden
tests, and an autograder that grades in an environment built only from its zip.

Fast tests run the generated test files' own functions in-process, on the namespace a
submission leaves (otter runs them the same way, in the notebook's namespace). The grading
test builds what Gradescope builds: a fresh Python 3.11 virtual environment with
otter-grader and what the zip's own setup installs, then `otter run` on submissions written
the way a class writes them. `make test` grades a representative subset there (a
correct submission, a tampered one, and a grader without interlib, which must fail
loudly); `make test-grading` runs the whole matrix (every set; the solution, `1`
everywhere, typical mistakes, all 0 plus cells that redefine interlib, `check`,
`math.isclose` and `numpy.isclose`).

Expected scores are by construction: a submission's answers are the frozen key of the
student's variant (solution), or that key with a typical slip applied (seconds for ms:
÷ 1,000 of a time; bits for bytes: × 8 of data or a rate; × 2; one short for a count).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import REPO
from interlib.book import assignment as A
from interlib.book.answers import fmt

sys.path.insert(0, str(REPO / "tools"))
from course import grading as G, problems as P  # noqa: E402

SEED = 7


def _ids(n: int, seed: int = 1) -> list[str]:
    """Student ids as class lists write them: 8-digit numbers, letter-prefixed ids and
    e-mail addresses, mixed case and stray spaces."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        kind = rng.randrange(3)
        if kind == 0:
            i = f"{rng.randrange(10**7, 10**8)}"
        elif kind == 1:
            i = f"S{rng.randrange(10**6, 10**7)}"
        else:
            i = f" {rng.choice('abcdefgh')}.{rng.choice(['lee', 'garcia', 'novak', 'okafor'])}" \
                f"{rng.randrange(100)}@Example.edu"
        if A.normal_id(i) not in map(A.normal_id, out):
            out.append(i)
    return out


ROSTER = [A.normal_id(i) for i in _ids(100)]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("assignments")
    return {s: G.build(s, SEED, ROSTER, out) for s in G.NAMES}


# ------------------------------------------------------------------ variants
def _answers_of(s: str, sid: str) -> tuple:
    disp = G.displacements(ROSTER, G.salt(SEED, s))
    n = A.variant(sid, G.salt(SEED, s), disp, G.VARIANTS)
    k = G.keys(s, SEED)
    return tuple(k[key][A.symbol(n, j, G.Q)][0] for j, key in enumerate(P.SETS[s]))


def test_every_problem_has_q_distinct_variants_none_the_books():
    for keys in P.SETS.values():
        for key in keys:
            book = P.get(key).numeric
            vs = [P.get(key, sd).numeric.answer for sd in G.chosen(key, SEED)]
            assert len(vs) == G.Q
            for a, b in itertools.combinations(vs + [book.answer], 2):
                assert P.apart(a, b, book), (key, a, b)


def test_a_hundred_students_share_at_most_a_third_of_their_answers():
    per_set = {s: {sid: _answers_of(s, sid) for sid in ROSTER} for s in G.NAMES}
    worst = 0.0
    for a, b in itertools.combinations(ROSTER, 2):
        same = total = 0
        for s in G.NAMES:
            x, y = per_set[s][a], per_set[s][b]
            shared = sum(p == q for p, q in zip(x, y))
            assert shared <= len(x) / 3, (s, a, b, shared)
            same += shared
            total += len(x)
        worst = max(worst, same / total)
    assert worst <= 1 / 3
    # and no student's answer is a published (seed 0) answer, in any set
    for s, rows in per_set.items():
        book = [P.get(k).numeric.answer for k in P.SETS[s]]
        for ans in rows.values():
            assert not any(a == b for a, b in zip(ans, book))


def test_class_list_ids_get_pairwise_different_variants_and_the_rule_is_stable():
    for s in G.NAMES:
        disp = G.displacements(ROSTER, G.salt(SEED, s))
        got = [A.variant(i, G.salt(SEED, s), disp, G.VARIANTS) for i in ROSTER]
        assert len(set(got)) == len(ROSTER)
    # an id typed with other case or spaces is the same student
    disp = G.displacements(ROSTER, G.salt(SEED, "A"))
    raw = _ids(100)[5]
    assert A.variant(raw.upper() + "  ", G.salt(SEED, "A"), disp, G.VARIANTS) == \
        A.variant(raw, G.salt(SEED, "A"), disp, G.VARIANTS)
    # two different variants agree on at most two problems of a set (degree-2 code)
    for m, n in itertools.combinations(random.Random(0).sample(range(G.VARIANTS), 60), 2):
        assert sum(A.symbol(m, j, G.Q) == A.symbol(n, j, G.Q) for j in range(7)) <= 2


def test_a_class_too_large_is_refused():
    with pytest.raises(ValueError, match=r"^ids=400 students: more than the 343 variants"):
        G.displacements([f"id{i}" for i in range(400)], "salt")


def test_the_roster_reads_lms_exports(tmp_path):
    canvas = tmp_path / "canvas.csv"
    canvas.write_text("Student,ID,SIS User ID,Section\nLee Ann,101,S0001,A\n"
                      "Okafor B,102, s0002 ,A\n")
    assert G.read_roster(canvas) == ["101", "102"]
    plain = tmp_path / "ids.txt"
    plain.write_text("# class list\nS0001\ns0001\n\nS0002\n")
    assert G.read_roster(plain) == ["s0001", "s0002"]
    bad = tmp_path / "bad.csv"
    bad.write_text("name,section\nLee,A\n")
    with pytest.raises(ValueError, match=r"^roster=.*bad\.csv: no id column"):
        G.read_roster(bad)


# ------------------------------------------------------------------ what students get
def test_the_student_notebook_asks_for_the_id_and_carries_no_answer(built):
    for s, d in built.items():
        text = (d / "student" / f"{d.name}.ipynb").read_text()
        nb = json.loads(text)
        srcs = ["".join(c["source"]) for c in nb["cells"]]
        assert srcs[1].startswith('student_id = ""')
        data = json.loads(srcs[2].split("assignment.Sheet(", 1)[1].rsplit(")", 1)[0])
        for p, (key, rows) in zip(data["problems"], G.keys(s, SEED).items()):
            assert set(p) == {"key", "title", "difficulty", "unit", "points", "statements"}
            for (ans, half, _), st in zip(rows, p["statements"]):  # nor its own answer
                shown = f"{fmt(ans)} {p['unit']}".strip()
                assert shown not in st, (key, shown)
        assert "HIDDEN" not in text and "otter" not in text and "grader.check" not in text
        for key in P.SETS[s]:
            assert f"{G.var(key)} = None" in text
    # the sheet shows each student their own variant, and the grader reads the same one
    d = built["C"]
    nb = json.loads((d / "student" / f"{d.name}.ipynb").read_text())
    ns: dict = {}
    exec("".join(nb["cells"][2]["source"]), ns)
    sheet = ns["sheet"]
    sid = ROSTER[3]
    k = G.student_key(d, sid)
    for j, key in enumerate(P.SETS["C"]):
        shown = sheet.show(key, sid)._repr_markdown_()
        sym = A.symbol(A.variant(sid, G.salt(SEED, "C"), G.term(d)["disp"], G.VARIANTS), j,
                       G.Q)
        seed_ = G.chosen(key, SEED)[sym]
        assert P.get(key, seed_).statement in shown
        assert P.get(key, seed_).numeric.answer == k[key][0]
    assert "Set `student_id`" in sheet.show("C1", "")._repr_markdown_()
    # keys in any case; a wrong key or a number for an id gets a message, not an error
    assert sheet.show("c1", sid)._repr_markdown_() == sheet.show("C1", sid)._repr_markdown_()
    assert "There is no problem 'Z9'" in sheet.show("Z9", sid)._repr_markdown_()
    assert sheet.form("z9", 1.0).startswith("There is no problem 'z9'")
    assert 'student_id = "12345678"' in sheet.show("C1", 12345678)._repr_markdown_()
    # the form check reads what a student writes and never says right or wrong
    assert sheet.form("C1", None).endswith("not answered yet (a number, in kB).")
    assert "graded as 20 kB" in sheet.form("C1", 20)
    assert "answer_c1 = 20.0" in sheet.form("C1", "0.02 MB")
    assert "not a finite number" in sheet.form("C1", float("nan"))
    for v in (20, "20 kB", None, "fast"):
        assert "right" not in sheet.form("C1", v).lower()


# ------------------------------------------------------------------ the tests, in-process
def _load_tests(d: Path) -> dict:
    """The zip's test files: key -> (form function, hidden function, points)."""
    class _Case:
        def __init__(self, name=None, points=None, hidden=False, **kw):
            self.points, self.hidden = points, hidden

        def __call__(self, f):
            self.f = f
            return self

    out = {}
    with zipfile.ZipFile(G.zip_of(d)) as z:
        for name in z.namelist():
            if name.startswith("tests/"):
                src = z.read(name).decode()
                src = src.replace("from otter.test_files import test_case", "")
                ns = {"test_case": _Case}
                exec(compile(src, name, "exec"), ns)
                out[ns["name"].upper()] = (ns["form"].f, ns["right"].f, ns["right"].points)
    return out


def _run(fn, env: dict) -> bool:
    """Call a test function as otter does (arguments by name from the namespace)."""
    import inspect

    kwargs = {a: env.get(a) for a in inspect.signature(fn).parameters}
    try:
        fn(**kwargs)
        return True
    except Exception:  # noqa: BLE001 - a failing test is any exception, as in otter
        return False


def _mistake(ans: float, unit: str, exact: bool) -> float:
    """A typical slip (module docstring)."""
    if exact:
        return ans - 1
    if unit in ("ms", "min", "h", "s"):
        return ans / 1000
    if unit in ("GB", "kB", "GB/s", "TB/s", "Gb/s"):
        return ans * 8
    return ans * 2


CASES = ("solution", "ones", "mistakes", "tampered")


def _submission_values(d: Path, sid: str, case: str) -> dict:
    k = G.student_key(d, sid)
    if case == "solution":
        return {key: repr(a) for key, (a, u, e) in k.items()}
    if case == "ones":
        return {key: "1" for key in k}
    if case == "mistakes":
        return {key: repr(_mistake(a, u, e)) for key, (a, u, e) in k.items()}
    return {key: "0" for key in k}


TAMPER = ("import math, builtins, numpy\n"
          "math.isclose = lambda *a, **k: True\n"
          "numpy.isclose = lambda *a, **k: True\n"
          "check = lambda *a, **k: 'right'\n"
          "builtins.abs = lambda x: 0\n"
          "float = lambda x: 0.0\n"
          "isinstance = lambda *a: True\n"
          "from interlib.book import answers, quiz, assignment, problems\n"
          "answers.evaluate = lambda *a: ('right', '')\n"
          "quiz.check = lambda *a: ('right', '')\n"
          "problems.check = lambda *a, **k: 'right: forged'\n"
          "assignment.variant = lambda *a: 0\n"
          "assignment.fnv = lambda t: 0\n")


class _Restored:
    """Undo what TAMPER does to shared modules (it runs in this process here)."""

    TARGETS = (("math", "isclose"), ("numpy", "isclose"), ("builtins", "abs"),
               ("interlib.book.answers", "evaluate"), ("interlib.book.quiz", "check"),
               ("interlib.book.problems", "check"), ("interlib.book.assignment", "variant"),
               ("interlib.book.assignment", "fnv"))

    def __enter__(self):
        import importlib

        self.saved = [(importlib.import_module(m), a) for m, a in self.TARGETS]
        self.saved = [(m, a, getattr(m, a)) for m, a in self.saved]
        return self

    def __exit__(self, *exc):
        for m, a, value in self.saved:
            setattr(m, a, value)


@pytest.mark.parametrize("s", list(G.NAMES))
def test_the_hidden_tests_grade_the_four_cases_in_process(built, s):
    with _Restored():
        _four_cases_in_process(built, s)
    import builtins
    import math

    assert builtins.abs(-1) == 1 and math.isclose(1, 2) is False


def _four_cases_in_process(built, s):
    d = built[s]
    tests = _load_tests(d)
    total = sum(pts for _, _, pts in tests.values())
    for sid in ROSTER[:12]:
        for case in CASES:
            env: dict = {"student_id": sid}
            for key, src in _submission_values(d, sid, case).items():
                env[G.var(key)] = eval(src)
            with _Restored():
                if case == "tampered":
                    exec(TAMPER, env)
                got = sum(pts for key, (_, right, pts) in tests.items() if _run(right, env))
            if case == "solution":
                assert got == total, (sid, case)
                assert all(_run(form, env) for form, _, _ in tests.values())
            else:
                assert got <= 0.1 * total, (sid, case, got)
    # the hidden test finds the variant the sheet shows, for ids on and off the list
    env = {}
    for sid in ROSTER[:30] + _ids(30, seed=9):
        env["student_id"] = sid
        k = G.student_key(d, sid)
        for key, (form, right, _) in tests.items():
            ans, unit, exact = k[key]
            for typed in (ans, repr(ans), __import__("numpy").float64(ans)):
                env[G.var(key)] = typed
                assert _run(right, env), (sid, key)
            env[G.var(key)] = None
            assert not _run(right, env) and not _run(form, env)
    # a submission without an id, or with a number as id, gets nothing and is told why
    form, right, _ = tests[P.SETS[s][0]]
    for bad_id in ("", None, 12345678):
        env = {"student_id": bad_id, G.var(P.SETS[s][0]): 1.0}
        assert not _run(right, env) and not _run(form, env)


def test_make_assignments_refuses_to_run_without_a_seed():
    env = {k: v for k, v in os.environ.items() if k not in ("SEED", "MAKEFLAGS", "MFLAGS")}
    proc = subprocess.run(["make", "-s", "assignments"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "SEED" in proc.stdout + proc.stderr
    proc = subprocess.run([sys.executable, "tools/assignments.py", "--seed", "0"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "seed 0 is the book's own numbers" in proc.stderr


def test_the_zip_carries_the_editions_wheel_and_checks_it(built):
    d = built["A"]
    with zipfile.ZipFile(G.zip_of(d)) as z:
        names = z.namelist()
        whl = [n for n in names if n.endswith(".whl")]
        assert whl == [f"interlib-{G.interlib_version()}-py3-none-any.whl"]
        env = z.read("environment.yml").decode()
        assert "python=3.11" in env and f"/autograder/source/{whl[0]}" in env
        assert "otter-grader[grading]==7.0.0" in env
        assert "RequireEdition" in z.read("setup.sh").decode()
        assert "RequireEdition" in z.read("run_otter.py").decode()
        cfg = json.loads(z.read("otter_config.json"))
        assert cfg["plugins"] == [{"interlib.book.assignment.RequireEdition":
                                   {"version": G.interlib_version()}}]
        with zipfile.ZipFile(__import__("io").BytesIO(z.read(whl[0]))) as w:
            mods = [n for n in w.namelist() if n.endswith(".py")]
            assert "interlib/book/assignment.py" in mods
            assert not any("problems_fresh" in n or n.endswith(("keys.py", "grading.py"))
                           for n in mods)
    # a grader with another interlib edition refuses to grade
    with pytest.raises(RuntimeError, match="needs interlib 0.0.1"):
        A.RequireEdition(config={"version": "0.0.1"})


# ------------------------------------------------------------------ as Gradescope grades
def _fresh_env(tmp: Path, zip_path: Path, with_interlib: bool = True) -> Path:
    """A fresh Python 3.11 venv with what the zip's environment.yml installs (pip's part;
    conda's python=3.11 is the venv's own), the wheel from the zip itself."""
    py = Path(os.environ.get("PYTHON311", "python3.11"))
    d = tmp / "venv"
    subprocess.run([str(py), "-m", "venv", str(d)], check=True)
    # --no-compile: pip would byte-compile every module of every package it installs
    # (otter-grader, numpy, matplotlib, ... : about 40 % of the install's time on 2 cores);
    # Python compiles what a grading run imports when it imports it. Same packages, same
    # files: only the __pycache__ left behind differs.
    pip = [str(d / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile",
           "--disable-pip-version-check"]
    src = tmp / "zip"
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(src)
    import yaml

    env = yaml.safe_load((src / "environment.yml").read_text())
    deps = next(x["pip"] for x in env["dependencies"] if isinstance(x, dict))
    reqs = [x.replace("/autograder/source/", f"{src}/") for x in deps]
    if not with_interlib:
        reqs = [x for x in reqs if not x.endswith(".whl")]
    subprocess.run(pip + reqs, check=True, capture_output=True, timeout=1500)
    return d / "bin" / "python"


def _grade_in(python: Path, d: Path, sid: str, case: str, tmp: Path) -> float:
    tmp.mkdir(parents=True, exist_ok=True)
    sub = G.submission(d, sid, _submission_values(d, sid, case), tmp / f"{case}.ipynb",
                       extra_cells=[TAMPER] if case == "tampered" else ())
    return G.fraction(G.grade(G.zip_of(d), sub, tmp / f"out-{case}", python=str(python)))


MATRIX = os.environ.get("GRADING_MATRIX") == "1"


def test_graded_in_a_fresh_environment_built_only_from_the_zip(built, tmp_path):
    """make test: a grader without interlib fails loudly; then, with the zip's wheel, set
    A's correct and tampered submissions. make test-grading (GRADING_MATRIX=1): every
    set, all four cases, two students each. Every set's zip installs the same environment
    (checked), so one environment grades them all."""
    d = built["A"]
    envs = set()
    for s in G.NAMES:
        with zipfile.ZipFile(G.zip_of(built[s])) as z:
            envs.add(z.read("environment.yml"))
            envs.add(z.read(f"interlib-{G.interlib_version()}-py3-none-any.whl"))
    assert len(envs) == 2
    py = _fresh_env(tmp_path / "env", G.zip_of(d), with_interlib=False)
    sub = G.submission(d, ROSTER[0], _submission_values(d, ROSTER[0], "solution"),
                       tmp_path / "s.ipynb")
    with pytest.raises(RuntimeError, match="No module named 'interlib'"):
        G.grade(G.zip_of(d), sub, tmp_path / "out-bare", python=str(py))
    whl = next((tmp_path / "env" / "zip").glob("*.whl"))
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-compile",
                    "--disable-pip-version-check", str(whl)], check=True, capture_output=True,
                   timeout=600)
    scores = {}
    for s in (list(G.NAMES) if MATRIX else ["A"]):
        for sid in (ROSTER[:2] if MATRIX else ROSTER[:1]):
            for case in (CASES if MATRIX else ("solution", "tampered")):
                scores[s, sid, case] = _grade_in(py, built[s], sid, case,
                                                 tmp_path / f"{s}-{sid}")
    print("grading scores:", json.dumps({"|".join(k): v for k, v in scores.items()}))
    for (s, sid, case), frac in scores.items():
        if case == "solution":
            assert frac == 1.0, (s, sid, case)
        else:
            assert frac <= 0.1, (s, sid, case, frac)
