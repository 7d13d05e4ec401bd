"""Graded assignments: a variant per student, frozen keys, literal hidden tests, and an
autograder zip that installs the edition's own ``interlib``.

For a term's ``seed`` and class list (``roster``), each problem set becomes

* a **student notebook** that asks for the student's id and shows that student's variant
  of every problem (:class:`interlib.book.assignment.Sheet`: statements only, no answer),
  with a cell per answer and a check of *form* (the grader reads a number in the unit);
* **tests** in otter-grader's exception format, one file per problem: a public test of form
  (0 points: the id is set, the answer is a finite number) and a hidden test worth the
  problem's points. The hidden test holds every variant's key as literals (frozen when the
  assignment is made, so a later change of the catalogue or the models cannot move it),
  finds the student's variant from the id with the rule of
  :func:`interlib.book.assignment.variant` written out with operators, and compares with
  ``<=`` and ``==``: it calls nothing the student's notebook could have rebound (no
  ``interlib``, no ``check``, no ``math.isclose``, no builtins; the number is read with
  ``(0.5).__class__``, the float type itself);
* an **autograder zip** (``otter generate``): the tests, the edition's ``interlib`` wheel
  (built from ``interlib/`` by the site's own packer), an environment of Python 3.11 with
  otter-grader and the reader's lock's pins of interlib's dependencies, a ``setup.sh`` that
  fails the image build unless ``interlib`` of this edition imports, and the otter plugin
  :class:`interlib.book.assignment.RequireEdition`, so a grader without it stops with an
  error instead of grading every submission 0.

Variants: :func:`course.problems.variants` lists each problem's variants whose answers are
apart from each other and from the book's; the term's ``seed`` picks :data:`Q` of them per
problem. A student's variant number (0 to Q³ − 1) gives one of the Q symbols per problem by
a Reed-Solomon code (``assignment.symbol``): two variants share at most two problems of a
set. The class list's ids get pairwise different variant numbers (:func:`displacements`,
hash-and-displace); an id not on the list still gets a variant, possibly a classmate's.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from interlib.book import assignment as A
from interlib.book.answers import fmt

from . import problems

REPO = Path(__file__).resolve().parent.parent.parent
#: Symbols per problem (a prime at least the largest set's size): Q³ variants
Q = 7
VARIANTS = Q ** 3
NAMES = {"A": "problems-1-2", "B": "problems-3-4", "C": "problems-5-6", "D": "problems-7-8"}
POINTS = {"warm-up": 1, "standard": 2, "challenging": 3}
OTTER = "otter-grader[grading]==7.0.0"
PYTHON = "3.11"
ID_COLUMNS = ("student_id", "student id", "id", "sis user id", "sis_user_id", "id number",
              "student number", "email", "email address")


def var(key: str) -> str:
    return f"answer_{key.lower()}"


# ----------------------------------------------------------------- the term's choices
def salt(seed: int, s: str) -> str:
    """The set's public salt: from the seed, one-way (the notebook shows the salt)."""
    return hashlib.sha256(f"interconnects/{seed}/{s}".encode()).hexdigest()[:16]


def chosen(key: str, seed: int) -> tuple[int, ...]:
    """The :data:`Q` variant seeds of problem ``key`` this term (symbol -> problem seed)."""
    pool = problems.variants(key)
    if len(pool) < Q:
        raise ValueError(f"problem {key} has {len(pool)} distinct variants, fewer than {Q}")
    return tuple(random.Random(f"{seed}/{key}/variants").sample(pool, Q))


def read_roster(path: Path | None) -> list[str]:
    """Student ids from a class list: one per line, or a CSV whose header names the id
    column (``student_id``, ``SIS User ID``, ``ID number``, ``email`` ...); normalised,
    duplicates dropped, in file order."""
    if path is None:
        return []
    text = Path(path).read_text(encoding="utf-8-sig")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if lines and "," in lines[0]:
        rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
        cols = {c.strip().lower(): c for c in (rows[0].keys() if rows else [])}
        col = next((cols[c] for c in ID_COLUMNS if c in cols), None)
        if col is None:
            raise ValueError(f"roster={path}: no id column; name one of {ID_COLUMNS}")
        ids = [r[col] for r in rows]
    else:
        ids = lines
    out = []
    for i in ids:
        n = A.normal_id(i or "")
        if n and n not in out:
            out.append(n)
    return out


def displacements(ids: list[str], salt_: str, n: int = VARIANTS,
                  tries: int = 200_000) -> tuple[str, ...]:
    """Hash-and-displace: per bucket, a displacement (a decimal string) such that the
    ``ids`` get pairwise different variant numbers (``assignment.variant``)."""
    if len(ids) > n:
        raise ValueError(f"ids={len(ids)} students: more than the {n} variants; split the "
                         "class into sections with different seeds")
    if not ids:
        return ("0",)
    buckets_n = max(1, (len(ids) + 2) // 3)
    buckets: dict[int, list[str]] = {}
    for i in ids:
        buckets.setdefault(A.fnv(salt_ + "/b/" + i) % buckets_n, []).append(i)
    disp = ["0"] * buckets_n
    taken: set[int] = set()
    for b in sorted(buckets, key=lambda b: (-len(buckets[b]), b)):
        for d in range(tries):
            slots = {A.fnv(f"{salt_}/{d}/{i}") % n for i in buckets[b]}
            if len(slots) == len(buckets[b]) and not slots & taken:
                disp[b] = str(d)
                taken |= slots
                break
        else:
            raise RuntimeError("no displacement found: try another seed")
    return tuple(disp)


# ------------------------------------------------------------------ what is written
def sheet_data(s: str, seed: int, disp: tuple[str, ...]) -> dict:
    """The student notebook's data: statements of every chosen variant, no answers."""
    out = []
    for key in problems.SETS[s]:
        p0 = problems.get(key)
        out.append({"key": key, "title": p0.title, "difficulty": p0.difficulty,
                    "unit": p0.numeric.unit, "points": POINTS[p0.difficulty],
                    "statements": [problems.get(key, sd).statement
                                   for sd in chosen(key, seed)]})
    return {"name": NAMES[s], "salt": salt(seed, s), "disp": list(disp), "q": Q,
            "problems": out}


def keys(s: str, seed: int) -> dict:
    """The frozen key: problem -> one ``(answer, half-width, exact)`` per symbol."""
    out = {}
    for key in problems.SETS[s]:
        rows = []
        for sd in chosen(key, seed):
            q = problems.get(key, sd).numeric
            rows.append((float(q.answer), 0.0 if q.exact else float(q.tolerance * abs(q.answer)),
                         bool(q.exact)))
        out[key] = rows
    return out


def test_file(s: str, seed: int, j: int, key: str, rows, disp: tuple[str, ...]) -> str:
    """Problem ``key``'s otter test file: public form test (0 points) and the hidden
    literal test (module docstring)."""
    p = problems.get(key)
    unit = p.numeric.unit or "no unit"
    a = var(key)
    pts = POINTS[p.difficulty]
    exact = rows[0][2]
    ks = ", ".join(repr(r[0]) for r in rows)
    ts = ", ".join(repr(r[1]) for r in rows)
    compare = ("    assert x == key, 'not the right whole number'" if exact else
               "    assert x - key <= half and key - x <= half, 'outside the tolerance'")
    return f'''"""Problem {key} of {NAMES[s]}: the keys of its {Q} variants, frozen by
`make assignments SEED=...` (tools/course/grading.py). Hidden test: literals and operators
only; nothing the submission could have rebound is called."""

OK_FORMAT = False

from otter.test_files import test_case

name = "{key.lower()}"


@test_case(name="{key.lower()}: form (no points)", points=0, hidden=False)
def form({a}, student_id):
    assert student_id.__class__ is ''.__class__ and student_id.strip() != '', (
        "student_id is not set: write your student id as text, e.g. student_id = \\"s1234567\\"")
    assert {a} is not None, "{a} is not answered yet: set it to a number, in {unit}"
    try:
        x = (0.5).__class__({a})
        ok = True
    except:  # noqa: E722 - a name such as Exception could be rebound by the submission
        ok = False
    assert ok, "{a} must be a number in {unit}, without text or a unit (e.g. {a} = 12.5)"
    assert x - x == 0, "{a} is not a finite number"


@test_case(name="{key.lower()}", points={pts}, hidden=True)
def right({a}, student_id):
    assert student_id.__class__ is ''.__class__
    sid = student_id.strip().lower()

    def h(text):
        v = 14695981039346656037
        for b in text.encode("utf-8"):
            v = ((v ^ b) * 1099511628211) & 18446744073709551615
        return v

    disp = {tuple(disp)!r}
    salt = {salt(seed, s)!r}
    n = h(salt + "/" + disp[h(salt + "/b/" + sid) % {len(disp)}] + "/" + sid) % {VARIANTS}
    a0, a1, a2 = n % {Q}, (n // {Q}) % {Q}, n // {Q * Q}
    symbol = (a0 + a1 * {j} + a2 * {j} * {j}) % {Q}
    key = ({ks},)[symbol]
    half = ({ts},)[symbol]
    x = (0.5).__class__({a})
{compare}
'''


def student_notebook(s: str, seed: int, data: dict) -> dict:
    """The student's notebook for set ``s`` (nbformat 4)."""
    name = NAMES[s]

    def md(src):
        return {"cell_type": "markdown", "metadata": {}, "source": src}

    def code(src, hidden=False):
        meta = {"jupyter": {"source_hidden": True}, "tags": ["hide-input"]} if hidden else {}
        return {"cell_type": "code", "execution_count": None, "metadata": meta,
                "outputs": [], "source": src}

    total = sum(p["points"] for p in data["problems"])
    cells = [
        md(f"# Problem set {s}: graded\n\n"
           "1. Put your student id in the next cell, exactly as your instructor's class list "
           "has it, and run the notebook (Run All): the problems below are then **your own "
           "variant** (your classmates have other numbers).\n"
           "2. Solve each problem on paper. Put your result in its `answer_…` variable as a "
           "**number in the unit the problem asks for** (e.g. `answer_a1 = 549.1`, not text "
           "and not another unit).\n"
           "3. The cell under each answer says how the grader will read it (not whether it "
           "is right). Save the notebook and hand it in.\n\n"
           f"{len(data['problems'])} problems, {total} points: warm-up 1, standard 2, "
           "challenging 3. Each problem names the section of the book that teaches its "
           "method."),
        code('student_id = ""  # your student id, as text'),
        code("from interlib.book import assignment\n\nsheet = assignment.Sheet("
             + json.dumps(data, ensure_ascii=False) + ")", hidden=True),
    ]
    for p in data["problems"]:
        key = p["key"]
        cells += [md(f"## Problem {key}"),
                  code(f'sheet.show("{key}", student_id)'),
                  code(f"{var(key)} = None  # your answer: a number, in "
                       f"{p['unit'] or 'no unit'}"),
                  code(f'print(sheet.form("{key}", {var(key)}))')]
    for i, c in enumerate(cells):
        c["id"] = f"{name}-{i:03d}"
    return {"cells": cells, "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}


def key_markdown(s: str, seed: int, roster: list[str], disp) -> str:
    """The instructor's record: every variant's answer, and the class list's variants."""
    k = keys(s, seed)
    lines = [f"# Key of {NAMES[s]}, seed {seed}", "",
             "| Problem | Symbol | Problem seed | Answer | Accepted |", "|---|---|---|---|---|"]
    for key, rows in k.items():
        unit = problems.get(key).numeric.unit
        for sym, (sd, (ans, half, exact)) in enumerate(zip(chosen(key, seed), rows)):
            acc = "exactly" if exact else f"± {fmt(half)}"
            lines.append(f"| {key} | {sym} | {sd} | {fmt(ans)} {unit} | {acc} |")
    if roster:
        lines += ["", "| Student id | Variant |", "|---|---|"]
        for i in roster:
            lines.append(f"| {i} | {A.variant(i, salt(seed, s), disp, VARIANTS)} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the zip
def interlib_version() -> str:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def wheel(dest: Path) -> Path:
    """The edition's interlib wheel, by the site's own packer (book/_ext/book_site.py)."""
    sys.path.insert(0, str(REPO / "book" / "_ext"))
    import book_site

    return book_site.build_interlib_wheel(dest)


def _dependency_pins() -> list[str]:
    """The reader's lock's pins of interlib's dependencies and everything they pull in."""
    from importlib import metadata

    from packaging.requirements import Requirement

    lock = {}
    for line in (REPO / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip().rstrip("\\").strip()
        if "==" in line and not line.startswith("-"):
            n, ver = line.split("==", 1)
            lock[n.strip().lower().replace("_", "-")] = ver.split()[0]
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    todo = [Requirement(d).name for d in project["dependencies"]]
    seen: set[str] = set()
    while todo:
        n = todo.pop().lower().replace("_", "-")
        if n in seen:
            continue
        seen.add(n)
        try:
            reqs = metadata.requires(n) or []
        except metadata.PackageNotFoundError:
            continue
        for r in map(Requirement, reqs):
            if r.marker is None or r.marker.evaluate({"extra": ""}):
                todo.append(r.name)
    return [f"{n}=={lock[n]}" for n in sorted(seen) if n in lock]


SETUP_CHECK = """
# Interconnects: the grading environment must import this edition's interlib (its wheel is
# in this zip); a grader without it would score every submission 0.
mamba run -n otter-env python -c "from interlib.book.assignment import RequireEdition; RequireEdition(config={{'version': '{version}'}}); print('interlib {version}: ok')"
"""

RUN_CHECK = '''"""Runs Otter-Grader's autograding process, after checking this edition's interlib."""

try:
    from interlib.book.assignment import RequireEdition
except ModuleNotFoundError as e:
    raise RuntimeError("interlib {version} is not installed in the grading environment "
                       "(its wheel is in the autograder zip; check the image build log): "
                       "every submission would be graded wrong.") from e
RequireEdition(config={{"version": "{version}"}})

'''


def autograder_zip(s: str, tests_dir: Path, out: Path) -> Path:
    """``otter generate`` the zip for set ``s`` from ``tests_dir``, then add the wheel and
    the edition checks (module docstring)."""
    work = tests_dir.parent
    whl = wheel(work / "wheel")
    version = interlib_version()
    reqs = work / "requirements.txt"
    reqs.write_text("\n".join([OTTER, *_dependency_pins(),
                               f"/autograder/source/{whl.name}"]) + "\n")
    config = work / "otter_config.json"
    config.write_text(json.dumps({
        "plugins": [{"interlib.book.assignment.RequireEdition": {"version": version}}],
        "show_stdout": True}, indent=1))
    raw = work / "raw.zip"
    from otter.generate import main as generate

    cwd = os.getcwd()
    try:
        os.chdir(work)
        generate(tests_dir=str(tests_dir), output_path=str(raw), config=str(config),
                 requirements=str(reqs), overwrite_requirements=True, python_version=PYTHON,
                 no_environment=True)
    finally:
        os.chdir(cwd)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(raw) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "setup.sh":
                data += SETUP_CHECK.format(version=version).encode()
            elif item.filename == "run_otter.py":
                data = RUN_CHECK.format(version=version).encode() + data
            zout.writestr(item, data)
        zout.write(whl, whl.name)
    for scratch in (raw, reqs, config):
        scratch.unlink()
    shutil.rmtree(whl.parent)
    return out


def build(s: str, seed: int, roster: list[str], out: Path) -> Path:
    """Write set ``s``'s assignment into ``out/seed-<seed>/<name>/``: ``student/`` (the
    notebook to hand out) and ``autograder/`` (the zip, its tests and the key: keep them
    to yourself). Returns that folder."""
    d = out / f"seed-{seed}" / NAMES[s]
    if d.exists():
        shutil.rmtree(d)
    (d / "student").mkdir(parents=True)
    tests = d / "autograder" / "tests"
    tests.mkdir(parents=True)
    disp = displacements(roster, salt(seed, s))
    data = sheet_data(s, seed, disp)
    nb = student_notebook(s, seed, data)
    (d / "student" / f"{NAMES[s]}.ipynb").write_text(json.dumps(nb, indent=1,
                                                                ensure_ascii=False))
    k = keys(s, seed)
    for j, key in enumerate(problems.SETS[s]):
        (tests / f"{key.lower()}.py").write_text(test_file(s, seed, j, key, k[key], disp))
    (d / "autograder" / "key.md").write_text(key_markdown(s, seed, roster, disp))
    (d / "autograder" / "term.json").write_text(json.dumps(
        {"set": s, "seed": seed, "disp": list(disp), "students": len(roster)}))
    autograder_zip(s, tests, d / "autograder" / f"{NAMES[s]}-autograder.zip")
    return d


def zip_of(d: Path) -> Path:
    (z,) = sorted((d / "autograder").glob("*-autograder.zip"))
    return z


# ------------------------------------------------------------------ grading
def submission(d: Path, student_id: str, answers: dict, path: Path,
               extra_cells: list[str] = ()) -> Path:
    """A filled-in copy of the student notebook (for tests and trials): ``answers`` maps a
    problem key to the Python source of the value; ``extra_cells`` are appended."""
    nb = json.loads((d / "student" / f"{d.name}.ipynb").read_text())
    for c in nb["cells"]:
        src = "".join(c["source"])
        if src.startswith("student_id = "):
            c["source"] = f"student_id = {student_id!r}"
        for key, value in answers.items():
            if src.startswith(f"{var(key)} = "):
                c["source"] = f"{var(key)} = {value}"
    for i, src in enumerate(extra_cells):
        nb["cells"].append({"cell_type": "code", "execution_count": None, "metadata": {},
                            "outputs": [], "source": src, "id": f"extra-{i}"})
    path.write_text(json.dumps(nb))
    return path


def otter_bin(python: str | None = None) -> str:
    candidate = Path(python or sys.executable).with_name("otter")
    return str(candidate) if candidate.exists() else "otter"


def grade(zip_path: Path, sub: Path, out: Path, python: str | None = None) -> dict:
    """``otter run`` (of the environment of ``python``) on one submission:
    ``{test name: (score, max)}``; raises with otter's output if otter fails."""
    out.mkdir(parents=True, exist_ok=True)
    env = {k: x for k, x in os.environ.items() if k not in ("MPLBACKEND", "PYTHONPATH")}
    proc = subprocess.run([otter_bin(python), "run", "-a", str(zip_path), "-o", str(out),
                           "--no-logo", str(sub)], env=env, capture_output=True, text=True,
                          cwd=out)
    if proc.returncode != 0:
        raise RuntimeError(f"otter run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    res = json.loads((out / "results.json").read_text())
    return {t["name"]: (t["score"], t["max_score"]) for t in res["tests"] if "score" in t}


def fraction(scores: dict) -> float:
    got = sum(sc for sc, _ in scores.values())
    most = sum(m for _, m in scores.values())
    return got / most if most else 0.0


def term(d: Path) -> dict:
    """What ``build`` recorded for the folder ``d``: set, seed, displacements."""
    return json.loads((d / "autograder" / "term.json").read_text())


def student_key(d: Path, student_id: str) -> dict:
    """The key of one student's variant in the assignment folder ``d``: problem ->
    ``(answer, unit, exact)`` (for trials and tests)."""
    t = term(d)
    s, seed, disp = t["set"], t["seed"], tuple(t["disp"])
    n = A.variant(student_id, salt(seed, s), disp, VARIANTS)
    k = keys(s, seed)
    out = {}
    for j, key in enumerate(problems.SETS[s]):
        ans, _, exact = k[key][A.symbol(n, j, Q)]
        out[key] = (ans, problems.get(key).numeric.unit, exact)
    return out
