"""Argument validation shared by every public ``interlib`` function.

Each check raises ``ValueError`` whose message names the parameter, the value it got and
the allowed range, e.g. ``size_bytes=-1.0 is out of range: must be >= 0``.
Checks accept scalars or numpy arrays (every element is checked).
"""

from __future__ import annotations

import difflib
import math
from numbers import Integral, Real
from typing import Iterable

import numpy as np


def _show(x) -> str:
    """repr of a value as the reader typed it (numpy scalars shown as plain numbers)."""
    if isinstance(x, np.generic):
        x = x.item()
    return repr(x)


def _bad(value, arr: np.ndarray, mask: np.ndarray):
    """The first offending value: the scalar itself when a scalar was given."""
    return value if np.ndim(value) == 0 else arr[mask].flat[0]


def _has_text(value) -> bool:
    """Whether ``value`` is text, or an array or sequence holding some."""
    if isinstance(value, (str, bytes)):
        return True
    if isinstance(value, np.ndarray):
        items = value.ravel() if value.dtype.kind in "USO" else ()
    elif np.isscalar(value) or not hasattr(value, "__iter__"):
        return False
    else:
        items = np.asarray(value, dtype=object).ravel()
    return any(isinstance(x, (str, bytes)) for x in items)


def _as_array(name: str, value) -> np.ndarray:
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name}={_show(value)} must be a number, not a boolean")
    if value is None:
        raise ValueError(f"{name}=None must be a number")
    if _has_text(value):  # numpy would read "0.1", or a list of such texts, as numbers
        raise ValueError(f"{name}={_show(value)} must be a number, not text")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={_show(value)} must be a number") from None
    if arr.size == 0:
        raise ValueError(f"{name}={_short(value)} must not be empty")
    if not np.all(np.isfinite(arr)):
        bad = _bad(value, arr, ~np.isfinite(arr))
        raise ValueError(f"{name}={_show(bad)} must be a finite number (got NaN or infinity)")
    return arr


def number(name: str, value, *, lo: float | None = None, hi: float | None = None,
           lo_open: bool = False, hi_open: bool = False):
    """Check a finite real (or array of them) within [lo, hi]; return it unchanged.

    ``lo_open``/``hi_open`` make the bound strict (``>`` rather than ``>=``).
    """
    if type(value) is float or (type(value) is int and -2**53 <= value <= 2**53):
        # a plain Python number inside its range is returned without numpy (most calls:
        # the models check every argument); anything else takes the path below, which
        # gives every refusal its message
        if math.isfinite(value) and (lo is None or (value > lo if lo_open else value >= lo)) \
                and (hi is None or (value < hi if hi_open else value <= hi)):
            return value
    arr = _as_array(name, value)
    parts = []
    if lo is not None:
        parts.append(f"{'>' if lo_open else '>='} {lo:g}")
    if hi is not None:
        parts.append(f"{'<' if hi_open else '<='} {hi:g}")
    rng = "must be " + " and ".join(parts)
    if lo is not None:
        bad = arr <= lo if lo_open else arr < lo
        if np.any(bad):
            raise ValueError(f"{name}={_show(_bad(value, arr, bad))} is out of range: {rng}")
    if hi is not None:
        bad = arr >= hi if hi_open else arr > hi
        if np.any(bad):
            raise ValueError(f"{name}={_show(_bad(value, arr, bad))} is out of range: {rng}")
    return value


def positive(name: str, value):
    """Check a finite number (or array) > 0."""
    return number(name, value, lo=0.0, lo_open=True)


def non_negative(name: str, value):
    """Check a finite number (or array) >= 0."""
    return number(name, value, lo=0.0)


def fraction(name: str, value, *, allow_zero: bool = False):
    """Check a number in (0, 1] (or [0, 1] with ``allow_zero``)."""
    return number(name, value, lo=0.0, hi=1.0, lo_open=not allow_zero)


def integer(name: str, value, *, lo: int | None = None, hi: int | None = None) -> int:
    """Check an integer (Python or numpy; floats with integral value are refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        if isinstance(value, Real) and not isinstance(value, (bool, np.bool_)) \
                and math.isfinite(value) and float(value).is_integer():
            raise ValueError(f"{name}={value!r} must be an integer (got a float)")
        raise ValueError(f"{name}={value!r} must be an integer")
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        if lo is not None and hi is not None:
            rng = f"must be between {lo} and {hi}"
        elif lo is not None:
            rng = f"must be >= {lo}"
        else:
            rng = f"must be <= {hi}"
        raise ValueError(f"{name}={value!r} is out of range: {rng}")
    return value


def whole(name: str, value, *, lo: float | None = None, hi: float | None = None):
    """Check a count given as a number or an array of numbers: finite, within [lo, hi], and
    every element a whole number (``8`` and ``8.0`` pass, ``2.5`` is refused); return it
    unchanged."""
    number(name, value, lo=lo, hi=hi)
    arr = np.asarray(value, dtype=float)
    frac = arr != np.floor(arr)
    if np.any(frac):
        raise ValueError(f"{name}={_show(_bad(value, arr, frac))} must be a whole number")
    return value


def items(name: str, value) -> list:
    """Check a non-empty collection of values (list, tuple, array, ...; not a string, a
    mapping or a single number) and return its elements as a list."""
    try:
        if isinstance(value, (str, bytes, dict)):
            raise TypeError
        out = list(value)
    except TypeError:
        raise ValueError(f"{name}={_short(value)} must be a non-empty list or tuple") from None
    if not out:
        raise ValueError(f"{name}={_short(value)} must not be empty")
    return out


def instance(name: str, value, kind, what: str):
    """Check that ``value`` is an instance of ``kind`` (a class or tuple of classes);
    ``what`` says in words what is expected, e.g. ``"a matplotlib Figure"``."""
    if not isinstance(value, kind):
        raise ValueError(f"{name}={_short(value)} must be {what}")
    return value


def _short(value, limit: int = 80) -> str:
    s = _show(value)
    return s if len(s) <= limit else s[:limit - 3] + "..."


def flag(name: str, value) -> bool:
    """Check a yes/no switch: ``True`` or ``False`` (numpy bools too), nothing else."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name}={value!r} must be True or False")


def choice(name: str, value, options: Iterable[str]) -> str:
    """Check that ``value`` is one of ``options``; suggest the closest on a miss."""
    options = list(options)
    if isinstance(value, str) and value in options:
        return value
    hint = ""
    if isinstance(value, str):
        lower = {str(o).lower(): o for o in options}
        close = difflib.get_close_matches(value.lower(), list(lower), n=1, cutoff=0.5)
        if close:
            hint = f"; did you mean {lower[close[0]]!r}?"
    raise ValueError(f"{name}={value!r} is not one of {options}{hint}")


def result(x):
    """Return a plain Python float for a scalar result and a numpy array otherwise, so
    scalar calls print as ``0.02`` rather than ``np.float64(0.02)``."""
    a = np.asarray(x, dtype=float)
    return float(a) if a.ndim == 0 else a
