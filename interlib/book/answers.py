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

1. Empty, not a number, ``NaN``/``inf``: an *invalid* message saying what to type.
2. Commas: ``1,234.5`` is a thousands separator; ``549,1`` is read as a decimal comma and
   the message says so; anything else with a comma is refused with how to write it.
3. A typed unit is converted to the question's unit; an unknown unit or another dimension
   (a time for a rate) is *invalid*, named. If the bare number fits the question's unit
   better than the converted one (``549.1 s`` for 549.1 ms; ``20 KiB`` for 20 kB), the
   message says the number is right but its unit is not.
4. Within the tolerance: *right*. An exact answer (a count, a threshold) must be that
   whole number.
5. The question's own known mistakes, then the usual slips (bits for bytes ×8, ms for s
   ×1000, GiB for GB ×1.074, percent for fraction ×100), each named.
6. Within three tolerances: *close*; else *too low* / *too high*, each with the hint for
   that side.
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
        [U.GB / U.GiB, ["data", "rate"], "That is the answer divided by 1.074: binary "
         "units (1 GiB = 1.074 GB) where the question asks for decimal {unit}?", 0.005],
        [U.GiB / U.GB, ["data", "rate"], "That is 1.074 times the answer: decimal units "
         "where the question asks for binary {unit} (1 GiB = 1.074 GB)?", 0.005],
        [0.01, ["percent"], "That is the answer divided by 100: a fraction where the "
         "question asks for a percentage (0.25 = 25 %)?", 1.0],
        [100.0, ["fraction"], "That is 100 times the answer: a percentage where the question "
         "asks for a fraction (25 % = 0.25)?", 1.0],
    ],
    "messages": {
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
        "not_whole": "The answer is a whole number ({unit_or_count}): {x} is not one.",
        "right": "Right: {answer}. {why}",
        "mistake": "Not quite: {why}",
        "close": "Close, but outside the {tol} tolerance: check your rounding and the last "
                 "step. {hint}",
        "low": "Too low. {hint}",
        "high": "Too high. {hint}",
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


def _answer_text(spec: dict) -> str:
    unit = spec["unit"]
    return fmt(spec["answer"]) + (f" {unit}" if unit else "")


_NUM = re.compile(r"^([-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*)$")
_THOUSANDS = re.compile(r"^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:[eE][-+]?\d+)?$")
_DEC_COMMA = re.compile(r"^[-+]?\d+,\d+$")
_NONFINITE = re.compile(r"^[-+]?(?:nan|inf|infinity|\u221e)$", re.I)


def read(text: str, unit: str):
    """Read ``text`` as an answer in ``unit``: ``(value in unit, note, typed unit or None,
    raw number)`` or ``("invalid", message)``. The steps of rules 1 to 3."""
    msg = RULES["messages"]
    ex = _example(unit)
    t = text.replace("\u2212", "-").replace("\u00a0", " ").replace("\u202f", " ").strip()
    if t == "":
        return "invalid", msg["empty"].format(example=ex)
    if t.startswith("$"):
        t = t[1:].strip() + " $"
    if _NONFINITE.match(t.split(" ")[0]):
        return "invalid", msg["nonfinite"].format(text=text.strip(), example=ex)
    m = _NUM.match(t)
    if not m:
        return "invalid", msg["malformed"].format(text=text.strip(), example=ex)
    num, rest = m.group(1), m.group(2).strip()
    note = ""
    if "," in num:
        if _THOUSANDS.match(num):
            num = num.replace(",", "")
        elif _DEC_COMMA.match(num):
            read_as = num.replace(",", ".")
            note = msg["decimal_comma"].format(orig=num, read=read_as)
            num = read_as
        else:
            return "invalid", msg["comma"].format(text=text.strip())
    x = float(num)
    if not math.isfinite(x):
        return "invalid", msg["nonfinite"].format(text=text.strip(), example=ex)
    typed = rest.replace(" ", "").replace("per", "/").replace("μ", "µ") if rest else None
    if typed is None or typed == unit:
        return x, note, None, x
    units = RULES["units"]
    if typed not in units:
        return "invalid", msg["unknown_unit"].format(typed=rest, unit=unit or "no unit",
                                                     example=ex)
    tdim, tf, tcanon = units[typed]
    adim, af, acanon = units.get(unit, ["number", 1.0, unit])
    if tdim != adim:
        return "invalid", msg["dimension"].format(typed=rest, tdim=_DIMS[tdim],
                                                  adim=_DIMS[adim], example=ex)
    if tcanon == acanon:
        return x, note, None, x
    return x * tf / af, note, rest, x


def _near(x: float, target: float, tol: float) -> bool:
    return abs(x - target) <= tol * abs(target)


def evaluate(spec: dict, answer) -> tuple[str, str]:
    """``(verdict, message)`` for ``answer`` (text a reader typed, or a number in the
    question's unit) to the numeric question ``spec`` (see :func:`spec` in
    :mod:`interlib.book.quiz`). Never raises for what a reader types."""
    msg = RULES["messages"]
    unit, ans, tol = spec["unit"], spec["answer"], spec["tol"]
    if isinstance(answer, bool) or answer is None:
        answer = "" if answer is None else str(answer)
    if isinstance(answer, (int, float)):
        if not math.isfinite(answer):
            return "invalid", msg["nonfinite"].format(text=str(answer),
                                                      example=_example(unit))
        answer = repr(float(answer))
    if not isinstance(answer, str):
        return "invalid", msg["malformed"].format(text=str(answer), example=_example(unit))
    r = read(answer, unit)
    if r[0] == "invalid":
        return r
    x, note, typed, raw = r
    if typed is not None:
        rel_c, rel_r = abs(x - ans) / abs(ans), abs(raw - ans) / abs(ans)
        if rel_r <= tol and rel_r < rel_c:
            verdict = "close" if rel_c <= CLOSE_FACTOR * tol else "wrong"
            return verdict, note + msg["label"].format(unit=unit, typed=typed, x=fmt(raw),
                                                       xc=fmt(x))
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
    dim = ("percent" if unit == "%" else "fraction" if unit == "" and abs(ans) <= 1
           else RULES["units"].get(unit, ["number"])[0])
    for factor, dims, why, cap in RULES["slips"]:
        if dim in dims and _near(x, ans * factor, min(tol, cap)):
            return "wrong", note + why.format(unit=unit or "a plain number")
    hint = spec["low"] if x < ans else spec["high"]
    if not exact and _near(x, ans, CLOSE_FACTOR * tol):
        return "close", note + msg["close"].format(tol=tolerance_text(tol), hint=hint)
    return "wrong", note + msg["low" if x < ans else "high"].format(hint=hint)


def script() -> str:
    """The JavaScript checker (``answers.js``) with :data:`RULES`, for inlining."""
    js = (Path(__file__).with_name("answers.js")).read_text(encoding="utf-8")
    return js.replace("/*RULES*/null", json.dumps(RULES, ensure_ascii=True))
