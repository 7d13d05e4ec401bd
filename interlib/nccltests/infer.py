"""What the columns of an nccl-tests table say about the run, whatever its speed.

nccl-tests prints, per size, ``size count type redop root`` and the bandwidths ``algbw``
and ``busbw = algbw x factor`` (NVIDIA/nccl-tests ``src/*.cu`` at a0b82b2, ``*GetBw`` and
``*GetCollByteCount``; ``doc/PERFORMANCE.md``):

==============  ==============  ======================  ==========================
collective      busbw / algbw   size / (count x word)   redop, root
==============  ==============  ======================  ==========================
all_reduce      2 (n - 1) / n   1                       a reduction, -1
reduce_scatter  (n - 1) / n     n                       a reduction, -1
all_gather      (n - 1) / n     n                       ``none``, -1
all_to_all      (n - 1) / n     n                       ``none``, -1
gather, scatter (n - 1) / n     n                       ``none``, a rank
broadcast       1               1                       ``none`` (or absent), a rank
reduce          1               1                       a reduction, a rank
sendrecv        1               1                       a reduction, -1
hypercube       1               n                       blank, -1
==============  ==============  ======================  ==========================

The printed ``count`` is the per-rank element count where the buffer is split across
ranks, so ``size / (count x word size)`` is 1 or the rank count ``n``; the bus factor pins
``n`` for an all-reduce. Printed bandwidths are rounded (two decimals of GB/s), so every
row gives an interval for the factor, and only the values inside every row's interval
are kept: a slow run (0.24 GB/s) constrains it as surely as a fast one, only less
tightly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

WORD_BYTES = {"int8": 1, "uint8": 1, "char": 1, "int32": 4, "uint32": 4, "int": 4,
              "int64": 8, "uint64": 8, "half": 2, "float16": 2, "bfloat16": 2, "float": 4,
              "float32": 4, "double": 8, "float64": 8, "f8e4m3": 1, "f8e5m2": 1,
              "fp8_e4m3": 1, "fp8_e5m2": 1}
"""Bytes per element of each nccl-tests ``type`` (``src/common.cu``'s type names)."""

REDUCTIONS = frozenset({"sum", "prod", "max", "min", "avg", "mulsum", "premulsum"})
"""The ``redop`` names of a reducing collective."""

MAX_RANKS = 1_000_000
"""Largest rank count a factor is solved for."""


@dataclass(frozen=True)
class Cells:
    """What one row prints besides the times: the raw cells the inference reads."""

    size: int
    count: int
    type: str | None
    redop: str | None
    root: str | None
    algbw: str
    busbw: str


@dataclass(frozen=True)
class Inference:
    """What the columns say.

    Attributes:
        collective: The one collective the columns allow, or None.
        candidates: Every collective the columns allow (more than one: say which).
        ranks: The rank count the columns pin (count vs size, or the bus factor), or
            None.
        how: In words, how ``collective`` was found.
        how_ranks: In words, how ``ranks`` was found.
    """

    collective: str | None
    candidates: tuple
    ranks: int | None
    how: str
    how_ranks: str = ""


def _half_unit(tok: str) -> float:
    """Half the last printed digit's unit: ``"12.25"`` -> 0.005, ``"1626.5"`` -> 0.05."""
    if "e" in tok.lower():
        mant = tok.lower().split("e")[0]
        exp = int(tok.lower().split("e")[1])
        dec = len(mant.split(".")[1]) if "." in mant else 0
        return 0.5 * 10.0 ** (exp - dec)
    dec = len(tok.split(".")[1]) if "." in tok else 0
    return 0.5 * 10.0 ** -dec


def factor_interval(cells) -> tuple | None:
    """``(lo, hi)``: the busbw / algbw factor every row with both printed above 0 allows,
    or None (no such row, or rows that disagree: two tests mixed)."""
    lo, hi = 0.0, math.inf
    seen = False
    for c in cells:
        try:
            a, b = float(c.algbw), float(c.busbw)
        except ValueError:
            continue
        ha, hb = _half_unit(c.algbw), _half_unit(c.busbw)
        if a - ha <= 0 or b - hb <= 0:
            continue
        seen = True
        lo, hi = max(lo, (b - hb) / (a + ha)), min(hi, (b + hb) / (a - ha))
    if not seen or lo > hi:
        return None
    return lo, hi


def _ratio(cells) -> int | None:
    """``size / (count x word size)`` when every row with a count agrees, else None."""
    ratios = set()
    for c in cells:
        w = WORD_BYTES.get((c.type or "").lower())
        if not w or c.count <= 0 or c.size <= 0:
            continue
        r = c.size / (c.count * w)
        if abs(r - round(r)) > 1e-9:
            return None
        ratios.add(int(round(r)))
    return ratios.pop() if len(ratios) == 1 else None


def _ranks_for(kind: str, lo: float, hi: float) -> list:
    """Rank counts n >= 2 whose factor ``2(n-1)/n`` (kind "2") or ``(n-1)/n`` (kind "1")
    lies in [lo, hi] (at most a few: more means the rows do not pin it)."""
    scale = 2.0 if kind == "2" else 1.0
    if hi >= scale or lo >= scale:
        return []
    n_lo = max(2, math.ceil(scale / (scale - lo) - 1e-9)) if lo > 0 else 2
    n_hi = min(MAX_RANKS, math.floor(scale / (scale - hi) + 1e-9))
    return [n for n in range(n_lo, min(n_hi, n_lo + 5) + 1)
            if lo <= scale * (n - 1) / n <= hi]


_FAMILY = {"all_reduce": "2", "reduce_scatter": "1", "all_gather": "1", "all_to_all": "1",
           "gather": "1", "scatter": "1"}
_SPLIT = {"reduce_scatter", "all_gather", "all_to_all", "gather", "scatter", "hypercube"}
"""Collectives whose printed count is one rank's share (size / (count x word) = ranks)."""


def _fits(f, x: float) -> bool:
    return f is not None and f[0] <= x <= f[1]


def _by_columns(f, n, reducing, plain, rooted, blank) -> list:
    """The collectives a factor interval ``f`` allows at ``n`` ranks (None: unknown), given
    what the redop and root columns say."""
    if n is not None:
        two, part, one = _fits(f, 2 * (n - 1) / n), _fits(f, (n - 1) / n), _fits(f, 1.0)
    else:
        two = f is not None and f[1] > 1.0
        part = f is not None and f[0] < 1.0
        one = _fits(f, 1.0)
    out = []
    if two and reducing and not rooted:
        out.append("all_reduce")
    if part:
        out += (["reduce_scatter"] if reducing else ["gather", "scatter"] if rooted and plain
                else ["all_gather", "all_to_all"] if plain else [])
    if one:
        out += (["reduce"] if rooted and reducing else ["broadcast"] if rooted else
                ["sendrecv"] if reducing else ["hypercube"] if blank else [])
    return list(dict.fromkeys(out))


def infer(cells, ranks: int | None = None, collective: str | None = None) -> Inference:
    """The collective and rank count the columns of ``cells`` allow.

    Args:
        cells: The rows' :class:`Cells`.
        ranks: The rank count the log states elsewhere (Rank lines, NCCL's ``nranks``),
            or None.
        collective: The collective, when the log or the caller names it (the columns then
            only pin the rank count).
    """
    cells = list(cells)
    ops = {(c.redop or "").lower() for c in cells}
    reducing = bool(ops) and ops <= REDUCTIONS
    plain = ops <= {"none", ""}
    blank = ops <= {""} and any(c.redop == "" for c in cells)
    rooted = any(c.root not in (None, "-1") for c in cells)
    r = _ratio(cells)
    f = factor_interval(cells)
    how_r = []
    n = ranks
    if n is None and r is not None and r > 1:
        n = r
        how_r.append(f"{n} ranks from size / (count x word size)")
    if collective is not None:
        cands = [collective]
    else:
        cands = _by_columns(f, n, reducing, plain, rooted, blank)
        if r is not None and len(cands) > 1:  # the count column tells split from whole
            narrowed = [c for c in cands if (c in _SPLIT) == (r > 1)]
            cands = narrowed or cands
    coll = cands[0] if len(cands) == 1 else None
    found_n = None
    if n is None and coll in _FAMILY and f is not None:
        found = _ranks_for(_FAMILY[coll], *f)
        if len(found) == 1:
            found_n = found[0]
            how_r.append(f"{found_n} ranks from busbw / algbw = "
                         + ("2 (n - 1) / n" if _FAMILY[coll] == "2" else "(n - 1) / n"))
    how_c = ""
    if coll and collective is None:
        how_c = (f"{coll} from busbw / algbw" + (", the count column" if r is not None
                                                 else "") + " and the redop and root columns")
        if r is not None and (coll in _SPLIT) != (r > 1):
            how_c += " (the count column does not fit it)"
    n_out = None if ranks is not None else (found_n or (n if n != ranks else None))
    return Inference(coll, tuple(cands), n_out, how_c, "; ".join(how_r))
