"""`make pdf` (tools/build_pdf.py): the whole book as one PDF, printed from the built site.

Builds it from the test run's site build and reads it back with poppler's pdftotext and
pdfinfo (apt: poppler-utils): one contents page then every page of _toc.yml in order; the
contents' page numbers point at the pages that carry those titles; every chapter's title
(from its notebook) is in the text; formulas are typeset (MathJax's text, no raw TeX);
every page carries its number; the figures are in it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from browser_support import require_chromium
from conftest import HTML, REPO, toc_docnames, toc_notebooks

require_chromium()
sys.path.insert(0, str(REPO / "tools"))
import build_pdf  # noqa: E402


@pytest.fixture(scope="module")
def pdf(book_build, tmp_path_factory):
    assert book_build.returncode == 0, book_build.output[-3000:]
    if not shutil.which("pdftotext"):
        pytest.fail("pdftotext not found: apt-get install -y poppler-utils (.ci/run does)",
                    pytrace=False)
    out = tmp_path_factory.mktemp("pdf") / "interconnects.pdf"
    result = build_pdf.build(HTML, out)
    return out, result


def _text(path: Path, first: int | None = None, last: int | None = None) -> str:
    cmd = ["pdftotext", "-enc", "UTF-8"]
    if first:
        cmd += ["-f", str(first), "-l", str(last or first)]
    return subprocess.run(cmd + [str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def _notebook_title(nb: Path) -> str:
    first = json.loads(nb.read_text())["cells"][0]
    source = "".join(first["source"]) if isinstance(first["source"], list) else first["source"]
    return source.lstrip("# ").splitlines()[0].strip()


def test_pdf_has_contents_then_every_page_in_toc_order(pdf):
    path, result = pdf
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True,
                          text=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    assert pages == result["pages"]
    assert re.search(r"^Page size:\s+595\.\d+ x 842\.\d+ pts \(A4\)", info, re.M), info
    docs = toc_docnames()
    starts = [result["starts"][d] for d in docs]
    assert starts[0] == 2 and starts == sorted(starts) and len(set(starts)) == len(starts)
    assert pages > starts[-1] >= len(docs)
    contents = _squash(_text(path, 1))
    assert "Contents" in contents
    for d in docs:
        title, start = result["titles"][d], result["starts"][d]
        # The contents line "title … start", and that page opens with the title.
        assert re.search(re.escape(_squash(title)) + r" (?:\S+ )*?" + str(start) + r"\b",
                         contents), f"contents lacks {title!r} … {start}"
        assert _squash(title) in _squash(_text(path, start)), f"page {start} is not {title!r}"


def test_chapter_titles_formulas_and_page_numbers_are_in_the_text(pdf):
    path, result = pdf
    text = _text(path)
    flat = _squash(text)
    for nb in toc_notebooks():
        title = _squash(_notebook_title(nb))
        assert title in flat, f"{nb.name}: title {title!r} not in the PDF"
    # MathJax typeset the maths: its text layer (tools/build_pdf.py prints the assistive
    # MathML) has math italic N (U+1D441) and a true minus (U+2212), as in Chapter 1's
    # ring all-reduce "N − 1 steps"; untypeset TeX would show backslashes and dollars.
    assert "\U0001d441 \u2212 1" in flat, "no typeset N − 1 (Chapter 1) in the PDF"
    assert "\\frac" not in text and "$$" not in text and "\\(" not in text
    pages = text.split("\f")
    total = result["pages"]
    for number in (1, result["starts"]["chapters/01_why_connect"], total):
        assert f"{number} / {total}" in pages[number - 1], f"page {number} lacks its number"


def test_figures_are_in_the_pdf(pdf):
    """At least one image per figure the site shows: each notebook's stored PNG outputs
    and each demo's default figure (a PNG data URL inside its widget or HTML output)."""
    from pypdf import PdfReader

    path, _ = pdf
    figures = 0
    for nb in toc_notebooks():
        for cell in json.loads(nb.read_text())["cells"]:
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            if cell["cell_type"] == "code" and "widgets.show(" in source:
                figures += 1  # the demo's default figure
                continue
            for out in cell.get("outputs", []):
                if "image/png" in out.get("data", {}):
                    figures += 1
    assert figures > 0
    images = 0
    for page in PdfReader(path).pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        images += sum(1 for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image")
    assert images >= figures, f"{images} images in the PDF, {figures} figures in the notebooks"
