"""Mutation score of the models: ``make mutation`` (not part of ``make test``; CPU-heavy).

For each model module, mutmut 3 (the developer's lock) changes the module one small edit at
a time (a ``<`` into ``<=``, a constant plus one, an argument dropped, ...) and runs the
module's fast unit tests against each change. A change some test notices is *killed*; one
no test notices *survived* (a gap in the tests, or an equivalent change that cannot alter
any result). Equivalent mutants are listed, each with its one-line reason, in
``tests/mutation_equivalents.toml``; the score leaves them out:

    score = (killed + timeout) / (mutants - equivalent)

("no tests": a mutant in a function no selected test calls; it counts as not killed.)

Each module runs in its own scratch directory ``_build/mutation/<module>/``: a copy of
``interlib/`` and of the module's test files (``TESTS`` below: unit tests only, no notebook,
book build or browser), plus a ``setup.cfg`` that tells mutmut which file to mutate and
which tests to run, and no ``pyproject.toml`` (so pytest does not add the book's
``--nbval``/doctest options); the module's own doctests are run too. ``--ref REV`` takes
``interlib/`` and ``tests/`` from a git revision instead of the working tree (how the
"before" figures were measured). mutmut keeps its results in the scratch directory and
re-runs only what changed, so a second run after adding a test is quick.

``specs/calibration`` has no score, and cannot get one from mutmut 3 (checked at 0050a06:
91 mutants generated, none runnable; "FAILED: Unable to force test failures"):

* mutmut 3 mutates code inside functions only; a module-level assignment is never mutated.
  Nearly all of calibration.py is module-level data: ``Spec(0.92, ...)`` literals, dicts of
  them, and constants read from ``interlib/data/crossval.json``. Its only functions,
  ``_lat``, ``_caps`` and ``_extend`` (the 91 mutants), are helpers that build those
  constants while the module is imported.
* mutmut 3 switches a mutant on at call time: each mutated function is a trampoline that
  reads ``MUTANT_UNDER_TEST`` when called, in a child forked from the process that ran the
  clean tests, where interlib is already imported. The import-time helpers never run again
  in the child, so no mutant can take effect, and mutmut's forced-failure check (every
  trampoline raises; some test must fail) finds no mutated function called by any test and
  refuses to start.
* Restructuring does not fix this: moving the values into functions called at import is
  the same situation (import precedes the fork), and computing them on every access would
  not reach the model either, since the model modules bind them at their own import
  (``pcie.LATENCY = C.HOP_LATENCY[...]``, ``collectives``' tables).

What guards the calibration constants instead (all in ``make test``): the calibration
reproduction tests in tests/test_interlib_collectives.py (rows V9-01 ring within 1 %, the
NVLS rows V1-24/V9-02 between NCCL's asymptote and 1 % below it, A100 V9-03 within 1 % of
its input, the 1 KiB all-reduce latency within the source's two-decimal precision: the
launch overhead +40 % fails it); tests/test_validation.py's
``test_every_calibrated_constant_is_fitted_by_the_procedure`` (every fitted constant equals
``interlib.crossval.fit``'s value); tests/test_crossval.py (the fit reproduces the
catalogue's constants); tests/test_interlib_specs.py (every Spec, calibration's included,
has a source, a known kind and a direction); and the ratchets on the model's
cross-validated misses in tests/test_crossval.py.
A mutation measure of this data would need a different tool: one fresh interpreter per
perturbed literal (the whole test selection re-imported each time), not mutmut.

Writes ``_build/mutation.json`` (per module: killed / survived / timeout / no tests /
equivalent / score, and the surviving mutants' names) and, with ``--readme``, the table in
CONTRIBUTING.md between ``<!-- mutation:start -->`` and ``<!-- mutation:end -->``.

    python tools/mutation.py [--modules nvlink pcie] [--jobs 2] [--ref REV] [--readme]
    python tools/mutation.py --show interlib.nvlink.x_gpu_bandwidth__mutmut_3  # its diff
    python tools/mutation.py --list nccltests.shape.x_shape   # its mutants, numbered
    python tools/mutation.py --lock   # after renumbering: record the functions' sources

An equivalent mutant is named by its number within its function (``x_shape__mutmut_106``),
so an edit to that function can give the number to another mutant. ``EQUIVALENTS_LOCK``
holds a digest of the source of every function the list names, and
tests/test_mutation_equivalents.py fails when one changed: ``--list`` prints the function's
mutants as mutmut numbers them now (no mutmut run: its own ``create_mutations``), so the
entries can be renumbered; ``--lock`` then records the new sources.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUILD = REPO / "_build"
WORK = BUILD / "mutation"
EQUIVALENTS = REPO / "tests" / "mutation_equivalents.toml"
EQUIVALENTS_LOCK = REPO / "tests" / "mutation_equivalents.lock.json"
BEGIN, END = "<!-- mutation:start -->", "<!-- mutation:end -->"
TARGET = 0.90

# module (path under interlib/, without .py) -> the unit-test files that exercise it. Only
# fast tests: each mutant re-runs the tests that call the mutated function. Every module of
# the models layer (pyproject's [tool.importlinter] layers contract) that has a function is
# here, plus the reader-facing logic (book/answers, widgets/live):
# tests/test_mutation_config.py fails when a module is missing. A file listed that does not
# exist (yet, or in an older --ref) is skipped.
# the inside-the-box modules share their tests (measured --together)
_INSIDE_BOX_TESTS = ["test_interlib_inside_box.py", "test_nvswitch_domain_table.py"]
_COLLECTIVE_TESTS = ["test_interlib_collectives.py", "test_collectives_at_scale.py",
                     "test_interlib_inside_box.py", "test_nccl_tuning.py"]
# the fitted model's modules (the fit, its intervals, the validation tables) share theirs
_FIT_TESTS = ["test_crossval.py", "test_validation.py", "test_measurements_data.py",
              "test_intervals.py", "test_crossval_tables.py", "test_crossval_internals.py",
              "test_validation_tables.py", "test_validation_summaries.py"]
# Tests left out of a module's selection, with the reason: each of these refits the whole
# model (about a minute of CPU each here), so a mutant of the fit that they alone would
# notice costs two minutes; the fit's other tests (its folds, its constants against the
# catalogue's, the ratchets) stay in. Said in the mutation table.
DESELECT = {m: ["tests/test_crossval.py::test_catalogue_holds_the_fit_on_all_rows",
                "tests/test_crossval.py::"
                "test_a_fold_refitted_without_its_source_gives_the_stored_constants"]
            for m in ("intervals", "validation", "crossval")}
# interlib/nccltests is a package whose modules change as it grows (issue 36 split it): every
# module of it with a function is mutated, against all its test files test_nccltests*.py (the
# browser test test_nccltests_site.py is left out: it needs Chromium and minutes per run).
_NCCLTESTS_TESTS = sorted(
    f.name for f in (REPO / "tests").glob("test_nccltests*.py")
    if f.name != "test_nccltests_site.py")
_NCCLTESTS = sorted({
    f.stem for f in (REPO / "interlib" / "nccltests").glob("*.py")
    if f.stem != "__init__" and re.search(r"^\s*def ", f.read_text(), re.M)})
TESTS = {
    "collectives": _COLLECTIVE_TESTS,
    # the collective model, split out of collectives.py (issue 25): the same tests
    **{m: _COLLECTIVE_TESTS
       for m in ("alphabeta", "collective_model/links", "collective_model/fabrics",
                 "collective_model/algorithms", "collective_model/choice",
                 "collective_model/calibrated")},
    # NCCL's tuner by release (issue 37): its own tests and the collective model's
    "collective_model/tuner": _COLLECTIVE_TESTS,
    "topology": ["test_interlib_topology.py", "test_capstone.py"],
    "steptime": ["test_steptime.py", "test_capstone.py", "test_hierarchy_ladder.py"],
    "scaleout": ["test_interlib_scaleout_hostpath.py"],
    "pcie": _INSIDE_BOX_TESTS,
    "nvlink": _INSIDE_BOX_TESTS,
    "nvswitch": _INSIDE_BOX_TESTS,
    "congestion": ["test_interlib_congestion.py"],
    "flowcontrol": ["test_interlib_flowcontrol.py"],
    "cost": ["test_cost.py"],
    # issue 38: the rest of the models layer and the reader-facing logic
    "hierarchy": ["test_hierarchy_ladder.py", "test_interlib_models.py",
                  "test_interlib_specs.py", "test_hierarchy_scaleup_table.py"],
    "hostpath": ["test_interlib_scaleout_hostpath.py"],
    "packets": ["test_interlib_packets_reliability.py"],
    "reliability": ["test_interlib_packets_reliability.py"],
    "scaling": ["test_interlib_models.py", "test_steptime.py"],
    "tensor_parallel": _INSIDE_BOX_TESTS,
    "transfer": ["test_interlib_models.py", "test_steptime.py"],
    "intervals": _FIT_TESTS,
    "validation": _FIT_TESTS,
    "crossval": _FIT_TESTS,
    "capstone": ["test_capstone.py", "test_prices.py"],
    **{f"nccltests/{m}": _NCCLTESTS_TESTS for m in _NCCLTESTS},
    "book/answers": ["test_answers.py", "test_quiz.py"],
    "widgets/live": ["test_live_frame.py"],
    "specs/calibration": ["test_interlib_specs.py", "test_interlib_collectives.py"],
}

# modules mutmut 3 cannot measure (module-level data; see this file's docstring): listed for
# completeness, never run, shown as "n/a" with the reason
UNMEASURABLE = {"specs/calibration"}

# files and folders under tests/ (besides the test files) that a module's tests read
TEST_AUX = {f"nccltests/{m}": ["fixtures/nccltests"] for m in _NCCLTESTS}

# files outside interlib/ and tests/ that some of those tests read
AUX = ["book/references.bib",
       # the log checker's tests: its diagnosis links point at chapter headings, and the
       # share form it reads is the repository's issue template
       *sorted(f.relative_to(REPO).as_posix() for f in (REPO / "chapters").glob("*.ipynb")),
       ".github/ISSUE_TEMPLATE/share-a-run.yml", "tools/contribute_run.py", "_config.yml",
       "book/check_cluster.ipynb"]

STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests",
          34: "skipped", 36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout",
          255: "timeout", None: "not checked"}


def _slug(module: str) -> str:
    return module.replace("/", ".")


def _tests_for(module: str) -> list[str]:
    """The test files mutmut runs for ``module``: its own, plus any file added since that
    exists (a file listed but missing is skipped, so an older ``--ref`` still runs)."""
    return list(TESTS[module])


def _fingerprint(src: Path, tests: list[str], aux_tests: list[str] = ()) -> str:
    """A hash of what mutmut's results depend on: interlib/, the test files, AUX and the
    module's TEST_AUX."""
    digest = hashlib.sha256("\n".join(tests).encode())
    aux = [f for a in aux_tests for f in sorted((src / "tests" / a).rglob("*"))]
    for f in sorted((src / "interlib").rglob("*")) + [src / "tests" / t for t in tests] \
            + [src / a for a in AUX] + aux:
        if f.is_file():
            digest.update(str(f.relative_to(src)).encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()


def _cfg(module: str | list, tests: list[str]) -> str:
    """mutmut's setup.cfg for ``module`` (or several sharing these tests) and its tests."""
    mods = [module] if isinstance(module, str) else list(module)
    return (
        "[mutmut]\n"
        "source_paths = interlib\n"
        "only_mutate =\n    " + "\n    ".join(f"interlib/{m}.py" for m in mods) + "\n"
        "pytest_add_cli_args_test_selection =\n    "
        + "\n    ".join([f"tests/{t}" for t in tests]
                + [a for d in sorted({d for m in mods for d in DESELECT.get(m, [])})
                   for a in ("--deselect", d)]
                + ["--doctest-modules", *(f"interlib/{m}.py" for m in mods)]) + "\n"
        "pytest_add_cli_args =\n    -p\n    no:cacheprovider\n    -p\n    no:nbval\n"
        "    -p\n    no:xdist\n    --hypothesis-seed=0\n"
        "also_copy =\n    " + "\n    ".join(AUX) + "\n"
        "use_git_change_detection = false\n"
        # mutmut 3.8's limit is in CPU seconds (RLIMIT_CPU: SIGXCPU after (expected test
        # time + constant) x multiplier x 2), and a mutant that loops for ever (e.g. a
        # parser's index no longer advancing) is stopped after (t + 5) x 10 CPU seconds
        # instead of the 1,000 s and more a multiplier of 100 gave. But mutmut 3.8.1 also
        # sends SIGXCPU after half that in wall-clock seconds (workers/isolation.py,
        # wall_timeout = cpu_time_limit / 2), so on a busy shared machine a run under nice
        # can time out a mutant no test notices: measured 2026-11-30 (load 8-10 on two
        # cores, nice 10), 11 equivalent mutants of nccltests/logs ended as timeouts; a
        # timeout there is a verdict to re-run on a quiet machine, not a kill.
        "timeout_multiplier = 5.0\n"
        "timeout_constant = 5.0\n"
        # the repository's pyproject.toml (an ancestor directory) would add --nbval
        "\n[tool:pytest]\naddopts =\n")


def prepare(module: str, ref: str | None, incremental: bool = False,
            together: tuple = ()) -> Path:
    """The scratch directory for ``module``: interlib/ and the test files (from ``ref`` or
    the working tree) and mutmut's setup.cfg. Kept between runs (mutmut's own cache) as
    long as the sources are the same; rebuilt when they changed.

    ``incremental`` (when a run's results are there): instead of starting afresh, the
    sources are replaced, mutmut's copy of everything but the mutated module's results is
    dropped (so the tests run against today's interlib/ and tests, and mutmut collects
    again which tests call which function), the survivors, no-tests and timeouts are reset
    to be run again, and mutmut regenerates the module's mutants keeping the verdicts of
    the functions whose source is unchanged (its per-function hashes) and running the rest:
    the changed functions' mutants and the earlier survivors. A kill of an unchanged
    function is kept (mutmut's own cache rule).

    ``together``: several modules with the same test files mutated in one mutmut run (one
    collection of which test calls which function instead of one per module), in
    ``_build/mutation/together.<first module>/``; each module's own directory is then a
    link to it."""
    mods = list(together) or [module]
    work = WORK / _slug(module) if ref is None else WORK / f"{_slug(module)}@{ref}"
    if together:
        work = WORK / f"together.{_slug(module)}"
    elif work.is_symlink():
        # measured together with others before: carry its results into a directory of its
        # own (an --incremental run then keeps their kills)
        meta = work / "mutants" / "interlib" / f"{module}.py.meta"
        text = meta.read_text() if meta.exists() else None
        work.unlink()
        if text is not None:
            meta.parent.mkdir(parents=True)
            meta.write_text(text)
    src = work / ".src"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    if ref is None:
        shutil.copytree(REPO / "interlib", src / "interlib",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(REPO / "tests", src / "tests",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for a in AUX:
            (src / a).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / a, src / a)
    else:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", ref, "interlib", "tests",
                                  *AUX],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    tests = [t for t in _tests_for(module) if (src / "tests" / t).exists()]
    cfg = _cfg(mods, tests)
    aux_tests = [a for a in TEST_AUX.get(module, []) if (src / "tests" / a).exists()]
    fingerprint = _fingerprint(src, tests, aux_tests)
    stamp = work / ".fingerprint"
    metas = [work / "mutants" / "interlib" / f"{m}.py.meta" for m in mods]
    if together and incremental:
        # a module measured on its own before brings its results into the shared run
        for m, dest in zip(mods, metas):
            own = WORK / _slug(m) / "mutants" / "interlib" / f"{m}.py.meta"
            if not dest.exists() and not (WORK / _slug(m)).is_symlink() and own.exists():
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(own, dest)
    meta = next((m for m in metas if m.exists()), metas[0])
    fresh = not (stamp.exists() and stamp.read_text() == fingerprint)
    if fresh and incremental and meta.exists():
        kept = {}
        for m in metas:
            if m.exists():
                codes = json.loads(m.read_text())
                codes["exit_code_by_key"] = {
                    k: (c if STATUS.get(c) == "killed" else None)
                    for k, c in codes["exit_code_by_key"].items()}
                kept[m] = json.dumps(codes)
        for p in (work / "mutants").iterdir():
            shutil.rmtree(p) if p.is_dir() else p.unlink()
        for m, text in kept.items():
            m.parent.mkdir(parents=True, exist_ok=True)
            m.write_text(text)
        (work / ".incremental").write_text("1")
    elif fresh:
        (work / ".incremental").unlink(missing_ok=True)
    if fresh:
        for name in ("interlib", "tests", "setup.cfg", *{a.split("/")[0] for a in AUX},
                     *(() if incremental and meta.exists() else ("mutants",))):
            p = work / name
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
        shutil.copytree(src / "interlib", work / "interlib")
        (work / "tests").mkdir()
        for t in tests:
            shutil.copy2(src / "tests" / t, work / "tests" / t)
        for a in aux_tests:
            shutil.copytree(src / "tests" / a, work / "tests" / a)
        for a in AUX:
            (work / a).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / a, work / a)
        stamp.write_text(fingerprint)
    # mutmut re-judges cached results itself when its settings change (e.g. the timeouts)
    (work / "setup.cfg").write_text(cfg)
    # The book's conftest builds the site and needs tools/; these unit tests need none of
    # it. Hypothesis' 200 ms deadline would fail a test on a busy machine under mutmut's
    # tracing: no deadline here (performance is measured in make bench, not by tests).
    # The book's fixtures (book_build, server) build and serve the site: a test file mixing
    # unit tests with a browser test (test_quiz.py) skips the browser test here.
    (work / "tests" / "conftest.py").write_text(
        "import pytest\n"
        "from hypothesis import settings\n\n"
        "settings.register_profile('mutation', deadline=None)\n"
        "settings.load_profile('mutation')\n\n\n"
        "@pytest.fixture(scope='module')\n"
        "def book_build():\n"
        "    pytest.skip('the book is not built under mutation testing')\n\n\n"
        "@pytest.fixture(scope='module')\n"
        "def server(book_build):\n"
        "    pytest.skip('the site is not served under mutation testing')\n")
    # ... and a test file's own browser fixtures import tests/browser_support.py: a stand-in
    # whose every helper skips
    (work / "tests" / "browser_support.py").write_text(
        '"""Stand-in under mutation testing: browser tests skip."""\n'
        "import pytest\n\n\n"
        "def __getattr__(name):\n"
        "    def skip(*args, **kwargs):\n"
        "        pytest.skip('browser tests are not run under mutation testing')\n"
        "    return skip\n")
    for a in AUX:  # mutmut copies also_copy files into mutants/ but makes no directory
        (work / "mutants" / a).parent.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(src)
    return work


def refresh_interlib(work: Path, mutated) -> None:
    """Copy the working tree's ``interlib/`` over the scratch copy in ``work`` and over
    mutmut's copy of it (``work/mutants/interlib``), except the ``mutated`` modules (mutmut's
    copies of those are its mutants), and drop the files the working tree no longer has.

    A re-run that reuses a scratch directory (``--survivors``) needs it: mutmut copies a
    non-Python file into ``mutants/`` only when it is missing there, so without this the
    tests ran against the data (``interlib/data/crossval.json``, the measurements) and the
    unmutated modules of the earlier run, and a test pinning a value computed from today's
    data failed in mutmut's clean run."""
    skip = {f"{m}.py" for m in mutated}
    here = {f.relative_to(REPO / "interlib").as_posix(): f
            for f in (REPO / "interlib").rglob("*")
            if f.is_file() and "__pycache__" not in f.parts}
    for root in (work / "interlib", work / "mutants" / "interlib"):
        for f in sorted(root.rglob("*")) if root.is_dir() else ():
            rel = f.relative_to(root).as_posix()
            if f.is_file() and "__pycache__" not in f.parts and rel not in here \
                    and rel not in skip and not rel.endswith((".meta", ".spans")):
                f.unlink()  # gone from the working tree (.meta, .spans: mutmut's results)
        for rel, f in here.items():
            if rel not in skip:
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, root / rel)


def refresh_tests(module: str) -> list[str]:
    """``--survivors``: copy the module's current test files over the scratch copies (and
    mutmut's), and the rest of interlib/ (its data above all, :func:`refresh_interlib`),
    keeping its results, and return the mutants that survived or had no tests: only they
    can change verdict when tests are only added (the module itself must be unchanged; the
    kills kept were judged against the earlier run's copy of the rest of interlib/)."""
    work = WORK / _slug(module)
    meta = work / "mutants" / "interlib" / f"{module}.py.meta"
    if not meta.exists():
        raise SystemExit(f"{module}: no earlier run in {work}; run without --survivors")
    here = REPO / "interlib" / f"{module}.py"
    if here.read_bytes() != (work / "interlib" / f"{module}.py").read_bytes():
        raise SystemExit(f"{module}: interlib/{module}.py changed; run without --survivors")
    tests = [t for t in _tests_for(module) if (REPO / "tests" / t).exists()]
    for t in tests:
        for dest in (work / "tests" / t, work / "mutants" / "tests" / t):
            shutil.copy2(REPO / "tests" / t, dest)
    for a in TEST_AUX.get(module, []):  # the fixtures the tests read, new ones included
        if (REPO / "tests" / a).is_dir():
            for dest in (work / "tests" / a, work / "mutants" / "tests" / a):
                shutil.copytree(REPO / "tests" / a, dest, dirs_exist_ok=True)
    # a test file added since the run is selected too (mutmut finds its new tests and
    # collects which functions they call before re-running the survivors); a directory
    # shared by modules measured together keeps all of them
    shared = [m for m in TESTS if (WORK / _slug(m)).exists()
              and (WORK / _slug(m)).resolve() == work.resolve()]
    refresh_interlib(work, shared or [module])
    (work / "setup.cfg").write_text(_cfg(shared or module, tests))
    # mutmut 3.8 resets every verdict when the test selection changed since its last run
    # (its config fingerprint, kept with its stats): without its stats it collects them
    # afresh and keeps the verdicts, and only the survivors named below are re-run
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    (work / ".fingerprint").unlink(missing_ok=True)   # the next full run starts afresh
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    return [k for k, c in codes.items() if STATUS.get(c) in ("survived", "no tests")]


def run(module: str, ref: str | None, jobs: int, survivors: bool = False,
        incremental: bool = False, together: tuple = ()) -> Path:
    if survivors:
        # every module sharing this directory (measured --together): their survivors in
        # one mutmut run
        work = WORK / _slug(module)
        names = [n for m in (together or (module,)) for n in refresh_tests(m)]
        if not names:
            return work
    else:
        names = []
        work = prepare(module, ref, incremental, together)
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    env["MPLBACKEND"] = "Agg"
    log = work / "mutmut.log"
    with open(log, "w") as out:
        proc = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children",
                               str(jobs), *names], cwd=work, env=env, stdout=out,
                              stderr=subprocess.STDOUT)
    if proc.returncode not in (0, None):
        print(f"{module}: mutmut exited {proc.returncode}; see {log}", file=sys.stderr)
    for m in (() if survivors else together):  # each module's directory: the shared run
        own = WORK / _slug(m)
        if own.is_symlink():
            own.unlink()
        elif own.exists():
            shutil.rmtree(own)
        own.symlink_to(work.name)
    return work


def equivalents(raw: bool = False) -> dict[str, dict]:
    """``{module: {mutant name: reason}}`` from tests/mutation_equivalents.toml.

    An entry is either a one-line reason (equivalent by the code alone) or, for a mutant that
    is equivalent only because of the catalogue's or the fitted constants' present values,
    ``{reason = "...", by_data = "<Python expression>"}``: the expression states the data
    fact the equivalence rests on, and tests/test_mutation_equivalents.py evaluates every one
    in ``make test``, so a data change that makes the mutant detectable fails there (then
    re-run the module's mutation and remove the entry or kill the mutant). ``raw=True``
    returns the entries as stored (strings or tables)."""
    if not EQUIVALENTS.exists():
        return {}
    data = tomllib.loads(EQUIVALENTS.read_text())
    out = {}
    for module, table in data.items():
        out[module] = {}
        for name, entry in table.items():
            if isinstance(entry, dict):
                extra = set(entry) - {"reason", "by_data"}
                if extra or not isinstance(entry.get("by_data"), str) \
                        or not entry["by_data"].strip():
                    raise ValueError(f"{EQUIVALENTS.name}: {module}.{name}: a table entry is "
                                     "{reason = '...', by_data = '<expression>'}")
                reason = entry.get("reason")
            else:
                reason = entry
            if not isinstance(reason, str) or not reason.strip():
                raise ValueError(f"{EQUIVALENTS.name}: {module}.{name} needs a one-line reason")
            out[module][name] = entry if raw else reason
    return out


def provenance(module: str, work: Path) -> dict:
    """When the results in ``work`` were taken and on which code: ``measured`` (the time
    mutmut last wrote its results, UTC), ``code_sha256`` (of the copy of the module it
    mutated, 12 hex digits) and ``current_code`` (that copy is byte-identical to the working
    tree's module now: False means the module changed since, a re-run is due)."""
    out: dict = {}
    meta = work / "mutants" / "interlib" / f"{module}.py.meta"
    if meta.exists():
        out["measured"] = datetime.datetime.fromtimestamp(
            meta.stat().st_mtime, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    copy, here = work / "interlib" / f"{module}.py", REPO / "interlib" / f"{module}.py"
    if copy.exists():
        out["code_sha256"] = hashlib.sha256(copy.read_bytes()).hexdigest()[:12]
        out["current_code"] = here.exists() and here.read_bytes() == copy.read_bytes()
    return out


def _run_facts(jobs: int) -> dict:
    """How a run was made: the commit checked out (with "+ changes" when the working tree
    differs from it), mutmut's workers and this process's nice level."""
    def git(*a):
        return subprocess.run(["git", "-C", str(REPO), *a], capture_output=True,
                              text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD")
    dirty = bool(git("status", "--porcelain", "--", "interlib", "tests"))
    return {"commit": head + (" + uncommitted changes" if dirty else ""), "jobs": jobs,
            "nice": os.nice(0)}


def _carry(new: dict, old: dict | None, ran: dict | None) -> dict:
    """Keep what the JSON knew of an earlier measure: the run facts when these results are
    the same run (``--report-only``), and ``before``: the score before this run (the first
    one on the same code when several runs followed each other)."""
    if old is None:
        if ran:
            new["run"] = ran
        return new
    if "measured" in old:
        same_results = old["measured"] == new.get("measured") and \
            old.get("code_sha256") == new.get("code_sha256")
    else:   # written before the JSON recorded when: the same counts are the same results
        same_results = all(old.get(k) == new.get(k) for k in ("mutants", "killed", "survived"))
    if ran:
        new["run"] = ran
    elif same_results and "run" in old:
        new["run"] = old["run"]
    if same_results:
        if "before" in old:
            new["before"] = old["before"]
    elif old.get("score") is not None:
        if "before" in old and old.get("code_sha256") == new.get("code_sha256"):
            new["before"] = old["before"]
        else:
            new["before"] = {"score": old["score"], "measured": old.get("measured"),
                             "killed": old["killed"], "survived": old["survived"],
                             "same_code": None if "code_sha256" not in old else
                             old["code_sha256"] == new.get("code_sha256")}
    return new


def score(module: str, work: Path, equiv: dict[str, str]) -> dict:
    meta = work / "mutants" / "interlib" / f"{module}.py.meta"
    codes = json.loads(meta.read_text())["exit_code_by_key"] if meta.exists() else {}
    counts = {"killed": 0, "survived": 0, "timeout": 0, "no tests": 0, "equivalent": 0,
              "not checked": 0, "other": 0}
    survivors, stale = [], sorted(set(equiv) - set(codes))
    for name, code in sorted(codes.items()):
        status = STATUS.get(code, "other")
        if name in equiv and status != "killed":
            counts["equivalent"] += 1
        elif status in counts:
            counts[status] += 1
        else:
            counts["other"] += 1
        if status in ("survived", "no tests") and name not in equiv:
            survivors.append(name)
    total = len(codes)
    if module in UNMEASURABLE:
        # mutmut generated the mutants but could run none: its trampolines switch a mutant
        # at call time, and a module whose functions run only at import (as the constants
        # of specs/calibration) makes mutmut's forced-fail check refuse to start
        return {"module": module, "tests": _tests_for(module), "mutants": total, **counts,
                "score": None, "survivors": [], "equivalents_not_found": stale,
                **provenance(module, work),
                "note": "not measurable with mutmut 3: no test can reach a mutant (the "
                        "module's values are module-level data, its functions run only "
                        "at import, before mutmut forks; see this file's docstring)"}
    # a run stopped before the end leaves mutants "not checked": the score is then over
    # the checked ones, and the table says the module was measured in part
    judged = total - counts["equivalent"] - counts["not checked"]
    detected = counts["killed"] + counts["timeout"]
    return {"module": module, "tests": _tests_for(module), "mutants": total, **counts,
            "partial": counts["not checked"] > 0,
            "score": round(detected / judged, 4) if judged > 0 else None,
            "survivors": survivors, "equivalents_not_found": stale,
            **provenance(module, work)}


def _when(r: dict) -> str:
    """The table's "when and how measured" cell."""
    if r.get("note"):
        return "mutmut 3 cannot mutate module-level data (see above)"
    if not r["mutants"] or r["score"] is None:
        return "not measured"
    run = r.get("run")
    kind = {"survivors": ", the earlier survivors re-run with the current tests",
            "full-together": ", in one run with the modules that share its tests",
            "incremental-together": ", incremental, in one run with the modules that "
                                    "share its tests",
            "incremental": ", incremental (the functions changed since the last run and its "
                           "survivors re-run; kills of unchanged functions kept)",
            }.get(run.get("kind"), "") if run else ""
    how = (f", at {run['commit']}, {run['jobs']} worker{'s' if run['jobs'] != 1 else ''}, "
           f"nice {run['nice']}{kind}") if run else ""
    out = f"{r.get('measured', 'date unknown')}{how}"
    if r.get("not checked"):
        out = (f"PARTIAL: {r['mutants'] - r['not checked']:,} of {r['mutants']:,} mutants "
               "checked (the run was stopped), the score is over those, an upper estimate "
               "(mutmut runs the quickest first; survivors are the slowest); " + out)
    out += ("; current code" if r.get("current_code") else
            f"; interlib/{r['module']}.py has changed since: re-run due")
    b = r.get("before")
    if b:
        out += (f"; before: {100 * b['score']:.1f} % ({b['killed']:,} killed, "
                f"{b['survived']:,} survived, {b.get('measured') or 'date unknown'}"
                f"{', earlier code' if b.get('same_code') is False else ''})")
    return out


def table(results: list[dict], ref: str | None) -> str:
    head = ("| module | mutants | killed | equivalent | survived | score | "
            "when and how measured |\n|---|---:|---:|---:|---:|---:|---|")
    rows = []
    for r in results:
        if r.get("note") or not r["mutants"] or r["score"] is None:
            rows.append(f"| `{r['module']}` | – | – | – | – | n/a | {_when(r)} |")
            continue
        s = f"{100 * r['score']:.1f} %" + (" of those checked" if r.get("not checked")
                                            else "")
        mark = "" if r["score"] >= TARGET else f" (below {100 * TARGET:.0f} %)"
        killed = f"{r['killed']:,}" + (f" + {r['timeout']} timeout{'s' if r['timeout'] > 1 else ''}"
                                      if r["timeout"] else "")
        survived = f"{r['survived']:,}" + (f" + {r['no tests']} with no test"
                                           if r["no tests"] else "")
        rows.append(f"| `{r['module']}` | {r['mutants']:,} | {killed} | {r['equivalent']:,} | "
                    f"{survived} | {s}{mark} | {_when(r)} |")
    what = f"git revision {ref}" if ref else "the working tree"
    return "\n".join([BEGIN, f"Mutation score per module ({what}; written by `tools/mutation.py "
                      "--readme` from `_build/mutation.json`; mutmut "
                      f"{_mutmut_version()} on the shared two-core machine; score = (killed + "
                      "timeout) / (mutants - equivalent), target "
                      f"{100 * TARGET:.0f} %; \"current code\": the module mutated is "
                      "byte-identical to the working tree's when the table was written):",
                      "", head, *rows, END])


def _function_node(module: str, stem: str):
    """The ``ast`` node of the function or method a mutant stem names in
    ``interlib/<module>.py``: ``x_f`` is function ``f``, ``xǁCǁm`` method ``m`` of ``C``."""
    import ast

    path = REPO / "interlib" / f"{module.replace('.', '/')}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = stem.split("ǁ")
    if len(parts) == 3:
        body = next((n.body for n in tree.body
                     if isinstance(n, ast.ClassDef) and n.name == parts[1]), [])
        name = parts[2]
    else:
        body, name = tree.body, stem.removeprefix("x_")
    return path, next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and n.name == name), None)


def function_digest(module: str, stem: str) -> str | None:
    """sha256 of the source text of the function a mutant stem names (decorators
    included), or None if the module has no such function."""
    import ast

    path, node = _function_node(module, stem)
    if node is None:
        return None
    text = ast.get_source_segment(path.read_text(encoding="utf-8"), node)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def listed_functions() -> dict[str, tuple[str, str]]:
    """``{"<module>.<stem>": (module, stem)}`` for every function the equivalents name."""
    out = {}
    for module, table in equivalents(raw=True).items():
        for name in table:
            stem = name.removeprefix(f"interlib.{module}.").rsplit("__mutmut_", 1)[0]
            out[f"{module}.{stem}"] = (module, stem)
    return out


def lock_equivalents() -> dict[str, str]:
    """Write :data:`EQUIVALENTS_LOCK`: the digest of every function the list names."""
    lock = {key: function_digest(module, stem)
            for key, (module, stem) in sorted(listed_functions().items())}
    EQUIVALENTS_LOCK.write_text(json.dumps(lock, indent=1, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    return lock


def list_mutants(module: str, stem: str) -> list[tuple[int, str, str]]:
    """``[(n, original, mutated), ...]``: the mutants of one function as mutmut 3 numbers
    them (``<stem>__mutmut_<n>``), from its own ``create_mutations`` in a scratch
    directory (mutmut reads its settings from the current directory); nothing is run. A
    mutation belongs to the function mutmut says contains it (a method's own node)."""
    import tempfile

    import libcst as cst

    path, node = _function_node(module, stem)
    if node is None:
        raise SystemExit(f"interlib/{module.replace('.', '/')}.py has no {stem}")
    code = path.read_text(encoding="utf-8")
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            (Path(tmp) / "setup.cfg").write_text("[mutmut]\nsource_paths=.\n")
            (Path(tmp) / "m.py").write_text(code, encoding="utf-8")
            from mutmut.mutation.file_mutation import create_mutations

            tree, mutations, _, _ = create_mutations("m.py", code)
        finally:
            os.chdir(here)
    parts = stem.split("ǁ")
    body = tree.body
    if len(parts) == 3:  # the method's class, then the method in it
        body = next(n.body.body for n in body
                    if isinstance(n, cst.ClassDef) and n.name.value == parts[1])
    target = next(n for n in body if isinstance(n, cst.FunctionDef) and n.name.value == node.name)

    def short(n):
        return " ".join(tree.code_for_node(n).split())[:90]

    mine = [m for m in mutations if m.contained_by_top_level_function is target]
    return [(i, short(m.original_node), short(m.mutated_node)) for i, m in enumerate(mine, 1)]


def _mutmut_version() -> str:
    from importlib.metadata import version

    return version("mutmut")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", nargs="*", default=list(TESTS), choices=list(TESTS))
    ap.add_argument("--jobs", type=int, default=2, help="mutmut's --max-children")
    ap.add_argument("--ref", help="take interlib/ and tests/ from this git revision")
    ap.add_argument("--readme", action="store_true", help="write the table into CONTRIBUTING.md")
    ap.add_argument("--survivors", action="store_true",
                    help="after adding tests only: re-run just the surviving mutants with "
                         "the current test files (and the rest of interlib/ as it is now, "
                         "its data included), keeping every other result")
    ap.add_argument("--incremental", action="store_true",
                    help="after the code or tests changed: keep the kills of the functions "
                         "whose source is unchanged, run the rest (see prepare())")
    ap.add_argument("--together", action="store_true",
                    help="mutate the --modules in one mutmut run (they must share their "
                         "test files): one collection of the tests' calls instead of one "
                         "per module")
    ap.add_argument("--report-only", action="store_true",
                    help="do not run mutmut; report the results already in _build/mutation")
    ap.add_argument("--out", type=Path, default=BUILD / "mutation.json")
    ap.add_argument("--show", metavar="MUTANT", help="print one mutant's diff and exit")
    ap.add_argument("--list", metavar="MODULE.STEM",
                    help="print the mutants of one function as mutmut numbers them (e.g. "
                         "nccltests.shape.x_shape, widgets.live.xǁLiveǁrender) and exit")
    ap.add_argument("--lock", action="store_true",
                    help=f"record the source digest of every function "
                         f"{EQUIVALENTS.name} names in {EQUIVALENTS_LOCK.name} and exit")
    args = ap.parse_args(argv)
    if args.list:
        named = re.match(r"(.+?)\.(xǁ.+ǁ.+|x_.+)$", args.list)
        if named is None:
            ap.error(f"--list {args.list!r}: give MODULE.STEM, e.g. nccltests.shape.x_shape "
                     "or congestion.xǁDCQCNRunǁsettle_time")
        module, stem = named.groups()
        for n, before, after in list_mutants(module, stem):
            print(f"{stem}__mutmut_{n}: {before!r} -> {after!r}")
        return 0
    if args.lock:
        print(f"{len(lock_equivalents())} functions in {EQUIVALENTS_LOCK.name}")
        return 0
    if args.show:
        module = re.split(r"\.x[_ǁ]", args.show)[0].removeprefix("interlib.").replace(".", "/")
        work = WORK / _slug(module)
        return subprocess.run([sys.executable, "-m", "mutmut", "show", args.show],
                              cwd=work).returncode
    equiv = equivalents()
    results = []
    together = ()
    if args.together and not args.report_only:
        if len({tuple(_tests_for(m)) for m in args.modules}) != 1 or args.ref:
            raise SystemExit("--together: modules with the same test files, no --ref")
        together = tuple(args.modules)
        print(f"mutating {', '.join(together)} together", flush=True)
        ran_together = _run_facts(args.jobs)
        work_together = run(together[0], None, args.jobs, args.survivors, args.incremental,
                            together)
        ran_together["kind"] = ("survivors" if args.survivors else
                                ("incremental" if (work_together / ".incremental").exists()
                                 else "full") + "-together")
    old = json.loads(args.out.read_text()) if args.out.exists() else {}
    before = {r["module"]: r for r in old.get("modules", [])}
    for module in args.modules:
        work = WORK / _slug(module) if args.ref is None else WORK / f"{_slug(module)}@{args.ref}"
        ran = None
        if together:
            ran = dict(ran_together)
        elif not args.report_only and module not in UNMEASURABLE:
            print(f"mutating interlib/{module}.py with {', '.join(_tests_for(module))}",
                  flush=True)
            ran = _run_facts(args.jobs)
            work = run(module, args.ref, args.jobs, args.survivors and args.ref is None,
                       args.incremental)
            ran["kind"] = ("survivors" if args.survivors else
                           "incremental" if (work / ".incremental").exists() else "full")
        r = _carry(score(module, work, equiv.get(_slug(module), {})), before.get(module), ran)
        results.append(r)
        shown = "n/a" if r["score"] is None else f"{100 * r['score']:.1f} %"
        print(f"  {module}: {r['mutants']} mutants, score {shown}", flush=True)
    BUILD.mkdir(exist_ok=True)
    old = json.loads(args.out.read_text()) if args.out.exists() else {}
    merged = {r["module"]: r for r in old.get("modules", [])} | {r["module"]: r for r in results}
    out = {"ref": args.ref, "target": TARGET, "mutmut": _mutmut_version(),
           "modules": [merged[m] for m in TESTS if m in merged]}
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    section = table(out["modules"], args.ref)
    print(section)
    if args.readme:
        sys.path.insert(0, str(REPO / "tools"))
        from readme_section import DEVELOPER_GUIDE, splice

        splice(DEVELOPER_GUIDE, section, BEGIN, END)
    return 0 if all(r["score"] is not None and r["score"] >= TARGET
                    for r in out["modules"]) else 1


if __name__ == "__main__":
    sys.exit(main())
