"""How the suite runs: reproducible property tests in `make test`, random ones in `make
test-random`, and CI installing what its must-run tests need (issue 38 item 7)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

REPO = Path(__file__).resolve().parent.parent


def _draw_twice():
    runs = []
    for _ in range(2):
        seen = []

        @settings(max_examples=8)
        @given(st.integers(min_value=0, max_value=10**9))
        def probe(x):
            seen.append(x)

        probe()
        runs.append(seen)
    return runs


def test_make_test_draws_the_same_hypothesis_examples_every_run():
    if os.environ.get("HYPOTHESIS_PROFILE") == "random":  # make test-random
        assert settings.default.derandomize is False
        return
    assert settings.default.derandomize is True and settings.default.database is None
    first, second = _draw_twice()
    assert first == second and len(first) == 8


def test_make_test_random_runs_the_property_tests_with_fresh_examples():
    make = (REPO / "Makefile").read_text()
    rule = re.search(r"^test-random:.*?(?=^\S|\Z)", make, re.S | re.M)
    assert rule, "Makefile has no test-random target"
    assert "HYPOTHESIS_PROFILE=random" in rule.group(0)
    assert "HYPOTHESIS_TESTS" in rule.group(0)
    assert re.search(r"^HYPOTHESIS_TESTS = .*from hypothesis import", make, re.M)
    # the random profile exists and draws afresh
    assert settings.get_profile("random").derandomize is False
    # every property-test file is picked up by the target's grep
    users = [p.name for p in (REPO / "tests").glob("test_*.py")
             if "@given(" in p.read_text(encoding="utf-8")]
    picked = [p.name for p in (REPO / "tests").glob("test_*.py")
              if re.search(r"^from hypothesis import", p.read_text(encoding="utf-8"), re.M)]
    assert set(users) <= set(picked), set(users) - set(picked)


def test_ci_installs_node_and_requires_the_must_run_tests():
    run = (REPO / ".ci" / "run").read_text()
    install = re.search(r"apt-get install -y ([^\n]+)", run)
    assert install and {"chromium", "poppler-utils", "nodejs"} <= set(install.group(1).split())
    assert "command -v node" in run
    assert "export INTERCONNECTS_REQUIRE_BROWSER=1" in run
    assert run.rstrip().endswith("make test")
