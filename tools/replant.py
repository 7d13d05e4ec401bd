"""Re-plant issue 38's seven misses, one at a time, and report which unit test fails.

Issue 38 planted bugs one at a time; seven passed every unit test. Each is planted again
here in a temporary copy of the working tree (interlib/, tests/, tools/, chapters/, the
book's notebooks and the book's config; never in the working tree itself), and the test
files that should catch it are run there with pytest (no notebook execution, no browser):

    .venv/bin/python tools/replant.py              # all seven
    .venv/bin/python tools/replant.py --only swap  # one (see --list)

A plant is a text replacement in one file that must match exactly ``count`` times; when the
file has changed so that it no longer does, the plant is reported as "not planted (text not
found)" rather than run, and has to be rewritten for the new code. The exit status is 0 only
if every plant was planted and failed at least one test.

The {eval} swap is planted in the chapter's markdown source; its stored values
(user_expressions) are kept. Re-executing the notebook stores the same value for the same
expression, so what the reader would see after ``make execute`` is exactly the planted
source rendered with the stored values, which is what tests/test_prose_pins.py reads.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COPY = ("interlib", "tests", "tools", "chapters", ".github", "_toc.yml", "_config.yml",
        "pyproject.toml",
        "book/_toc.yml")
BOOK_GLOBS = ("book/*.ipynb", "book/*.md", "book/*.bib", "book/*.yml")


@dataclass(frozen=True)
class Plant:
    key: str
    miss: str            # issue 38's wording of the miss
    path: str
    old: str             # regular expression
    new: str
    tests: tuple[str, ...]
    count: int = 1
    owner: str = "tests"  # who owns the code: "model" plants expect the model branch's tests
    after: str = ""       # Python run in the copy after planting (a re-baseline step)


PLANTS = (
    Plant("hbm", "a GPU's HBM capacity changed (physical stack size for usable size): H200 "
                 "141 GB usable -> 144 GB (6 x 24 GB stacks)",
          "interlib/specs/hardware.py", r'("HBM3e", )141(, 4\.8 \* TB_per_s)', r"\g<1>144\g<2>",
          ("tests/test_catalogue_literals.py", "tests/test_interlib_specs.py")),
    Plant("tuner", "an NCCL tuner constant copied from the wrong row: hwLat NVLink Tree/LL128 "
                   "1.25 us -> Ring/LL128's 1.9 us",
          "interlib/specs/nccl_tuning.py",
          r"(\('hwLat', 'nvlink', 'tree', 'LL128'\): \(\n        _R\('2\.18\.1', )1\.25(, )",
          r"\g<1>1.9\g<2>",
          ("tests/test_nccl_tuning.py", "tests/test_catalogue_literals.py",
           "tests/test_interlib_collectives.py"), owner="model"),
    Plant("algbw", "a figure plotting algbw under a 'bus bandwidth' axis (Chapter 4's ring and "
                   "NVLS curves)",
          "interlib/plots/ch04.py", r"(out\[key\] = np\.array\(r\[key\]\.)busbw(, dtype=float\))",
          r"\g<1>algbw\g<2>", ("tests/test_figure_data.py",)),
    Plant("regime", "the size-regime boundary moved by one size: bandwidth-bound from 512 MiB "
                    "instead of 256 MiB",
          "interlib/intervals.py", r"256 \* MiB", "512 * MiB",
          ("tests/test_crossval.py", "tests/test_validation.py",
           "tests/test_nccltests_messages.py", "tests/test_nccltests.py"),
          count=2, owner="model"),
    Plant("gib", "a fresh problem's key computed in GiB for a question in GB (B4: bytes out of "
                 "each GPU in an NVLS all-reduce)",
          "tools/course/problems_fresh.py",
          r'(numeric=_answer\("bytes out of each GPU", nvls / )GB(, "GB")', r"\g<1>2**30\g<2>",
          ("tests/test_problems.py",)),
    Plant("gib+rebaseline", "the same GiB key, after re-baselining the reader's copy as the "
                            "stale-copy test says (tools/problem_notebooks.py's data)",
          "tools/course/problems_fresh.py",
          r'(numeric=_answer\("bytes out of each GPU", nvls / )GB(, "GB")', r"\g<1>2**30\g<2>",
          ("tests/test_problems.py",),
          after="import sys; sys.path.insert(0, 'tools'); import problem_notebooks; "
                "problem_notebooks.write_data()"),
    Plant("swap", "two {eval} references swapped in a sentence: '20 step latencies, against "
                  "2046' (Chapter 1)",
          "chapters/01_why_connect.ipynb",
          r"\{eval\}`prose\.ring_steps_1024`( step latencies, against )"
          r"\{eval\}`prose\.tree_steps_1024`",
          r"{eval}`prose.tree_steps_1024`\g<1>{eval}`prose.ring_steps_1024`",
          ("tests/test_prose_pins.py",)),
    Plant("leak", "the held-out source leaks into cross-validation: every fold trains on all "
                  "series",
          "interlib/crossval.py",
          r"train = \[s for s in series if not held & set\(s\.idx\.tolist\(\)\)\]",
          "train = list(series)", ("tests/test_crossval.py", "tests/test_validation.py"),
          owner="model"),
)


def _copy_tree(dest: Path) -> None:
    for name in COPY:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", "_build"))
        elif src.exists():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    for pattern in BOOK_GLOBS:
        for f in REPO.glob(pattern):
            (dest / f.relative_to(REPO)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, dest / f.relative_to(REPO))


def plant(p: Plant, root: Path) -> str | None:
    """Apply ``p`` under ``root``; None when done, else why not."""
    f = root / p.path
    if not f.exists():
        return f"{p.path} does not exist"
    text = f.read_text(encoding="utf-8")
    n = len(re.findall(p.old, text))
    if n != p.count:
        return f"text not found ({n} matches of {p.old!r}, expected {p.count})"
    f.write_text(re.sub(p.old, p.new, text), encoding="utf-8")
    return None


def run(p: Plant, jobs_python: str, baseline: bool = False) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"replant-{p.key}-") as tmp:
        root = Path(tmp)
        _copy_tree(root)
        why = None if baseline else plant(p, root)
        if why:
            return {"plant": p, "planted": False, "why": why, "failed": []}
        tests = [t for t in p.tests if (root / t).exists()]
        env = dict(os.environ, PYTHONPATH=str(root), MPLBACKEND="Agg")
        if p.after and not baseline:
            subprocess.run([jobs_python, "-c", p.after], cwd=root, env=env, check=True,
                           capture_output=True)
        proc = subprocess.run(
            [jobs_python, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:nbval",
             "-o", "addopts=", "-q", "-rf", "--no-header", "-n", "0", *tests],
            cwd=root, env=env, capture_output=True, text=True)
        failed = sorted(set(re.findall(r"^FAILED (\S+)", proc.stdout, re.M)))
        summary = (proc.stdout.strip().splitlines() or [""])[-1]
        return {"plant": p, "planted": True, "failed": failed, "summary": summary,
                "tests": tests, "rc": proc.returncode}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", choices=[p.key for p in PLANTS])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--baseline", action="store_true",
                    help="run each plant's tests in the copy without planting: all must pass")
    args = ap.parse_args(argv)
    if args.list:
        for p in PLANTS:
            print(f"{p.key:7} [{p.owner}] {p.miss}")
        return 0
    chosen = [p for p in PLANTS if not args.only or p.key in args.only]
    ok = True
    if args.baseline:
        for p in chosen:
            r = run(p, sys.executable, baseline=True)
            print(f"{p.key}: baseline {'passes' if not r['failed'] else 'FAILS'}: "
                  f"{r['summary']}" + "".join(f"\n    fails {n}" for n in r["failed"]))
            ok &= not r["failed"]
        return 0 if ok else 1
    for p in chosen:
        r = run(p, sys.executable)
        if not r["planted"]:
            print(f"{p.key}: NOT PLANTED ({r['why']}) [{p.owner}] {p.miss}")
            ok = False
            continue
        caught = bool(r["failed"])
        ok &= caught
        print(f"{p.key}: {'CAUGHT' if caught else 'MISSED'} [{p.owner}] {p.miss}\n"
              f"    ran {', '.join(r['tests'])}: {r['summary']}")
        for name in r["failed"][:12]:
            print(f"    fails {name}")
        if len(r["failed"]) > 12:
            print(f"    ... and {len(r['failed']) - 12} more")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
