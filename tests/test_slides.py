"""Slides (tools/slides.py, `make slides`): one deck per session plan of the instructor
guide, generated from the plan and the chapters' stored outputs, offline.

The expectations come from the guide's text (its "### Session k" headings and the time
column of each plan's table) and from the chapter notebooks' stored outputs, read here
independently of the builder.
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
    assert "<script" not in page and "<link" not in page and "<iframe" not in page


@pytest.mark.parametrize("k", [k for k, _ in SESSION_HEADS])
def test_figures_are_the_chapters_stored_outputs(built, k):
    out, _ = built
    page = (out / f"session-{k}.html").read_text()
    imgs = re.findall(r"<img src='data:image/png;base64,([A-Za-z0-9+/=]+)'[^>]*"
                      r"data-chapter='(\d)'", page)
    # every plan row that names a demo (*name*: ...) shows a figure
    body = GUIDE.split(f"### Session {k}:")[1].split("\n### ")[0].split("\n## ")[0]
    demo_rows = [ln for ln in body.splitlines()
                 if ln.startswith("|") and re.search(r"\| \*[a-z0-9 ]+\*:", ln)]
    assert len(imgs) == len(demo_rows) >= 3
    for b64, chapter in imgs:
        assert base64.b64decode(b64).startswith(b"\x89PNG")
        assert b64 in _stored_outputs(int(chapter)), f"figure not stored in chapter {chapter}"
