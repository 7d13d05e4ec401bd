"""The demo framework: controls, the :class:`Demo` record and its registry
(:data:`DEMOS`), and rendering a demo's figure and numbers (PNG, alt text, summary).

Everything a chapter's demo module needs, with no chapter module imported here; the package
(:mod:`interlib.widgets`) imports the chapters, which register their demos, and re-exports
these names.
"""

from __future__ import annotations

import math
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


LOG_MANTISSAS = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8)
"""The values a logarithmic slider steps through in each decade (x 10^k), with every power
of two in its range when it counts whole things or both its ends are powers of two (GPUs,
hosts, MiB), and always its two ends and its default, exactly: so its ends are the labelled
ends and a slider moved away and back returns to the default (:meth:`IntSlider.positions`)."""


def _power_of_two(x) -> bool:
    return x > 0 and math.log2(x).is_integer()


def log_positions(lo, hi, default, whole: bool) -> list:
    """The positions of a logarithmic slider from ``lo`` to ``hi`` (both > 0): the
    :data:`LOG_MANTISSAS` of every decade within the range, the powers of two (``whole``
    numbers, or both ends powers of two), ``lo``, ``hi`` and ``default``; sorted, whole
    numbers as ints.

    >>> log_positions(2, 64, 8, whole=True)
    [2, 3, 4, 5, 6, 8, 10, 12, 15, 16, 20, 25, 30, 32, 40, 50, 60, 64]
    >>> log_positions(101.0, 2000.0, 200.0, whole=False)[:4], log_positions(101.0, 2000.0, 200.0, whole=False)[-1]
    ([101.0, 120.0, 150.0, 200.0], 2000.0)
    """
    out = {lo, hi, default}
    for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for m in LOG_MANTISSAS:
            x = float(f"{m}e{e}")  # the decimal value itself, not m * 10.0 ** e
            if lo <= x <= hi:
                out.add(x)
    if whole or (_power_of_two(lo) and _power_of_two(hi)):
        for e in range(math.ceil(math.log2(lo)), math.floor(math.log2(hi)) + 1):
            out.add(2.0 ** e)
    if whole:
        return sorted({int(round(x)) for x in out})
    return sorted({float(x) for x in out})


def _linear_positions(c, whole: bool) -> list:
    """The positions of a linear slider: ``min + k * step`` up to ``max`` (the definition
    is checked to put ``max`` and ``default`` on that grid), the default and ends exact."""
    n = int(round((c.max - c.min) / c.step))
    if whole:
        return list(range(c.min, c.max + 1, c.step))
    out = [round(c.min + k * c.step, 12) for k in range(n + 1)]
    out[0], out[-1] = float(c.min), float(c.max)
    out[int(round((c.default - c.min) / c.step))] = float(c.default)
    return out


def _check_grid(c):
    """A linear slider's ``max`` and ``default`` lie on its step grid from ``min`` (else it
    could not reach its labelled end, or would leave its default once touched)."""
    if c.log:
        return
    for name, x in (("max", c.max), ("default", c.default)):
        k = (x - c.min) / c.step
        if abs(k - round(k)) > 1e-9 * max(1.0, abs(k)):
            raise ValueError(f"{name}={x!r} is not on the slider's grid: min={c.min!r} plus "
                             f"a whole number of steps of {c.step!r}")


def _log_slider_widget(c):
    """JupyterLab's view of a logarithmic slider: a SelectionSlider over its positions,
    labelled as its readout (the page's number box is :func:`interlib.widgets.lab.show`'s)."""
    import ipywidgets as W

    return W.SelectionSlider(options=position_options(c, c.positions()), value=c.default,
                             description=c.label, continuous_update=False,
                             style={"description_width": "initial"},
                             layout=W.Layout(width="95%"))


def position_options(c, values) -> list[tuple[str, object]]:
    """``(readout, value)`` for each of ``values`` of slider ``c``: a SelectionSlider's
    options (two values that read the same are told apart by their exact text)."""
    from .. import display

    labels = [display.fmt_readout(x, c.readout_format) for x in values]
    seen = {}
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
    return [(lab if seen[lab] == 1 else value_text(x), x) for lab, x in zip(labels, values)]


def value_text(x) -> str:
    """A number as a reader types it, exactly and without an exponent: ``2,048``,
    ``0.0625``, ``1 × 10⁻⁹`` (below 10⁻⁴, where decimals get long), ``100,000``."""
    from .. import display

    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return str(x)
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        x = int(x)
    if isinstance(x, int):
        return f"{x:,}"
    if abs(x) >= 1e-4:
        text = f"{x:,.6f}".rstrip("0").rstrip(".")
        return text if float(text.replace(",", "")) == x else f"{x:,.10g}"
    return display.fmt_num(x)


def plain_decimal(x) -> str:
    """A number for a number box: plain decimal digits, no grouping and no exponent
    (``0.000001``, ``2048``)."""
    from decimal import Decimal

    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return format(Decimal(repr(x)), "f") if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class IntSlider:
    """An integer slider from ``min`` to ``max`` (``log=True``: logarithmic, stepping
    through :func:`log_positions`; the page adds a box to type an exact value)."""

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
        _check_grid(self)

    def values(self):
        """Extremes and default: what the tests try."""
        return sorted({self.min, self.max, self.default})

    def positions(self) -> list[int]:
        """Every value the slider steps through, ends and default included."""
        if self.log:
            return log_positions(self.min, self.max, self.default, whole=True)
        return _linear_positions(self, whole=True)

    def value_of(self, x) -> int:
        """The control's value from a widget's."""
        return int(round(x))

    def make(self):
        import ipywidgets as W

        if self.log:
            return _log_slider_widget(self)
        return W.IntSlider(value=self.default, min=self.min, max=self.max, step=self.step,
                           description=self.label, continuous_update=False,
                           style={"description_width": "initial"}, layout=W.Layout(width="95%"))


@dataclass(frozen=True)
class FloatSlider:
    """A float slider from ``min`` to ``max`` (``log=True``: logarithmic, stepping through
    :func:`log_positions`; ``step`` is then unused)."""

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
        _check_grid(self)

    def values(self):
        return sorted({self.min, self.max, self.default})

    def positions(self) -> list[float]:
        """Every value the slider steps through, ends and default included."""
        if self.log:
            return log_positions(float(self.min), float(self.max), float(self.default),
                                 whole=False)
        return _linear_positions(self, whole=False)

    def value_of(self, x) -> float:
        """The control's value from a widget's: a value a rounding error off one of its
        positions (JupyterLab's slider computes min + k x step in binary: 0.6000000000000001)
        is that position, so the default comes back exactly."""
        x = float(x)
        if not self.log:
            n = int(round((self.max - self.min) / self.step))
            pos = self.positions()[min(max(int(round((x - self.min) / self.step)), 0), n)]
            if abs(pos - x) <= 1e-9 * max(1.0, abs(x)):
                return pos
        return x

    def make(self):
        import ipywidgets as W

        from .. import display

        if self.log:
            return _log_slider_widget(self)
        fmt = JUPYTER_NUM_FORMAT if self.readout_format == display.READOUT_NUM else \
            self.readout_format
        return W.FloatSlider(value=self.default, min=self.min, max=self.max, step=self.step,
                             description=self.label, continuous_update=False,
                             readout_format=fmt, style={"description_width": "initial"},
                             layout=W.Layout(width="95%"))


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
            one side on the domain), or ``(lo, hi, multiple)`` when its value must also
            be a multiple of a number the others set (the capstone's servers, of TP x PP's
            servers), or ``(lo, hi, multiple, why)`` with the reason in words, for the
            message that refuses a typed value. JupyterLab, the static page and its live
            mode all step the slider through the valid values only (:meth:`positions`)
            and move a value that the others made invalid to the nearest valid one
            (:meth:`resolve`), so its readout is always the value the figure uses.
        groups: Optional ``((title, (key, ...)), ...)``: the controls in titled groups, in
            the controls' own order (every control in exactly one), for a demo with many
            controls (the
            capstone's cluster, network and model). On a phone the page shows the first
            group open and the others folded, so the figure is within the first screen.
    """

    name: str
    func: Callable
    controls: dict
    summary: Callable | None = None
    questions: tuple = field(default_factory=tuple)
    update: Callable | None = None
    limits: Callable | None = None
    groups: tuple = ()

    def defaults(self) -> dict:
        return {k: c.default for k, c in self.controls.items()}

    def valid(self, params: dict) -> dict:
        """``{key: (lo, hi, multiple, why)}`` of the sliders whose valid values follow
        other controls, at the control values ``params``: ``lo``/``hi`` the smallest and
        largest valid values (within the slider's own range), ``multiple`` what every
        valid value is a multiple of (1: any), ``why`` the reason in words (may be "")."""
        if self.limits is None:
            return {}
        out = {}
        for key, spec in self.limits(**params).items():
            c = self.controls[key]
            lo, hi, *rest = spec
            m = rest[0] if rest else 1
            why = rest[1] if len(rest) > 1 else ""
            lo, hi = max(lo, c.min), min(hi, c.max)
            if m > 1:
                lo, hi = -(-lo // m) * m, hi // m * m
            out[key] = (lo, max(lo, hi), m, why)
        return out

    def ranges(self, params: dict) -> dict:
        """``{key: (lo, hi)}`` of the sliders whose range follows other controls, at the
        control values ``params`` (:meth:`valid`'s smallest and largest valid values);
        empty without a ``limits`` hook."""
        return {k: (lo, hi) for k, (lo, hi, _, _) in self.valid(params).items()}

    def positions(self, key: str, params: dict | None = None) -> list:
        """The values slider ``key`` steps through at the control values ``params``
        (default: the defaults): its own positions (:meth:`IntSlider.positions`) that are
        valid there (in range, and multiples where the others ask for one), with the
        smallest and largest valid values and the default (when valid)."""
        c = self.controls[v.choice("key", key, list(self.controls))]
        base = c.positions()
        lim = self.valid(self.defaults() if params is None else params).get(key)
        if lim is None:
            return base
        lo, hi, m, _ = lim
        out = {lo, hi} | {x for x in base if lo <= x <= hi and x % m == 0}
        if lo <= c.default <= hi and c.default % m == 0:
            out.add(c.default)
        return sorted(out)

    def resolve(self, params: dict) -> dict:
        """``params`` with every dependent slider moved to the nearest valid value at the
        others' values (:meth:`valid`): the values the figure uses and the readouts show.
        A value already valid is kept as it is."""
        out = dict(params)
        for key, (lo, hi, m, _) in self.valid(out).items():
            x = min(max(out[key], lo), hi)
            if m > 1 and x % m:
                x = min(max(round(x / m) * m, lo), hi)
            out[key] = type(self.controls[key].default)(x)
        return out

    def refusal(self, key: str, value, params: dict | None = None,
                keeps: bool = True) -> str | None:
        """Why ``value`` typed for slider ``key`` cannot be used at the control values
        ``params`` (default: the defaults), in plain words naming the control by its label
        and (``keeps``) saying which value the demo keeps, ``params[key]``; None when it
        can be used. JupyterLab's and
        the page's number boxes refuse with it (``interlib-live.js`` words its own the
        same way; tests/test_slider_ends.py compares them)."""
        from .. import display

        params = self.defaults() if params is None else params
        c = self.controls[v.choice("key", key, list(self.controls))]
        label = c.label
        keeps = (f" The demo keeps {display.fmt_readout(params.get(key, c.default), c.readout_format)}."
                 if keeps else "")
        if isinstance(value, str):
            text = value.strip().replace(",", "")
            try:
                value = float(text)
            except ValueError:
                shown = value.strip()
                shown = shown if len(shown) <= 20 else shown[:19] + "…"
                return f"{label}: “{shown}” is not a number.{keeps}"
            if value.is_integer() and "." not in text and "e" not in text.lower():
                value = int(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value):
            return f"{label}: {value!r} is not a number.{keeps}"
        if isinstance(c, IntSlider) and not float(value).is_integer():
            return f"{label}: {value_text(value)} is not a whole number.{keeps}"
        lo, hi, m, why = self.valid(params).get(key, (c.min, c.max, 1, ""))
        because = f" ({why})" if why else ""
        if not lo <= value <= hi:
            return (f"{label}: {value_text(value)} is outside {value_text(lo)} to "
                    f"{value_text(hi)}{because}.{keeps}")
        if m > 1 and value % m:
            below = value // m * m
            near = [x for x in (below, below + m) if lo <= x <= hi]
            return (f"{label}: {value_text(value)} is not a multiple of {value_text(m)}" +
                    (f" ({why})" if why else "") + f"; the nearest "
                    f"{'are' if len(near) > 1 else 'is'} "
                    f"{' and '.join(value_text(x) for x in near)}.{keeps}")
        return None


DEMOS: dict[str, Demo] = {}

DEMO_MODULES: dict[str, str] = {}
"""Demo name -> the module that registered it (``interlib.widgets.ch04``): what the live
site's worker imports for a page's demos instead of every chapter's."""


def register(demo: Demo) -> Demo:
    """Add ``demo`` to :data:`DEMOS` (names must be unique)."""
    v.instance("demo", demo, Demo, "a widgets.Demo")
    if demo.groups:
        keys = [k for _, ks in demo.groups for k in ks]
        if keys != list(demo.controls) or not all(
                isinstance(t, str) and t for t, _ in demo.groups):
            raise ValueError(f"groups={demo.groups!r} must give every control of "
                             f"{demo.name!r} exactly once, under a title, in the controls' "
                             f"order ({', '.join(demo.controls)}): one order for the page, "
                             "JupyterLab and the values sent")
    if demo.name in DEMOS:
        raise ValueError(f"demo name={demo.name!r} is already registered")
    DEMOS[demo.name] = demo
    DEMO_MODULES[demo.name] = sys._getframe(1).f_globals.get("__name__", "")
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
