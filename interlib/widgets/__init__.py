"""Thin ipywidgets wiring over the pure plot functions in :mod:`interlib.plots`.

A :class:`Demo` names a plot function, its controls (ranges and defaults), an optional text
summary and the thought questions the chapter asks. Demos register themselves in
:data:`DEMOS`; ``show(name)`` builds the sliders, draws the default figure once and redraws
it when a slider moves. Tests drive every demo's function at every slider extreme.
"""

from __future__ import annotations

from .core import (DEMOS, Demo, DemoFrames, Dropdown, FloatSlider, IntSlider,  # noqa: F401
                   LiveFigure, TextArea, figure_alt, figure_bbox, figure_png, get, register, render,
                   summary)
from .core import _img_html, _pre_html  # noqa: F401  (used by show, live and the tests)
from .lab import show  # noqa: F401  (JupyterLab: the controls over DemoFrames)


def questions(name: str):
    """The demo's thought questions as a Markdown list (for display in the chapter)."""
    from IPython.display import Markdown

    from .questions import split

    return Markdown("\n".join(f"{i}. {split(q)[0]}"
                              for i, q in enumerate(get(name).questions, 1)))


from . import ch01  # noqa: E402,F401  (registers the chapter's demos)
from . import appendix, ch02, ch03, ch04, ch05, ch06, ch07, ch08  # noqa: E402,F401
from . import check  # noqa: E402,F401  ("Check your cluster": a reader's nccl-tests log)
