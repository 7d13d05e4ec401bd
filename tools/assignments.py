"""Graded assignments with otter-grader (`make assignments SEED=n ROSTER=class.csv`; the
developer's environment has otter-grader, the reader's does not need it).

One assignment per problem set, for the term's SEED and class list (tools/course/grading.py):

    assignments/seed-<n>/<set>/student/<set>.ipynb        the notebook to hand out: it asks
                                                          for the student's id and shows
                                                          that student's own variant
    assignments/seed-<n>/<set>/autograder/<set>-autograder.zip   for Gradescope, `otter
                                                          grade` or `otter run` (keep it)
    assignments/seed-<n>/<set>/autograder/key.md          every variant's answer, and each
                                                          student's variant (keep it)

Grade one submission without Docker, in an environment with otter-grader and the zip's
interlib wheel installed (`pip install <the zip's .whl>`), with
    otter run -a assignments/seed-<n>/<set>/autograder/<set>-autograder.zip submission.ipynb

    .venv/bin/python tools/assignments.py --seed N [--roster class.csv] [--sets A B C D]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from course import grading  # noqa: E402

OUT = REPO / "assignments"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True,
                    help="the term's seed (any whole number from 1; keep it to yourself)")
    ap.add_argument("--roster", type=Path, default=None,
                    help="the class list: one student id per line, or a CSV with an id column")
    ap.add_argument("--sets", nargs="*", default=list(grading.NAMES))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if args.seed < 1:
        ap.error(f"--seed {args.seed}: choose the term's seed, a whole number from 1 "
                 "(seed 0 is the book's own numbers, published with their answers)")
    bad = [s for s in args.sets if s not in grading.NAMES]
    if bad:
        ap.error(f"--sets {' '.join(bad)}: the sets are {' '.join(grading.NAMES)}")
    if args.roster is not None and not args.roster.is_file():
        ap.error(f"--roster {args.roster}: no such file")
    roster = grading.read_roster(args.roster)
    if not roster:
        print("no class list (ROSTER=...): every id still gets a variant, but two students "
              "may share one; give the list to make the variants pairwise different",
              file=sys.stderr)
    for s in args.sets:
        d = grading.build(s, args.seed, roster, args.out)
        rel = d.relative_to(REPO) if d.is_relative_to(REPO) else d
        print(f"set {s}: {rel}/student (hand out) and {rel}/autograder (keep)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
