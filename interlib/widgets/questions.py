"""A demo's thought questions and their answers, as HTML (hidden until asked).

``Demo.questions`` holds one item per question: the question text, or a pair
``(question, answer)``. An answer is text, or a function of no arguments returning text,
so that an answer can quote figures computed by ``interlib`` when it is shown (never
typed). Blank lines separate paragraphs. The answer sits in a ``<details>`` element: closed
until the reader opens it, on the static site and in JupyterLab alike.
"""

from __future__ import annotations

import html

from .. import _validate as v


def split(item) -> tuple[str, str | None]:
    """``(question, answer or None)`` from one item of ``Demo.questions``."""
    if isinstance(item, str):
        return item, None
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
        answer = item[1]() if callable(item[1]) else item[1]
        v.instance("answer", answer, str, "text (or a function returning text)")
        return item[0], answer
    raise ValueError(f"question={item!r} must be a string or a (question, answer) pair")


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(p.strip())}</p>" for p in text.split("\n\n") if p.strip())


def questions_html(name: str) -> str:
    """The demo's questions as an ordered list, each answer in a closed ``<details>``."""
    from .core import get
    items = [split(q) for q in get(name).questions]
    if not items:
        return ""
    lis = []
    for q, a in items:
        ans = ("" if a is None else
               f'<details class="interlib-answer"><summary>Answer</summary>{_paragraphs(a)}'
               "</details>")
        lis.append(f"<li><p>{html.escape(q)}</p>{ans}</li>")
    return ('<div class="interlib-questions"><p class="interlib-questions-title">'
            f'Questions to think about</p><ol>{"".join(lis)}</ol></div>')
