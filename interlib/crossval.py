"""Cross-validation by source: every error the book prints is out of sample.

The model has a few calibrated constants (:data:`FIT_GRID`; NCCL's own constants are not
fitted). They are fitted by one procedure, :func:`fit`, to whatever published points it is
given. The error of a point is the error of the model fitted *without the point's source*
(:func:`source_group`: one published table or page, on one GPU type): leave-one-source-out
cross-validation. So all public data may be used to fit, and no printed error is in-sample.

The procedure (deterministic, no randomness):

1. Start from :data:`START` (the values before cross-validation).
2. For each constant in :data:`FIT_GRID`'s order, try every value of its grid, the others
   held, and keep the one with the smallest loss: the sum over the training points of
   ``|log(predicted busbw / measured busbw)|`` (an L1 loss on the log ratio, which a few
   wild points cannot dominate). A tie keeps the smaller grid value.
3. Repeat step 2 :data:`PASSES` times.

Only points whose prediction depends on a constant enter its search (the others add the
same to every grid value), which keeps a fit to a few seconds. ``python -m
interlib.crossval`` refits everything and writes :data:`~interlib.intervals.CROSSVAL_PATH`:
the fit on all points (the catalogue's values must equal it), each fold's constants and the
interval classes (:mod:`interlib.intervals`). :func:`cross_validate` re-times every point
with its fold's stored constants, so a change to the model shows at once.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

import numpy as np

from . import collectives, intervals, validation as V
from .specs import calibration as C
from .units import KiB, MiB, us

START = C.PRE_CV_VALUES
"""Where the search starts: the values each constant had when fitted to its own rows, before
cross-validation (issue 15)."""


def _geo(lo, hi, n):
    return tuple(float(x) for x in np.geomspace(lo, hi, n))


FIT_GRID = {
    "NET_EFFICIENCY": tuple(round(0.70 + 0.01 * i, 2) for i in range(31)),
    "NVLS_CHUNK_TIME_RACK": _geo(4 * us, 24 * us, 25),
    "TCPXO_STEP_LATENCY": tuple(i * us for i in range(0, 41)),
    "LL_EFFICIENCY": _geo(0.01, 0.5, 23),
    "PIPELINE_WINDOW": tuple(float(2 ** (e / 2)) for e in range(32, 51)),  # 64 KiB..32 MiB
    "PIPELINE_CHUNKS": (1.0, 2.0, 4.0, 8.0, 16.0, 32.0),
    "NVLS_PIPELINE_STEPS_PER_GPU": (0.0, 0.5, 1.0, 2.0, 3.0),
    "LAUNCH_OVERHEAD": tuple(i * 0.5 * us for i in range(0, 81)),
}
"""The values each calibrated constant may take, in the order :func:`fit` fits them (units:
fraction, s, s, fraction, bytes, count, count, s)."""

PASSES = 2
"""How many times :func:`fit` goes through :data:`FIT_GRID`."""

PROCEDURE = "L1 log-ratio, grid coordinate descent, 2 passes, leave-one-source-out (v1)"
"""A name for the procedure, stored with the fits: changing the procedure changes it."""


def source_group(m) -> str:
    """The cross-validation group of a measurement: who published it and on which GPU
    type. For a GitHub repository that is the repository (one publisher's runs, which may
    share a cluster and a method: Together AI's two reports on one B200 cluster, AWS's
    p5 logs), or the single issue for an issue tracker (each issue is another user's
    cluster); elsewhere the page. So a source is held out with everything it shares a
    cluster or a method with (a page that reports two GPU types gives two groups).

    >>> rows = V.load_measurements()
    >>> source_group(rows[0])
    'github.com/Azure/AI-benchmarking-guide [h100-sxm]'
    """
    if not isinstance(m, V.Measurement):
        raise ValueError(f"m={m!r:.60} must be a validation.Measurement")
    url = m.url.split("#")[0].split("://", 1)[-1].rstrip("/")
    parts = url.split("/")
    if parts[0] == "github.com" and len(parts) >= 3:
        keep = 5 if len(parts) >= 5 and parts[3] in ("issues", "pull") else 3
        url = "/".join(parts[:keep])
    return f"{url} [{m.gpu}]"


def group_label(rows) -> str:
    """A short name for a group: its series (row-id prefixes), e.g. ``'SB1/SB4/SBN/SBNR'``."""
    seen: list = []
    for r in rows:
        if r.series not in seen:
            seen.append(r.series)
    return "/".join(seen)


# ----------------------------------------------------------------- fast evaluation
@dataclass
class _Series:
    """Rows that :func:`collectives.predict` can time in one vectorised call."""

    idx: np.ndarray          # positions of the rows in the list given
    args: tuple              # predict's arguments without the size
    nvls: bool
    sizes: np.ndarray
    measured: np.ndarray     # busbw, bytes/s
    one_call: bool           # timed one call at a time through PyTorch
    depends: frozenset = frozenset()


def _series(rows) -> list:
    groups: dict = {}
    for i, r in enumerate(rows):
        key = (r.series, r.system, r.gpu, r.gpus_per_node, r.nodes, r.nics_per_node,
               r.nic_gbps, r.fabric, r.nccl_version, r.collective, r.algorithm,
               V.nvls_disabled(r), V.stated_buffsize(r), V.timed_one_call(r))
        groups.setdefault(key, []).append(i)
    out = []
    for key, idx in groups.items():
        first = rows[idx[0]]
        coll, _, node, g, k, alg = V._call_args(first)
        out.append(_Series(np.array(idx), (coll, node, g, k, alg), not key[11],
                           np.array([rows[i].size_bytes for i in idx]),
                           np.array([rows[i].busbw for i in idx]), key[13]))
    return out


def _busbw(s: _Series) -> np.ndarray:
    coll, node, g, k, alg = s.args
    p = collectives.predict(coll, s.sizes, node, g, k, alg, nvls=s.nvls)
    bb = np.asarray(p.busbw, dtype=float)
    if s.one_call:
        t = np.asarray(p.time_s, dtype=float)
        bb = bb * t / (t + C.TORCH_HOST_OVERHEAD.value)
    return bb


def _dependencies(series) -> None:
    """Which calibrated constants each series' prediction depends on (at the low, middle
    and high values of each grid, the others at :data:`START`)."""
    with collectives.calibrated(START):
        base = [_busbw(s) for s in series]
    deps = [set() for _ in series]
    for name, grid in FIT_GRID.items():
        for x in (grid[0], grid[len(grid) // 2], grid[-1]):
            with collectives.calibrated({**START, name: x}):
                for j, s in enumerate(series):
                    if name not in deps[j] and not np.array_equal(_busbw(s), base[j]):
                        deps[j].add(name)
    for s, d in zip(series, deps):
        s.depends = frozenset(d)


def _loss(series, values) -> float:
    with collectives.calibrated(values):
        return float(sum(np.abs(np.log(_busbw(s) / s.measured)).sum() for s in series))


def fit(rows=None, start: dict | None = None) -> dict:
    """The calibrated constants fitted to ``rows`` by the procedure of this module.

    Args:
        rows: Measurements (default: every shipped row).
        start: Starting values (default :data:`START`).

    Returns:
        ``{name: value}`` for every constant of :data:`FIT_GRID`, SI units.
    """
    rows = V._measurements(rows)
    series = _series(rows)
    _dependencies(series)
    return _fit_series(series, dict(START if start is None else start))


def _launch_losses(series, values: dict, grid) -> np.ndarray:
    """The loss at every launch overhead of ``grid`` from one evaluation: the overhead adds
    the same time to every (algorithm, protocol) candidate, so it never changes a choice,
    and a point's predicted time is its time without it plus the overhead."""
    with collectives.calibrated({**values, "LAUNCH_OVERHEAD": 0.0}):
        t0 = np.concatenate([1.0 / _busbw(s) for s in series])  # time per busbw unit
    tm = np.concatenate([1.0 / s.measured for s in series])
    work = np.concatenate([s.sizes * collectives.bus_factor(s.args[0], s.args[2] * s.args[3])
                           for s in series])
    x = np.asarray(grid)[:, None]
    return np.abs(np.log((work * t0 + x) / (work * tm))).sum(axis=1)


def _fit_series(series, values: dict) -> dict:
    for _ in range(PASSES):
        for name, grid in FIT_GRID.items():
            mine = [s for s in series if name in s.depends]
            if not mine:
                continue
            if name == "LAUNCH_OVERHEAD":
                losses = _launch_losses(mine, values, grid)
            else:
                losses = [_loss(mine, {**values, name: x}) for x in grid]
            values[name] = grid[int(np.argmin(losses))]
    return values


# ------------------------------------------------------------- the folds, stored
def _digest(rows) -> str:
    h = hashlib.sha256(PROCEDURE.encode())
    h.update(json.dumps(FIT_GRID, sort_keys=True).encode())
    for r in rows:
        h.update(f"{r.id}|{r.size_bytes!r}|{r.busbw!r}|{source_group(r)}|{r.note}".encode())
    return h.hexdigest()[:16]


def folds(rows=None) -> dict:
    """``{group: [row index, ...]}`` of :func:`source_group`, in first-row order."""
    rows = V._measurements(rows)
    out: dict = {}
    for i, r in enumerate(rows):
        out.setdefault(source_group(r), []).append(i)
    return out


def refit_all(rows=None) -> dict:
    """Fit on all rows and once per fold without it: ``{"all": {...}, "folds": {group:
    {...}}}`` (slow: a few seconds per fold)."""
    rows = V._measurements(rows)
    series = _series(rows)
    _dependencies(series)
    out = {"all": _fit_series(series, dict(START)), "folds": {}}
    for group, idx in folds(rows).items():
        held = set(idx)
        train = [s for s in series if not held & set(s.idx.tolist())]
        out["folds"][group] = _fit_series(train, dict(START))
    return out


def stored() -> dict:
    """The stored fits (:data:`~interlib.intervals.CROSSVAL_PATH`)."""
    p = intervals.CROSSVAL_PATH
    if not p.is_file():
        raise ValueError(f"{p} is missing: run python -m interlib.crossval")
    return json.loads(p.read_text(encoding="utf-8"))


def fold_constants(rows=None) -> dict:
    """Each fold's stored constants, ``{group: {name: value}}``, checked against ``rows``
    (the shipped data by default): a stale file raises, naming the command that renews it."""
    rows = V._measurements(rows)
    data = stored()
    if data.get("digest") != _digest(rows):
        raise ValueError("the stored cross-validation was fitted to other rows or another "
                         "procedure: run python -m interlib.crossval")
    return data["folds"]


def cross_validate(rows=None) -> list:
    """Every point predicted by the model fitted without its source: one
    :class:`interlib.validation.PointResult` per row, in order, as :func:`~interlib.validation.evaluate`
    but out of sample (the fold's constants from :func:`fold_constants`)."""
    rows = V._measurements(rows)
    fits = fold_constants(rows)
    out: list = [None] * len(rows)
    for group, idx in folds(rows).items():
        with collectives.calibrated(fits[group]):
            for i, res in zip(idx, V.evaluate([rows[i] for i in idx])):
                out[i] = res
    return out


# ------------------------------------------------------------------ the intervals
def residual(result) -> float:
    """``log(measured / predicted)`` of one result."""
    return math.log(result.measurement.busbw / result.predicted)


def class_of(result) -> tuple:
    """(regime, bucket, network) of a result (:mod:`interlib.intervals`)."""
    m = result.measurement
    return (result.regime, intervals.bucket_name(m.total_gpus),
            intervals.network(m.nodes, V.fabric_kind(m.fabric)))


def interval_classes(results) -> dict:
    """Interval bounds per class from cross-validated results
    (:func:`interlib.intervals.fit_classes`)."""
    return intervals.fit_classes((*class_of(r), residual(r)) for r in results)


def covered(results, by_group: bool = True) -> list[bool]:
    """Whether each point's measured busbw lies in its 80 % interval. With ``by_group``
    the interval of a point is built without its own source's residuals (the honest
    check: the bounds never saw the point); otherwise from all of them."""
    results = list(results)
    groups = [source_group(r.measurement) for r in results]
    cache: dict = {}
    out = []
    for r, g in zip(results, groups):
        key = g if by_group else None
        if key not in cache:
            cache[key] = interval_classes([q for q, h in zip(results, groups)
                                           if key is None or h != key])
        (lo, hi, _), _ = intervals.lookup(cache[key], *class_of(r))
        out.append(lo <= residual(r) <= hi)
    return out


def write(rows=None) -> dict:
    """Refit everything (:func:`refit_all`) and write :data:`intervals.CROSSVAL_PATH`."""
    rows = V._measurements(rows)
    fits = refit_all(rows)
    data = {"procedure": PROCEDURE, "digest": _digest(rows), "all": fits["all"],
            "folds": fits["folds"], "intervals": []}
    intervals.CROSSVAL_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    results = cross_validate(rows)
    data["intervals"] = [{"class": list(k), "lo": lo, "hi": hi, "n": n}
                         for k, (lo, hi, n) in sorted(interval_classes(results).items())]
    intervals.CROSSVAL_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    intervals.stored_classes.cache_clear()
    return data


if __name__ == "__main__":  # python -m interlib.crossval
    import time

    t = time.time()
    d = write()
    print(f"{len(d['folds'])} folds refitted in {time.time() - t:.0f} s; all rows: "
          + ", ".join(f"{k}={v:.4g}" for k, v in d["all"].items()))


# ------------------------------------------------------------ trust and ratchets
TRUST_NODE_MIN_SIZE = 4 * MiB
"""From this size up the book trusts the model on one node of up to 8 GPUs."""

TRUST_MAX_GPUS = 512
"""Up to this many GPUs the book trusts the model on bandwidth-bound sizes."""


def trusted(results) -> list:
    """The results where the book says to trust the model (Appendix A): bandwidth-bound
    sizes (:data:`interlib.intervals.REGIMES`) up to :data:`TRUST_MAX_GPUS` GPUs, and
    :data:`TRUST_NODE_MIN_SIZE` and more on one node of up to 8 GPUs; never an all-to-all
    across nodes (Oracle's two-rack GB300 all-to-all is 4x below the model, with no sourced
    mechanism)."""
    return [r for r in results
            if not (r.measurement.collective == "all_to_all" and r.measurement.nodes > 1)
            and ((r.regime == "bandwidth-bound" and r.measurement.total_gpus <= TRUST_MAX_GPUS)
                 or (r.measurement.size_bytes >= TRUST_NODE_MIN_SIZE
                     and r.measurement.total_gpus <= 8))]


RATCHET_MARGIN = {
    "median all": 0.005, "median 9-72": 0.005, "median 73-512": 0.01,
    "median > 512": 0.01, "worst fold >= 1 MiB 9-72": 0.05,
    "worst fold >= 1 MiB 73-512": 0.1, "points >= 1 MiB off > 2x": 0.5,
    "worst source median": 0.01, "coverage by source": 0.01,
}
"""How far a ratcheted figure may rise above the value it had when its ceiling was set
(fractions for medians and coverage, a fold for the worst folds, a count)."""

RATCHETS = {
    "median all": 0.107 + 0.005,
    "median 9-72": 0.125 + 0.005,
    "median 73-512": 0.131 + 0.01,
    "median > 512": 0.138 + 0.01,
    "worst fold >= 1 MiB 9-72": 2.52 + 0.05,
    "worst fold >= 1 MiB 73-512": 5.99 + 0.1,
    "points >= 1 MiB off > 2x": 13 + 0.5,
    "worst source median": 0.474 + 0.01,
    "coverage by source": -0.732 + 0.01,
}
"""Ceilings on the cross-validated figures that miss their targets (issue 25: median
<= 10 % overall and <= 15 % per bucket of 10 points or more; no point of 1 MiB or more off
by more than 2x; an interval that covers 80 % of a source it never saw), and on the
> 512 bucket, too thin for a target: each at its value when last moved,
plus :data:`RATCHET_MARGIN`. Lowered in the commit that improves a figure, never raised
without saying why (``tests/test_crossval.py``). Coverage is stored negated, so its floor
is a ceiling too."""


# ------------------------------------------------------------------------ the tables
BEFORE_PATH = intervals.CROSSVAL_PATH.parent / "model_error_before.json"
"""predicted / measured busbw of every row under the model before cross-validation (main at
0050a06, its constants fitted by hand to named rows) and under NCCL's estimate of that
commit: the "before" of Appendix A's before/after table."""


def _before() -> dict:
    return json.loads(BEFORE_PATH.read_text(encoding="utf-8"))["points"]


@dataclass(frozen=True)
class Line:
    """Cross-validated error of one group of points.

    Attributes:
        name: What the points share (a bucket, regime or algorithm).
        count: Points.
        median: Median relative error of the model, out of sample.
        nccl_median: Median relative error of NCCL's own estimate on the same points.
        before_median: Median relative error of the model before cross-validation (in
            sample on its calibration rows), or None if a point has no "before".
        over_2x: Points of 1 MiB or more off by more than 2x.
        worst_fold: Largest fold error of the points of 1 MiB or more (None if none).
        coverage: Share of points inside their 80 % interval (bounds from all sources).
        coverage_by_source: The same with each point's bounds built without its source.
    """

    name: str
    count: int
    median: float
    nccl_median: float
    before_median: float | None
    over_2x: int
    worst_fold: float | None
    coverage: float
    coverage_by_source: float


def lines(results, key) -> list[Line]:
    """:class:`Line` per value of ``key(result)`` (in first-seen order), then ``"all"``."""
    results = V._results(results)
    est = V.versus_nccl(results)
    cov, cov_src = covered(results, by_group=False), covered(results)
    before = _before()
    groups: dict = {}
    for i, r in enumerate(results):
        groups.setdefault(key(r), []).append(i)
    groups["all"] = list(range(len(results)))
    out = []
    for name, idx in groups.items():
        rs = [results[i] for i in idx]
        big = [r.fold for r in rs if r.measurement.size_bytes >= MiB]
        prior = [before.get(r.measurement.id) for r in rs]
        out.append(Line(
            str(name), len(idx), float(np.median([r.rel_error for r in rs])),
            float(np.median([abs(est[i] - 1) for i in idx])),
            float(np.median([abs(p["ratio"] - 1) for p in prior])) if all(prior) else None,
            sum(1 for f in big if f > V.TARGET_FOLD), max(big, default=None),
            float(np.mean([cov[i] for i in idx])), float(np.mean([cov_src[i] for i in idx]))))
    return out


def by_bucket(results) -> list[Line]:
    """:func:`lines` by GPU-count bucket (:data:`interlib.intervals.SCALES` order)."""
    order = [s[0] for s in V.SCALES] + ["all"]
    got = {ln.name: ln for ln in lines(results, lambda r: intervals.bucket_name(
        r.measurement.total_gpus))}
    return [got[n] for n in order if n in got]


def by_regime(results) -> list[Line]:
    """:func:`lines` by size regime (:data:`interlib.intervals.REGIMES` order)."""
    order = [s[0] for s in V.REGIMES] + ["all"]
    got = {ln.name: ln for ln in lines(results, lambda r: r.regime)}
    return [got[n] for n in order if n in got]


def by_algorithm(results) -> list[Line]:
    """:func:`lines` by the algorithm the source ran (``auto``: NCCL's own choice)."""
    return sorted(lines(results, lambda r: r.measurement.algorithm),
                  key=lambda ln: (ln.name == "all", -ln.count))


def table(lines_, first: str = "GPUs"):
    """Lines as a :class:`interlib.display.Table`."""
    from . import display

    pct = lambda x: "-" if x is None else display.fmt_pct(x, 3)  # noqa: E731
    rows = [[ln.name, ln.count, pct(ln.median), pct(ln.nccl_median), pct(ln.before_median),
             ln.over_2x if ln.worst_fold else "-",
             display.fmt_ratio(ln.worst_fold, 3) if ln.worst_fold else "-",
             display.fmt_pct(ln.coverage, 2), display.fmt_pct(ln.coverage_by_source, 2)]
            for ln in lines_]
    return display.Table(
        [first, "points", "median error", "NCCL's estimate", "before (in sample)",
         ">= 1 MiB off > 2x", "worst fold >= 1 MiB", "in 80 % interval",
         "in interval, source unseen"], rows,
        caption="Every error is out of sample: a source's points are predicted by the model "
                "fitted without that source (interlib.crossval). Error = |predicted - "
                "measured| / measured busbw. NCCL's estimate: collectives.nccl_estimate on "
                "the same points. Before: the model before cross-validation, whose "
                "constants had been fitted by hand to some of these points. Interval "
                "coverage: share of points inside their 80 % interval, with the bounds "
                "built from all sources' cross-validated errors, and without the point's "
                "own source.")


def weak_sources(results, threshold: float = 0.15) -> list[str]:
    """The sources (:func:`source_group`) whose cross-validated median error exceeds
    ``threshold`` or that have a point of 1 MiB or more off by more than 2x, worst first,
    in words with their numbers."""
    from . import display

    results = V._results(results)
    groups: dict = {}
    for r in results:
        groups.setdefault(source_group(r.measurement), []).append(r)
    out = []
    for rs in sorted(groups.values(), key=lambda rs: -np.median([r.rel_error for r in rs])):
        med = float(np.median([r.rel_error for r in rs]))
        big = [r for r in rs if r.measurement.size_bytes >= MiB and r.fold > V.TARGET_FOLD]
        if med <= threshold and not big:
            continue
        worst = max(rs, key=lambda r: r.fold)
        m = worst.measurement
        gpus = sorted({r.measurement.total_gpus for r in rs})
        out.append(f"{group_label([r.measurement for r in rs])} ({m.gpu}, "
                   f"{gpus[0]}-{gpus[-1]} GPUs" if len(gpus) > 1 else
                   f"{group_label([r.measurement for r in rs])} ({m.gpu}, {gpus[0]} GPUs")
        out[-1] += (f"): median error {display.fmt_pct(med, 2)} on {len(rs)} points; worst "
                    f"{m.id} ({V._fmt_size(m.size_bytes)}, {m.algorithm}) off by "
                    f"{display.fmt_ratio(worst.fold, 3)} "
                    f"({'optimistic' if worst.ratio > 1 else 'pessimistic'})")
    return out


def constants_table():
    """The calibrated constants: the value fitted to every row (the catalogue's), the range
    over the folds (each fitted without one source) and the grid searched."""
    from . import display

    data = stored()

    def fmt(name, x):
        unit = getattr(C, name).unit
        if unit == "us":
            return display.fmt_time(x)
        if unit == "B":
            return display.fmt_bytes(x, binary=True)
        return f"{x:.3g}"

    rows = []
    for name, grid in FIT_GRID.items():
        folds_ = [f[name] for f in data["folds"].values()]
        rows.append([name, fmt(name, data["all"][name]),
                     f"{fmt(name, min(folds_))} to {fmt(name, max(folds_))}",
                     f"{fmt(name, grid[0])} to {fmt(name, grid[-1])} ({len(grid)} values)",
                     fmt(name, START[name])])
    return display.Table(
        ["constant", "fitted to every row", "over the folds", "grid searched",
         "before (fitted by hand)"], rows,
        caption="The book's calibrated constants (interlib.specs.calibration), fitted by "
                "interlib.crossval.fit: coordinate descent over each constant's grid, in "
                "this order, twice, minimising the sum of |log(predicted / measured busbw)|. "
                "Each fold is fitted without one source; its constants predict that source.")
