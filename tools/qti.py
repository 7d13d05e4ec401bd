"""The chapters' quizzes and the exam bank as QTI 1.2 zips (`make qti`): import them into
Canvas (Settings > Import course content > QTI .zip file), Moodle (Question bank > Import,
format "Blackboard"/IMS QTI via its QTI importer) or Blackboard (Question pools > Import).

    .venv/bin/python tools/qti.py [--seed N] [--out _build/qti]

Writes _build/qti/quiz-ch01.zip ... quiz-ch08.zip and exam-bank.zip (numeric parts at the
exam variants of SEED; essay feedback is the rubric). tools/course/qti.py, via text2qti.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from course import qti  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="the exam bank's variant seed")
    ap.add_argument("--out", type=Path, default=REPO / "_build" / "qti")
    args = ap.parse_args(argv)
    for p in qti.export(args.out, args.seed):
        print(p.relative_to(REPO) if p.is_relative_to(REPO) else p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
