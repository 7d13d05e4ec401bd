"""``make bench`` never hangs without a word (issue 34, item 7): every phase runs with a time
limit (tools/bench.py ``run_phase``); one that passes it is stopped, with whatever it
started, and the run goes on, saying which measurement it could not take and why (with the
last thing the phase reported); one that fails says so too. No browser, no site: tiny
stand-in phases."""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import bench  # noqa: E402


def _slow(seconds):
    bench.say("  stand-in: started, about to wait")
    time.sleep(seconds)
    return {"never": True}


def _with_a_child(pid_file):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                            start_new_session=True)  # as jupyterlab_server starts its server
    Path(pid_file).write_text(str(proc.pid))
    bench.say("  stand-in: child started")
    time.sleep(600)


def _fails():
    raise RuntimeError("the stand-in phase broke")


def test_a_phase_past_its_limit_is_stopped_and_named():
    t0 = time.monotonic()
    got, why = bench.run_phase("sliders", 2, _slow, 60)
    took = time.monotonic() - t0
    assert got is None and took < 40, took
    assert why.startswith("not measured: JupyterLab slider latency did not finish within its "
                          "time limit of 2 s"), why
    assert "stand-in: started, about to wait" in why  # the last thing it reported


def test_what_a_stopped_phase_started_is_stopped_too(tmp_path):
    pid_file = tmp_path / "pid"
    got, why = bench.run_phase("lite", 3, _with_a_child, str(pid_file))
    assert got is None and "time limit of 3 s" in why and "child started" in why
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 20
    while psutil.pid_exists(pid) and time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.Error:
            break
        time.sleep(0.2)
    alive = psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    assert not alive, "the phase's child process was left running"


def test_a_failing_phase_says_why_and_a_good_one_returns_its_result():
    got, why = bench.run_phase("check", 60, _fails)
    assert got is None
    assert why == ("not measured: check your cluster (CPython) failed after "
                   f"{why.split('after ')[1].split(' s')[0]} s: RuntimeError: the stand-in "
                   "phase broke"), why
    got, why = bench.run_phase("sweep", 60, _slow, 0)
    assert why is None and got == {"never": True}


def test_every_phase_main_runs_has_a_limit_and_a_title():
    """Every ``phase("key", ...)`` call in tools/bench.py's main and live_only names a key
    of PHASE_LIMITS_S (the limits) and PHASE_TITLES (what the table calls it)."""
    tree = ast.parse((REPO / "tools" / "bench.py").read_text())
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("phase",
                                                                            "run_phase"):
            if node.args and isinstance(node.args[0], ast.Constant):
                keys.add(node.args[0].value)
        if isinstance(node, ast.Tuple) and node.elts and isinstance(node.elts[0], ast.Constant) \
                and node.elts[0].value in ("live", "levers", "lite") and len(node.elts) == 3:
            keys.add(node.elts[0].value)
    assert keys, "no phase found"
    assert keys <= set(bench.PHASE_LIMITS_S) and keys <= set(bench.PHASE_TITLES), keys
    assert {"sweep", "check", "book", "nbval", "sliders", "live", "levers", "lite"} <= keys


@pytest.mark.parametrize("r, want", [
    ({"not_measured": {"sliders": "not measured: JupyterLab slider latency did not finish"}},
     "| JupyterLab slider latency | not measured: JupyterLab slider latency did not finish | |"),
])
def test_the_table_names_what_was_not_measured(r, want):
    assert want in bench.table(r).splitlines()


def test_every_call_of_say_matches_its_signature():
    """A call of ``say`` with an argument it does not take kills the phase it runs in, at the
    line it reaches (twice the live phase died at a per-page line after minutes of work): each
    call in tools/bench.py binds to say's own signature."""
    import inspect

    sig = inspect.signature(bench.say)
    tree = ast.parse((REPO / "tools" / "bench.py").read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "say"]
    assert len(calls) > 10
    bad = []
    for call in calls:
        try:
            sig.bind(*[None] * len(call.args), **{k.arg: None for k in call.keywords if k.arg})
        except TypeError as e:
            bad.append(f"line {call.lineno}: {e}")
    assert not bad, bad
