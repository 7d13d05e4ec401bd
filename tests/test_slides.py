"""Slides (tools/slides.py, `make slides`): one deck per session plan of the instructor
guide, generated from the plan and the chapters' stored outputs, offline.

The expectations come from the guide's text (its "### Session k" headings and the time
column of each plan's table) and from the chapter notebooks' stored outputs, read here
independently of the builder. Issue 35 item 7: one 16:9 PDF page per slide (pages counted
with pdfinfo against the deck's slides), at most four takeaways a slide with a figure,
no slide's text overflowing its page, keyboard navigation in the HTML deck, tagged PDFs
with the session's title.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import slides  # noqa: E402

GUIDE = (REPO / "book" / "instructors.md").read_text()
SESSION_HEADS = re.findall(r"^### Session (\d+): (.+)$", GUIDE, re.M)


def _plan_times(k: int) -> list[str]:
    body = GUIDE.split(f"### Session {k}:")[1].split("\n## ")[0].split("\n### ")[0]
    return [m for m in re.findall(r"^\| *([0-9]+[–-][0-9]+) *\|", body, re.M)]


def _stored_outputs(chapter: int) -> str:
    (path,) = (REPO / "chapters").glob(f"{chapter:02d}_*.ipynb")
    nb = json.loads(path.read_text())
    return json.dumps([c.get("outputs", []) for c in nb["cells"]])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("slides")
    return out, slides.build(out, pdf=True)


def test_one_deck_per_session_plan(built):
    out, paths = built
    assert len(SESSION_HEADS) == 3
    names = sorted(p.name for p in paths)
    assert names == sorted([f"session-{k}.html" for k, _ in SESSION_HEADS]
                           + [f"session-{k}.pdf" for k, _ in SESSION_HEADS])
    for k, _ in SESSION_HEADS:
        pdf = (out / f"session-{k}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF") and len(pdf) > 20_000


@pytest.mark.parametrize("k, title", SESSION_HEADS)
def test_each_deck_has_its_sessions_sections(built, k, title):
    out, _ = built
    page = (out / f"session-{k}.html").read_text()
    assert f"Session {k}: {title}" in page
    times = _plan_times(int(k))
    assert len(times) >= 5
    sections = re.findall(r"data-section='([^']+)'", page)
    assert [s for s in sections if re.fullmatch(r"\d+[–-]\d+", s)] == times
    first, last = re.search(r"Chapters? (\d)(?: (?:and|to) (\d))?", title).groups()
    for n in range(int(first), int(last or first) + 1):
        assert f"takeaways-{n}" in sections
    assert "wrong" in sections and "{eval}" not in page and "{doc}" not in page


@pytest.mark.parametrize("k", [k for k, _ in SESSION_HEADS])
def test_decks_are_offline(built, k):
    out, _ = built
    page = (out / f"session-{k}.html").read_text()
    assert not re.search(r"(?:https?|ftp):", page), re.search(r".{40}https?:.{40}", page)
    # every src or href is inline data (a data URI) or an in-page anchor
    for attr in re.findall(r"""(?:src|href|srcset)=['"]([^'"]{0,30})""", page):
        assert attr.startswith(("data:", "#")), attr
    assert "<link" not in page and "<iframe" not in page
    # one inline script (navigation and fitting), nothing loaded
    assert page.count("<script") == 1 and "<script src" not in page


@pytest.mark.parametrize("k", [k for k, _ in SESSION_HEADS])
def test_figures_are_the_chapters_stored_outputs(built, k):
    out, _ = built
    page = (out / f"session-{k}.html").read_text()
    imgs = re.findall(r"<img src='data:image/png;base64,([A-Za-z0-9+/=]+)'[^>]*"
                      r"data-chapter='(\d)' data-role='demo'", page)
    # every plan row that names a demo (*name*: ...) shows a figure
    body = GUIDE.split(f"### Session {k}:")[1].split("\n### ")[0].split("\n## ")[0]
    demo_rows = [ln for ln in body.splitlines()
                 if ln.startswith("|") and re.search(r"\| \*[a-z0-9 ]+\*:", ln)]
    assert len(imgs) == len(demo_rows) >= 3
    for b64, chapter in imgs:
        assert base64.b64decode(b64).startswith(b"\x89PNG")
        assert b64 in _stored_outputs(int(chapter)), f"figure not stored in chapter {chapter}"


def _pdfinfo(path: Path) -> dict:
    import subprocess

    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True,
                         check=True).stdout
    return {k.strip(): v.strip() for k, v in (ln.split(":", 1) for ln in out.splitlines()
                                              if ":" in ln)}


@pytest.mark.parametrize("k, title", SESSION_HEADS)
def test_one_16_9_page_per_slide_tagged_with_a_title(built, k, title):
    out, _ = built
    page = (out / f"session-{k}.html").read_text()
    slides = len(re.findall(r"<section class='slide'", page))
    info = _pdfinfo(out / f"session-{k}.pdf")
    assert int(info["Pages"]) == slides
    w, h = map(float, re.match(r"([\d.]+) x ([\d.]+)", info["Page size"]).groups())
    assert w / h == pytest.approx(16 / 9, rel=0.01)
    assert info["Tagged"] == "yes"
    assert info["Title"] == f"Session {k}: {title}"
    assert "<html lang='en'>" in page


@pytest.mark.parametrize("k", [k for k, _ in SESSION_HEADS])
def test_takeaways_are_at_most_four_bullets_beside_a_figure(built, k):
    out, _ = built
    page = (out / f"session-{k}.html").read_text()
    bodies = re.findall(r"data-section='takeaways-[^']+'>(.*?)</section>", page, re.S)
    assert bodies
    for b in bodies:
        assert 1 <= b.count("<li>") <= 4
        assert "data-role='takeaway'" in b
        for li in re.findall(r"<li>(.*?)</li>", b, re.S):
            assert len(re.sub(r"<[^>]+>", "", li).split()) <= 60


@pytest.fixture(scope="module")
def deck_page(built):
    from browser_support import chromium_context, require_chromium

    require_chromium()
    out, _ = built
    with chromium_context() as ctx:
        page = ctx.new_page()
        page.set_viewport_size({"width": 1280, "height": 720})
        yield out, page
        page.close()


@pytest.mark.parametrize("k", [k for k, _ in SESSION_HEADS])
def test_every_slide_fits_its_page_and_the_keys_move_through_the_deck(deck_page, k):
    out, page = deck_page
    page.goto((out / f"session-{k}.html").as_uri())
    n = page.evaluate("window.interlibDeck.slides")
    over = page.evaluate("""() => Array.from(document.querySelectorAll('.slide')).filter(
        s => s.scrollHeight > s.clientHeight + 1 || Array.from(s.querySelectorAll('.text'))
        .some(t => t.scrollHeight > t.clientHeight + 1)).map(s => s.id)""")
    assert over == []
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "slide-2"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.id") == "slide-2"
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.id") == f"slide-{n}"
    assert page.evaluate("location.hash") == f"#slide-{n}"
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.id") == "slide-1"
    labels = page.evaluate("Array.from(document.querySelectorAll('.slide')).map("
                           "s => s.getAttribute('aria-label'))")
    assert labels[0] == f"slide 1 of {n}"
