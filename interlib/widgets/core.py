"""The demo framework: controls, the :class:`Demo` record and its registry
(:data:`DEMOS`), and rendering a demo's figure and numbers (PNG, alt text, summary).

Everything a chapter's demo module needs, with no chapter module imported here; the package
(:mod:`interlib.widgets`) imports the chapters, which register their demos, and re-exports
these names.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

from .. import _validate as v
# The phone layout (narrow_figure and its constants) lives in interlib.plots.phone, so a
# static plot gets it too (issue 34); imported here under the names core has always had.
from ..plots.phone import (NARROW_BELOW_PX, NARROW_COLORBAR_IN,  # noqa: F401
                           NARROW_LABEL_GAP, NARROW_MIN_PT, NARROW_TEXT_SHARE,
                           NARROW_WIDTH_IN, _check_fig, narrow_figure)


LOG_DECADES = 2.0
"""A slider whose range spans more than this many decades must be logarithmic (a linear
one cannot be set: thousands of values per pixel); tests/test_demo_grid.py checks it."""

JUPYTER_NUM_FORMAT = ",.4r"
"""The d3 format JupyterLab's slider readouts use for :data:`interlib.display.READOUT_NUM`:
grouped decimals to 4 significant digits, never an exponent (ipywidgets accepts no d3 ``~``
and d3's SI form writes 0.0078 as "7.8m"). The readout is editable: type an exact value."""


def _check_readout(fmt):
    from .. import display

    v.instance("readout_format", fmt, str, "a format spec such as '.3g', or 'num'")
    try:
        display.fmt_readout(1, fmt)
    except ValueError:
        raise ValueError(f"readout_format={fmt!r} must be a format spec such as '.3g', "
                         "or 'num'") from None


@dataclass(frozen=True)
class IntSlider:
    """An integer slider from ``min`` to ``max`` (``log=True``: logarithmic, its value the
    nearest whole number; the page adds a box to type an exact value)."""

    min: int
    max: int
    default: int
    label: str
    step: int = 1
    log: bool = False
    readout_format: str = ",d"

    def __post_init__(self):
        v.integer("min", self.min, lo=1 if self.log else None)
        v.integer("max", self.max, lo=self.min)
        v.integer("default", self.default, lo=self.min, hi=self.max)
        v.instance("label", self.label, str, "a string")
        v.integer("step", self.step, lo=1)
        v.flag("log", self.log)
        _check_readout(self.readout_format)

    def values(self):
        """Extremes and default: what the tests try."""
        return sorted({self.min, self.max, self.default})

    def value_of(self, x) -> int:
        """The control's value from a widget's (a log slider's is a float)."""
        return int(round(x))

    def make(self):
        import math

        import ipywidgets as W

        common = dict(description=self.label, continuous_update=False,
                      style={"description_width": "initial"}, layout=W.Layout(width="95%"))
        if self.log:
            return W.FloatLogSlider(value=self.default, base=10, min=math.log10(self.min),
                                    max=math.log10(self.max), step=0.01,
                                    readout_format=",.0f", **common)
        return W.IntSlider(value=self.default, min=self.min, max=self.max, step=self.step,
                           **common)


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
        v.number("min", self.min)
        v.number("max", self.max, lo=self.min)
        v.number("default", self.default, lo=self.min, hi=self.max)
        v.instance("label", self.label, str, "a string")
        v.positive("step", self.step)
        v.flag("log", self.log)
        _check_readout(self.readout_format)
        if self.log and self.min <= 0:
            raise ValueError(f"min={self.min} must be > 0 for a log slider")

    def values(self):
        return sorted({self.min, self.max, self.default})

    def value_of(self, x) -> float:
        """The control's value from a widget's."""
        return float(x)

    def make(self):
        import math

        import ipywidgets as W

        from .. import display

        fmt = JUPYTER_NUM_FORMAT if self.readout_format == display.READOUT_NUM else \
            self.readout_format
        common = dict(description=self.label, continuous_update=False,
                      readout_format=fmt,
                      style={"description_width": "initial"}, layout=W.Layout(width="95%"))
        if self.log:
            return W.FloatLogSlider(value=self.default, base=10, min=math.log10(self.min),
                                    max=math.log10(self.max), step=self.step, **common)
        return W.FloatSlider(value=self.default, min=self.min, max=self.max, step=self.step,
                             **common)


def option_label(o) -> str:
    """How an option reads when no label is given: ``True``/``False`` as ``on``/``off``, a
    whole float without its ``.0``, numbers grouped; text as it is."""
    if isinstance(o, bool):
        return "on" if o else "off"
    if isinstance(o, float) and o.is_integer():
        o = int(o)
    if isinstance(o, int):
        return f"{o:,}"
    return str(o)


@dataclass(frozen=True)
class Dropdown:
    """A choice among ``options`` (the values the function gets); ``labels``, if given,
    are what the reader sees for each (words and units: ``"400 Gb/s"``, a product name
    instead of a catalogue id), else :func:`option_label` of each."""

    options: tuple
    default: object
    label: str
    labels: tuple | None = None

    def __post_init__(self):
        v.items("options", self.options)
        v.instance("label", self.label, str, "a string")
        if self.default not in self.options:
            raise ValueError(f"default={self.default!r} is not one of {self.options}")
        if self.labels is not None:
            v.items("labels", self.labels)
            if len(self.labels) != len(self.options) or \
                    not all(isinstance(x, str) and x for x in self.labels):
                raise ValueError(f"labels={self.labels!r} must be one non-empty string per "
                                 f"option ({len(self.options)})")

    def values(self):
        return list(self.options)

    def shown(self) -> list[str]:
        """What the reader sees for each option."""
        return list(self.labels) if self.labels is not None else \
            [option_label(o) for o in self.options]

    def value_of(self, x):
        return x

    def make(self):
        import ipywidgets as W

        return W.Dropdown(options=list(zip(self.shown(), self.options)), value=self.default,
                          description=self.label, style={"description_width": "initial"})


@dataclass(frozen=True)
class TextArea:
    """A box of text the reader pastes (or, on the site, reads from a file: the browser
    reads it locally, nothing is uploaded), at most ``max_chars`` characters."""

    default: str
    label: str
    max_chars: int
    rows: int = 10

    def __post_init__(self):
        v.instance("default", self.default, str, "a string")
        v.instance("label", self.label, str, "a string")
        v.integer("max_chars", self.max_chars, lo=1)
        v.integer("rows", self.rows, lo=1, hi=100)
        if len(self.default) > self.max_chars:
            raise ValueError(f"default has {len(self.default)} characters; max_chars is "
                             f"{self.max_chars}")

    def values(self):
        """The default text: what the tests try."""
        return [self.default]

    def value_of(self, x) -> str:
        """The control's value from a widget's: the text as typed."""
        return x

    def make(self):
        import ipywidgets as W

        return W.Textarea(value=self.default, description=self.label,
                          continuous_update=False, rows=self.rows,
                          style={"description_width": "initial"},
                          layout=W.Layout(width="95%"))


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
        questions: Thought questions the chapter asks about this demo: each a question, or
            a ``(question, answer)`` pair (:mod:`interlib.widgets.questions`).
        update: Optional fast path for :func:`show`: ``update(fig, **params)`` changes, in
            place, a Figure that ``func`` made (at any parameters) into what
            ``func(**params)`` would draw (new line data, texts, line widths), so a slider
            move redraws one existing figure instead of building one. It may return the
            artists it changed: then only those are redrawn over a cached background
            (:class:`LiveFigure`; fixed axes limits make this valid). It must give the
            same picture as ``func``; tests/test_demo_updates.py compares the two pixel by
            pixel. Without it, ``show`` calls ``func`` on every move.
        limits: Optional ``limits(**params) -> {key: (lo, hi)}``: the range of each slider
            that depends on other controls (a ring's steps on its GPU count, the GPUs on
            one side on the domain). JupyterLab, the static page and its live mode all
            move the slider into that range (:meth:`resolve`), so its readout is always
            the value the figure uses.
    """

    name: str
    func: Callable
    controls: dict
    summary: Callable | None = None
    questions: tuple = field(default_factory=tuple)
    update: Callable | None = None
    limits: Callable | None = None

    def defaults(self) -> dict:
        return {k: c.default for k, c in self.controls.items()}

    def ranges(self, params: dict) -> dict:
        """``{key: (lo, hi)}`` of the sliders whose range follows other controls, at the
        control values ``params`` (``limits(**params)``, each within the slider's own
        range); empty without a ``limits`` hook."""
        if self.limits is None:
            return {}
        out = {}
        for key, (lo, hi) in self.limits(**params).items():
            c = self.controls[key]
            lo, hi = max(lo, c.min), min(hi, c.max)
            out[key] = (lo, max(lo, hi))
        return out

    def resolve(self, params: dict) -> dict:
        """``params`` with every dependent slider moved into its range at the others'
        values (:meth:`ranges`): the values the figure uses and the readouts show."""
        out = dict(params)
        for key, (lo, hi) in self.ranges(out).items():
            out[key] = type(self.controls[key].default)(min(max(out[key], lo), hi))
        return out


DEMOS: dict[str, Demo] = {}


def register(demo: Demo) -> Demo:
    """Add ``demo`` to :data:`DEMOS` (names must be unique)."""
    v.instance("demo", demo, Demo, "a widgets.Demo")
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
    _check_params(demo.summary, params)
    return demo.summary(**{**demo.defaults(), **params})


def _check_params(func, params) -> dict:
    """``params`` (None: none) as a dict whose keys ``func`` accepts."""
    import inspect

    if params is None:
        return {}
    v.instance("params", params, dict, "a dict of control values, or None")
    sig = inspect.signature(func).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in sig.values()):
        for key in params:
            v.choice("params", key, list(sig))
    return params


def _check_bbox(bbox):
    from matplotlib.transforms import BboxBase

    if bbox is not None:
        v.instance("bbox", bbox, BboxBase, "a matplotlib Bbox (inches) or None")


def figure_bbox(fig):
    """The area to render, in inches: the whole figure, grown to include anything drawn
    outside it (long tick labels, as ``bbox_inches="tight"`` would), padded 0.1 in.

    Measured once, at a demo's defaults; every later frame reuses it, so the image keeps
    one size while a slider moves and no frame pays for a second, measuring draw.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.transforms import Bbox

    _check_fig(fig)
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    tight = fig.get_tightbbox(canvas.get_renderer())
    full = Bbox.from_bounds(0, 0, *fig.get_size_inches())
    if full.containsx(tight.x0) and full.containsx(tight.x1) and \
            full.containsy(tight.y0) and full.containsy(tight.y1):
        return full
    return Bbox.union([tight.padded(0.1), full])


def figure_png(fig, bbox=None, compress_level: int = 6) -> bytes:
    """The figure rendered to PNG bytes by Agg at its own dpi, cropped to ``bbox`` (inches;
    default: :func:`figure_bbox`). ``compress_level`` is zlib's (1 is fastest)."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    _check_fig(fig)
    _check_bbox(bbox)
    v.integer("compress_level", compress_level, lo=0, hi=9)
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, bbox_inches=bbox or figure_bbox(fig),
                pad_inches=0, facecolor=fig.get_facecolor(), metadata={"Software": None},
                pil_kwargs={"compress_level": compress_level})
    return buf.getvalue()


def _long(text: str) -> bool:
    return "\n" in text or len(text) > 80


def _text_size(text: str) -> str:
    """A long text setting (a pasted log) named by its size, not quoted: alt text stays
    short and never repeats what the reader pasted."""
    n = text.count("\n") + 1
    return f"{n} line{'s' if n != 1 else ''} of text"


def figure_alt(fig, demo_name: str, params: dict) -> str:
    """Alt text for a demo image: the figure's titles and axis labels, then the settings (a
    long text, such as a pasted log, by its number of lines)."""
    _check_fig(fig)
    v.choice("demo_name", demo_name, DEMOS)
    v.instance("params", params, dict, "a dict of control values")
    parts = []
    if getattr(fig, "_suptitle", None) is not None and fig._suptitle.get_text():
        parts.append(fig._suptitle.get_text())
    for ax in fig.axes:
        bits = [t for t in (ax.get_title(), ax.get_title("left"), ax.get_title("right")) if t]
        if ax.get_ylabel() and ax.get_xlabel():
            bits.append(f"{ax.get_ylabel()} against {ax.get_xlabel()}")
        if bits:
            parts.append("; ".join(bits))
    settings = ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else
                         f"{k} = {_text_size(v)}" if isinstance(v, str) and _long(v) else
                         f"{k} = {v}" for k, v in params.items())
    head = " | ".join(parts) or f"Figure of the {demo_name.replace('_', ' ')} demo"
    return f"{head} (settings: {settings})".replace("\n", " ")


def _img_html(png: bytes, alt: str) -> str:
    import base64
    import html

    return (f'<img src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}" '
            f'alt="{html.escape(alt, quote=True)}" style="max-width:100%;height:auto">')


def _pre_html(text: str) -> str:
    import html

    return (f'<pre class="interlib-summary" style="white-space:pre-wrap;margin:0.3em 0">'
            f'{html.escape(text)}</pre>')


class LiveFigure:
    """One Figure that lives as long as a demo with an ``update`` hook.

    ``frame(params)`` updates it in place and returns PNG bytes. When the hook returns the
    artists it changed and the image is the figure's own area, the frame is *blitted*: the
    rest of the figure (axes, ticks, grid, labels) is rendered once and kept as a pixel
    background; each frame restores it and draws only the changed artists, in z-order.
    Otherwise the whole figure is redrawn (still without building a new one).
    """

    def __init__(self, demo: Demo, bbox=None, narrow: bool = False):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.transforms import Bbox

        v.instance("demo", demo, Demo, "a widgets.Demo")
        _check_bbox(bbox)
        v.flag("narrow", narrow)
        self.demo = demo
        self.fig = demo.func(**demo.defaults())
        if narrow:
            narrow_figure(self.fig)
        self.canvas = FigureCanvasAgg(self.fig)
        self.bbox = bbox or figure_bbox(self.fig)
        full = Bbox.from_bounds(0, 0, *self.fig.get_size_inches())
        self.can_blit = bool(abs(self.bbox.get_points() - full.get_points()).max() < 1e-9)
        self._animated: list = []
        self._background = None

    def frame(self, params: dict, compress_level: int = 1) -> bytes:
        changed = self.demo.update(self.fig, **params)
        if not changed or not self.can_blit:
            return figure_png(self.fig, self.bbox, compress_level)
        changed = sorted(dict.fromkeys(changed), key=lambda a: a.get_zorder())
        if changed != self._animated:  # first frame, or other artists: new background
            for a in self._animated:
                a.set_animated(False)
            for a in changed:
                a.set_animated(True)
            self._animated = changed
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
        else:
            self.canvas.restore_region(self._background)
        for a in changed:
            self.fig.draw_artist(a)
        return self._png(compress_level)

    def _png(self, compress_level):
        import io

        from PIL import Image

        w, h = self.canvas.get_width_height(physical=True)
        img = Image.frombuffer("RGBA", (w, h), self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        buf = io.BytesIO()
        img.save(buf, format="png", compress_level=compress_level)
        return buf.getvalue()


def _new_frame(demo: Demo, kw: dict, bbox, compress_level: int, narrow: bool = False):
    """``demo.func(**kw)`` drawn once and closed: ``(png, alt, bbox)`` (``bbox=None``:
    measured on this figure; ``narrow``: laid out for a phone, :func:`narrow_figure`)."""
    fig = demo.func(**kw)
    try:
        if narrow:
            narrow_figure(fig)
        bbox = bbox or figure_bbox(fig)
        return figure_png(fig, bbox, compress_level), figure_alt(fig, demo.name, kw), bbox
    finally:
        # A figure made with pyplot is freed there; the book's figures are pyplot-free, and
        # pyplot is not imported for them (the live site's worker never loads it).
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is not None:
            plt.close(fig)


class DemoFrames:
    """Every frame of one demo after the first: PNG, alt text and summary text for any
    control values, rendered in the demo's render area (measured once, at the defaults, so
    every frame has one size). A demo with an ``update`` hook keeps one
    :class:`LiveFigure` changed in place; one without gets a new figure per frame.
    :func:`show` (JupyterLab) and :func:`interlib.widgets.live.frame` (the site's live
    demos) both draw through it."""

    def __init__(self, demo: Demo, bbox=None, narrow: bool = False):
        v.instance("demo", demo, Demo, "a widgets.Demo")
        _check_bbox(bbox)
        v.flag("narrow", narrow)
        self.demo = demo
        self.narrow = narrow
        self.live = LiveFigure(demo, bbox, narrow) if demo.update is not None else None
        self.bbox = self.live.bbox if self.live is not None else bbox

    def frame(self, kw: dict, compress_level: int = 1) -> tuple[bytes, str, str | None]:
        """``(png, alt, summary text or None)`` at the control values ``kw``."""
        demo = self.demo
        if self.live is not None:
            png, alt = self.live.frame(kw, compress_level), figure_alt(self.live.fig, demo.name, kw)
        else:
            if self.bbox is None:  # the render area, measured at the defaults
                self.bbox = _new_frame(demo, demo.defaults(), None, compress_level,
                                       self.narrow)[2]
            png, alt, _ = _new_frame(demo, kw, self.bbox, compress_level, self.narrow)
        return png, alt, (demo.summary(**kw) if demo.summary is not None else None)


def render(name: str, params: dict | None = None, bbox=None, compress_level: int = 6,
           narrow: bool = False):
    """The demo at its defaults updated by ``params``, as ``(img_html, summary_html,
    bbox)``: what :func:`show` puts in its two HTML widgets, and the render area to reuse
    for the next frame (``bbox=None``: measure it). ``narrow``: the phone layout
    (:func:`narrow_figure`). Exposed for tests and the benchmark."""
    demo = get(name)
    _check_bbox(bbox)
    v.integer("compress_level", compress_level, lo=0, hi=9)
    v.flag("narrow", narrow)
    kw = {**demo.defaults(), **_check_params(demo.func, params)}
    png, alt, bbox = _new_frame(demo, kw, bbox, compress_level, narrow)
    text = _pre_html(demo.summary(**kw)) if demo.summary is not None else ""
    return _img_html(png, alt), text, bbox
