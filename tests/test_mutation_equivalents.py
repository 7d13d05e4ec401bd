"""The mutation set-up (tools/mutation.py, tests/mutation_equivalents.toml) checked in
`make test`, where the mutation run itself is not.

* Every equivalent mutant that holds only because of today's data carries the data fact as a
  ``by_data`` expression; each is evaluated here, so a data change that could make such a
  mutant detectable fails a test (re-run that module's mutation, then kill the mutant or
  drop the entry).
* Every entry names a function or method the module still has.
* ``make mutation`` covers every module of the models layer (pyproject's import-linter
  layers contract) that defines a function, plus the reader-facing logic
  (interlib/book/answers.py, interlib/widgets/live.py), each with test files that exist.
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
from pathlib import Path

import pytest

import interlib
from interlib import hierarchy, specs, units
from interlib.specs import calibration, custom, inside_box

import mutation

REPO = Path(__file__).resolve().parent.parent
RAW = mutation.equivalents(raw=True)
BY_DATA = [(module, name, entry) for module, table in RAW.items()
           for name, entry in table.items() if isinstance(entry, dict)]
NAMESPACE = {"specs": specs, "hierarchy": hierarchy, "C": calibration, "custom": custom, "inside_box": inside_box, "units": units,
             "Path": Path,
             "crossval_json": json.loads((Path(interlib.__file__).parent / "data" /
                                          "crossval.json").read_text(encoding="utf-8"))}


@pytest.mark.parametrize("module,name,entry", BY_DATA, ids=[n for _, n, _ in BY_DATA])
def test_by_data_equivalent_still_holds(module, name, entry):
    held = eval(entry["by_data"], {"__builtins__": __builtins__, **NAMESPACE})  # noqa: S307
    assert held is True, (
        f"{name} was marked equivalent because {entry['by_data']!r}, which is no longer "
        f"true: the data changed, so the mutant may now change a result. Re-run `make "
        f"mutation MUTATION_ARGS=\"--modules {module.replace('.', '/')}\"`, then kill it "
        f"with a test or drop its entry ({entry['reason']})")


def test_some_equivalents_are_marked_by_data():
    # the ones known to rest on data (a catalogue figure, NCCL's tables, the fitted chunks)
    assert len(BY_DATA) >= 20
    names = {n for _, n, _ in BY_DATA}
    assert "interlib.nvswitch.x_switch_links__mutmut_1" in names        # 18 links, NVLink 4 and 5
    assert "interlib.collective_model.fabrics.x_fabric_kind__mutmut_14" in names  # the kinds


def _functions(path: Path) -> set[str]:
    """Mutant-name stems mutmut gives a module's functions: ``x_f`` and ``xǁCǁm``."""
    out = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.add(f"x_{node.name}")
        elif isinstance(node, ast.ClassDef):
            out |= {f"xǁ{node.name}ǁ{f.name}" for f in node.body
                    if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return out


def test_every_equivalent_names_a_function_the_module_has():
    for module, table in RAW.items():
        rel = module.replace(".", "/")
        assert rel in mutation.TESTS, f"[{module}] is not a module tools/mutation.py runs"
        funcs = _functions(REPO / "interlib" / f"{rel}.py")
        for name in table:
            m = re.fullmatch(rf"interlib\.{re.escape(module)}\.(x.+?)__mutmut_\d+", name)
            assert m, f"{name}: not a mutant name of interlib.{module}"
            assert m.group(1) in funcs, f"{name}: interlib/{rel}.py has no {m.group(1)}"


def _models_layer() -> list[str]:
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    layers = next(c for c in cfg["tool"]["importlinter"]["contracts"] if c["id"] == "layers")
    models = next(layer for layer in layers["layers"] if "interlib.collectives" in layer)
    return [m.strip() for m in re.split(r"[:\s]+", models) if m.strip()]


def _has_function(path: Path) -> bool:
    return bool(_functions(path))


def test_mutation_covers_every_model_module_and_the_reader_facing_logic():
    wanted = []
    for dotted in _models_layer():
        rel = dotted.removeprefix("interlib.").replace(".", "/")
        base = REPO / "interlib" / rel
        files = sorted(base.glob("*.py")) if base.is_dir() else [base.with_suffix(".py")]
        wanted += [str(f.relative_to(REPO / "interlib").with_suffix(""))
                   for f in files if _has_function(f)]
    wanted += ["book/answers", "widgets/live"]
    assert len(wanted) > 30
    missing = [m for m in wanted if m not in mutation.TESTS]
    assert not missing, f"modules `make mutation` does not run: {missing} (tools/mutation.py TESTS)"
    for module, tests in mutation.TESTS.items():
        assert tests, module
        absent = [t for t in tests if not (REPO / "tests" / t).is_file()]
        assert not absent, f"{module}: test files that do not exist: {absent}"
        for aux in mutation.TEST_AUX.get(module, []):
            assert (REPO / "tests" / aux).exists(), f"{module}: {aux}"


def test_mutation_target_is_ninety_percent():
    assert mutation.TARGET == 0.90


def _row(**over):
    r = {"module": "nvlink", "mutants": 341, "killed": 330, "timeout": 2, "survived": 3,
         "no tests": 1, "equivalent": 5, "score": 0.9881, "measured": "2026-11-29 13:00 UTC",
         "current_code": True, "run": {"commit": "7a4e4bc", "jobs": 1, "nice": 19}}
    return r | over


def test_the_table_says_when_and_on_which_code_each_score_was_measured():
    """The README's mutation table is written from the JSON: a module measured on code that
    has changed since says "re-run due", one never run says "not measured", and the score
    before a run is kept beside it."""
    line = next(r for r in mutation.table([_row()], None).splitlines() if "`nvlink`" in r)
    assert line == ("| `nvlink` | 341 | 330 + 2 timeouts | 5 | 3 + 1 with no test | 98.8 % | "
                    "2026-11-29 13:00 UTC, at 7a4e4bc, 1 worker, nice 19; current code |")
    stale = mutation.table([_row(current_code=False, score=0.8)], None)
    assert "interlib/nvlink.py has changed since: re-run due" in stale
    assert "80.0 % (below 90 %)" in stale
    assert "| `x` | – | – | – | – | n/a | not measured |" in mutation.table(
        [_row(module="x", mutants=0, score=None)], None)
    was = _row(before={"score": 0.544, "killed": 112, "survived": 94, "same_code": True,
                       "measured": "2026-11-29 10:44 UTC"})
    assert "; before: 54.4 % (112 killed, 94 survived, 2026-11-29 10:44 UTC)" in \
        mutation.table([was], None)


def test_a_run_keeps_the_score_before_it():
    new = _row(measured="2026-11-29 14:00 UTC", code_sha256="abc", score=1.0)
    old = _row(code_sha256="abc", score=0.5, killed=10, survived=10)
    kept = mutation._carry(dict(new), old, {"commit": "c", "jobs": 1, "nice": 10})
    assert kept["before"] == {"score": 0.5, "measured": "2026-11-29 13:00 UTC", "killed": 10,
                              "survived": 10, "same_code": True}
    # a second run on the same code keeps the first "before"; report-only keeps the run facts
    fresh = {k: v for k, v in _row(measured="2026-11-29 15:00 UTC", code_sha256="abc").items()
             if k != "run"}
    again = mutation._carry(dict(fresh), kept, None)
    assert again["before"]["score"] == 0.5 and "run" not in again
    same = mutation._carry({k: v for k, v in kept.items() if k not in ("run", "before")},
                           kept, None)
    assert same["run"] == {"commit": "c", "jobs": 1, "nice": 10}
    assert same["before"] == kept["before"]


def test_a_stopped_run_is_reported_as_partial():
    part = mutation.table([_row(**{"not checked": 100, "score": 0.95})], None)
    assert "| 95.0 % of those checked |" in part
    assert "PARTIAL: 241 of 341 mutants checked (the run was stopped)" in part
    assert "| n/a | not measured |" in mutation.table(
        [_row(**{"not checked": 341, "score": None})], None)


def test_a_survivors_rerun_refreshes_the_data_and_fixtures_of_its_scratch_copy(
        tmp_path, monkeypatch):
    """``--survivors`` reuses the scratch directory of an earlier run: besides the test files
    it must bring today's interlib/ (its data above all) into both copies there (the
    scratch's and mutmut's), keep mutmut's mutated module and its results, and drop a file
    the working tree no longer has. Before this, a data change since the run left the
    tests reading the old data, and the re-run failed in mutmut's clean run."""
    repo, work = tmp_path / "repo", tmp_path / "mutation" / "cost"
    module_code = "def cost():\n    return 1\n"
    for root, data, fixture in ((repo, "new", "new log"), (work, "old", "old log"),
                                (work / "mutants", "old", "old log")):
        (root / "interlib" / "data").mkdir(parents=True)
        (root / "interlib" / "data" / "crossval.json").write_text(data)
        (root / "interlib" / "helper.py").write_text(f"X = {data!r}\n")
        (root / "tests" / "fixtures").mkdir(parents=True)
        (root / "tests" / "fixtures" / "a.log").write_text(fixture)
        (root / "tests" / "test_cost.py").write_text(f"# {data}\n")
    for root in (repo, work):
        (root / "interlib" / "cost.py").write_text(module_code)
    (work / "interlib" / "data" / "gone.csv").write_text("removed since")
    (work / "mutants" / "interlib" / "data" / "gone.csv").write_text("removed since")
    mutant = work / "mutants" / "interlib" / "cost.py"
    mutant.write_text("# mutmut's trampolines\n")
    (work / "mutants" / "interlib" / "cost.py.meta").write_text(
        '{"exit_code_by_key": {"interlib.cost.x_cost__mutmut_1": 0, '
        '"interlib.cost.x_cost__mutmut_2": 1}}')
    monkeypatch.setattr(mutation, "REPO", repo)
    monkeypatch.setattr(mutation, "WORK", tmp_path / "mutation")
    monkeypatch.setitem(mutation.TEST_AUX, "cost", ["fixtures"])
    (repo / "tests" / "fixtures" / "b.log").write_text("a fixture added since")

    assert mutation.refresh_tests("cost") == ["interlib.cost.x_cost__mutmut_1"]
    for root in (work, work / "mutants"):
        assert (root / "interlib" / "data" / "crossval.json").read_text() == "new"
        assert (root / "interlib" / "helper.py").read_text() == "X = 'new'\n"
        assert not (root / "interlib" / "data" / "gone.csv").exists()
        assert (root / "tests" / "test_cost.py").read_text() == "# new\n"
        assert (root / "tests" / "fixtures" / "a.log").read_text() == "new log"
        assert (root / "tests" / "fixtures" / "b.log").exists()
    assert mutant.read_text() == "# mutmut's trampolines\n"
    assert (work / "mutants" / "interlib" / "cost.py.meta").exists()


def test_every_listed_function_is_as_its_mutants_were_numbered():
    """An equivalent is named by its number within its function, and an edit to that
    function renumbers its mutants (a stale entry then marks another mutant equivalent:
    at 5da2950 nine entries of fabric_kind and tree named mutants their functions no longer
    had, or others than their reasons describe). tests/mutation_equivalents.lock.json holds
    a digest of each listed function's source as its entries were numbered."""
    lock = json.loads(mutation.EQUIVALENTS_LOCK.read_text(encoding="utf-8"))
    listed = mutation.listed_functions()
    assert set(lock) == set(listed), (
        "functions listed in mutation_equivalents.toml and locked differ: run "
        "`python tools/mutation.py --lock` after checking the new entries' numbers")
    changed = [key for key, (module, stem) in listed.items()
               if mutation.function_digest(module, stem) != lock[key]]
    assert not changed, (
        f"changed since their equivalent mutants were numbered: {changed}. For each, "
        "`python tools/mutation.py --list <module>.<function stem>` prints its mutants as "
        "mutmut numbers them now: renumber (or drop) its entries in "
        "mutation_equivalents.toml so each names the mutation its reason describes, then "
        "`python tools/mutation.py --lock`")


def test_list_numbers_mutants_as_mutmut_does(tmp_path, monkeypatch):
    """--list numbers a function's mutants from 1 in the order mutmut 3 makes them: the
    list's entry for _refuse, named by a mutmut run as its 24th before four mutants were
    added ahead of it (2ecefc1), is the '' -> 'XXXX' its reason describes, now 28th."""
    got = mutation.list_mutants("nccltests.comparison", "x__refuse")
    assert got[27][1:] == ('""', '"XXXX"')
    assert [n for n, _, _ in got] == list(range(1, len(got) + 1))
