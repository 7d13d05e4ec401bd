"""Answers to the demos' thought questions, one module per chapter.

Each answer is a function of no arguments returning text (blank lines separate
paragraphs). Every figure it quotes is computed when the answer is shown, by the same
``interlib`` models the demo draws, and formatted with :mod:`interlib.display`: no number
is typed into the text (``tests/test_questions.py`` checks the source). The demo modules
(:mod:`interlib.widgets.ch01` ...) pair each question with its answer.
"""

from __future__ import annotations

from ... import display as D


def ratio(a: float, b: float) -> str:
    """``a / b`` as "1.23×"."""
    return D.fmt_ratio(a / b, 3)


def more(a: float, b: float) -> str:
    """How much larger ``a`` is than ``b``, as a percentage ("16.2 %")."""
    return D.fmt_pct(a / b - 1)


def control(demo: str, param: str):
    """The control ``param`` of the demo ``demo`` (its default, range or options): the
    setting a question starts from, read where the demo defines it rather than typed
    again."""
    from ..core import get  # the registry: filled when interlib.widgets imports the demos

    return get(demo).controls[param]


def default(demo: str, param: str):
    """The default of :func:`control` ``param`` of ``demo``."""
    return control(demo, param).default
