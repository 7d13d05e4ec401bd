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
from ..display import fmt_pct, fmt_rate
from .causes import diagnose
from .results import Comparison, NotModelled, Published, Verdict, fabric_of, system_of
from .runs import Run
from .shape import shape
from .vendors import GPU_TOKENS, amd_summary, catalogue_gpu

SLOW_RATIO = 0.5
"""A regime whose median measured busbw is at most this fraction of the model's is
"below", and one at least its inverse "above", whatever the band says: a run at half the
model's speed is never called "within" (where the model's out-of-sample band is wider than
a factor of two, the band alone would)."""


def band(prediction):
    """``(low, high, source)``: the busbw band around a :func:`interlib.collectives.predict`
    result, bytes/s per size: the model's prediction interval (:mod:`interlib.intervals`;
    its own one-sentence description when it offers one, ``intervals.describe``)."""
    if getattr(prediction, "busbw_low", None) is None \
            or getattr(prediction, "busbw_high", None) is None:
        raise ValueError("prediction has no interval (busbw_low/busbw_high): give a result "
                         "of interlib.collectives.predict, not nccl_estimate")
    describe = getattr(intervals, "describe", None)
    source = (f"band: the model's {fmt_pct(intervals.COVERAGE, 2)} prediction interval "
              "(out-of-sample error of runs of the same size regime, GPU count and network)")
    if callable(describe):
        source = "band: " + str(describe(prediction))
    return (np.asarray(prediction.busbw_low, dtype=float),
            np.asarray(prediction.busbw_high, dtype=float), source)


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


def _gpu_notes(run, sys_, gpu: str) -> tuple:
    """A warning when the log's device name does not name the system's GPU."""
    token = GPU_TOKENS.get(gpu)
    if not run.device or not token:
        return ()
    mine, _ = catalogue_gpu(run.device)
    if mine == gpu or (mine is None and token in run.device.upper().replace("-", " ")
                       .split()):
        return ()
    if mine is None and not any(t in run.device.upper() for t in GPU_TOKENS.values()) \
            and run.vendor != "NVIDIA" or run.device.strip().upper() == "NVIDIA GRAPHICS DEVICE":
        return (f"the log names its GPUs '{run.device}', which does not say which GPU they "
                f"are: taken to be the {sys_.gpu.name} of the hardware compared against",)
    return (f"the log's GPUs are '{run.device}', the hardware compared against has "
            f"{sys_.gpu.name}: the verdict is for that hardware",)


def _verdict(name, ratio, low, high) -> Verdict:
    """The verdict of one regime: the band decides, except that a median at most
    :data:`SLOW_RATIO` of the model (or at least its inverse) is below (above) even where
    the band is wider than that."""
    r, lo, hi = (float(np.median(x)) for x in (ratio, low, high))
    if r < lo:
        return Verdict(name, len(ratio), r, lo, hi, "below",
                       f"below, {fmt_pct(1 - r / lo, 2)} under the band")
    if r > hi:
        return Verdict(name, len(ratio), r, lo, hi, "above",
                       f"above, {fmt_pct(r / hi - 1, 2)} over the band")
    if r <= SLOW_RATIO:
        return Verdict(name, len(ratio), r, lo, hi, "below",
                       "below: at most half the model's busbw (a rule of this page, apart "
                       "from the band, which is wider here)", "factor")
    if r >= 1 / SLOW_RATIO:
        return Verdict(name, len(ratio), r, lo, hi, "above",
                       "above: at least twice the model's busbw (a rule of this page, apart "
                       "from the band, which is wider here)", "factor")
    return Verdict(name, len(ratio), r, lo, hi, "within", "within the band")


def refuse_unmodelled(run) -> None:
    """Raise :class:`NotModelled` for a run the model does not predict whatever the
    hardware (an AMD run; a collective it does not model), saying what the book can;
    return None otherwise (a run whose collective is unknown included: that is asked of
    the reader, not refused). :func:`compare` calls it first; ``python -m interlib.check``
    calls it before asking for the hardware, which would not change the answer."""
    v.instance("run", run, Run, "a Run from interlib.nccltests.parse")
    _refuse(run)


def _refuse(run) -> None:
    """:func:`refuse_unmodelled` of a ``run`` already checked to be a :class:`Run`."""
    from .. import collectives

    read = (f"Read exactly: {len(run.rows)} size{'s' if len(run.rows) != 1 else ''}"
            + (f" on {run.ranks} ranks" if run.ranks else ""))
    if run.rows:  # a Run built by hand may have none (parse never returns one without)
        biggest = max(run.rows, key=lambda r: r.size_bytes)
        read += f", busbw {fmt_rate(biggest.busbw_out)} at the largest size (out-of-place)"
    read += "."
    up = (run.device or "").upper()
    if run.vendor == "AMD" or (run.device and catalogue_gpu(run.device)[0] is None
                               and "AMD" in up):
        kind = ("an AMD Instinct run" if "INSTINCT" in up or re.search(r"\bMI\d", up)
                else "an AMD run")  # e.g. rccl-tests on a Radeon APU, or no GPU named
        raise NotModelled(
            f"{read} Not modelled: this is {kind} (RCCL), and the book's "
            "collective model covers NVIDIA NVLink systems only, so there is no verdict. "
            + amd_summary(run.device) + " The bus bandwidth rccl-tests prints uses the "
            "nccl-tests formula, so it compares directly with other runs of the same GPU, "
            "collective and GPU count.", run)
    if run.collective is not None and run.collective not in collectives.COLLECTIVES:
        raise NotModelled(
            f"{read} Not modelled: the model does not predict {run.collective} (it "
            f"covers {', '.join(collectives.COLLECTIVES)}), so there is no verdict for it.",
            run)


def compare(run, system, gpus_per_node: int | None = None, nodes: int | None = None, *,
            in_place: bool = False, algorithm: str = "auto", nvls: bool = True,
            assumed=()) -> Comparison:
    """Set a parsed run against the model and the published runs.

    Args:
        run: A :class:`Run` from :func:`parse`.
        system: The reader's hardware: a catalogue id (``interlib.specs.SYSTEMS``) or a
            node from :func:`interlib.specs.custom.node`.
        gpus_per_node, nodes: The run's shape (default: a node is the system's NVLink
            domain; the log's hosts are used where hosts are nodes and its Rank lines can
            be trusted; ``interlib.nccltests.shape``).
        in_place: Compare the in-place columns instead of the out-of-place ones.
        algorithm, nvls: As :func:`interlib.collectives.predict` (``"auto"``: NCCL's
            default choice; ``nvls=False`` for a run with ``NCCL_NVLS_ENABLE=0``).
        assumed: Values of ``system`` the caller assumed rather than knew, in words
            (printed with the verdict).

    Returns:
        A :class:`Comparison`: the curves, the band, a verdict per size regime, the
        nearest published runs and the likely causes of any shortfall.

    Raises:
        ValueError: for a run read exactly that the model does not predict (AMD GPUs;
            gather, scatter, hypercube, alltoallv, sendrecv): a :class:`NotModelled`, saying what
            the book can; for a run whose collective is unknown (pass ``collective=`` to
            :func:`parse`), a shape the system cannot hold, or a rank count that
            disagrees with the shape.
    """
    from .. import collectives

    v.instance("run", run, Run, "a Run from interlib.nccltests.parse")
    v.flag("in_place", in_place)
    _refuse(run)
    if run.collective is None:
        fit = " and ".join(run.candidates)
        raise ValueError("the log does not say which collective it measured"
                         + (f" (the columns fit {fit} alike)" if fit else "")
                         + ": give collective= to parse (e.g. "
                         f"{(run.candidates or ('all_reduce',))[0]!r})")
    sys_ = system_of(system)
    shp = shape(run, sys_, gpus_per_node, nodes)
    g, k = shp.gpus_per_node, shp.nodes
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
    regs = intervals.regime_names(S)
    verdicts = []
    for r in intervals.REGIMES:
        sel = regs == r[0]
        if np.any(sel):
            verdicts.append(_verdict(r[0], measured[sel] / predicted[sel],
                                     low[sel] / predicted[sel], high[sel] / predicted[sel]))
    gpu = _gpu_id(sys_)
    fabric = fabric_of(sys_)
    cmp_ = Comparison(run, sys_.title, run.collective, g, k, S, measured, predicted, low,
                      high, source, tuple(verdicts),
                      nearest_published(gpu, n, k, fabric, run.collective), (),
                      _gpu_notes(run, sys_, gpu) + shp.notes, tuple(assumed))
    return dataclasses.replace(cmp_, diagnoses=tuple(diagnose(cmp_, sys_)))
