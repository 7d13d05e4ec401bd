"""Problem sets: the book's problems for each pair of chapters, solvable on paper, each with
a check a student can run.

``problems.show("A1")`` displays a problem: its statement with every given printed (model
shapes, achieved rates, tables), the section of the book that teaches its method, a
difficulty label, and an in-page answer box that checks on the static site as the quizzes
do. ``problems.check("A1", answer)`` says *right*, *close* or *wrong and why* (the rules of
:mod:`interlib.book.answers`: units read and converted, the problem's known mistakes and the
usual slips named, malformed input explained, never a traceback).

These are the book's own numbers, whose answers the pages' checks carry anyway. They are
read from :mod:`interlib.book.problem_data`, which ``tools/problem_notebooks.py``
writes from the instructor's builders (``tools/course/problems.py``; a test fails when the
file is stale). Variants, answer keys and worked solutions are not part of this package
(the site's wheel, JupyterLite and Binder carry it): an instructor's graded assignment gives
each student a variant of their own and is graded from frozen keys (``make assignments``).

Sets: ``A`` (Chapters 1-2), ``B`` (3-4), ``C`` (5-6), ``D`` (7-8).
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

from .. import _validate as v
from . import quiz
from .quiz import Numeric, check as _check

#: Difficulty labels, easiest first.
DIFFICULTIES = ("warm-up", "standard", "challenging")


def _data() -> dict:
    from .problem_data import DATA

    return DATA


@dataclass(frozen=True)
class Problem:
    """A problem of the book: its statement (givens included), the section that teaches its
    method, and the check."""

    key: str
    title: str
    difficulty: str
    question: str
    givens: tuple
    section: str
    numeric: Numeric
    fresh: bool = True

    @property
    def statement(self) -> str:
        """The question, its givens and the section that teaches it, as Markdown."""
        g = "".join(f"\n- {x}" for x in self.givens)
        out = f"{self.question}\n\n*Given:*{g}" if self.givens else self.question
        return out + f"\n\n*Method:* {self.section}."

    def markdown(self) -> str:
        unit = f" in {self.numeric.unit}" if self.numeric.unit else ""
        return (f"**Problem {self.key}: {self.title}** ({self.difficulty})\n\n"
                f"{self.statement}\n\n*Answer{unit}; check it with* "
                f"`problems.check(\"{self.key}\", answer)`.\n")

    def html(self) -> str:
        """The statement with an answer box that checks in the page (no kernel)."""
        body = (f"<p><strong>Problem {html.escape(self.key)}: {html.escape(self.title)}"
                f"</strong> ({html.escape(self.difficulty)})</p>"
                f"{md_html(self.question)}")
        if self.givens:
            body += ("<p><em>Given:</em></p><ul>"
                     + "".join(f"<li>{md_inline(g)}</li>" for g in self.givens) + "</ul>")
        body += f"<p><em>Method:</em> {md_inline(self.section)}.</p>"
        form = quiz.question_html(f"check-{self.key.lower()}", None, self.numeric, text="")
        return quiz.form_html(body + form, f"Problem {self.key}")

    def _repr_mimebundle_(self, **kwargs):
        md = self.markdown()
        return {"text/html": self.html(), "text/markdown": md,
                "text/plain": md.replace("*", "").replace("`", "")}


def md_inline(text: str) -> str:
    """A line of the problems' Markdown (``**bold**``, ``*em*``, ```code```) as HTML."""
    t = html.escape(text, quote=False)
    t = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", t)
    t = re.sub(r"\*(.+?)\*", r"<em>\1</em>", t)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", t)


def md_html(text: str) -> str:
    """Paragraphs of the problems' Markdown as HTML."""
    return "".join(f"<p>{md_inline(p)}</p>" for p in text.split("\n\n"))


#: Problem keys of each set
SETS = {s: tuple(keys) for s, keys in _data()["sets"].items()}


@functools.cache
def get(key: str) -> Problem:
    """The book's problem ``key`` (``"A1"`` ...)."""
    v.choice("key", key, _data()["problems"])
    d = dict(_data()["problems"][key])
    n = d.pop("numeric")
    q = Numeric(n["question"], n["answer"], n["unit"], n["tolerance"], n["explanation"],
                tuple((m, why) for m, why in n["mistakes"]), n["hint_low"], n["hint_high"],
                exact=n["exact"])
    return Problem(d["key"], d["title"], d["difficulty"], d["question"], tuple(d["givens"]),
                   d["section"], q, d["fresh"])


class _Message:
    """What :func:`show` gives for a key or seed it cannot show: the reason, as text."""

    def __init__(self, text: str):
        self.text = text

    def _repr_mimebundle_(self, **kwargs):
        return {"text/plain": self.text, "text/markdown": self.text}

    def __repr__(self):
        return self.text


def _resolve(key, seed) -> tuple[str | None, str | None]:
    """``(key, None)`` for a problem of the book, else ``(None, the reason)``: keys in any
    case (``"a1"``), a seed of 0 in any numeric type."""
    keys = _data()["problems"]
    k = key.strip().upper() if isinstance(key, str) else None
    if k not in keys:
        return None, (f"There is no problem {key!r} in the book: the problems are "
                      f"{', '.join(keys)}.")
    from .answers import as_number

    if isinstance(seed, str):
        try:
            z = float(seed.strip())
        except ValueError:
            z = None
    else:
        z = as_number(seed)
    if z != 0:
        return None, (f"seed={seed!r}: the book's problems are seed 0 only (leave seed out); "
                      "a variant of your own comes in your instructor's assignment notebook.")
    return k, None


def show(key: str, seed: int = 0):
    """The problem, for display: statement, givens, method, difficulty and an answer box.
    ``seed`` is 0 only (the book's numbers): a variant comes in an instructor's assignment
    notebook. A key or seed it cannot show gives the reason, as text (never an error)."""
    k, why = _resolve(key, seed)
    return get(k) if k else _Message(why)


def check(key: str, answer, seed: int = 0) -> str:
    """``"right: ..."``, ``"close: ..."``, ``"wrong: ..."`` or ``"invalid: ..."`` for
    ``answer`` to problem ``key`` (a number in the problem's unit, of any numeric type, or
    text with a unit). ``None`` (nothing entered yet) says what to do; a key or seed it
    cannot check says why."""
    k, why = _resolve(key, seed)
    if k is None:
        return f"invalid: {why}"
    p = get(k)
    if answer is None:
        return (f"Problem {k}: not answered yet. Set answer to your result in "
                f"{p.numeric.unit or 'no unit'} and run this cell again.")
    verdict, why = _check(p.numeric, answer)
    return f"{verdict}: {why}"


@dataclass(frozen=True)
class Exam:
    """The practice exam: statements and givens only (no answer box; the key is the
    instructor edition's)."""

    minutes: int
    items: tuple

    def markdown(self) -> str:
        out = [f"*{len(self.items)} problems, {self.minutes} minutes, on paper; a calculator "
               "is allowed. Give each answer with its unit.*", ""]
        for i, it in enumerate(self.items, 1):
            unit = f" (answer in {it['unit']})" if it["unit"] else ""
            out += [f"**{i}. {it['title']}** ({it['difficulty']}){unit}", "",
                    it["statement"], ""]
        return "\n".join(out).rstrip() + "\n"

    def _repr_mimebundle_(self, **kwargs):
        md = self.markdown()
        return {"text/markdown": md, "text/plain": md.replace("*", "")}


def exam() -> Exam:
    """The practice exam (its own variant of eight problems, without answers)."""
    e = _data()["practice_exam"]
    return Exam(e["minutes"], tuple(e["items"]))
