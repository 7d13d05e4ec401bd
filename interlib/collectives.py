"""Collective communication: textbook alpha-beta costs and a calibrated NCCL-style model.

This module is the public face; the parts live in small modules a reader can take one at a
time: :mod:`interlib.alphabeta` (nccl-tests' bus bandwidth, the textbook formulas, the ring
walkthrough) and :mod:`interlib.collective_model` (the links and NCCL's caps, the fabric and
its plugin, one function per algorithm with its formula, the choice of candidates, the
calibrated constants). Everything a chapter calls is importable from here.

Conventions mirror nccl-tests (``doc/PERFORMANCE.md``, :cite:`nccltests`):

* ``size_bytes`` is nccl-tests' *size*: the per-rank buffer for all-reduce, broadcast and
  reduce; the total (gathered) array for all-gather, reduce-scatter and all-to-all.
* ``algbw = size / time``; ``busbw = algbw x bus_factor(collective, n)`` with the factors
  in :data:`BUS_FACTOR`. For point-to-point algorithms (ring, tree) busbw is the rate each
  rank's link carried, comparable to a link's per-direction bandwidth; with in-network
  reduction (NVLS, SHARP) it exceeds that rate (:func:`wire_rate` gives the real one).

Two layers:

1. :func:`alpha_beta`: the classic formulas (MPICH's cost comments, Thakur, Rabenseifner
   and Gropp 2005 :cite:`thakur2005`) for ring, tree, recursive halving/doubling, given a
   per-message latency alpha and a link bandwidth. Chapter 1 teaches these.
2. :func:`predict`: what a real 8-GPU node or cluster achieves. It follows NCCL's own
   performance model (``tuning.cc``): each (algorithm, protocol) pair has a latency and a
   bandwidth built from NCCL's constants, and ``"auto"`` takes the fastest, as NCCL does.
   Calibrated constants (launch overhead, the host's launch per GPU, the pipeline window and chunk
   count that set how long a chunked pipeline takes to fill, and the NVLS pipeline depth;
   all in :mod:`interlib.specs.calibration`) cover what NCCL's model leaves out;
   Appendix A measures the error against published runs.

At scale (issue 15) it adds what NCCL and the hardware add with size and count: NVLS at
the pace of NCCL's NVLS chunks in a rack-scale NVLink domain (:func:`nvls_rate`), NVLSTree's
64 KiB chunks from four nodes up and its 32 network heads per domain, the double binary
tree's per-node traffic (:func:`_tree_node_traffic`), the latency a network plugin reports
(EFA), and, for ``"auto"``, the algorithm NCCL's own estimate picks (``"fastest"`` is the
best by this model). A second round added a vendor's own choice where its plugin makes it
(AWS's region tuner on P6 from three nodes, :func:`aws_tuner_choice`), Google's
GPUDirect-TCPXO as a fabric (LL off and an 8 MiB Simple buffer as Google's profile sets,
plus one calibrated per-step latency its plugin does not report), and a ring fill whose
first chunk crosses the NVLink stages at NVLink speed and is never larger than
``size / ranks``.

Issue 37 added what sets mid-size and small-message times: NCCL's own estimate is made with
the tuner constants of the NCCL release a run used (:mod:`interlib.specs.nccl_tuning`, every
release from 2.18.1 to 2.30.7), so ``"auto"`` takes the LL/LL128/Simple switch points NCCL
itself takes; a ring or tree runs on the share of NCCL's channels its size gets
(``enqueue.cc``: one channel per 32 KiB for Simple, :func:`~interlib.collective_model.tuner.channels_used`);
LL and LL128 run at NCCL's own protocol bandwidths (``llMaxBw``, the per-channel caps);
every step of an inter-node ring costs at least NCCL's network post overhead; EFA's plugin
latency is that of its generation (75 us on the 100 Gb/s ports of p4d and p5, 35 us on p5en
and p6); and a measurement whose nccl-tests thread drove several GPUs (``-g N``) waits on
the host's N launches (:func:`interlib.validation.method_time`).

Limits of :func:`predict` (stated, not hidden): one communicator, no contention with other
traffic, no compute overlap, full-bisection network, no PXN/PAT/CollNet-Direct variants;
Google's GPUDirect-TCPXO has one calibrated per-step latency and no model of its mid-size
pipeline (1-64 MiB are 2-3x optimistic there). Appendix A gives the error on held-out
published runs by size, algorithm and node count, and lists the known misses with their
cause.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from . import _validate as v
from . import intervals
from .alphabeta import (BUS_FACTOR, COLLECTIVES, algbw, alpha_beta, alpha_beta_grid,
                        bus_factor, busbw, ring_all_reduce_state, ring_step_sends,
                        wire_bytes_per_rank, wire_rate)
from .collective_model.algorithms import time as _time, times as _times
from .collective_model.calibrated import calibrated
from .collective_model.choice import (ALGORITHMS, MAX_NODES, NCCL_NAMES,
                                      candidates as _candidates,
                                      checked as _checked, resolve as _resolve,
                                      supported as _supported)
from .collective_model.fabrics import (aws_tuned as _aws_tuned, aws_tuner_choice,
                                       fabric_kind as _fabric)
from .collective_model.links import nvls_algbw as _nvls_algbw
from .collective_model.links import tree_node_traffic as _tree_node_traffic
from .collective_model.tuner import version_of as _tuner_version
from .specs import calibration as C

__all__ = ["ALGORITHMS", "BUS_FACTOR", "COLLECTIVES", "MAX_NODES", "NCCL_NAMES", "Prediction", "algbw",
           "alpha_beta", "alpha_beta_grid", "aws_tuner_choice", "bus_factor", "busbw",
           "calibrated", "figures_2026", "nccl_estimate", "nvls_rate", "predict",
           "ring_all_reduce_state", "ring_step_sends", "wire_bytes_per_rank", "wire_rate"]


# ------------------------------------------------------------ NCCL-style prediction
@dataclass(frozen=True)
class Prediction:
    """Result of :func:`predict`. Arrays when ``size_bytes`` was an array.

    Attributes:
        time_s: Predicted time of one collective, seconds.
        algbw: ``size / time``, bytes/s.
        busbw: ``algbw x bus_factor``, bytes/s (what nccl-tests prints).
        algorithm: The algorithm the model computed (NCCL's choice for ``"auto"``):
            ``"nvls"`` is NVLS within one node, ``"nvls_tree"`` NCCL's NVLSTree across
            nodes (``collectives.NCCL_NAMES`` gives NCCL's spelling).
        protocol: NCCL protocol used: ``"LL"``, ``"LL128"`` or ``"Simple"``.
        n: Total ranks.
        busbw_low, busbw_high: Bounds of the 80 % prediction interval of busbw, bytes/s:
            the model's cross-validated error on published runs of the same class
            (:mod:`interlib.intervals`; :func:`interlib.intervals.describe` says which).
            None for :func:`nccl_estimate`.
        nccl_version: The NCCL release whose tuner constants NCCL's estimate (and so the
            choice of ``"auto"``) used (:mod:`interlib.specs.nccl_tuning`): the one asked
            for, else the node's, else the newest read.
        interval_class: The class of each size's interval (a tuple of str, one per size;
            :func:`interlib.intervals.describe` puts it in words), None without intervals.
    """

    time_s: object
    algbw: object
    busbw: object
    algorithm: object
    protocol: object
    n: int
    busbw_low: object = None
    busbw_high: object = None
    nccl_version: str | None = None
    interval_class: tuple | None = None


def nvls_rate(system, gpus_per_node: int | None = None, nodes: int = 1) -> float:
    """Per-GPU algorithm bandwidth of NVLink SHARP inside one NVLink domain, bytes/s:
    the smaller of what the links carry and what NCCL's NVLS channels move.

    * Links: each GPU sends its buffer into the switch once and takes the result back once,
      plus 1/g of it for its own share: ``algbw = eta x B x g / (g + 1)`` (nccl-tests PR
      #239; eta is NCCL's NVLS efficiency, B the effective NVLink rate). As busbw that is
      ``2 (g - 1) / (g + 1) x eta x B``, the ceiling of what the switch can reduce.
    * Channels, in an NVLink domain that spans trays (GB200 NVL72): each of NCCL's NVLS
      channels moves one chunk per ``interlib.specs.calibration.NVLS_CHUNK_TIME_RACK``,
      so ``algbw = channels x chunk / chunk time``; NVLSTree uses 64 KiB chunks from 4 nodes
      up instead of 128 KiB, which halves it (NCCL v2.26.2 ``enqueue.cc``).

    Args:
        system: A :class:`~interlib.specs.System` or catalogue id with NVSwitch 3 or later.
        gpus_per_node: GPUs taking part in each domain (default: all).
        nodes: Number of NVLink domains (sets the NVLSTree chunk).

    >>> from interlib.units import GB_per_s
    >>> round(nvls_rate("dgx-h100") / GB_per_s)
    280
    """
    sys_, g, k = _resolve(system, gpus_per_node, nodes)
    why = _supported(sys_, "all_reduce", "nvls", g, 1)
    if why:
        raise ValueError(f"system={system!r} has no NVLS rate: {why}")
    return float(_nvls_algbw(sys_, g, k))


def predict(collective: str, size_bytes, system, gpus_per_node: int | None = None,
            nodes: int = 1, algorithm: str = "auto", *, nvls: bool = True,
            nccl_version: str | None = None) -> Prediction:
    """Predict one collective as nccl-tests would measure it.

    Args:
        collective: One of :data:`COLLECTIVES`.
        size_bytes: nccl-tests size in bytes (scalar or numpy array), >= 1.
        system: A :class:`~interlib.specs.System` or its catalogue id (``"dgx-h100"``).
        gpus_per_node: GPUs used per node, 1 .. the system's ``gpus_per_node``
            (default: all of them).
        nodes: Number of nodes (>= 1); more than one goes over the scale-out NICs.
        algorithm: ``"auto"`` (what NCCL would pick among ring, tree and, on NVSwitch 3+
            with more than 2 GPUs per node (NCCL's own gate, ``nvls.cc``), NVLS within a
            node or NVLSTree across nodes, each with its protocols: the pair with the
            smallest time by NCCL's own estimate, timed by this model), ``"fastest"`` (the
            pair this model finds fastest: what the best ``NCCL_ALGO`` would give), or one
            of ``"ring"``, ``"tree"``, ``"rhd"``, ``"hierarchical"``, ``"nvls"``,
            ``"nvls_tree"``, ``"sharp"``, ``"direct"`` (all-to-all). A named algorithm
            still picks its best protocol, as ``NCCL_ALGO`` does. ``"nvls"`` within one
            node is NCCL's NVLS; across nodes it is timed as NVLSTree (NVLS inside each
            node, a tree between nodes) and the result says ``"nvls_tree"``: NCCL's own
            ``NCCL_ALGO=NVLS`` across nodes is NVLS + CollNet (IB SHARP), which this model
            does not cover. ``"nvls_tree"`` needs two nodes or more, as in NCCL.
        nvls: Whether NCCL may use NVLS / NVLSTree (``False``: the run set
            ``NCCL_NVLS_ENABLE=0``, so ``"auto"`` and ``"fastest"`` choose among the others).
        nccl_version: The NCCL release the run uses (``"2.21.5"``): ``"auto"`` takes the
            choice NCCL's estimate makes with that release's tuner constants
            (:mod:`interlib.specs.nccl_tuning`). Default: the node's own
            (``Node.nccl_version``), else the newest release read; the result names it.

    Returns:
        A :class:`Prediction` (time_s in s, algbw and busbw in bytes/s).

    Model: for each (algorithm, protocol) pair, ``t = t_launch + latency + fill(size) +
    bytes_on_the_bottleneck / bandwidth``, where ``fill = (steps - 1) x min(window,
    size / chunks) / bandwidth`` is the time for the first chunk to cross the pipeline (for a
    ring, chunks >= ranks, and the NVLink stages count at NVLink speed, the network stages
    at the NICs'), with NCCL's latencies and efficiencies
    (:mod:`interlib.specs.calibration`). Ring busbw tends to the effective NVLink
    bandwidth (e.g. 18 x 20.6 GB/s = 370.8 GB/s on H100); NVLS busbw tends to
    2(n-1)/(n+1) x 0.85 x 370.8 = 490 GB/s on 8 x H100 (measured: 370 and 480).
    Multi-node rings are limited by the node's NICs (min of NVLink and NICs, as
    NCCL's rings cross each node boundary once per channel). NVLS across nodes is NCCL's
    NVLSTree (``"nvls_tree"``): NVLS inside each node, a double binary tree between nodes through at most 32
    head NICs per domain, each node sending S (two nodes), 1.5 S (three) or 2 S (more)
    (at scale on H100: about 8 x 48 GB/s / 2 per GPU, 380 GB/s busbw; measured 370-380).
    On Blackwell GPUs in x86 hosts (B200) NVLSTree below 1 GiB runs at NCCL v2.29's tree
    correction factor of its size (tuning.cc; NCCL's own choice before v2.29 does not see
    it, so ``auto`` leaves it out of the choice and charges it in the time).
    In a rack-scale domain (NVL72) NVLS runs at chunk pace (:func:`nvls_rate`). Limits:
    the pipeline fill is calibrated on single-node runs only, so multi-node mid-size
    messages (1 MiB - 1 GiB) are the least certain predictions.

    >>> from interlib.units import GiB
    >>> r = predict("all_reduce", 8 * GiB, "dgx-h100", 8, 1, "ring")
    >>> 350e9 < r.busbw < 380e9
    True
    """
    v.choice("algorithm", algorithm, ALGORITHMS)
    sys_, g, k, S = _checked(collective, size_bytes, system, gpus_per_node, nodes,
                             algorithm, nvls)
    version = _version_of(sys_, nccl_version)
    pairs = _candidates(sys_, collective, "auto" if algorithm == "fastest" else algorithm,
                        g, k, nvls)
    times = _times(sys_, collective, pairs, S, g, k)
    if algorithm == "auto" and k > 1 and _fabric(sys_) in C.UNPUBLISHED_TUNERS:
        # the cloud's tuner plugin decides and its configuration is not published: assume
        # it picks the fastest pair its profile allows
        best = np.argmin(times, axis=0)
    elif algorithm == "auto":  # what NCCL picks: the fastest by NCCL's own estimate
        est = _times(sys_, collective, pairs, S, g, k, nccl_view=True, nccl_version=version)
        best = np.argmin(est, axis=0)
        if _aws_tuned(sys_, collective, g, k):  # the network plugin's tuner decides
            for i, size in enumerate(S):
                pick = aws_tuner_choice(size, g * k)
                if pick in pairs:
                    best[i] = pairs.index(pick)
    else:  # a forced algorithm's best protocol, or the fastest by the book's model
        best = np.argmin(times, axis=0)
    out = _prediction(collective, size_bytes, S, times, best, pairs, g * k)
    low, high, cls = intervals.bounds(out.busbw, size_bytes, sys_.gpu.arch, k, _fabric(sys_))
    return replace(out, busbw_low=low, busbw_high=high, nccl_version=version,
                   interval_class=cls)


def _version_of(sys_, nccl_version) -> str:
    """The release NCCL's estimate uses (:func:`~interlib.collective_model.tuner.version_of`),
    with a bad ``nccl_version`` refused by name."""
    if nccl_version is not None:
        v.instance("nccl_version", nccl_version, str, "an NCCL release like '2.21.5'")
    return _tuner_version(sys_, nccl_version)


def _prediction(collective, size_bytes, S, times, best, pairs, n) -> Prediction:
    """The :class:`Prediction` of the chosen pair (``best``, an index into ``pairs`` per
    size) from the candidates' ``times``: scalar fields for a scalar ``size_bytes``."""
    t = times[best, np.arange(S.size)]
    alg = np.array([pairs[i][0] for i in best])
    proto = np.array([pairs[i][1] for i in best])
    ab = S / t
    bb = ab * bus_factor(collective, n)
    if np.ndim(size_bytes) == 0:
        return Prediction(float(t[0]), float(ab[0]), float(bb[0]), str(alg[0]),
                          str(proto[0]), n)
    return Prediction(t, ab, bb, alg, proto, n)


def nccl_estimate(collective: str, size_bytes, system, gpus_per_node: int | None = None,
                  nodes: int = 1, algorithm: str = "auto", *, nvls: bool = True,
                  nccl_version: str | None = None) -> Prediction:
    """NCCL's own estimate of one collective, as its tuning model (``tuning.cc``) makes it
    to choose an algorithm and protocol: the pair :func:`predict` calls ``"auto"``, timed
    with NCCL's latencies and bandwidths alone. The book's time differs both ways: it adds
    a launch cost, the pipeline fill, a network plugin's unreported latency and, in an
    NVL72 rack, NVLS's chunk pace; and it does not apply two terms NCCL's model uses to
    choose (the per-channel cap on tree bandwidth, and NVLSTree's inter-node bandwidth
    doubled on two nodes); NVLSTree's own per-channel cap it does apply, as that
    pipeline's ceiling (``collective_model.algorithms.nvls_tree_cap``).

    Comparing it with :func:`predict` and with a measurement shows which mechanism a miss
    comes from (Appendix A). A vendor tuner plugin (AWS's regions, a
    cloud's TCPXO profile) may override NCCL's choice; this is the choice NCCL's own model
    would make.

    NCCL's constants changed from release to release (e.g. the Blackwell NVLSTree
    per-channel cap from 4 nodes up: 43.8 GB/s to 2.29.7, 80 from 2.30.3): the estimate
    is made with those of the run's release (:mod:`interlib.specs.nccl_tuning`, every
    release from 2.18.1 to 2.30.7), and the result's ``nccl_version`` says which was used.

    Args:
        collective, size_bytes, system, gpus_per_node, nodes, nvls: As :func:`predict`.
        algorithm: ``"auto"`` (NCCL's choice) or a named algorithm, whose protocol NCCL's
            estimate picks (``"fastest"`` is the book's notion and not accepted here).
        nccl_version: The run's NCCL release (``"2.21.5"``); a release between two read
            ones takes the older one's constants, one newer than all of them the newest's.
            Default: the node's own (``Node.nccl_version``), else the newest read
            (:data:`interlib.specs.nccl_tuning.DEFAULT_VERSION`).

    Returns:
        A :class:`Prediction` of NCCL's estimate (time_s in s, algbw and busbw in bytes/s),
        whose ``nccl_version`` is the release whose constants it used.

    >>> from interlib.units import GiB
    >>> e = nccl_estimate("all_reduce", GiB, "dgx-h100", 8, 2)
    >>> e.algorithm, e.nccl_version
    ('nvls_tree', '2.30.7')
    >>> nccl_estimate("all_reduce", GiB, "dgx-h100", 8, 2, nccl_version="2.22.3").nccl_version
    '2.22.3'
    """
    v.choice("algorithm", algorithm, [a for a in ALGORITHMS if a != "fastest"])
    sys_, g, k, S = _checked(collective, size_bytes, system, gpus_per_node, nodes,
                             algorithm, nvls)
    if g * k == 1:
        raise ValueError("gpus_per_node x nodes = 1: NCCL's estimate needs 2 ranks or more "
                         "(for one rank its tuning model times nothing; predict() gives the "
                         "launch cost)")
    version = _version_of(sys_, nccl_version)
    pairs = _candidates(sys_, collective, algorithm, g, k, nvls)
    est = _times(sys_, collective, pairs, S, g, k, nccl_view=True, nccl_version=version)
    return replace(_prediction(collective, size_bytes, S, est, np.argmin(est, axis=0), pairs,
                               g * k), nccl_version=version)


def figures_2026() -> dict:
    """What NCCL does since 2.27 (issue 28), as display strings for Chapter 6's prose: the
    release and date of each feature and NVIDIA's reported small-message gain.

    >>> figures_2026()["symmetric_release"]
    'NCCL 2.27.3'
    """
    from .specs import NCCL_FEATURES
    from .specs.software import NCCL_SYMMETRIC_SMALL_MESSAGE_GAIN

    def rel(name):
        return NCCL_FEATURES[name].note.split(";")[0]

    def date(name):
        return NCCL_FEATURES[name].date

    return {"symmetric_release": rel("symmetric memory kernels"),
            "symmetric_date": date("symmetric memory kernels"),
            "symmetric_gain": f"{NCCL_SYMMETRIC_SMALL_MESSAGE_GAIN.value:g}×",
            "device_api_release": rel("device API"), "device_api_date": date("device API"),
            "gin_release": rel("GPU-initiated networking (GIN)"),
            "gin_date": date("GPU-initiated networking (GIN)"),
            "nvls_sharp_release": rel("NVLS + IB SHARP for AllGather / ReduceScatter")}
