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
  sanitiser; the form still shows, and every question keeps a closed *Show the answer*
  ``<details>`` that needs no script. With a kernel, :func:`check` gives the same
  feedback in Python.

Why not ``jupyterquiz``: its text input has no label (an accessibility failure) and it
carries a CDN fallback for MathJax; ``sphinx-exercise`` only reveals. This module keeps
the inputs labelled (``<fieldset>``/``<legend>`` for choices, ``<label for>`` for
numbers), the feedback in ``role="status"``, and the answers computed by ``interlib``.

Numeric answers are compared with a relative tolerance: within it is *right*; within
three times it is *close* (usually a rounding or a small slip, said so); otherwise the
quiz looks for a known mistake (a listed wrong value, such as the headline figure that
adds both directions) and explains it, else says whether the answer is too high or too
low and gives a hint.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field

from .. import _validate as v

#: "close" is within this many tolerances of the right value
CLOSE_FACTOR = 3.0


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
        hint_low, hint_high: What to check when the answer is too low / too high.
    """

    question: str
    answer: float
    unit: str
    tolerance: float
    explanation: str
    mistakes: tuple = field(default_factory=tuple)
    hint_low: str = "Check the units and each factor of the formula."
    hint_high: str = "Check the units and each factor of the formula."

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


def _fmt(x: float) -> str:
    """A number as a reader would type it: 4 significant figures, no exponent if
    avoidable."""
    if x != 0 and (abs(x) >= 1e7 or abs(x) < 1e-3):
        return f"{x:.4g}"
    s = f"{x:,.4g}" if abs(x) < 1e4 else f"{x:,.0f}"
    return s


def parse_number(text: str) -> float | None:
    """The number in ``text`` ("1,234.5", "19.6 ms", "2e-3"), or None."""
    if not isinstance(text, str):
        return None
    t = text.strip().replace(",", "").replace("\u2212", "-").split()
    if not t:
        return None
    try:
        x = float(t[0])
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def check(q, answer) -> tuple[str, str]:
    """Check ``answer`` against question ``q``: ``(verdict, feedback)`` with verdict
    ``"right"``, ``"close"`` or ``"wrong"`` (the same rules as the HTML's script).

    Args:
        q: A :class:`Choice` (answer: option index) or :class:`Numeric` (answer: a number
            in ``q.unit``, or text containing one).
    """
    if isinstance(q, Choice):
        if isinstance(answer, bool) or not isinstance(answer, int) \
                or not 0 <= answer < len(q.options):
            raise ValueError(f"answer={answer!r} must be an option index 0..{len(q.options) - 1}")
        verdict = "right" if answer == q.correct else "wrong"
        return verdict, q.feedback[answer]
    if not isinstance(q, Numeric):
        raise ValueError(f"q={q!r} must be a quiz.Choice or quiz.Numeric")
    x = answer if isinstance(answer, (int, float)) and not isinstance(answer, bool) \
        else parse_number(answer)
    if x is None:
        raise ValueError(f"answer={answer!r} must be a number (in {q.unit or 'no unit'})")
    rel = abs(x - q.answer) / abs(q.answer)
    unit = f" {q.unit}" if q.unit else ""
    if rel <= q.tolerance:
        return "right", f"Right: {_fmt(q.answer)}{unit}. {q.explanation}"
    for value, why in q.mistakes:
        if abs(x - value) <= q.tolerance * abs(value):
            return "wrong", f"Not quite: {why}"
    if rel <= CLOSE_FACTOR * q.tolerance:
        return "close", (f"Close, but outside the {q.tolerance:.0%} tolerance: check your "
                         "rounding and the last step. "
                         + (q.hint_low if x < q.answer else q.hint_high))
    return "wrong", ("Too low. " + q.hint_low) if x < q.answer else ("Too high. " + q.hint_high)


_STYLE = (
    "<style>.interlib-quiz{border:1px solid #c8c8c8;border-radius:6px;padding:.6em 1em;"
    "margin:1em 0}.interlib-quiz fieldset{border:0;padding:0;margin:0 0 1em}"
    ".interlib-quiz legend{font-size:1em;line-height:1.5;font-weight:400;float:none;"
    "width:auto;padding:0;margin-bottom:.4em}"
    ".interlib-quiz-q{margin:0 0 1.2em;padding-bottom:.6em;border-bottom:1px solid #e4e4e4}"
    ".interlib-quiz-q:last-of-type{border-bottom:0}"
    ".interlib-quiz button{margin-left:.4em}"
    ".interlib-quiz-option{display:block;margin:.15em 0}"
    ".interlib-quiz-feedback{margin:.4em 0;font-weight:500}"
    ".interlib-quiz-feedback[data-verdict=right]{color:#0b6b2b}"
    ".interlib-quiz-feedback[data-verdict=close]{color:#7a5200}"
    ".interlib-quiz-feedback[data-verdict=wrong]{color:#a0141e}"
    ".interlib-quiz input[type=text]{width:9em}</style>")

# The checking rules of `check`, in JavaScript (one listener for every quiz on the page).
_SCRIPT = """<script>
(function () {
  if (window.interlibQuiz) { return; }
  window.interlibQuiz = true;
  function num(t) {
    t = String(t).trim().replace(/,/g, "").replace(/\\u2212/g, "-").split(/\\s+/)[0];
    if (!/^[-+]?(\\d+\\.?\\d*|\\.\\d+)(e[-+]?\\d+)?$/i.test(t)) { return null; }
    var x = parseFloat(t); return isFinite(x) ? x : null;
  }
  function verdict(q, box) {
    var d = JSON.parse(q.getAttribute("data-check"));
    if (d.kind === "choice") {
      var c = q.querySelector("input[type=radio]:checked");
      if (!c) { return ["wrong", "Pick one of the options first."]; }
      var i = parseInt(c.value, 10);
      return [i === d.correct ? "right" : "wrong", d.feedback[i]];
    }
    var x = num(q.querySelector("input[type=text]").value);
    if (x === null) { return ["wrong", "Type a number (in " + (d.unit || "no unit") + ")."]; }
    var rel = Math.abs(x - d.answer) / Math.abs(d.answer);
    if (rel <= d.tol) { return ["right", d.right]; }
    for (var k = 0; k < d.mistakes.length; k++) {
      var m = d.mistakes[k];
      if (Math.abs(x - m[0]) <= d.tol * Math.abs(m[0])) { return ["wrong", "Not quite: " + m[1]]; }
    }
    var hint = x < d.answer ? d.low : d.high;
    if (rel <= d.close * d.tol) { return ["close", d.closeText + hint]; }
    return ["wrong", (x < d.answer ? "Too low. " : "Too high. ") + hint];
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest(".interlib-quiz-check") : null;
    if (!b) { return; }
    var q = b.closest(".interlib-quiz-q");
    var r = verdict(q);
    var out = q.querySelector(".interlib-quiz-feedback");
    out.setAttribute("data-verdict", r[0]);
    out.textContent = (r[0] === "right" ? "\\u2714 " : r[0] === "close" ? "\\u2248 " : "\\u2718 ") + r[1];
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || !ev.target.closest) { return; }
    var q = ev.target.closest(".interlib-quiz-q");
    if (q && ev.target.matches("input")) { ev.preventDefault(); q.querySelector(".interlib-quiz-check").click(); }
  });
})();
</script>"""


def _question_html(qid: str, number: int, q) -> str:
    e = html.escape
    if isinstance(q, Choice):
        data = {"kind": "choice", "correct": q.correct, "feedback": list(q.feedback)}
        opts = "".join(
            f'<label class="interlib-quiz-option"><input type="radio" name="{qid}" '
            f'value="{i}"> {e(o)}</label>' for i, o in enumerate(q.options))
        body = (f"<fieldset><legend><strong>{number}.</strong> {e(q.question)}</legend>{opts}"
                "</fieldset>")
        reveal = (f"The answer: {e(q.options[q.correct])}. {e(q.feedback[q.correct])}")
    else:
        unit = f" {q.unit}" if q.unit else ""
        data = {"kind": "numeric", "answer": q.answer, "unit": q.unit, "tol": q.tolerance,
                "close": CLOSE_FACTOR,
                "right": f"Right: {_fmt(q.answer)}{unit}. {q.explanation}",
                "closeText": (f"Close, but outside the {q.tolerance:.0%} tolerance: check "
                              "your rounding and the last step. "),
                "mistakes": [[float(m), why] for m, why in q.mistakes],
                "low": q.hint_low, "high": q.hint_high}
        label = f"Your answer ({q.unit})" if q.unit else "Your answer (a number)"
        body = (f'<p class="interlib-quiz-text"><strong>{number}.</strong> {e(q.question)}</p>'
                f'<label for="{qid}">{e(label)}</label> '
                f'<input type="text" id="{qid}" inputmode="decimal" autocomplete="off">')
        reveal = (f"The answer: {e(_fmt(q.answer))}{e(unit)} (accepted within "
                  f"{q.tolerance:.0%}). {e(q.explanation)}")
    return (f'<div class="interlib-quiz-q" id="{qid}-q" data-check="'
            f'{e(json.dumps(data), quote=True)}">{body}'
            f'<button type="button" class="interlib-quiz-check">Check</button>'
            f'<p class="interlib-quiz-feedback" role="status" aria-live="polite"></p>'
            f"<details><summary>Show the answer</summary><p>{reveal}</p></details></div>")


class Quiz:
    """A chapter's quiz: ``_repr_mimebundle_`` gives the HTML (and a text summary)."""

    def __init__(self, name: str, title: str, questions):
        self.name = v.instance("name", name, str, "a quiz name")
        self.title = v.instance("title", title, str, "a title")
        self.questions = tuple(v.items("questions", tuple(questions)))
        for q in self.questions:
            v.instance("questions item", q, (Choice, Numeric), "a quiz.Choice or quiz.Numeric")

    def html(self) -> str:
        qs = "".join(_question_html(f"quiz-{self.name}-{i + 1}", i + 1, q)
                     for i, q in enumerate(self.questions))
        return (f'{_STYLE}<section class="interlib-quiz" aria-label="{html.escape(self.title)}">'
                f'<p class="interlib-quiz-title"><strong>{html.escape(self.title)}</strong> '
                "(answer, then press Check; nothing is recorded)</p>"
                f"{qs}</section>{_SCRIPT}")

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
