"""Self-check quizzes: auto-checked questions with feedback, as self-contained HTML.

A chapter's quiz (:mod:`interlib.quizzes` holds the questions) is shown by
``quiz.show("ch02")``. The output is one ``text/html`` bundle that works everywhere the
book is read, with no network and no kernel:

* **Static site**: the page runs the bundle's inline script. The reader picks an option or
  types a number and presses *Check*; the feedback (right; close; or wrong and why) appears
  in a live region under the question.
* **JupyterLab and Binder**: the output of a cell the reader ran is trusted, and
  JupyterLab runs the inline script of trusted HTML, so checking works the same way. A
  notebook opened with stored, untrusted outputs has its script removed by JupyterLab's
  sanitiser; the form still shows, and :func:`check` gives the same feedback in Python.

No question carries a "show the answer" toggle: the instructor guide uses the quizzes as
exit tickets, so the answer comes back as feedback after an attempt (the instructor
edition's key lists them all).

Why not ``jupyterquiz``: its text input has no label (an accessibility failure) and it
carries a CDN fallback for MathJax; ``sphinx-exercise`` only reveals. This module keeps
the inputs labelled (``<fieldset>``/``<legend>`` for choices, ``<label for>`` for
numbers), the feedback in ``role="status"``, and the answers computed by ``interlib``.

A numeric answer is read and judged by :mod:`interlib.book.answers` (units converted,
usual slips named, malformed input explained), whose rule set the page's script shares.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field

from .. import _validate as v
from . import answers
from .answers import CLOSE_FACTOR, fmt as _fmt


@dataclass(frozen=True)
class Choice:
    """A multiple-choice question.

    Attributes:
        question: The question text.
        options: The options, as text.
        correct: Index of the right option.
        feedback: One explanation per option (why it is right, or why it is wrong).
    """

    question: str
    options: tuple
    correct: int
    feedback: tuple

    def __post_init__(self):
        v.instance("question", self.question, str, "text")
        v.items("options", self.options)
        v.integer("correct", self.correct, lo=0, hi=len(self.options) - 1)
        if len(self.feedback) != len(self.options):
            raise ValueError(f"feedback={self.feedback!r} must have one entry per option "
                             f"({len(self.options)})")


@dataclass(frozen=True)
class Numeric:
    """A question with a number for an answer.

    Attributes:
        question: The question text (givens included).
        answer: The right value, in ``unit``.
        unit: The unit the reader answers in (e.g. ``"ms"``, ``"GB/s"``; ``""`` for a
            plain number).
        tolerance: Relative tolerance for *right* (e.g. 0.02 for 2 %).
        explanation: How to get the answer (shown when right, and in the fallback).
        mistakes: ``((value, why), ...)``: known wrong values (in ``unit``) and what went
            wrong; recognised within the same tolerance.
        hint_low, hint_high: What to check when the answer is too low / too high (each
            explains that side: a low answer's usual cause, a high answer's).
        exact: The answer is a whole number (a count, a threshold) and only that number is
            right; the tolerance still places the known mistakes.
    """

    question: str
    answer: float
    unit: str
    tolerance: float
    explanation: str
    mistakes: tuple = field(default_factory=tuple)
    hint_low: str = "Check the units and each factor of the formula."
    hint_high: str = "Check the units and each factor of the formula."
    exact: bool = False

    def __post_init__(self):
        v.instance("question", self.question, str, "text")
        v.number("answer", self.answer)
        if self.answer == 0:
            raise ValueError("answer=0 cannot be checked with a relative tolerance")
        v.instance("unit", self.unit, str, "a unit such as 'ms'")
        v.number("tolerance", self.tolerance, lo=0.0, hi=0.5, lo_open=True)
        for m in self.mistakes:
            if not (isinstance(m, tuple) and len(m) == 2):
                raise ValueError(f"mistakes item={m!r} must be a (value, why) pair")
        v.flag("exact", self.exact)
        if self.exact and self.answer != round(self.answer):
            raise ValueError(f"answer={self.answer!r} must be a whole number when exact=True")

    def spec(self) -> dict:
        """The checking rules' input (also the page's ``data-check``)."""
        return {"kind": "numeric", "answer": float(self.answer), "unit": self.unit,
                "tol": self.tolerance, "exact": self.exact, "right": self.explanation,
                "mistakes": [[float(m), why] for m, why in self.mistakes],
                "low": self.hint_low, "high": self.hint_high}


def check(q, answer) -> tuple[str, str]:
    """Check ``answer`` against question ``q``: ``(verdict, feedback)`` with verdict
    ``"right"``, ``"close"``, ``"wrong"`` or ``"invalid"`` (the answer could not be read:
    the feedback says why), by the same rules as the page's script.

    Args:
        q: A :class:`Choice` (answer: option index) or :class:`Numeric` (answer: a number
            in ``q.unit``, or the text a reader typed, with or without a unit).
    """
    if isinstance(q, Choice):
        if isinstance(answer, bool) or not isinstance(answer, int) \
                or not 0 <= answer < len(q.options):
            return "invalid", (f"Answer with the number of an option, 0 to "
                               f"{len(q.options) - 1} (you gave {answer!r}).")
        verdict = "right" if answer == q.correct else "wrong"
        return verdict, q.feedback[answer]
    if not isinstance(q, Numeric):
        raise ValueError(f"q={q!r} must be a quiz.Choice or quiz.Numeric")
    return answers.evaluate(q.spec(), answer)


_STYLE = (
    "<style>.interlib-quiz{border:1px solid #c8c8c8;border-radius:6px;padding:.6em 1em;"
    "margin:1em 0}.interlib-quiz fieldset{border:0;padding:0;margin:0 0 1em}"
    ".interlib-quiz legend{font-size:1em;line-height:1.5;font-weight:400;float:none;"
    "width:auto;padding:0;margin-bottom:.4em}"
    ".interlib-quiz-q{margin:0 0 1.2em;padding-bottom:.6em;border-bottom:1px solid #e4e4e4}"
    ".interlib-quiz-q:last-of-type{border-bottom:0}"
    ".interlib-quiz button{margin-left:.4em}"
    # touch targets of 44 px (WCAG 2.5.5; issue 34: 32 px on a phone)
    ".interlib-quiz input[type=text],.interlib-quiz button{min-height:44px;box-sizing:"
    "border-box;font-size:1em;padding:.3em .6em}"
    ".interlib-quiz-option{display:flex;align-items:center;gap:.5em;min-height:44px;"
    "margin:.15em 0}.interlib-quiz-option input{width:1.25em;height:1.25em;margin:0}"
    ".interlib-quiz-feedback{margin:.4em 0;font-weight:500;overflow-wrap:anywhere}"
    ".interlib-quiz-feedback[data-verdict=right]{color:#0b6b2b}"
    ".interlib-quiz-feedback[data-verdict=close]{color:#7a5200}"
    ".interlib-quiz-feedback[data-verdict=wrong]{color:#a0141e}"
    ".interlib-quiz-feedback[data-verdict=invalid]{color:#4a4a4a}"
    ".interlib-quiz input[type=text]{width:9em}</style>")

# The checking rules of `check`, in JavaScript (answers.js with answers.RULES; one listener
# for every quiz on the page).
def _script() -> str:
    return f"<script>\n{answers.script()}</script>"


def question_html(qid: str, number, q, text: str | None = None) -> str:
    """One question's form: ``text`` (HTML) replaces the question's own text if given;
    ``number`` is printed before it (None: nothing)."""
    e = html.escape
    lead = f"<strong>{number}.</strong> " if number is not None else ""
    if isinstance(q, Choice):
        data = {"kind": "choice", "correct": q.correct, "feedback": list(q.feedback)}
        opts = "".join(
            f'<label class="interlib-quiz-option"><input type="radio" name="{qid}" '
            f'value="{i}"> {e(o)}</label>' for i, o in enumerate(q.options))
        shown = e(q.question) if text is None else text
        body = f"<fieldset><legend>{lead}{shown}</legend>{opts}</fieldset>"
    else:
        data = q.spec()
        label = f"Your answer ({q.unit})" if q.unit else "Your answer (a number)"
        shown = e(q.question) if text is None else text
        body = ((f'<p class="interlib-quiz-text">{lead}{shown}</p>' if lead or shown else "")
                + f'<label for="{qid}">{e(label)}</label> '
                f'<input type="text" id="{qid}" inputmode="decimal" autocomplete="off">')
    return (f'<div class="interlib-quiz-q" id="{qid}-q" data-check="'
            f'{e(json.dumps(data), quote=True)}">{body}'
            f'<button type="button" class="interlib-quiz-check">Check</button>'
            f'<p class="interlib-quiz-feedback" role="status" aria-live="polite"></p></div>')


def form_html(body: str, label: str) -> str:
    """``body`` (question forms) in a quiz section with the style and the checker."""
    return (f'{_STYLE}<section class="interlib-quiz" aria-label="{html.escape(label)}">'
            f"{body}</section>{_script()}")


class Quiz:
    """A chapter's quiz: ``_repr_mimebundle_`` gives the HTML (and a text summary)."""

    def __init__(self, name: str, title: str, questions):
        self.name = v.instance("name", name, str, "a quiz name")
        self.title = v.instance("title", title, str, "a title")
        self.questions = tuple(v.items("questions", tuple(questions)))
        for q in self.questions:
            v.instance("questions item", q, (Choice, Numeric), "a quiz.Choice or quiz.Numeric")

    def html(self) -> str:
        qs = "".join(question_html(f"quiz-{self.name}-{i + 1}", i + 1, q)
                     for i, q in enumerate(self.questions))
        return form_html(f'<p class="interlib-quiz-title"><strong>{html.escape(self.title)}'
                         "</strong> (answer, then press Check: the answer and why come back "
                         "after you try; nothing is recorded)</p>" + qs, self.title)

    def text(self) -> str:
        lines = [self.title]
        for i, q in enumerate(self.questions, 1):
            if isinstance(q, Choice):
                lines.append(f"{i}. {q.question} Answer: {q.options[q.correct]}")
            else:
                unit = f" {q.unit}" if q.unit else ""
                lines.append(f"{i}. {q.question} Answer: {_fmt(q.answer)}{unit}")
        return "\n".join(lines)

    def _repr_mimebundle_(self, **kwargs):
        return {"text/html": self.html(),
                "text/plain": f"{self.title}: {len(self.questions)} questions"}

    def check(self, number: int, answer) -> str:
        """Feedback on ``answer`` to question ``number`` (1-based), as text."""
        v.integer("number", number, lo=1, hi=len(self.questions))
        verdict, why = check(self.questions[number - 1], answer)
        return f"{verdict}: {why}"
