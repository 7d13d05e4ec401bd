"""Reading a typed answer: one rule set for Python and for the site's in-page checks.

A reader types ``"549.1 ms"``, ``"549.1ms"``, ``"0.549 s"``, ``"549,1"``, ``"9.5%"`` or a
bare number. :func:`evaluate` reads it against a question's *spec* (a plain dict: the
answer, its unit, the tolerance, the question's known mistakes and its two hints) and
returns ``(verdict, message)``, with verdict ``"right"``, ``"close"``, ``"wrong"`` or
``"invalid"`` (the input could not be read as an answer: the message says why). It never
raises on what a reader types.

The same spec is written into the page (``data-check``), and ``answers.js`` (beside this
file; inlined into every quiz and problem) implements :func:`evaluate` step for step in
JavaScript, reading the tables of :data:`RULES` (units, usual slips, messages), which are
written into the page too. ``tests/test_answers.py`` runs both on one list of cases and
requires the same verdict and the same message; the unit factors are checked against
``pint``'s definitions (the developer's environment; the reader's needs no unit library:
the vocabulary of answers is small and closed, and the site's checker must be plain
JavaScript, so one table serves both).

The rules, in order:

1. Nothing (``None``): *not answered*. Empty, not a number, ``NaN``/``inf``: an *invalid*
   message saying what to type (the typed text echoed, cut short when long). A number
   typed in Python is read whatever its type: ``int``, ``float``, numpy scalars and 0-d
   arrays, ``Decimal``, ``Fraction``; ``True``, arrays and other objects are not numbers.
2. Commas: ``1,234.5`` is a thousands separator; ``549,1`` is read as a decimal comma and
   the message says so. ``4,893`` is ambiguous (a thousands separator, or a decimal comma
   as many locales write it): read as 4,893 unless only 4.893 is right, and the message
   says which reading was taken. Anything else with a comma is refused with how to write it.
3. A typed unit is converted to the question's unit; an unknown unit or another dimension
   (a time for a rate) is *invalid*, named. If the bare number fits the question's unit
   better than the converted one (``549.1 s`` for 549.1 ms; ``20 KiB`` for 20 kB), the
   message says the number is right but its unit is not. A bare number is in the
   question's unit only: a bare value that is the answer in binary units (KiB for kB,
   GiB for GB) is that slip, named with its factor, even inside the tolerance.
4. Within the tolerance: *right*. An exact answer (a count, a threshold) must be that
   whole number.
5. The question's own known mistakes, then the usual slips, each named by its factor:
   8 (bits and bytes), 1,000 (a unit prefix), 1,024 and its powers (binary prefixes),
   2 (one direction or both, for a rate), 100 (a fraction for a percentage), 10 (a power
   of ten).
6. Within three tolerances: *close*; else *too low* / *too high*, each with the hint for
   that side, in one phrase.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from .. import units as U

#: "close" is within this many tolerances of the right value
CLOSE_FACTOR = 3.0

# dimension -> how a message names it
_DIMS = {"time": "a time", "data": "an amount of data", "rate": "a data rate",
         "number": "a plain number", "money": "a sum of money", "length": "a length"}


def _units() -> dict:
    """alias -> [dimension, factor to the dimension's base unit, canonical name]."""
    t: dict[str, list] = {}

    def add(names, dim, factor, canon=None):
        names = names.split()
        for n in names:
            t[n] = [dim, factor, canon or names[0]]

    add("s sec secs second seconds", "time", U.s)
    add("ms msec millisecond milliseconds", "time", U.ms)
    add("us µs μs microsecond microseconds", "time", U.us, "µs")
    add("ns nanosecond nanoseconds", "time", U.ns)
    add("min minute minutes", "time", U.minute)
    add("h hour hours", "time", U.hour)
    add("day days", "time", U.day)
    for p, f in (("", U.B), ("k", U.kB), ("K", U.kB), ("M", U.MB), ("G", U.GB),
                 ("T", U.TB), ("P", U.PB)):
        canon = ("k" if p in ("k", "K") else p) + "B"
        add(f"{p}B {p}byte {p}bytes", "data", f, canon)
        add(f"{p}B/s {p}Bps {p}byte/s {p}bytes/s", "rate", f / U.s, canon + "/s")
    for p, f in (("Ki", U.KiB), ("Mi", U.MiB), ("Gi", U.GiB), ("Ti", U.TiB)):
        add(f"{p}B", "data", f)
        add(f"{p}B/s", "rate", f / U.s)
    for p, f in (("", U.bit), ("k", U.kbit), ("M", U.Mbit), ("G", U.Gbit), ("T", U.Tbit)):
        add(f"{p}b {p}bit {p}bits", "data", f, f"{p}bit")
        add(f"{p}b/s {p}bit/s {p}bits/s {p}bps", "rate", f / U.s, f"{p}b/s")
    add("%", "number", 0.01)
    add("× x times", "number", 1.0, "×")
    add("GPUs GPU gpus hosts host packets packet links link credits switches servers "
        "nodes", "number", 1.0, "")
    add("$ USD dollars", "money", 1.0, "$")
    add("m metres meters", "length", 1.0)
    t[""] = ["number", 1.0, ""]
    return t


#: The shared rule set (the site reads the same JSON).
RULES = {
    "close": CLOSE_FACTOR,
    "dims": _DIMS,
    "units": _units(),
    # typed ÷ answer, the dimensions (of the question's unit) it applies to, the message,
    # and the largest tolerance to recognise it with (the binary-prefix slips sit 7 % from
    # the answer, inside the "close" window of a 3 % question: recognised only within
    # 0.5 %, as a number computed in GiB is); "percent" is an answer in %, "fraction" a
    # plain-number answer between -1 and 1
    "slips": [
        [8.0, ["data", "rate"], "That is 8 times the answer: bits counted as bytes? "
         "1 byte = 8 bits, and the question asks for {unit}.", 1.0],
        [1 / 8, ["data", "rate"], "That is 1/8 of the answer: bytes where the question "
         "asks for bits? 1 byte = 8 bits, and the question asks for {unit}.", 1.0],
        [1000.0, ["time", "data", "rate"], "That is 1,000 times the answer: a unit prefix "
         "slipped (ms for s, µs for ms, MB for GB)? The question asks for {unit}.", 1.0],
        [1e-3, ["time", "data", "rate"], "That is the answer divided by 1,000: a unit "
         "prefix slipped (s for ms, ms for µs, GB for MB)? The question asks for {unit}.", 1.0],
        [2.0, ["rate"], "That is 2 times the answer: both directions added where the "
         "question asks for one, or a factor of 2 counted twice?", 1.0],
        [0.5, ["rate"], "That is half the answer: one direction where the question counts "
         "both, or a factor of 2 left out?", 1.0],
        [0.01, ["percent"], "That is the answer divided by 100: a fraction where the "
         "question asks for a percentage (0.25 = 25 %)?", 1.0],
        [100.0, ["fraction"], "That is 100 times the answer: a percentage where the question "
         "asks for a fraction (25 % = 0.25)?", 1.0],
        [10.0, ["time", "data", "rate", "number", "money", "length", "percent", "fraction"],
         "That is 10 times the answer: a power of ten or a decimal point slipped?", 1.0],
        [0.1, ["time", "data", "rate", "number", "money", "length", "percent", "fraction"],
         "That is the answer divided by 10: a power of ten or a decimal point slipped?", 1.0],
    ],
    # the binary prefixes: a question in decimal kB (MB, GB, TB; also per second) answered
    # with the number in KiB (MiB ...), or the other way round; the factor is 1,024 to the
    # prefix's power. Recognised within 0.5 % of that number, before the tolerance: a bare
    # KiB value is the slip even when it lies within the tolerance of the kB answer.
    "binary": {"k": [1, "KiB", "kB"], "K": [1, "KiB", "kB"], "M": [2, "MiB", "MB"],
               "G": [3, "GiB", "GB"], "T": [4, "TiB", "TB"], "Ki": [-1, "KiB", "kB"],
               "Mi": [-2, "MiB", "MB"], "Gi": [-3, "GiB", "GB"], "Ti": [-4, "TiB", "TB"]},
    "binary_cap": 0.005,
    "messages": {
        "unanswered": "Not answered yet: type your answer ({example}).",
        "empty": "Type your answer first ({example}).",
        "malformed": "I can't read \u201c{text}\u201d as a number: type digits and, if you "
                     "like, a unit ({example}).",
        "comma": "I can't read \u201c{text}\u201d: write decimals with a point (12.5) and "
                 "commas only between groups of three digits (1,234.5).",
        "nonfinite": "\u201c{text}\u201d is not a finite number: type the value you found "
                     "({example}).",
        "unknown_unit": "I don't know the unit \u201c{typed}\u201d: answer in {unit} "
                        "({example}).",
        "dimension": "\u201c{typed}\u201d measures {tdim}, but the question asks for "
                     "{adim} ({example}).",
        "label": "The number is right in {unit}, but you wrote {typed}: {x} {typed} = "
                 "{xc} {unit}. Give the unit your number is in.",
        "decimal_comma": "(Read \u201c{orig}\u201d as {read}: a decimal comma.) ",
        "ambiguous_decimal": "(\u201c{orig}\u201d could be {thousands} or {read}; read as "
                             "{read}, a decimal comma.) ",
        "ambiguous_thousands": "(\u201c{orig}\u201d read as {thousands}, with a thousands "
                               "separator; for a decimal, write {read}.) ",
        "binary": "That is the answer in {got}, but the question asks for {want}: "
                  "1 {binary} = 1,024{power} bytes, 1 {decimal} = 1,000{power} bytes. Give "
                  "the number in {unit}.",
        "not_whole": "The answer is a whole number ({unit_or_count}): {x} is not one.",
        "right": "Right: {answer}. {why}",
        "mistake": "Not quite: {why}",
        "close": "Close, but outside the {tol} tolerance: check your rounding and the last "
                 "step. {hint}",
        "low": "Too low: {hint}",
        "high": "Too high: {hint}",
    },
}


def fmt(x: float) -> str:
    """A number as the messages print it (4 significant figures; the JavaScript does the
    same): ``549.1``, ``0.5491``, ``549,100``, ``1.234e-05``."""
    r = float(f"{x:.4g}")
    if r == 0:
        return "0"
    a = abs(r)
    if 1e4 <= a < 1e15:
        return f"{int(round(r)):,}"
    if 1e-3 <= a < 1e4:
        return str(int(r)) if r.is_integer() else repr(r)
    m, e = f"{x:.3e}".split("e")
    m = m.rstrip("0").rstrip(".")
    return f"{m}e{int(e)}"


def tolerance_text(tol: float) -> str:
    """The tolerance as a percentage (``0.03 -> '3 %'``), as the messages print it."""
    return f"{fmt(tol * 100)} %"


def _example(unit: str) -> str:
    return f"e.g. 12.5 {unit}" if unit else "e.g. 12.5"


#: How much of a typed text a message echoes before cutting it short ("…")
ECHO = 80


def _clip(text: str) -> str:
    """``text`` as a message echoes it: at most :data:`ECHO` characters."""
    return text if len(text) <= ECHO else text[:ECHO - 1] + "\u2026"


def _answer_text(spec: dict) -> str:
    unit = spec["unit"]
    return fmt(spec["answer"]) + (f" {unit}" if unit else "")


_NUM = re.compile(r"^([-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*)$")
_THOUSANDS = re.compile(r"^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:[eE][-+]?\d+)?$")
_AMBIGUOUS = re.compile(r"^[-+]?\d{1,3},\d{3}$")
_DEC_COMMA = re.compile(r"^[-+]?\d+,\d+$")
_NONFINITE = re.compile(r"^[-+]?(?:nan|inf|infinity|\u221e)$", re.I)


def read(text: str, unit: str):
    """Read ``text`` as an answer in ``unit``: ``(value in unit, note, typed unit or None,
    raw number, other)`` or ``("invalid", message)``. ``other`` is None, or for an
    ambiguous ``4,893`` the decimal-comma reading ``(value in unit, raw number, note)``
    beside the thousands reading. The steps of rules 1 to 3."""
    msg = RULES["messages"]
    ex = _example(unit)
    t = text.replace("\u2212", "-").replace("\u00a0", " ").replace("\u202f", " ").strip()
    shown = _clip(text.strip())
    if t == "":
        return "invalid", msg["empty"].format(example=ex)
    if t.startswith("$"):
        t = t[1:].strip() + " $"
    if _NONFINITE.match(t.split(" ")[0]):
        return "invalid", msg["nonfinite"].format(text=shown, example=ex)
    m = _NUM.match(t)
    if not m:
        return "invalid", msg["malformed"].format(text=shown, example=ex)
    num, rest = m.group(1), m.group(2).strip()
    note, alt = "", None
    if "," in num:
        if _THOUSANDS.match(num):
            if _AMBIGUOUS.match(num):
                alt = num.replace(",", ".")
                note = msg["ambiguous_thousands"].format(orig=num, thousands=num, read=alt)
            num = num.replace(",", "")
        elif _DEC_COMMA.match(num):
            read_as = num.replace(",", ".")
            note = msg["decimal_comma"].format(orig=num, read=read_as)
            num = read_as
        else:
            return "invalid", msg["comma"].format(text=shown)
    x = float(num)
    if not math.isfinite(x):
        return "invalid", msg["nonfinite"].format(text=shown, example=ex)
    typed = rest.replace(" ", "").replace("per", "/").replace("μ", "µ") if rest else None
    factor = 1.0
    if typed is not None and typed != unit:
        units = RULES["units"]
        if typed not in units:
            return "invalid", msg["unknown_unit"].format(typed=_clip(rest),
                                                         unit=unit or "no unit", example=ex)
        tdim, tf, tcanon = units[typed]
        adim, af, acanon = units.get(unit, ["number", 1.0, unit])
        if tdim != adim:
            return "invalid", msg["dimension"].format(typed=_clip(rest), tdim=_DIMS[tdim],
                                                      adim=_DIMS[adim], example=ex)
        if tcanon != acanon:
            factor = tf / af
        else:
            typed = None
    else:
        typed = None
    other = None
    if alt is not None:
        y = float(alt)
        other = (y * factor, y, msg["ambiguous_decimal"].format(
            orig=m.group(1), thousands=m.group(1), read=alt))
    return x * factor, note, (rest if typed is not None else None), x, other


def _near(x: float, target: float, tol: float) -> bool:
    return abs(x - target) <= tol * abs(target)


def as_number(answer):
    """A number typed in Python as a float, else None: ``int``, ``float``, numpy scalars
    and 0-d arrays, ``Decimal``, ``Fraction`` (anything real with ``__float__``); not
    ``bool``, not text, not an array of several values."""
    if isinstance(answer, bool) or isinstance(answer, (str, bytes)) or answer is None:
        return None
    if type(answer).__name__ == "bool_":  # numpy's bool
        return None
    shape = getattr(answer, "shape", None)
    if shape is not None:
        if tuple(shape) != ():
            return None
        answer = answer.item() if hasattr(answer, "item") else answer
        if isinstance(answer, bool):
            return None
    if isinstance(answer, complex) or (hasattr(answer, "imag") and not isinstance(
            answer, (int, float)) and getattr(answer, "imag", 0) != 0):
        return None
    try:
        return float(answer)
    except (TypeError, ValueError, OverflowError, ArithmeticError):
        return None


def _dim(spec: dict) -> str:
    unit, ans = spec["unit"], spec["answer"]
    if unit == "%":
        return "percent"
    if unit == "" and abs(ans) <= 1:
        return "fraction"
    return RULES["units"].get(unit, ["number"])[0]


def _binary(spec: dict):
    """``(factor, binary unit, decimal unit, power)`` of the question's unit prefix (kB:
    1.024, "KiB", "kB", 1), or None for a unit with no decimal/binary twin."""
    unit = spec["unit"]
    if _dim(spec) not in ("data", "rate"):
        return None
    base = unit[:-2] if unit.endswith("/s") else unit
    if not base.endswith("B"):
        return None
    prefix = base[:-1]
    if prefix not in RULES["binary"]:
        return None
    power, binary, decimal = RULES["binary"][prefix]
    suffix = "/s" if unit.endswith("/s") else ""
    return (1.024 ** power, binary + suffix, decimal + suffix, abs(power))


def _judge(spec: dict, x: float, note: str, typed, raw: float) -> tuple[str, str]:
    """Rules 3 (the unit's label and the binary slip) to 6 for a read number."""
    msg = RULES["messages"]
    unit, ans, tol = spec["unit"], spec["answer"], spec["tol"]
    if typed is not None:
        rel_c, rel_r = abs(x - ans) / abs(ans), abs(raw - ans) / abs(ans)
        if rel_r <= tol and rel_r < rel_c:
            verdict = "close" if rel_c <= CLOSE_FACTOR * tol else "wrong"
            return verdict, note + msg["label"].format(unit=unit, typed=typed, x=fmt(raw),
                                                       xc=fmt(x))
    cap = RULES["binary_cap"]
    b = _binary(spec) if typed is None else None
    if b is not None and _near(x, ans / b[0], cap) and not _near(x, ans, cap):
        power = "" if b[3] == 1 else "\u00b2\u00b3\u2074"[b[3] - 2]
        got, want = (b[1], b[2]) if b[0] > 1 else (b[2], b[1])
        return "wrong", note + msg["binary"].format(got=got, want=want, binary=b[1],
                                                    decimal=b[2], power=power, unit=unit)
    exact = spec.get("exact", False)
    if exact and x != round(x):
        return "invalid", note + msg["not_whole"].format(
            unit_or_count=unit or "a count", x=fmt(x))
    if (x == ans) if exact else _near(x, ans, tol):
        return "right", note + msg["right"].format(answer=_answer_text(spec),
                                                   why=spec["right"])
    for value, why in spec["mistakes"]:
        if _near(x, value, tol):
            return "wrong", note + msg["mistake"].format(why=why)
    dim = _dim(spec)
    for factor, dims, why, slip_cap in RULES["slips"]:
        if dim in dims and _near(x, ans * factor, min(tol, slip_cap)):
            return "wrong", note + why.format(unit=unit or "a plain number")
    hint = spec["low"] if x < ans else spec["high"]
    if not exact and _near(x, ans, CLOSE_FACTOR * tol):
        return "close", note + msg["close"].format(tol=tolerance_text(tol), hint=hint)
    return "wrong", note + msg["low" if x < ans else "high"].format(hint=hint)


def evaluate(spec: dict, answer) -> tuple[str, str]:
    """``(verdict, message)`` for ``answer`` (text a reader typed, or a number in the
    question's unit, of any numeric type) to the numeric question ``spec`` (see
    :meth:`interlib.book.quiz.Numeric.spec`). Never raises for what a reader types."""
    msg = RULES["messages"]
    unit = spec["unit"]
    if answer is None:
        return "invalid", msg["unanswered"].format(example=_example(unit))
    if not isinstance(answer, str):
        x = as_number(answer)
        if x is None:
            try:
                shown = str(answer)
            except Exception:  # noqa: BLE001 - an object whose str() fails is still refused
                shown = type(answer).__name__
            return "invalid", msg["malformed"].format(text=_clip(shown),
                                                      example=_example(unit))
        if not math.isfinite(x):
            return "invalid", msg["nonfinite"].format(text=_clip(repr(x)),
                                                      example=_example(unit))
        return _judge(spec, x, "", None, x)
    r = read(answer, unit)
    if r[0] == "invalid":
        return r[0], r[1]
    x, note, typed, raw, other = r
    got = _judge(spec, x, "", typed, raw)
    if other is None:
        return got[0], note + got[1]
    if got[0] == "right":
        return got
    alt = _judge(spec, other[0], "", typed, other[1])
    if alt[0] == "right":
        return alt[0], other[2] + alt[1]
    return got[0], note + got[1]


def script() -> str:
    """The JavaScript checker (``answers.js``) with :data:`RULES`, for inlining."""
    js = (Path(__file__).with_name("answers.js")).read_text(encoding="utf-8")
    return js.replace("/*RULES*/null", json.dumps(RULES, ensure_ascii=True))
