"""Prediction intervals of the collective model, from its cross-validated errors.

Every published point is predicted by the model fitted without its source
(:mod:`interlib.crossval`). The spread of ``log(measured / predicted)`` over those
out-of-sample points, taken per *class* of prediction, gives an 80 % interval for any new
prediction of that class (split-conformal prediction, Vovk et al. 2005; Lei et al. 2018):

* a class is a size regime (:data:`REGIMES`) and whether the configuration has been
  measured: a prediction for a GPU architecture and network (one node, or the fabric kind
  across nodes) that some published source has measured takes the regime's 10th and 90th
  percentiles; one for a configuration no source has measured lies further from the data
  and takes the 5th and 95th (:data:`COVERAGE_NEW_CONFIGURATION`), a wider range;
* with a class's n residuals sorted, the low bound is the ``floor(a (n + 1))``-th and the
  high bound the ``ceil((1 - a) (n + 1))``-th (clipped to 1..n), ``a`` half of what the
  range leaves out: each tail then misses at most ``a`` of exchangeable new points.

Why these classes (measured with :func:`interlib.crossval.covered`, each point's range built
without its own source): finer classes (by algorithm, by network, by GPU count) cover
fewer of a source's points than they claim, because a class then holds the errors of few
sources; weighting each source equally (a per-source effect) did the same. On the 542
points of issue 37 (each range built without its own source, the classes falling back to
the coarser one below :data:`MIN_CLASS_POINTS`), coverage and median width (high / low):

=======================================  ========  =======  ==========================
classes                                  coverage  width    latency-bound / transition
=======================================  ========  =======  ==========================
regime x measured (these)                79 %      1.40x    3.97x / 2.41x
regime x one node or not x measured      79 %      1.55x    4.64x / 1.78x
regime x algorithm x measured            74 %      1.62x    3.73x / 1.97x
five size bands x measured               79 %      1.40x    3.97x / 2.40x
five size bands x nodes (1/2/3+)         76 %      1.63x    2.43x / 2.06x
five size bands x algorithm              75 %      1.53x    3.98x / 2.40x
=======================================  ========  =======  ==========================

(five size bands: below 64 KiB, to 1 MiB, to 16 MiB, to 256 MiB, above.) Splitting by
algorithm, as issue 37 suggested, loses coverage (74 %, under the 75 % floor) without a
narrower median; the latency-bound ranges are wide because the model's errors there are.
The coverage and median width of each class on sources it never saw are stored with it
and printed by :func:`describe` and Appendix A.

The bounds are stored in ``interlib/data/crossval.json`` (written by
``python -m interlib.crossval``); :func:`interlib.collectives.predict` reads them here.

The size-regime classifier (:data:`REGIMES`, :func:`regime_names`, :func:`regime`) and the
GPU-count buckets (:data:`SCALES`) are defined here and nowhere else:
:func:`interlib.validation.regime` is this module's :func:`regime`, and every other module
reads the names and bounds from :data:`REGIMES` (``tests/test_intervals.py`` checks that no
other module classifies sizes).
"""

from __future__ import annotations

import json
import math
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import _validate as v
from . import display
from .units import MiB

SCALES = (("<= 8", 1, 8), ("9-72", 9, 72), ("73-512", 73, 512), ("> 512", 513, 10**9))
"""GPU-count buckets ``(name, lowest, highest)`` for the error by scale: one 8-GPU
node, one NVL72 rack or a few nodes, up to a few hundred GPUs, beyond."""

REGIMES = (
    ("latency-bound", 0.0, 1 * MiB),
    ("transition", 1 * MiB, 256 * MiB),
    ("bandwidth-bound", 256 * MiB, float("inf")),
)
"""Message-size regimes ``(name, lower bound inclusive, upper bound exclusive)``, bytes.

Below 1 MiB an all-reduce on an 8-GPU node takes a few tens of microseconds whatever its
size (latency-bound); from 256 MiB up it runs within a few percent of its plateau busbw
(bandwidth-bound); in between, protocols, channel counts and pipeline fill decide.
"""

COVERAGE = 0.8
"""Nominal coverage of the intervals: 80 %."""

COVERAGE_NEW_CONFIGURATION = 0.9
"""The percentiles a configuration no published source has measured takes instead (the
5th and 95th): its errors are those of a source further from the data, and with the 10th
and 90th percentiles such points were covered 62 % of the time out of sample
(``python -m interlib.crossval``, issue 37)."""

MEASURED, NOT_MEASURED = "measured", "not measured"
"""The two values of a class's second part."""

MIN_CLASS_POINTS = 15
"""Fewest cross-validated points a class needs to get bounds of its own; a thinner class
uses all points of that configuration status (every regime)."""

CROSSVAL_PATH = Path(__file__).resolve().parent / "data" / "crossval.json"
"""The stored cross-validation: each fold's fitted constants and the interval bounds."""


def bucket_name(n_gpus: int) -> str:
    """The :data:`SCALES` bucket of a total GPU count (no argument check: internal)."""
    return next(name for name, lo, hi in SCALES if lo <= n_gpus <= hi)


def regime_names(size_bytes):
    """The :data:`REGIMES` name of each size: the regime whose lower bound is at most the
    size and whose upper bound is above it (a size on a boundary belongs to the upper
    regime). The one size-regime classifier of the book.

    Args:
        size_bytes: Message size(s), bytes (> 0), scalar or array.

    Returns:
        An array of str, at least one-dimensional.

    >>> regime_names([1.0, 2**20 - 1, 2**20, 2**28]).tolist()
    ['latency-bound', 'latency-bound', 'transition', 'bandwidth-bound']
    """
    v.positive("size_bytes", size_bytes)
    s = np.atleast_1d(np.asarray(size_bytes, dtype=float))
    out = np.empty(s.shape, dtype=object)
    for name, lo, hi in REGIMES:
        out[(s >= lo) & (s < hi)] = name
    return out.astype(str)


def regime(size_bytes):
    """The :data:`REGIMES` name of a size (a str), or of each size of an array (an array of
    str of the same shape): :func:`interlib.intervals.regime_names` for one value.

    >>> regime(32 * 1024), regime(64 * 2**20), regime(2**30)
    ('latency-bound', 'transition', 'bandwidth-bound')
    """
    names = regime_names(size_bytes)
    return str(names[0]) if np.ndim(size_bytes) == 0 else names.reshape(np.shape(size_bytes))


def network(nodes: int, fabric_kind: str) -> str:
    """The network part of a configuration: ``"one node"`` or the fabric kind."""
    return "one node" if nodes == 1 else fabric_kind


def configuration(arch: str, nodes: int, fabric_kind: str) -> str:
    """What a prediction's distance from the data is judged by: the GPU architecture and
    the network, e.g. ``"Hopper, InfiniBand"`` or ``"Blackwell, one node"``."""
    return f"{arch}, {network(nodes, fabric_kind)}"


def class_keys(regime: str, measured: bool) -> tuple:
    """The class of a prediction, then the coarser one its bounds come from if the class
    is too thin (the lookup order)."""
    status = MEASURED if measured else NOT_MEASURED
    return ((regime, status), (status,))


def coverage_of(key) -> float:
    """The nominal coverage of a class's range: 80 %, 90 % for a configuration not
    measured (:data:`COVERAGE_NEW_CONFIGURATION`)."""
    return COVERAGE_NEW_CONFIGURATION if key[-1] == NOT_MEASURED else COVERAGE


def conformal_bounds(residuals, coverage: float = COVERAGE) -> tuple[float, float]:
    """Split-conformal bounds ``(lo, hi)`` on ``log(measured / predicted)`` from a class's
    residuals: the ``floor(a (n + 1))``-th and ``ceil((1 - a) (n + 1))``-th smallest, with
    ``a = (1 - coverage) / 2``, clipped to the sample.

    >>> conformal_bounds([0.0] * 5 + [1.0] * 4 + [-1.0])
    (-1.0, 1.0)
    """
    r = np.sort(np.asarray(residuals, dtype=float))
    n = r.size
    if n == 0:
        raise ValueError("residuals is empty: a class needs at least one point")
    a = (1.0 - coverage) / 2.0
    lo = min(max(math.floor(round(a * (n + 1), 9)), 1), n)  # round: 0.1 x 20 is 1.999...
    hi = min(max(math.ceil(round((1.0 - a) * (n + 1), 9)), 1), n)
    return float(r[lo - 1]), float(r[hi - 1])


def fit_classes(points) -> dict:
    """Bounds per class from ``points``, an iterable of ``(regime, residual)`` (the
    cross-validated errors): ``{class key: (lo, hi, n)}``, each regime and all points at
    both coverages (:func:`coverage_of`); a regime with fewer than
    :data:`MIN_CLASS_POINTS` points gets none (its predictions use all points)."""
    groups: dict = {}
    for reg, res in points:
        for measured in (True, False):
            for key in class_keys(reg, measured):
                groups.setdefault(key, []).append(res)
    return {k: (*conformal_bounds(r, coverage_of(k)), len(r)) for k, r in groups.items()
            if len(r) >= MIN_CLASS_POINTS or len(k) == 1}


def lookup(classes: dict, regime: str, measured: bool) -> tuple:
    """The bounds ``(lo, hi, n)`` of the class of a prediction of this regime whose
    configuration is (or is not) measured, and that class's key."""
    for key in class_keys(regime, measured):
        if key in classes:
            return classes[key], key
    raise ValueError("classes has no class of all points for this configuration status")


@lru_cache(maxsize=1)
def _stored() -> dict:
    if _SUSPENDED or not CROSSVAL_PATH.is_file():
        return {}
    return json.loads(CROSSVAL_PATH.read_text(encoding="utf-8"))


_SUSPENDED: list = []


@contextmanager
def suspended():
    """While this runs, no interval is stored as far as predictions go (``predict`` gives
    none), whatever :data:`CROSSVAL_PATH` holds, and the file is not touched:
    :func:`interlib.crossval.write` refits the model inside it, so a refit stopped half-way
    leaves the file as it was."""
    _SUSPENDED.append(True)
    _stored.cache_clear()
    try:
        yield
    finally:
        _SUSPENDED.pop()
        _stored.cache_clear()


def stored_classes() -> dict:
    """The interval classes stored in :data:`CROSSVAL_PATH`, ``{key: (lo, hi, n)}`` (``{}``
    if it has none)."""
    return {tuple(d["class"]): (d["lo"], d["hi"], d["n"])
            for d in _stored().get("intervals", [])}


def class_stats() -> dict:
    """What each stored class did out of sample, ``{key: {"coverage", "width", "points",
    "sources"}}``: the share of its points inside their range built without their own
    source, the median width (high / low) of those ranges, and its points and sources."""
    return {tuple(d["class"]): {k: d[k] for k in ("coverage", "width", "points", "sources")}
            for d in _stored().get("intervals", []) if "coverage" in d}


def measured_configurations() -> frozenset:
    """The configurations (:func:`configuration`) some published source measured."""
    return frozenset(_stored().get("configurations", []))


def clear_cache() -> None:
    """Forget the stored file read so far (after ``python -m interlib.crossval`` wrote it)."""
    _stored.cache_clear()


def bounds(busbw, size_bytes, arch: str, nodes: int, fabric_kind: str):
    """The interval of predicted busbw values: ``(low, high, classes)``, the bounds in
    bytes/s as ``busbw`` and the key of the class each size's bounds came from (a tuple,
    one per size), or ``(None, None, None)`` if no intervals are stored. The range is 80 %
    for a measured configuration (:func:`configuration`), 90 % otherwise."""
    classes = stored_classes()
    if not classes:
        return None, None, None
    measured = configuration(arch, nodes, fabric_kind) in measured_configurations()
    bb = np.asarray(busbw, dtype=float)
    regs = regime_names(size_bytes)
    lo = np.empty(regs.shape)
    hi = np.empty(regs.shape)
    keys = [None] * regs.size
    for reg in set(regs.tolist()):
        (a, b, _), key = lookup(classes, reg, measured)
        lo[regs == reg], hi[regs == reg] = a, b
        for i in np.flatnonzero(regs == reg):
            keys[i] = key
    low, high = bb * np.exp(lo.reshape(bb.shape)), bb * np.exp(hi.reshape(bb.shape))
    if bb.ndim == 0:
        return float(low), float(high), tuple(keys)
    return low, high, tuple(keys)


def describe(prediction) -> str:
    """One plain sentence on a prediction's range: which class of published errors its
    bounds came from, and how that class's ranges did on sources they never saw (the
    share of measurements inside, and the median width, high over low).

    Args:
        prediction: A :class:`interlib.collectives.Prediction` from ``predict``.

    Returns:
        The sentence; for a prediction without intervals (``nccl_estimate``, or no stored
        cross-validation) one that says so.
    """
    keys = getattr(prediction, "interval_class", "missing")
    if keys == "missing" or not hasattr(prediction, "busbw_low"):
        raise ValueError(f"prediction={prediction!r:.60} must be a collectives.Prediction")
    if keys is None:
        return ("This estimate has no range: ranges come with collectives.predict, from the "
                "model's cross-validated errors on published runs.")
    stats = class_stats()
    parts = []
    for key in dict.fromkeys(keys):
        st = stats.get(key)
        regime_part = f"{key[0]} sizes ({regime_bounds(key[0])})" if len(key) == 2 \
            else "all sizes"
        conf = ("a GPU and network that published runs have measured" if key[-1] == MEASURED
                else "a GPU and network no published run has measured, so a wider "
                     f"{display.fmt_pct(COVERAGE_NEW_CONFIGURATION, 2)} range")
        text = f"{regime_part} on {conf}"
        if st:
            text += (f": on {st['points']} points from {st['sources']} sources it never saw, "
                     f"such ranges held {display.fmt_pct(st['coverage'], 2)} of the "
                     f"measurements with a median width of {display.fmt_ratio(st['width'], 3)}")
        parts.append(text)
    return ("The range comes from the model's out-of-sample errors on published runs of "
            + "; and for ".join(parts) + ".")


def regime_bounds(name: str) -> str:
    """The size range of a regime (:data:`REGIMES`) in words, from its bounds.

    >>> [regime_bounds(r[0]) for r in REGIMES]
    ['below 1 MiB', '1 MiB to 256 MiB', '256 MiB and above']
    """
    v.choice("name", name, [r[0] for r in REGIMES])
    _, lo, hi = next(r for r in REGIMES if r[0] == name)
    f = lambda x: display.fmt_bytes(x, binary=True)  # noqa: E731
    if lo <= 0:
        return f"below {f(hi)}"
    if hi == float("inf"):
        return f"{f(lo)} and above"
    return f"{f(lo)} to {f(hi)}"
