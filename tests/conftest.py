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


# --- what runs where, and in which order (make test: `-n N --dist loadgroup
# --no-loadscope-reorder`) ------------------------------------------------------------------
# xdist hands a worker a whole group at a time, in collection order. Every test is in the
# group of its file (what `--dist loadfile` did: a notebook's cells stay in order on one
# worker, a module's browser or server is started once), except where a file holds
# independent parts long enough to run side by side (``_split``: test_jupyterlab's chapters
# and book notebooks, each part with its own JupyterLab; nothing is shared between them). Left to itself
# (ordering by number of tests) xdist ran the few-test, many-minute browser files last, one
# worker busy for minutes after the others had finished. So the run starts the book build
# at once (tests/test_book_build.py: the session's build, on one worker, while the others
# take files that need no build), then takes the longest groups first (longest-processing-
# time first: the short ones fill the gaps at the end). GROUP_SECONDS are seconds measured
# in a full run on 2 cores (`--durations=0`, summed per group); only the order depends on
# them, never what runs (test_site_pages: 195 s for its light axe run, plus an estimate
# for dark, which now shares light's page loads; test_assignments: with the files of
# SHARED, less the variants they no longer recompute; test_lite: one JupyterLite session,
# estimated). A group not listed (each under ~5 s) keeps its collection order after them.
# Within a group the order is unchanged.
FIRST_GROUPS = ("tests/test_book_build.py",)
GROUP_SECONDS = {
    "tests/test_demo_updates.py": 251, "tests/test_site_slider_ends.py": 177,
    "tests/test_assignments.py": 200, "tests/test_site_pages.py": 260,
    "tests/test_demos_extremes.py": 157, "tests/test_pdf.py": 154, "tests/test_quiz.py": 154,
    "tests/test_slider_ends.py": 147, "tests/test_reader_text.py": 146,
    "tests/test_jupyterlab.py::chapters": 121, "tests/test_jupyterlab.py::book": 90,
    "tests/test_eval_expressions.py": 119, "tests/test_lite.py": 60,
    "tests/test_crossval.py": 111, "tests/test_site_layout.py": 110,
    "tests/test_site_live_start.py": 102, "tests/test_open_book.py": 83,
    "tests/test_site_offline.py": 80, "tests/test_site_live.py": 75,
    "tests/test_demo_grid.py": 53, "tests/test_live_frame.py": 40,
    "tests/test_diagrams.py": 26, "book/appendix_validation.ipynb": 22,
    "tests/test_nccltests_site.py": 22, "chapters/05_infiniband.ipynb": 20,
    "tests/test_chapter_length.py": 14,
    "chapters/08_impact.ipynb": 13, "tests/test_figure_text_inside.py": 12,
    "tests/test_nccltests.py": 11, "chapters/06_rocev2.ipynb": 11,
    "tests/test_nccltests_messages.py": 10, "tests/test_figure_data.py": 10,
    "chapters/01_why_connect.ipynb": 9,
    "tests/test_validation.py": 8, "chapters/03_nvlink.ipynb": 8, "tests/test_slides.py": 8,
    "chapters/02_pcie.ipynb": 7, "book/check_cluster.ipynb": 7,
    "chapters/04_nvswitch.ipynb": 6, "tests/test_bench_limits.py": 6,
    "chapters/07_hierarchy.ipynb": 6,
}


# Files whose tests compute the same expensive, functools.cache'd values share one group, so
# one worker computes them once: tools/course/problems.variants (every problem's distinct
# variants, searched over 600 seeds: about 40 s for all sets on 2 cores) is needed by the
# assignments (every set), the exam papers and their keys (test_exam; test_editions'
# instructor key, through exam_bank.keys_markdown) and the QTI export of the exam bank (each
# part's variant is picked from it); each file alone computed it again on its own worker.
# Collection order within the group: test_assignments computes, the others reuse.
SHARED = {f"tests/test_{name}.py": "tests/test_assignments.py"
          for name in ("editions", "exam", "qti")}


def _split(path: str, name: str) -> str | None:
    """The part of a SPLIT file a test belongs to (None: the file's own group)."""
    if path == "tests/test_jupyterlab.py" and "[" in name:
        return name.split("[", 1)[1].split("/", 1)[0]   # chapters/*, book/*: one Lab each
    return None


def group_of(nodeid: str) -> str:
    """The xdist group of a test (no '@' or ']' in it: xdist's own separators)."""
    path, _, name = nodeid.partition("::")
    part = _split(path, name)
    return SHARED.get(path, path) if part is None else f"{path}::{part}"


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook turns the marks into node ids
def pytest_collection_modifyitems(config, items):
    def key(item):
        group = group_of(item.nodeid)
        if group in FIRST_GROUPS:
            return (0, FIRST_GROUPS.index(group), group)
        return (1, -GROUP_SECONDS.get(group, 0), first[group])

    first: dict = {}
    for item in items:
        first.setdefault(group_of(item.nodeid), len(first))
        item.add_marker(pytest.mark.xdist_group(group_of(item.nodeid)))
    items[:] = sorted(items, key=key)  # stable: collection order within a group


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
