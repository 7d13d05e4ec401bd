"""Formatting only: numbers with SI prefixes and units, and tables generated from data.

>>> fmt_rate(450e9)
'450 GB/s'
>>> fmt_time(2.56e-5)
'25.6 µs'
>>> fmt_bytes(8 * 2**30, binary=True)
'8 GiB'
"""

from __future__ import annotations

import html
import math
import re

from . import _validate as v

_PREFIX = {15: "P", 12: "T", 9: "G", 6: "M", 3: "k", 0: "", -3: "m", -6: "µ", -9: "n"}
_BIN = [(2**50, "Pi"), (2**40, "Ti"), (2**30, "Gi"), (2**20, "Mi"), (2**10, "Ki"), (1, "")]
DIRECTIONS = ("per direction", "bidirectional", "both directions", "read + write")
"""Direction labels :func:`fmt_rate` may append."""
MAX_DIGITS = 15
"""Most significant figures a float can honestly show."""


def _digits(digits) -> int:
    return v.integer("digits", digits, lo=1, hi=MAX_DIGITS)


def _sig(x: float, digits: int) -> str:
    if x == 0:
        return "0"
    d = max(digits - 1 - int(math.floor(math.log10(abs(x)))), 0)
    s = f"{x:.{d}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def fmt_si(x: float, unit: str, digits: int = 3) -> str:
    """``x`` with a decimal SI prefix and ``digits`` significant figures: ``'1.8 TB/s'``.

    Args:
        x: The value in SI base units (any finite number).
        unit: Unit symbol appended after the prefix, e.g. ``"B/s"``.
        digits: Significant figures, 1 .. 15.
    """
    v.number("x", x)
    digits = _digits(digits)
    if x == 0:
        return f"0 {unit}"
    exp = min(max(int(math.floor(math.log10(abs(x)) / 3)) * 3, -9), 15)
    if abs(float(_sig(x / 10.0**exp, digits))) >= 1000 and exp < 15:
        exp += 3
    return f"{_sig(x / 10.0**exp, digits)} {_PREFIX[exp]}{unit}"


def fmt_rate(bytes_per_s: float, digits: int = 3, direction: str | None = None) -> str:
    """A bandwidth in bytes/s (>= 0) with decimal prefix; optionally append its direction
    (None or one of :data:`DIRECTIONS`).

    >>> fmt_rate(450e9, direction="per direction")
    '450 GB/s per direction'
    """
    v.non_negative("bytes_per_s", bytes_per_s)
    if direction is not None:
        v.choice("direction", direction, DIRECTIONS)
    s = fmt_si(bytes_per_s, "B/s", digits)
    return f"{s} {direction}" if direction else s


def fmt_bits(bits_per_s: float, digits: int = 3) -> str:
    """A bit rate (value already in bits/s, >= 0): ``'400 Gb/s'``."""
    v.non_negative("bits_per_s", bits_per_s)
    return fmt_si(bits_per_s, "b/s", digits)


def fmt_time(seconds: float, digits: int = 3) -> str:
    """A duration: ``'25.6 µs'``, ``'1.5 ms'``, ``'4.2 s'``; hours and days past 1 h."""
    v.non_negative("seconds", seconds)
    digits = _digits(digits)
    if seconds >= 86400:
        return f"{_sig(seconds / 86400, digits)} days"
    if seconds >= 3600:
        return f"{_sig(seconds / 3600, digits)} h"
    if seconds >= 1:
        return f"{_sig(seconds, digits)} s"
    return fmt_si(seconds, "s", digits)


def fmt_bytes(n_bytes: float, binary: bool = False, digits: int = 3) -> str:
    """A size: decimal (``'140 GB'``) or, when the quantity is spelled binary, ``'8 GiB'``."""
    v.non_negative("n_bytes", n_bytes)
    v.flag("binary", binary)
    digits = _digits(digits)
    if not binary:
        return fmt_si(n_bytes, "B", digits)
    for scale, p in _BIN:
        if n_bytes >= scale or scale == 1:
            return f"{_sig(n_bytes / scale, digits)} {p}B"
    raise AssertionError("unreachable")


def fmt_ratio(x: float, digits: int = 2) -> str:
    """A ratio as ``'9×'``."""
    v.number("x", x, lo=0)
    digits = _digits(digits)
    return f"{_sig(x, digits)}×"


def fmt_pct(fraction: float, digits: int = 3) -> str:
    """A fraction as a percentage: ``0.875 -> '87.5 %'``. Below a thousandth of a per cent
    it says so rather than print ``'0.000000000018 %'`` or ``'1.8 × 10⁻¹¹ %'`` (a power of
    ten in a percentage reads as float noise; :func:`fmt_num` of the fraction gives the
    magnitude where it matters); a negative one that small is a rounding residue of a
    difference that is zero, and prints as ``'0 %'``.

    >>> fmt_pct(0.875), fmt_pct(1.8e-13), fmt_pct(-2e-17), fmt_pct(0)
    ('87.5 %', 'under 0.001 %', '0 %', '0 %')
    """
    v.number("fraction", fraction)
    digits = _digits(digits)
    if 0 < abs(100 * fraction) < 1e-3:
        return "under 0.001 %" if fraction > 0 else "0 %"
    return f"{_sig(100 * fraction, digits)} %"


def fmt_count(n, noun: str, plural: str | None = None) -> str:
    """A count with its noun agreeing: ``'1 switch'``, ``'2,048 switches'``, ``'1.5
    buffers'`` (whole numbers grouped, others to 3 significant figures).

    Args:
        n: The count (>= 0).
        noun: The singular noun.
        plural: The plural (default: ``noun + "es"`` after s, x, ch or sh, else ``+ "s"``).

    >>> fmt_count(1, "device"), fmt_count(16384, "GPU"), fmt_count(3, "switch")
    ('1 device', '16,384 GPUs', '3 switches')
    """
    n = v.number("n", n, lo=0)
    v.instance("noun", noun, str, "a noun")
    if plural is None:
        plural = noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")
    text = f"{int(n):,}" if float(n).is_integer() else format(float(n), ".3g")
    return f"{text} {noun if n == 1 else plural}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt_num(x: float) -> str:
    """A number as a person reads it: grouped digits (``'1,024'``, ``'64.6'``), ``k``/``M``/
    ``G`` from 10,000 on (``'16.4 k'``), two significant figures below 1 (``'0.0078'``) and
    a power of ten below 0.001 (``'2.5 × 10⁻⁶'``). Built only from Python format specs
    (``,.Nf``, ``.2g``, ``.3g``, ``.1e``) so the site's script (``interlib-live.js``, which
    formats like Python) gives the same text.

    >>> fmt_num(1024), fmt_num(16384), fmt_num(0.0078125), fmt_num(1e-6), fmt_num(64.56)
    ('1,024', '16.4 k', '0.0078', '1 × 10⁻⁶', '64.6')
    """
    x = float(v.number("x", x))
    ax = abs(x)
    if ax == 0:
        return "0"
    if ax >= 1e4:
        for exp, p in ((9, "G"), (6, "M"), (3, "k")):
            if ax >= 10.0 ** exp * 0.9995 or exp == 3:
                s = format(x / 10.0 ** exp, ".3g")
                if "e" not in s and abs(float(s)) < 1000:
                    return f"{s} {p}"
        return format(x, ",.0f")
    if ax >= 1:
        d = max(0, 2 - int(math.floor(math.log10(ax))))
        s = format(x, f",.{d}f")
        return s.rstrip("0").rstrip(".") if "." in s else s
    if ax >= 1e-3:
        return format(x, ".2g")
    mant, exp = format(x, ".1e").split("e")
    mant = mant.rstrip("0").rstrip(".")
    return f"{mant} × 10{str(int(exp)).translate(_SUPERSCRIPT)}"


READOUT_NUM = "num"
"""The readout format a demo control may name instead of a Python format spec: the value
as :func:`fmt_num` writes it."""


def fmt_readout(x, spec: str) -> str:
    """A control's readout: ``format(x, spec)``, or :func:`fmt_num` for ``spec="num"``."""
    v.instance("spec", spec, str, "a format spec such as '.3g', or 'num'")
    return fmt_num(x) if spec == READOUT_NUM else format(x, spec)


class Table:
    """A small table generated from data, shown as HTML in notebooks and as aligned text
    elsewhere (so nbval compares a stable plain-text form).

    Args:
        columns: Column headings.
        rows: Row values (already formatted strings or numbers).
        caption: Optional caption (sources go here).
    """

    def __init__(self, columns, rows, caption: str = ""):
        self.columns = [str(c) for c in columns]
        self.rows = [[str(x) for x in r] for r in rows]
        for i, r in enumerate(self.rows):
            if len(r) != len(self.columns):
                raise ValueError(f"rows[{i}] has {len(r)} cells; expected {len(self.columns)}")
        self.caption = caption

    def __repr__(self) -> str:
        widths = [max(len(c), *(len(r[i]) for r in self.rows)) if self.rows else len(c)
                  for i, c in enumerate(self.columns)]
        line = " | ".join(c.ljust(w) for c, w in zip(self.columns, widths))
        out = [line, "-+-".join("-" * w for w in widths)]
        out += [" | ".join(x.ljust(w) for x, w in zip(r, widths)) for r in self.rows]
        if self.caption:
            out.append(self.caption)
        return "\n".join(out)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{_cell_html(c)}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{_cell_html(x)}</td>" for x in r) + "</tr>"
                       for r in self.rows)
        cap = f"<caption>{_cell_html(self.caption)}</caption>" if self.caption else ""
        # The wrapper scrolls sideways when the table is wider than the page and the site's
        # table script has not re-laid it out; focusable, so a keyboard can scroll it too.
        return (f'<div class="interlib-table-wrap" tabindex="0" role="group" '
                f'aria-label="Scrollable table">'
                f'<table class="interlib-table">{cap}<thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table></div>")


_URL = re.compile(r"https?://[^\s<>\"']+")
_LONG = 18
"""A run of this many characters or more without a space may break inside (at the points
:func:`breakable` marks); a shorter one (a number such as ``$4,358,540``, a word) never."""
_BREAK_AFTER = re.compile(r"(?<=[/_(\[,=&?#+])(?=[^\s/_(\[,=&?#+)\]])"
                          r"|(?<=[a-z\d)'\]])(?=\.[A-Za-z_])")


def breakable(token: str) -> list[str]:
    """``token`` (one run of characters without a space) cut where a long URL, path or code
    name may break across lines: after ``/``, ``_``, ``(``, ``[``, ``,``, ``=``, ``&``, ``?``,
    ``#``, ``+`` and before a ``.`` that starts a name. A token shorter than 18 characters, or
    without a letter, is returned whole, so numbers and words are never cut.

    >>> breakable("interlib.specs.inside_box.NVLINK_REPORTED_PER_LINK")
    ['interlib', '.specs', '.inside_', 'box', '.NVLINK_', 'REPORTED_', 'PER_', 'LINK']
    >>> breakable("https://github.com/NVIDIA/nccl-tests")
    ['https://', 'github', '.com/', 'NVIDIA/', 'nccl-tests']
    >>> breakable("$4,358,540"), breakable("2,097,152,000,000,000,000")
    (['$4,358,540'], ['2,097,152,000,000,000,000'])
    """
    v.instance("token", token, str, "text")
    if len(token) < _LONG or not re.search(r"[^\W\d_]", token):
        return [token]
    cuts = [m.start() for m in _BREAK_AFTER.finditer(token)]
    return [token[i:j] for i, j in zip([0, *cuts], [*cuts, len(token)]) if token[i:j]]


def _cell_html(text: str) -> str:
    """A table cell's text as HTML: escaped; URLs as links; long URLs, paths and code names
    with ``<wbr>`` where they may break (:func:`breakable`); a number held to its unit.

    >>> _cell_html("408 ms at 4,096 GPUs, see https://a.io/b")
    '408\xa0ms at 4,096\xa0GPUs, see <a href="https://a.io/b">https://a.io/b</a>'
    """
    out, pos = [], 0
    for m in _URL.finditer(text):
        url = m.group(0).rstrip(".,;:)")
        out.append(_wbr_text(text[pos:m.start()]))
        out.append(f'<a href="{html.escape(url)}">{_wbr_text(url)}</a>')
        pos = m.start() + len(url)
    out.append(_wbr_text(text[pos:]))
    return "".join(out)


# A number and the short unit or noun after it ("408 ms", "4,096 GPUs", "57.6 GB/s") stay on
# one line: the space between them becomes a no-break space in the HTML.
_NUMBER_UNIT = re.compile(r"(?<=\d) (?=[^\s\d][^\s]{0,6}(?:[\s,;:)]|$))")


def _wbr_text(text: str) -> str:
    text = _NUMBER_UNIT.sub("\u00a0", text)
    return "".join("<wbr>".join(html.escape(p) for p in breakable(tok)) if tok.strip(" \t\n")
                   else tok for tok in re.split(r"([ \t\n]+)", text))


class Prose:
    """Figures that a chapter's prose quotes, by name: set in a code cell, quoted in the
    markdown as ``{eval}`prose.name```.

    ``prose["name"] = value`` (or ``prose.name = value``) stores a value; it must be text
    (already formatted, e.g. by :func:`fmt_rate`) or a whole number, so the page shows
    exactly what the code decided. ``tools/execute_notebooks.py`` evaluates every
    ``{eval}`` expression of a markdown cell at that point of the run and stores the result
    in the cell's metadata (``user_expressions``), where JupyterLab (jupyterlab-myst)
    and the book build both read it; the tests check that the stored values are current.

    >>> prose = Prose()
    >>> prose["link"] = fmt_rate(450e9, direction="per direction")
    >>> prose.link
    '450 GB/s per direction'
    >>> prose["2x"] = "no"
    Traceback (most recent call last):
    ...
    ValueError: name='2x' must be a Python identifier (letters, digits, _; not first a digit)
    """

    def __setitem__(self, name, value) -> None:
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
            raise ValueError(f"name={name!r} must be a Python identifier (letters, digits, "
                             f"_; not first a digit)")
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValueError(f"value={value!r} for {name!r} must be text or a whole number "
                             f"(format it first, e.g. with display.fmt_rate)")
        object.__setattr__(self, name, value)

    def __setattr__(self, name, value) -> None:
        self[name] = value

    def __getitem__(self, name):
        try:
            return getattr(self, name)
        except AttributeError:
            raise ValueError(f"name={name!r} is not set; set: {sorted(vars(self))}") from None

    def __repr__(self) -> str:
        return f"Prose({', '.join(sorted(vars(self)))})"
