"""Shared helpers for the book's tests: the table of contents and one book build per run."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

# Hypothesis: `make test` is reproducible. The default profile draws the same examples on
# every run (derandomize: seeded from each test's own code) and keeps no example database,
# so a failure in CI is the failure on your machine. `make test-random` (HYPOTHESIS_PROFILE
# =random) draws fresh examples each run to look for new counterexamples; a test's own
# @settings(max_examples=..., deadline=...) still applies under both.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("derandomized", derandomize=True, database=None)
_hypothesis_settings.register_profile("random", derandomize=False)
_hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derandomized"))

from toc import toc_docnames, toc_notebooks  # noqa: E402,F401  (one walk of _toc.yml)
# --all: a fresh environment, so warnings of unchanged pages are reported again.
BUILD_CMD = ["jupyter-book", "build", ".", "--all", "-W", "-n", "--keep-going"]
HTML = REPO / "_build" / "html"


@dataclass
class BuildResult:
    returncode: int
    output: str
    seconds: float


def _venv_bin(name: str) -> str:
    """The console script next to this interpreter (the project's venv), else from PATH."""
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


@pytest.fixture(scope="session")
def book_build() -> BuildResult:
    """Build the book into _build/html once per pytest run, shared by xdist workers.

    Workers take a file lock; the first one builds and writes a stamp carrying the run's id,
    the others reuse its result.
    """
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    build_dir = REPO / "_build"
    build_dir.mkdir(exist_ok=True)
    stamp = build_dir / ".pytest-book-build.json"
    with open(build_dir / ".pytest-book-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists():
            data = json.loads(stamp.read_text())
            if data.get("run_id") == run_id:
                return BuildResult(data["returncode"], data["output"], data["seconds"])
        env = dict(os.environ)
        env.pop("MPLBACKEND", None)
        cmd = [_venv_bin(BUILD_CMD[0]), *BUILD_CMD[1:]]
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        output = proc.stdout + proc.stderr
        stamp.write_text(json.dumps({"run_id": run_id, "returncode": proc.returncode,
                                     "output": output[-20000:], "seconds": seconds}))
        return BuildResult(proc.returncode, output[-20000:], seconds)


@pytest.fixture(scope="module")
def server(book_build):
    """The built site served on 127.0.0.1 at a free port (tests/browser_support.py); yields
    its base URL. Fails at once if the build failed."""
    import browser_support as bs

    assert book_build.returncode == 0, "book build failed:\n" + book_build.output[-4000:]
    with bs.static_server(HTML) as url:
        yield url
