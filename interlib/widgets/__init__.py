"""Thin ipywidgets wiring over the pure plot functions in :mod:`interlib.plots`.

A :class:`Demo` names a plot function, its controls (ranges and defaults), an optional text
summary and the thought questions the chapter asks. Demos register themselves in
:data:`DEMOS`; ``show(name)`` builds the sliders, draws the default figure once and redraws
it when a slider moves. Tests drive every demo's function at every slider extreme.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .. import _validate as v


@dataclass(frozen=True)
class IntSlider:
    """An integer slider from ``min`` to ``max``."""

    min: int
    max: int
    default: int
    label: str
    step: int = 1

    def __post_init__(self):
        if not self.min <= self.default <= self.max:
            raise ValueError(f"default={self.default} is out of range [{self.min}, {self.max}]")

    def values(self):
        """Extremes and default: what the tests try."""
        return sorted({self.min, self.max, self.default})

    def make(self):
        import ipywidgets as W

        return W.IntSlider(value=self.default, min=self.min, max=self.max, step=self.step,
                           description=self.label, continuous_update=False,
                           style={"description_width": "initial"},
                           layout=W.Layout(width="95%"))


@dataclass(frozen=True)
class FloatSlider:
    """A float slider from ``min`` to ``max`` (``log=True``: logarithmic, base 10)."""

    min: float
    max: float
    default: float
    label: str
    step: float = 0.01
    log: bool = False
    readout_format: str = ".3g"

    def __post_init__(self):
        if not self.min <= self.default <= self.max:
            raise ValueError(f"default={self.default} is out of range [{self.min}, {self.max}]")
        if self.log and self.min <= 0:
            raise ValueError(f"min={self.min} must be > 0 for a log slider")

    def values(self):
        return sorted({self.min, self.max, self.default})

    def make(self):
        import math

        import ipywidgets as W

        common = dict(description=self.label, continuous_update=False,
                      readout_format=self.readout_format,
                      style={"description_width": "initial"}, layout=W.Layout(width="95%"))
        if self.log:
            return W.FloatLogSlider(value=self.default, base=10, min=math.log10(self.min),
                                    max=math.log10(self.max), step=self.step, **common)
        return W.FloatSlider(value=self.default, min=self.min, max=self.max, step=self.step,
                             **common)


@dataclass(frozen=True)
class Dropdown:
    """A choice among ``options``."""

    options: tuple
    default: object
    label: str

    def __post_init__(self):
        if self.default not in self.options:
            raise ValueError(f"default={self.default!r} is not one of {self.options}")

    def values(self):
        return list(self.options)

    def make(self):
        import ipywidgets as W

        return W.Dropdown(options=list(self.options), value=self.default,
                          description=self.label, style={"description_width": "initial"})


@dataclass(frozen=True)
class Demo:
    """An interactive demo.

    Attributes:
        name: Registry key.
        func: Pure function of the control values returning a matplotlib Figure.
        controls: Parameter name -> control.
        summary: Optional function of the same parameters returning the numbers the figure
            shows, as text (printed under the figure; the chapter prints it at the defaults
            in an ordinary cell so nbval compares it).
        questions: Thought questions the chapter asks about this demo.
    """

    name: str
    func: Callable
    controls: dict
    summary: Callable | None = None
    questions: tuple = field(default_factory=tuple)

    def defaults(self) -> dict:
        return {k: c.default for k, c in self.controls.items()}


DEMOS: dict[str, Demo] = {}


def register(demo: Demo) -> Demo:
    """Add ``demo`` to :data:`DEMOS` (names must be unique)."""
    if demo.name in DEMOS:
        raise ValueError(f"demo name={demo.name!r} is already registered")
    DEMOS[demo.name] = demo
    return demo


def get(name: str) -> Demo:
    """The demo called ``name`` (with a "did you mean" on a miss)."""
    return DEMOS[v.choice("name", name, DEMOS)]


def summary(name: str, **params) -> str:
    """The demo's summary text at its defaults (overridden by ``params``)."""
    demo = get(name)
    if demo.summary is None:
        raise ValueError(f"demo {name!r} has no summary")
    return demo.summary(**{**demo.defaults(), **params})


def show(name: str):
    """Build the demo's sliders and output; returns the widget box to display."""
    import ipywidgets as W
    from IPython.display import display

    demo = get(name)
    ctrls = {k: c.make() for k, c in demo.controls.items()}

    def _draw(**kw):
        display(demo.func(**kw))
        if demo.summary is not None:
            print(demo.summary(**kw))

    out = W.interactive_output(_draw, ctrls)
    return W.VBox([W.VBox(list(ctrls.values())), out])


def questions(name: str):
    """The demo's thought questions as a Markdown list (for display in the chapter)."""
    from IPython.display import Markdown

    return Markdown("\n".join(f"{i}. {q}" for i, q in enumerate(get(name).questions, 1)))


from . import ch01  # noqa: E402,F401  (registers the chapter's demos)
from . import ch02, ch03, ch04, ch05, ch06, ch07, ch08  # noqa: E402,F401
