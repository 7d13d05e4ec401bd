"""Prediction intervals of the collective model, from its cross-validated errors.

Every published point is predicted by the model fitted without its source
(:mod:`interlib.crossval`). The spread of ``log(measured / predicted)`` over those
out-of-sample points, taken per *class* of prediction, gives an 80 % interval for any new
prediction of that class (split-conformal prediction, Vovk et al. 2005; Lei et al. 2018):

* a class is (size regime, GPU-count bucket, network), where the network is ``"one node"``
  for a single NVLink domain, else the fabric kind (InfiniBand, Ethernet, EFA,
  GPUDirect-TCPXO); a class with fewer than :data:`MIN_CLASS_POINTS` points is merged into
  (regime, bucket), then (regime,), then all points;
* with the class's n residuals sorted, the low bound is the ``floor(0.1 (n + 1))``-th and
  the high bound the ``ceil(0.9 (n + 1))``-th (clipped to 1..n): each tail then misses at
  most 10 % of exchangeable new points, so the interval covers at least 80 %.

The bounds are stored in ``interlib/data/crossval.json`` (written by
``python -m interlib.crossval``); :func:`interlib.collectives.predict` reads them here. The
buckets and regimes are defined once, here, and :mod:`interlib.validation` uses them.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

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

MIN_CLASS_POINTS = 15
"""Fewest cross-validated points a class needs to get bounds of its own; thinner classes
use the next coarser class (regime x bucket, then regime, then all points)."""

CROSSVAL_PATH = Path(__file__).resolve().parent / "data" / "crossval.json"
"""The stored cross-validation: each fold's fitted constants and the interval bounds."""


def bucket_name(n_gpus: int) -> str:
    """The :data:`SCALES` bucket of a total GPU count (no argument check: internal)."""
    return next(name for name, lo, hi in SCALES if lo <= n_gpus <= hi)


def regime_names(size_bytes) -> np.ndarray:
    """The :data:`REGIMES` name of each size (array of str; sizes already checked)."""
    s = np.atleast_1d(np.asarray(size_bytes, dtype=float))
    out = np.empty(s.shape, dtype=object)
    for name, lo, hi in REGIMES:
        out[(s >= lo) & (s < hi)] = name
    return out.astype(str)


def network(nodes: int, fabric_kind: str) -> str:
    """The network part of a class: ``"one node"`` or the fabric kind."""
    return "one node" if nodes == 1 else fabric_kind


def class_keys(regime: str, bucket: str, net: str) -> tuple:
    """The class of a prediction from most to least specific (the lookup order)."""
    return ((regime, bucket, net), (regime, bucket), (regime,), ())


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
    """Bounds per class from ``points``, an iterable of ``(regime, bucket, network,
    residual)``: ``{class key: (lo, hi, n)}`` for every class with at least
    :data:`MIN_CLASS_POINTS` points (the root class ``()`` always)."""
    groups: dict = {}
    for reg, buck, net, res in points:
        for key in class_keys(reg, buck, net):
            groups.setdefault(key, []).append(res)
    return {k: (*conformal_bounds(r), len(r)) for k, r in groups.items()
            if len(r) >= MIN_CLASS_POINTS or k == ()}


def lookup(classes: dict, regime: str, bucket: str, net: str) -> tuple:
    """The bounds ``(lo, hi, n)`` of the most specific class in ``classes`` that holds a
    prediction of this regime, bucket and network, and that class's key."""
    for key in class_keys(regime, bucket, net):
        if key in classes:
            return classes[key], key
    raise ValueError("classes has no root class ()")


@lru_cache(maxsize=1)
def stored_classes() -> dict:
    """The interval classes stored in :data:`CROSSVAL_PATH` (``{}`` if it has none)."""
    if not CROSSVAL_PATH.is_file():
        return {}
    raw = json.loads(CROSSVAL_PATH.read_text(encoding="utf-8")).get("intervals", [])
    return {tuple(d["class"]): (d["lo"], d["hi"], d["n"]) for d in raw}


def bounds(busbw, size_bytes, n_gpus: int, nodes: int, fabric_kind: str):
    """The 80 % interval of predicted busbw values: ``(low, high)`` in bytes/s, arrays as
    ``busbw`` (None, None if no intervals are stored)."""
    classes = stored_classes()
    if not classes:
        return None, None
    bb = np.asarray(busbw, dtype=float)
    regs = regime_names(size_bytes)
    lo = np.empty(regs.shape)
    hi = np.empty(regs.shape)
    buck, net = bucket_name(n_gpus), network(nodes, fabric_kind)
    for reg in set(regs.tolist()):
        (a, b, _), _ = lookup(classes, reg, buck, net)
        lo[regs == reg], hi[regs == reg] = a, b
    low, high = bb * np.exp(lo.reshape(bb.shape)), bb * np.exp(hi.reshape(bb.shape))
    if bb.ndim == 0:
        return float(low), float(high)
    return low, high
