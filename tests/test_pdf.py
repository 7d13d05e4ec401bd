"""`make pdf` (tools/build_pdf.py): the whole book as one PDF, printed from the built site.

Builds it from the test run's site build and reads it back with poppler's pdftotext and
pdfinfo (apt: poppler-utils): one contents page then every page of _toc.yml in order; the
contents' page numbers point at the pages that carry those titles; every chapter's title
(from its notebook) is in the text; formulas are typeset (MathJax's text, no raw TeX);
every page carries its number; the figures are in it. The print edition (issue 29): the
title page and every page's footer carry the edition and licences; in Chromium's print media
no element of any page is wider than the A4 content box or clipped; pdftotext finds no
web-control text; folded answers are printed at each page's end; each page of _toc.yml is
also a PDF of its own.
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
import edition  # noqa: E402


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
    # The title page (edition, licences) and the contents take one or two pages.
    assert starts[0] == result["front_pages"] + 1 <= 3
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    assert pages == starts[-1] + result["counts"][docs[-1]] - 1 and starts[-1] >= len(docs)
    contents = _squash(_text(path, 1, result["front_pages"]))
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


# --- the print edition -----------------------------------------------------------------------

def test_title_page_and_every_page_carry_the_edition(pdf):
    path, result = pdf
    e = edition.current()
    title = _squash(_text(path, 1))
    assert f"Edition {e.version}, {e.date}, commit {e.commit_text}" in title
    assert "CC BY 4.0" in title and "MIT" in title
    pages = _text(path).split("\f")
    short = f"edition {e.version} · CC BY 4.0 (text), MIT (code)"
    missing = [i + 1 for i, t in enumerate(pages[:result["pages"]]) if short not in _squash(t)]
    assert not missing, f"pages without the edition footer: {missing[:10]}"


def test_print_layout_fits_the_content_box(pdf):
    """In Chromium's print media at the printed width, after the print preparation, every
    element of every page lies inside the A4 content box and no box clips its content;
    nothing had to shrink below 55 % to get there. Measured by tools/build_pdf.py on each
    page as it prints it (``build_pdf.OVERFLOW_JS`` just before ``page.pdf``), so what is
    checked is what the PDF holds, chapters and other pages each in their own print unit."""
    _, result = pdf
    docs = toc_docnames()
    assert sorted(result["overflow"]) == sorted(docs) == sorted(result["client_width"])
    assert set(result["client_width"].values()) == {build_pdf.PRINT_WIDTH_PX}
    problems = {d: bad[:5] for d, bad in result["overflow"].items() if bad}
    assert not problems, "wider than the printed page:\n" + "\n".join(
        f"{d}: {b}" for d, b in problems.items())
    zooms = [z["zoom"] for f in result["fitted"].values() for z in f["zooms"]]
    assert min(zooms, default=1.0) >= 0.55, f"an element was shrunk to {min(zooms):.2f} to fit"


def _prose() -> str:
    """The book's own prose, as written (markdown cells and pages, CHANGELOG.md), flattened:
    where it names a web control ("press Run live in your browser") the PDF may too."""
    texts = [(REPO / "CHANGELOG.md").read_text()]
    for d in toc_docnames():
        md, nb = REPO / f"{d}.md", REPO / f"{d}.ipynb"
        if md.is_file():
            texts.append(md.read_text())
        elif nb.is_file():
            for cell in json.loads(nb.read_text())["cells"]:
                if cell["cell_type"] == "markdown":
                    src = cell["source"]
                    texts.append("".join(src) if isinstance(src, list) else src)
    return _squash(re.sub(r"[*`]", "", "\n".join(texts)))


def test_pdf_has_no_web_control_text(pdf):
    """No toggle, button or link that only works on a screen is printed: each control's
    text occurs in the PDF no more often than the prose itself names it."""
    path, result = pdf
    flat, prose = _squash(_text(path)), _prose()
    printed = {t: (flat.count(t), prose.count(t)) for t in build_pdf.WEB_CONTROL_TEXT}
    extra = {t: n for t, n in printed.items() if n[0] > n[1]}
    assert not extra, f"web controls in the PDF (in the PDF, in the prose): {extra}"
    # Each demo's controls are printed as the settings its figure shows.
    demos = sum(1 for nb in toc_notebooks() for c in json.loads(nb.read_text())["cells"]
                if c["cell_type"] == "code" and "widgets.show(" in "".join(c["source"]))
    assert flat.count("Shown at:") == demos > 0
    # The folded answers are printed, at the end of their page.
    assert sum(f["answers"] for f in result["fitted"].values()) > 0
    ch1 = _squash(_text(result["chapter_files"]["chapters/01_why_connect"]))
    assert "Answers Answer 1 (" in ch1 and "Answer 1: at the end of this chapter." in ch1


def test_going_deeper_and_references_print_in_place(pdf):
    """What a chapter folds for depth prints open where it stands, not as an answer: every
    "Going deeper" dropdown (its title a heading line), the output of a cell tagged
    going-deeper (its code, plumbing, not at all) and the folded list of references all
    come before the chapter's "Answers" section and none of them inside it; the folded
    worked answers still go there."""
    path, result = pdf
    deeper = 0
    for nb in toc_notebooks():
        if nb.parent.name != "chapters":
            continue
        d = f"chapters/{nb.stem}"
        cells = json.loads(nb.read_text())["cells"]
        md = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        titles = re.findall(r"^:::\{dropdown\} (Going deeper: .+)$", md, re.M)
        deeper += len(titles)
        # (the site sets apostrophes typographically)
        flat = _squash(_text(result["chapter_files"][d])).replace("\u2019", "'")
        body, sep, answers = flat.partition(" Answers Answer 1 (")
        assert sep, f"{d}: no Answers section"
        for t in [*titles, "The sources this chapter cites"]:
            t = _squash(re.sub(r"[*`]", "", t))
            assert t in body, f"{d}: {t!r} not printed in place"
            assert t not in answers, f"{d}: {t!r} printed as an answer"
        assert result["fitted"][d]["inPlace"] >= len(titles) + 1, d
    assert deeper >= 8, "the chapters fold their depth in Going deeper blocks"
    # Chapter 5's budget cell (hide-cell + going-deeper): its printout in place, no code
    ch5 = _squash(_text(result["chapter_files"]["chapters/05_infiniband"]))
    body = ch5.partition(" Answers Answer 1 (")[0]
    assert "adapter latency, end to end" in body
    assert "hostpath.cited_latencies" not in ch5


def test_one_pdf_per_page_with_its_own_numbers(pdf):
    path, result = pdf
    docs = toc_docnames()
    assert sorted(result["chapter_files"]) == sorted(docs[1:])
    for d in docs[1:]:
        f = result["chapter_files"][d]
        info = subprocess.run(["pdfinfo", str(f)], check=True, capture_output=True,
                              text=True).stdout
        n = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
        assert n == result["counts"][d] >= 1, d
        first = _squash(_text(f, 1))
        assert _squash(result["titles"][d]) in first and re.search(rf"\b1 ?/ ?{n}\b", first), d
