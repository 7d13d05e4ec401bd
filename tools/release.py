"""The versioned artefacts of one edition, in ``_build/release/`` (``make release``).

    python tools/release.py [--site _build/html] [--pdf-dir _build/pdf] [--out _build/release]
                            [--allow-modified]

``make release`` builds the site and the PDFs first, then runs this. It writes, each name
carrying the edition's version (``tools/edition.py``; the one place it is held is
``[project] version`` in pyproject.toml):

* ``interconnects-<version>-site.zip``: the built website (with its JupyterLite edition),
  under one folder; serve it with any static web server;
* ``interconnects-<version>.pdf``: the whole book; and
  ``interconnects-<version>-chapters-pdf.zip``: one PDF per chapter (if ``make pdf`` wrote
  them);
* ``interconnects-<version>-notebooks.zip``: every notebook of ``_toc.yml`` with its stored
  outputs, and what runs them: ``interlib/``, ``pyproject.toml``, ``requirements.txt``,
  ``runtime.txt``, the licences, the notice, ``CITATION.cff``, ``CHANGELOG.md``, ``README.md``;
* ``SHA256SUMS`` of the above and ``EDITION.txt`` (version, date, commit).

Archive entries have fixed timestamps and a sorted order, so the same inputs give the same
bytes. It refuses a site whose footer is not this edition (a stale build) and, unless
``--allow-modified``, a working tree with uncommitted changes (the pages would say
``+modified``). README: "Cutting an edition".
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
from edition import Edition, current  # noqa: E402
from toc import toc_docnames  # noqa: E402

NAME = "interconnects"
# What travels with the notebooks so that they run (besides the notebooks themselves).
NOTEBOOK_COMPANIONS = ("pyproject.toml", "requirements.txt", "runtime.txt", "LICENSE",
                       "LICENSE-CC-BY-4.0.txt", "LICENSES.md", "THIRD_PARTY_NOTICES.md",
                       "CITATION.cff", "CHANGELOG.md", "README.md")


def _zip(out: Path, entries: list[tuple[str, Path]]) -> Path:
    """A deterministic zip of (name in the archive, file) pairs."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, path in sorted(entries):
            zi = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, path.read_bytes())
    return out


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and p.suffix != ".pyc")


def notebook_entries(prefix: str, repo: Path = REPO) -> list[tuple[str, Path]]:
    entries = []
    for doc in toc_docnames(repo):
        nb = repo / f"{doc}.ipynb"
        if nb.is_file():
            entries.append((f"{prefix}/{doc}.ipynb", nb))
    for p in _files(repo / "interlib"):
        entries.append((f"{prefix}/{p.relative_to(repo).as_posix()}", p))
    for name in NOTEBOOK_COMPANIONS:
        if (repo / name).is_file():
            entries.append((f"{prefix}/{name}", repo / name))
    return entries


def check_site(site: Path, e: Edition) -> None:
    """The built site is this edition: its front page's footer names the version and commit."""
    index = site / "book" / "intro.html"
    if not index.is_file():
        raise SystemExit(f"release: no built site in {site}; run make book (make release does)")
    text = index.read_text(encoding="utf-8")
    for what in (e.version, e.commit_text):
        if what not in text:
            raise SystemExit(f"release: the site in {site} is not edition {e.text} (its footer "
                             f"lacks {what!r}); rebuild it (make book)")


def release(site: Path, pdf_dir: Path, out: Path, e: Edition,
            allow_modified: bool = False) -> list[Path]:
    if e.commit and e.commit.endswith("+modified") and not allow_modified:
        raise SystemExit("release: the working tree has uncommitted changes; commit them (an "
                         "edition is a commit) or pass --allow-modified for a trial run")
    check_site(site, e)
    v = e.version
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    made = []
    site_prefix = f"{NAME}-{v}-site"
    made.append(_zip(out / f"{site_prefix}.zip",
                     [(f"{site_prefix}/{p.relative_to(site).as_posix()}", p)
                      for p in _files(site)]))
    book_pdf = pdf_dir / f"{NAME}.pdf"
    if not book_pdf.is_file():
        raise SystemExit(f"release: no {book_pdf}; run make pdf (make release does)")
    shutil.copyfile(book_pdf, out / f"{NAME}-{v}.pdf")
    made.append(out / f"{NAME}-{v}.pdf")
    chapters = sorted((pdf_dir / "chapters").glob("*.pdf"))
    if chapters:
        prefix = f"{NAME}-{v}-chapters-pdf"
        made.append(_zip(out / f"{prefix}.zip", [(f"{prefix}/{p.name}", p) for p in chapters]))
    prefix = f"{NAME}-{v}-notebooks"
    made.append(_zip(out / f"{prefix}.zip", notebook_entries(prefix)))
    (out / "EDITION.txt").write_text(
        f"{e.text}\nrepository: {e.repository}\n"
        f"commit URL: {e.commit_url or '(none: not a clean git commit)'}\n")
    made.append(out / "EDITION.txt")
    sums = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}" for p in made]
    (out / "SHA256SUMS").write_text("\n".join(sums) + "\n")
    made.append(out / "SHA256SUMS")
    return made


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=REPO / "_build" / "html")
    parser.add_argument("--pdf-dir", type=Path, default=REPO / "_build" / "pdf")
    parser.add_argument("--out", type=Path, default=REPO / "_build" / "release")
    parser.add_argument("--allow-modified", action="store_true")
    args = parser.parse_args(argv)
    e = current()
    made = release(args.site, args.pdf_dir, args.out, e, args.allow_modified)
    print(f"release: {e.text}")
    for p in made:
        print(f"  {p.relative_to(REPO) if p.is_relative_to(REPO) else p}  "
              f"{p.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
