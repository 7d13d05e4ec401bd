"""Is ``THIRD_PARTY_NOTICES.md`` complete? One check, run by the book build
(``book/_ext/open_book.py``: a warning, so ``make book``'s ``-W`` fails) and by
``tests/test_open_book.py``.

* Table 1 ("## 1. Vendored files"): every file under ``book/_vendor/``, ``tests/data/``,
  ``tests/fixtures/`` and ``interlib/data/`` (what the repository ships that others made, and
  the data beside it) matches a glob of a row's first cell (backticked, relative to the repository root), and
  every glob matches a file.
* Table 2 ("## 2. Published measurements"): every document (``url``) of
  ``interlib/data/nccl_measurements.csv`` has a row whose first cell is that url, and every
  row's url is still used. **A new document in the CSV needs one row** there.

    python tools/notices.py   # prints what is missing; exit status 1 if anything is
"""

from __future__ import annotations

import csv
import fnmatch
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOTICE = "THIRD_PARTY_NOTICES.md"
CSV = Path("interlib") / "data" / "nccl_measurements.csv"
VENDORED_ROOTS = ("book/_vendor", "tests/data", "tests/fixtures", "interlib/data")
VENDORED = "1. Vendored files"
MEASUREMENTS = "2. Published measurements"


def section(text: str, heading: str) -> str:
    m = re.search(rf"^## {re.escape(heading)}.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not m:
        raise ValueError(f"{NOTICE} has no section '## {heading}'")
    return m.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the markdown table(s) in ``text``, as lists of stripped cells."""
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|")]
    return rows[2:]  # header and separator


def vendored_rows(notice: str) -> list[tuple[list[str], list[str]]]:
    """(globs of the first cell, the row) for each row of table 1."""
    out = []
    for row in table_rows(section(notice, VENDORED)):
        out.append((re.findall(r"`([^`]+)`", row[0]), row))
    return out


def vendored_files(repo: Path = REPO) -> list[str]:
    return sorted(p.relative_to(repo).as_posix() for root in VENDORED_ROOTS
                  for p in (repo / root).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def vendored_gaps(files: list[str], rows) -> tuple[list[str], list[str]]:
    """(files no row covers, globs that match no file)."""
    globs = [g for gs, _ in rows for g in gs]
    uncovered = [f for f in files if not any(fnmatch.fnmatchcase(f, g) for g in globs)]
    stale = [g for g in globs if not any(fnmatch.fnmatchcase(f, g) for f in files)]
    return uncovered, stale


def measurement_documents(path: Path) -> dict[str, str]:
    """{url: the first source text naming it} for every row of the CSV."""
    docs: dict[str, str] = {}
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            docs.setdefault(row["url"].strip(), row["source"])
    return docs


def measurement_rows(notice: str) -> dict[str, list[str]]:
    return {r[0]: r for r in table_rows(section(notice, MEASUREMENTS))}


def measurement_gaps(docs: dict[str, str], rows: dict) -> tuple[dict[str, str], list[str]]:
    """({url: source} the notice lacks, urls the notice lists that the CSV no longer uses)."""
    return ({u: s for u, s in docs.items() if u not in rows}, sorted(set(rows) - set(docs)))


def problems(repo: Path = REPO) -> list[str]:
    """Everything that makes the notice incomplete or stale, one sentence each."""
    notice = (repo / NOTICE).read_text()
    out = []
    uncovered, stale = vendored_gaps(vendored_files(repo), vendored_rows(notice))
    out += [f"{NOTICE}, table 1: no row covers {f} (add its licence and credit)"
            for f in uncovered]
    out += [f"{NOTICE}, table 1: {g} matches no file" for g in stale]
    missing, unused = measurement_gaps(measurement_documents(repo / CSV),
                                       measurement_rows(notice))
    out += [f"{NOTICE}, table 2: no row for {u} (source: {s}); add one row: url | author | "
            "licence or terms | id prefixes" for u, s in missing.items()]
    out += [f"{NOTICE}, table 2: {u} is no longer used by {CSV.as_posix()}" for u in unused]
    return out


def main() -> int:
    found = problems()
    for p in found:
        print(p)
    print(f"{NOTICE}: {'incomplete' if found else 'complete'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
