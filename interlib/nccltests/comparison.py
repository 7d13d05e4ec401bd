"""Set a parsed run against the model, its prediction interval and the published runs
(:func:`compare`)."""
from __future__ import annotations

import dataclasses
import functools
import math
import re

import numpy as np

from .. import _validate as v
from .. import intervals
from ..display import fmt_pct
from .causes import diagnose
from .logs import Run
from .results import Comparison, Published, Verdict, fabric_of, system_of

def band(prediction):
    """``(low, high, source)``: the busbw band around a :func:`interlib.collectives.predict`
    result, bytes/s per size: the model's 80 % prediction interval
    (:mod:`interlib.intervals`: split-conformal bounds from the cross-validated error of
    the prediction's class, size regime x GPU-count bucket x network)."""
    if getattr(prediction, "busbw_low", None) is None \
            or getattr(prediction, "busbw_high", None) is None:
        raise ValueError("prediction has no interval (busbw_low/busbw_high): give a result "
                         "of interlib.collectives.predict, not nccl_estimate")
    return (np.asarray(prediction.busbw_low, dtype=float),
            np.asarray(prediction.busbw_high, dtype=float),
            f"band: the model's {fmt_pct(intervals.COVERAGE, 2)} prediction interval "
            "(out-of-sample error of runs of the same size regime, GPU count and network)")


def _gpu_id(sys_) -> str:
    from ..specs import GPUS

    return next((k for k, g in GPUS.items() if g is sys_.gpu or g == sys_.gpu), "")


@functools.lru_cache(maxsize=1)
def _series() -> tuple:
    """The shipped measurements grouped by series, in file order."""
    from .. import validation

    groups = {}
    for m in validation.load_measurements():
        groups.setdefault(m.series, []).append(m)
    return tuple((k, tuple(v_)) for k, v_ in groups.items())


def nearest_published(gpu: str, gpus: int, nodes: int, fabric: str, collective: str,
                      count: int = 3) -> tuple:
    """The ``count`` published runs most like the reader's (:class:`Published`).

    Distance: 2 for another GPU, 3 for another collective, 1 when one run crosses nodes
    and the other does not, 0.5 for another network kind, plus half the number of
    doublings between the GPU counts.
    """
    from .. import validation

    v.integer("gpus", gpus, lo=1)
    v.integer("nodes", nodes, lo=1)
    v.integer("count", count, lo=1, hi=50)
    out = []
    for name, ms in _series():
        m = ms[0]
        d = (2.0 * (m.gpu != gpu) + 3.0 * (m.collective != collective)
             + 1.0 * ((m.nodes > 1) != (nodes > 1))
             + 0.5 * (validation.fabric_kind(m.fabric) != fabric)
             + 0.5 * abs(math.log2(m.total_gpus / gpus)))
        pts = sorted((x.size_bytes, x.busbw) for x in ms)
        out.append(Published(name, m.source, m.url, m.gpu, m.gpus_per_node, m.nodes,
                             m.fabric, tuple(p[0] for p in pts), tuple(p[1] for p in pts), d))
    return tuple(sorted(out, key=lambda p: (p.distance, -len(p.sizes)))[:count])


GPU_TOKENS = {"a100-sxm-80gb": "A100", "h100-sxm": "H100", "h200": "H200", "b200": "B200",
              "gb200": "GB200", "gb300": "GB300"}
"""What each catalogue GPU's name contains in the device name nccl-tests prints."""


def _gpu_notes(run, sys_, gpu: str) -> tuple:
    """A warning when the log's device name does not name the system's GPU."""
    token = GPU_TOKENS.get(gpu)
    if not run.device or not token:
        return ()
    words = re.findall(r"[A-Z]+\d+", run.device.upper())
    if token in words:
        return ()
    return (f"the log's GPUs are '{run.device}', the hardware compared against has "
            f"{sys_.gpu.name}: the verdict is for that hardware",)


def _verdict(name, ratio, low, high) -> Verdict:
    r, lo, hi = (float(np.median(x)) for x in (ratio, low, high))
    if r < lo:
        st, text = "below", f"below, {fmt_pct(1 - r / lo, 2)} under the band"
    elif r > hi:
        st, text = "above", f"above, {fmt_pct(r / hi - 1, 2)} over the band"
    else:
        st, text = "within", "within the band"
    return Verdict(name, len(ratio), r, lo, hi, st, text)


def compare(run, system, gpus_per_node: int | None = None, nodes: int | None = None, *,
            in_place: bool = False, algorithm: str = "auto", nvls: bool = True) -> Comparison:
    """Set a parsed run against the model and the published runs.

    Args:
        run: A :class:`Run` from :func:`parse`.
        system: The reader's hardware: a catalogue id (``interlib.specs.SYSTEMS``) or a
            node from :func:`interlib.specs.custom.node`.
        gpus_per_node, nodes: The run's shape (default: from the log's ``Rank`` lines,
            else the system's GPUs per node and the ranks over them).
        in_place: Compare the in-place columns instead of the out-of-place ones.
        algorithm, nvls: As :func:`interlib.collectives.predict` (``"auto"``: NCCL's
            default choice; ``nvls=False`` for a run with ``NCCL_NVLS_ENABLE=0``).

    Returns:
        A :class:`Comparison`: the curves, the band, a verdict per size regime, the
        nearest published runs and the likely causes of any shortfall.

    Raises:
        ValueError: for a run whose collective is unknown (pass ``collective=`` to
            :func:`parse`) or that the model does not predict (send/recv), a shape the
            system cannot hold, or a rank count that disagrees with the shape.
    """
    from .. import collectives, validation

    v.instance("run", run, Run, "a Run from interlib.nccltests.parse")
    v.flag("in_place", in_place)
    if run.collective is None:
        raise ValueError("the log does not say which collective it measured: give "
                         "collective= to parse (e.g. 'all_reduce')")
    if run.collective not in collectives.COLLECTIVES:
        raise ValueError(f"the model does not predict {run.collective}: it covers "
                         f"{list(collectives.COLLECTIVES)}")
    sys_ = system_of(system)
    g = gpus_per_node if gpus_per_node is not None else (
        run.gpus_per_node if run.gpus_per_node and run.nodes else
        min(sys_.gpus_per_node, run.ranks or sys_.gpus_per_node))
    g = v.integer("gpus_per_node", g, lo=1, hi=sys_.gpus_per_node)
    if nodes is None:
        nodes = run.nodes if run.nodes else max(1, (run.ranks or g) // g)
    k = v.integer("nodes", nodes, lo=1, hi=100_000)
    if run.ranks and g * k != run.ranks:
        raise ValueError(f"gpus_per_node={g} x nodes={k} = {g * k} GPUs, but the log ran "
                         f"{run.ranks} ranks")
    rows = [r for r in run.rows if r.size_bytes > 0]
    if not rows:
        raise ValueError("the run has no size above 0 bytes to compare")
    S = np.array([r.size_bytes for r in rows])
    t = np.array([r.time_in_s if in_place else r.time_out_s for r in rows])
    if np.any(t <= 0):
        raise ValueError("the run has a size with a time of 0 us: nothing to compare")
    n = g * k
    measured = S / t * collectives.bus_factor(run.collective, n)
    pred = collectives.predict(run.collective, S, sys_, g, k, algorithm, nvls=nvls)
    low, high, source = band(pred)
    predicted = np.asarray(pred.busbw, dtype=float)
    regs = validation.regime(S)
    verdicts = []
    for name, _, _ in validation.REGIMES:
        sel = regs == name
        if np.any(sel):
            verdicts.append(_verdict(name, measured[sel] / predicted[sel],
                                     low[sel] / predicted[sel], high[sel] / predicted[sel]))
    gpu = _gpu_id(sys_)
    fabric = fabric_of(sys_)
    cmp_ = Comparison(run, sys_.title, run.collective, g, k, S, measured, predicted, low,
                      high, source, tuple(verdicts),
                      nearest_published(gpu, n, k, fabric, run.collective), (),
                      _gpu_notes(run, sys_, gpu))
    return dataclasses.replace(cmp_, diagnoses=tuple(diagnose(cmp_, sys_)))
