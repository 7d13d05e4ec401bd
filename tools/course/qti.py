"""QTI 1.2 export of the chapters' quizzes and the exam bank (`make qti`), for Canvas,
Moodle and Blackboard, through text2qti (its Markdown-like text, then its QTI writer).

* A quiz's multiple-choice question keeps every option's feedback and marks the right one;
  a numeric question becomes a numerical question accepting the answer ± its tolerance
  (exactly, for a whole-number answer), with the explanation as feedback.
* The exam bank: every part of every item, at an exam variant of ``seed``: numeric parts
  as numerical questions (the statement and its givens), short answers as essay questions
  whose feedback is the rubric (an LMS may show feedback to students after they submit:
  set the quiz's feedback options before publishing).
"""

from __future__ import annotations

from pathlib import Path

from interlib.book import quizzes
from interlib.book.quiz import Choice

from . import exam_bank, problems


def _esc(text: str, indent: int = 4) -> str:
    """Text for text2qti: ``$`` starts LaTeX there, so it is escaped; continuation lines
    are indented under the question's text (``indent``: the width of "12.  ")."""
    t = text.replace("\\", "\\\\").replace("$", "\\$")
    return ("\n" + " " * indent).join(t.split("\n")).rstrip()


def _head(n: int) -> str:
    return f"{n}.  "


def _number(x: float) -> str:
    """A plain decimal for text2qti's numerical answers (no exponent)."""
    s = f"{x:.10f}".rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def _numeric(n: int, text: str, q, points: int | None = None) -> str:
    head = f"Points: {points}\n" if points is not None else ""
    margin = 0.0 if q.exact else q.tolerance * abs(q.answer)
    ans = f"=   {_number(q.answer)}" + (f" +- {_number(margin)}" if margin else "")
    return (f"{head}{_head(n)}{_esc(text, len(_head(n)))}\n... {_esc(q.explanation)}\n"
            f"{ans}\n")


def quiz_text(name: str) -> str:
    """Chapter quiz ``name`` (``"ch01"`` ...) in text2qti's format."""
    qz = quizzes.show(name)
    out = [f"Quiz title: Interconnects: {qz.title}",
           "Quiz description: The chapter's self-check (exit ticket), exported from the "
           "book's quiz; every number computed by interlib.", ""]
    for n, q in enumerate(qz.questions, 1):
        if isinstance(q, Choice):
            out.append(f"{_head(n)}{_esc(q.question, len(_head(n)))}")
            for i, (opt, fb) in enumerate(zip(q.options, q.feedback)):
                mark = "*" if i == q.correct else ""
                out.append(f"{mark}{'abcdefgh'[i]}) {_esc(opt)}")
                out.append(f"... {_esc(fb)}")
            out.append("")
        else:
            unit = f" (in {q.unit})" if q.unit else ""
            out.append(_numeric(n, q.question + unit, q))
    return "\n".join(out) + "\n"


def bank_text(seed: int = 1) -> str:
    """The exam bank in text2qti's format, numeric parts at exam variants of ``seed``."""
    out = ["Quiz title: Interconnects: exam bank",
           f"Quiz description: Every item of the exam bank ({len(exam_bank.bank())} items; "
           f"numeric parts at variant seed {seed}); an essay question's feedback is its "
           "rubric.", ""]
    n = 0
    for it in exam_bank.bank():
        for j, part in enumerate(it.parts):
            n += 1
            label = f"{it.id} ({'abc'[j]}), {it.title} [{it.difficulty}]"
            if part.problem:
                p = problems.get(part.problem, exam_bank.exam_seed(seed, part.problem))
                unit = f" Answer in {p.numeric.unit}." if p.numeric.unit else ""
                out.append(_numeric(n, f"**{label}**\n\n{p.statement}\n\n{unit}".rstrip(),
                                    p.numeric, part.points))
            else:
                rubric = "; ".join(f"{c} ({pt})" for c, pt in part.rubric)
                out.append(f"Points: {part.points}\n{_head(n)}"
                           f"{_esc(f'**{label}** {part.prompt}', len(_head(n)))}"
                           f"\n... Rubric: {_esc(rubric)}\n____\n")
    return "\n".join(out) + "\n"


def write(text: str, path: Path, source: str) -> Path:
    """text2qti: ``text`` to a QTI 1.2 zip at ``path``."""
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    path.parent.mkdir(parents=True, exist_ok=True)
    QTI(Quiz(text, config=Config(), source_name=source)).save(path)
    return path


def export(out: Path, seed: int = 1) -> list[Path]:
    """Every quiz and the exam bank as QTI zips in ``out``."""
    paths = [write(quiz_text(name), out / f"quiz-{name}.zip", name)
             for name in quizzes.QUIZZES]
    paths.append(write(bank_text(seed), out / "exam-bank.zip", "exam bank"))
    return paths
