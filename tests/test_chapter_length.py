"""Chapters a reader can get through (issue 34, "Tighter chapters").

* **No paragraph over** :data:`MAX_WORDS` **words**, anywhere in a chapter's markdown: running
  text, every list item (each item is a paragraph), takeaways, answers, and the text inside
  the folded "Going deeper" blocks too. Code, tables, display maths and directive options
  are not prose and are not counted. An inline figure (``{eval}`expr```) counts as the words
  of the value stored for it (what the reader sees); any other inline role (``{footcite}``,
  ``{doc}``, ``{ref}``...) as one word.
* **Each chapter page is at most** :data:`MAX_SCREENS` **desktop screens**: the built page at
  1280 × 800 CSS px, with every folded block (dropdowns, hidden cells, worked derivations)
  left closed as a reader first sees it, is at most that many times 800 px tall. Depth lives
  in folded "Going deeper" blocks or the appendices.

The screen check drives Debian's ``/usr/bin/chromium`` over the built site (one browser, the
eight chapter pages); it needs the book build like tests/test_site_pages.py.
"""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

from conftest import HTML, toc_notebooks

MAX_WORDS = 150
MAX_SCREENS = 25
SCREEN = {"width": 1280, "height": 800}

CHAPTERS = [p for p in toc_notebooks() if p.parent.name == "chapters"]

_ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<body>[^`]*)`")
_OPEN_DIRECTIVE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}")
_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")
_ITEM = re.compile(r"^([-*+]|\d+[.)])\s+")
#: Directives whose body is not prose (code, maths, bibliography, raw output).
_NOT_PROSE = {"code", "code-block", "code-cell", "math", "raw", "footbibliography",
              "bibliography", "csv-table", "list-table", "table", "figure", "image"}


def paragraphs(source: str) -> list[str]:
    """The paragraphs of one markdown cell, in order: blocks of text separated by blank
    lines, headings, fences or directive lines; every list item starts a new paragraph (its
    continuation lines belong to it). Code blocks, tables, display maths, directive options
    and the bodies of non-prose directives are left out; the bodies of prose directives
    (admonitions, dropdowns) are read like the rest."""
    out: list[str] = []
    current: list[str] = []
    stack: list[tuple[str, bool]] = []  # open fences: (fence, prose inside?)
    in_math = False

    def flush():
        if current:
            out.append(" ".join(current))
            current.clear()

    for raw in source.split("\n"):
        line = raw.strip()
        prose_here = all(prose for _, prose in stack)
        # Closing the innermost fence.
        if stack and line and set(line) <= set(stack[-1][0][0]) \
                and len(line) >= len(stack[-1][0]):
            flush()
            stack.pop()
            continue
        if not prose_here:
            continue
        if in_math:
            if line.endswith("$$"):
                in_math = False
            continue
        opened = _OPEN_DIRECTIVE.match(line)
        if opened:
            flush()
            stack.append((opened["fence"], opened["name"] not in _NOT_PROSE))
            continue
        fence = _FENCE.match(line)
        if fence:  # a plain code fence (```python, ```, ~~~)
            flush()
            stack.append((fence["fence"], False))
            continue
        if line.startswith("$$"):
            flush()
            in_math = not (len(line) > 2 and line.endswith("$$"))
            continue
        if not line or line.startswith("|") or re.match(r"^:[\w-]+:", line):
            flush()  # blank line, table row, directive option
            continue
        if line.startswith("#"):
            flush()
            out.append(line.lstrip("#").strip())
            continue
        if _ITEM.match(line):
            flush()
        current.append(line)
    flush()
    return out


def _shown(value: dict | None) -> str:
    """What the reader sees for a stored ``{eval}`` result (its text/plain, unquoted)."""
    text = ((value or {}).get("data") or {}).get("text/plain", "x")
    try:
        shown = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return shown if isinstance(shown, str) else text


def word_count(paragraph: str, values: dict[str, dict]) -> int:
    """Words a reader sees: an ``{eval}`` counts as its stored value's words, any other
    inline role as one word."""
    def role(m):
        if m["role"] == "eval":
            return _shown(values.get(m["body"])) or "x"
        return "x"
    return len(_ROLE.sub(role, paragraph).split())


def chapter_paragraphs(path) -> list[tuple[int, int, str]]:
    """(cell index, words, paragraph) for every paragraph of a chapter's markdown."""
    nb = nbformat.read(path, as_version=4)
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        values = {e["expression"]: e.get("result")
                  for e in cell.metadata.get("user_expressions", [])}
        for p in paragraphs(cell.source):
            found.append((i, word_count(p, values), p))
    return found


# --- the splitter itself, on inputs written for it ------------------------------------------

_SAMPLE = """## A heading

First paragraph, two
lines long.

- item one
  continues here
- item two
1. numbered

```python
code = "not prose words here"
```

| a | b |
|---|---|
| c | d |

$$
x = y + z
$$

:::{dropdown} Going deeper: something
:class: dropdown
Inside the fold.

```{footbibliography}
```
:::

````{admonition} Takeaway
Nested ```` fence.
````
"""


def test_paragraph_splitter():
    assert paragraphs(_SAMPLE) == [
        "A heading", "First paragraph, two lines long.", "- item one continues here",
        "- item two", "1. numbered", "Inside the fold.", "Nested ```` fence."]


def test_word_count_reads_stored_figures():
    values = {"prose.rate": {"data": {"text/plain": "'450 GB/s'"}}}
    assert word_count("at {eval}`prose.rate` per direction {footcite}`nccl`", values) == 6
    assert word_count("{eval}`missing` here", {}) == 2


# --- the chapters -----------------------------------------------------------------------------

def test_eight_chapters():
    assert len(CHAPTERS) == 8, [p.name for p in CHAPTERS]


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_no_paragraph_over_limit(path):
    long = [(i, n, p) for i, n, p in chapter_paragraphs(path) if n > MAX_WORDS]
    assert not long, (f"{path.name}: paragraphs over {MAX_WORDS} words (split, tighten, or "
                      "move depth into a Going deeper block):\n"
                      + "\n".join(f"  cell {i}: {n} words: {p[:90]}…" for i, n, p in long))


# The page's height as a reader first sees it: every <details> closed (dropdowns, hidden
# cells), at the desktop viewport. Fonts and MathJax settle first, so the height is final.
_JS_HEIGHT = """async () => {
  for (const d of document.querySelectorAll('details[open]')) d.open = false;
  if (document.fonts) await document.fonts.ready;
  return document.documentElement.scrollHeight;
}"""


@pytest.fixture(scope="module")
def chapter_heights(book_build):
    from browser_support import chromium_context, require_chromium, static_server

    require_chromium()
    assert book_build.returncode == 0, "book build failed:\n" + book_build.output[-4000:]
    heights = {}
    with static_server(HTML) as url, chromium_context(
            viewport=(SCREEN["width"], SCREEN["height"]), save_data=True) as ctx:
        page = ctx.new_page()
        for path in CHAPTERS:
            response = page.goto(f"{url}/chapters/{path.stem}.html", wait_until="load")
            # A missing or empty page would be short: measure only the chapter itself.
            assert response is not None and response.status == 200, path.stem
            title = nbformat.read(path, as_version=4).cells[0].source.splitlines()[0]
            h1 = page.locator("article h1").first.inner_text()
            assert title.lstrip("# ").strip() in h1, (path.stem, h1)
            if page.locator("div.math, span.math").count():
                page.wait_for_selector("mjx-container", state="attached", timeout=20000)
                page.evaluate("() => window.MathJax && MathJax.startup "
                              "&& MathJax.startup.promise")
            heights[path.stem] = page.evaluate(_JS_HEIGHT)
        page.close()
    return heights


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_fits_in_screens(chapter_heights, path):
    screens = chapter_heights[path.stem] / SCREEN["height"]
    assert screens <= MAX_SCREENS, (
        f"{path.stem}: {screens:.1f} desktop screens at {SCREEN['width']}×{SCREEN['height']} "
        f"with folded blocks closed, over {MAX_SCREENS}: move depth into Going deeper blocks")
