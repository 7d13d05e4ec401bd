"""Collective communication: textbook alpha-beta costs and a calibrated NCCL-style model.

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
   Calibrated constants (launch overhead, LL efficiency, the pipeline window and chunk
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

Limits of :func:`predict` (stated, not hidden): one communicator, no contention with other
traffic, no compute overlap, full-bisection network, NCCL's channel counts for ring and tree
not modelled (so mid-size messages, 1-64 MiB, are the least accurate), no PXN/PAT/
CollNet-Direct variants; Google's GPUDirect-TCPXO has one calibrated per-step latency and
no model of its mid-size pipeline (1-64 MiB are 2-3x optimistic there).
Appendix A gives the error on held-out published runs by size and GPU count.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, replace

import numpy as np

from . import _validate as v
from . import intervals
from .specs import System, calibration as C, system as _system_lookup

_OVERRIDE: dict = {}
"""Values of calibrated constants that replace :mod:`interlib.specs.calibration`'s while
:func:`calibrated` is active (empty otherwise): how :mod:`interlib.crossval` times the model
fitted without one source. Never set it by hand."""


def _cal(name: str) -> float:
    """The value of the calibrated constant ``name``: the override of :func:`calibrated`,
    else the catalogue's (:mod:`interlib.specs.calibration`)."""
    return _OVERRIDE[name] if name in _OVERRIDE else getattr(C, name).value


@contextmanager
def calibrated(values: dict):
    """Within this block :func:`predict` uses ``values`` (``{name: value}``, names of
    :data:`interlib.specs.calibration.CALIBRATED_FROM`) for the book's calibrated constants
    instead of the catalogue's: how a model fitted on other data is timed
    (:mod:`interlib.crossval`). Restores the previous values on exit."""
    bad = sorted(set(v.items("values", list(values))) - set(C.CALIBRATED_FROM))
    if bad:
        raise ValueError(f"values names {bad}, which are not calibrated constants "
                         f"(one of {sorted(C.CALIBRATED_FROM)})")
    old = dict(_OVERRIDE)
    _OVERRIDE.update({k: float(x) for k, x in values.items()})
    try:
        yield
    finally:
        _OVERRIDE.clear()
        _OVERRIDE.update(old)


COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
               "all_to_all")
ALGORITHMS = ("auto", "ring", "tree", "rhd", "hierarchical", "nvls", "nvls_tree", "sharp",
              "direct", "fastest")
"""Algorithm names :func:`predict` accepts. ``"nvls"`` is NVLink SHARP inside one node
(NCCL's NVLS) and ``"nvls_tree"`` NVLS inside each node with a double binary tree between
nodes (NCCL's NVLSTree); a :class:`Prediction` names the one it computed."""

NCCL_NAMES = {"ring": "Ring", "tree": "Tree", "nvls": "NVLS", "nvls_tree": "NVLSTree",
              "sharp": "CollNet"}
"""NCCL's own name (``NCCL_ALGO``) of each algorithm of :data:`ALGORITHMS` that NCCL has
(``"sharp"`` is CollNet with IB SHARP; ``"rhd"``, ``"hierarchical"`` and ``"direct"`` are
the book's, not NCCL's)."""


# ------------------------------------------------------------------ bus bandwidth
def bus_factor(collective: str, n):
    """nccl-tests' bus-bandwidth factor for ``n`` ranks.

    AllReduce 2(n-1)/n; ReduceScatter, AllGather, AlltoAll (n-1)/n; Broadcast, Reduce 1
    (``doc/PERFORMANCE.md``). For n = 1 every factor is 0 except Broadcast/Reduce.

    >>> bus_factor("all_reduce", 8)
    1.75
    """
    v.choice("collective", collective, COLLECTIVES)
    n = _ranks(n)
    if collective == "all_reduce":
        f = 2 * (n - 1) / n
    elif collective in ("broadcast", "reduce"):
        f = np.ones_like(n)
    else:
        f = (n - 1) / n
    return float(f) if f.ndim == 0 else f


def _ranks(n):
    """Check a rank count (or array of them): whole numbers >= 1; return a float array."""
    return np.asarray(v.whole("n", n, lo=1), dtype=float)


BUS_FACTOR = {c: (lambda n, c=c: bus_factor(c, n)) for c in COLLECTIVES}
"""The factor table, one callable per collective (see :func:`bus_factor`)."""


def algbw(size_bytes, time_s):
    """Algorithm bandwidth, bytes/s: ``size / time`` (nccl-tests)."""
    v.non_negative("size_bytes", size_bytes)
    v.positive("time_s", time_s)
    return v.result(np.asarray(size_bytes, dtype=float) / np.asarray(time_s, dtype=float))


def busbw(collective: str, size_bytes, time_s, n):
    """Bus bandwidth, bytes/s: ``algbw x bus_factor(collective, n)`` (nccl-tests)."""
    return algbw(size_bytes, time_s) * bus_factor(collective, n)


# -------------------------------------------------------------- textbook alpha-beta
def wire_bytes_per_rank(collective: str, size_bytes, n, algorithm: str = "ring"):
    """Bytes each rank sends (and receives) for a bandwidth-optimal ring-style algorithm.

    All-reduce: 2(n-1)/n x size; all-gather / reduce-scatter / all-to-all: (n-1)/n x size;
    broadcast / reduce (pipelined chain): size. With in-network reduction (``"nvls"``,
    ``"sharp"``) each rank sends its buffer once and receives the result once: size.
    """
    v.choice("algorithm", algorithm, ("ring", "nvls", "sharp"))
    v.non_negative("size_bytes", size_bytes)
    _ranks(n)
    if algorithm in ("nvls", "sharp"):
        v.choice("collective", collective, ("all_reduce",))
        return v.result(size_bytes)
    return v.result(np.asarray(size_bytes, dtype=float) * bus_factor(collective, n))


def wire_rate(collective: str, size_bytes, time_s, n, algorithm: str = "ring"):
    """The rate each rank's link really carried, bytes/s per direction:
    :func:`wire_bytes_per_rank` / ``time_s``.

    For point-to-point algorithms (ring) this equals busbw (nccl-tests' definition). With
    in-network reduction (``"nvls"``, ``"sharp"``) each rank sends its buffer only once, so
    the wire rate is algbw and busbw = algbw x 2(n-1)/n overstates the link's traffic:
    busbw then says what link speed a ring would need to keep up (Chapter 4).

    >>> wire_rate("all_reduce", 8e9, 0.02, 8) == busbw("all_reduce", 8e9, 0.02, 8)
    True
    >>> wire_rate("all_reduce", 8e9, 0.02, 8, "nvls") == algbw(8e9, 0.02)
    True
    """
    v.positive("time_s", time_s)
    return v.result(wire_bytes_per_rank(collective, size_bytes, n, algorithm)
                    / np.asarray(time_s, dtype=float))


def alpha_beta(collective: str, algorithm: str, size_bytes, n, alpha, bandwidth, gamma=0.0):
    """Textbook cost of a collective, seconds.

    Args:
        collective: One of :data:`COLLECTIVES` (all_to_all only with ``"ring"``, meaning
            pairwise exchange).
        algorithm: ``"ring"``, ``"tree"`` (binomial/binary tree) or ``"rhd"`` (recursive
            halving/doubling; Rabenseifner for all-reduce).
        size_bytes: nccl-tests size (see module docstring), bytes >= 0.
        n: Number of ranks, integer >= 1.
        alpha: Per-message latency, s >= 0.
        bandwidth: Per-direction link bandwidth, bytes/s > 0 (beta = 1 / bandwidth).
        gamma: Reduction compute time per byte, s/byte >= 0.

    Formulas (p = n ranks, m = size_bytes, beta = 1/bandwidth; from MPICH's cost comments
    and Thakur et al. 2005):

    * ring all-reduce: 2(p-1) alpha + 2 (p-1)/p m beta + (p-1)/p m gamma
    * ring all-gather / reduce-scatter: (p-1) alpha + (p-1)/p m beta (+ (p-1)/p m gamma
      for reduce-scatter)
    * rhd all-reduce (p a power of two): 2 lg p alpha + 2 (p-1)/p m beta + (p-1)/p m gamma;
      otherwise (2 floor(lg p) + 2) alpha + (2 (p-1)/p + 2) m beta + (1 + (p-1)/p) m gamma
    * rhd all-gather / reduce-scatter: lg p alpha + (p-1)/p m beta (+ gamma term)
    * tree broadcast / reduce (binomial): lg p alpha + lg p m beta; tree all-reduce =
      reduce then broadcast: 2 lg p (alpha + m beta) + lg p m gamma
    * ring broadcast / reduce (pipelined chain, large m): (p-1) alpha + m beta
    * ring (pairwise) all-to-all: (p-1) alpha + (p-1)/p m beta

    >>> round(alpha_beta("all_reduce", "ring", 8e9, 8, 0.0, 4e11), 6)
    0.035
    """
    v.choice("collective", collective, COLLECTIVES)
    v.choice("algorithm", algorithm, ("ring", "tree", "rhd"))
    p = v.integer("n", n, lo=1)
    v.non_negative("size_bytes", size_bytes)
    v.non_negative("alpha", alpha)
    v.positive("bandwidth", bandwidth)
    v.non_negative("gamma", gamma)
    m = np.asarray(size_bytes, dtype=float)
    beta = 1.0 / bandwidth
    if p == 1:
        return float(0.0) if m.ndim == 0 else np.zeros_like(m)
    f = (p - 1) / p
    lg = math.log2(p)
    clg = math.ceil(lg)
    red = collective in ("all_reduce", "reduce_scatter", "reduce")
    if algorithm == "ring":
        t = _ring_time(collective, p, m, alpha, beta, gamma)
    elif algorithm == "rhd":
        if collective == "all_reduce":
            if p & (p - 1) == 0:
                t = 2 * lg * alpha + 2 * f * m * beta + f * m * gamma
            else:
                t = ((2 * math.floor(lg) + 2) * alpha + (2 * f + 2) * m * beta
                     + (1 + f) * m * gamma)
        elif collective in ("all_gather", "reduce_scatter"):
            t = clg * alpha + f * m * beta + (f * m * gamma if red else 0.0)
        else:
            raise ValueError(f"algorithm='rhd' is not defined for collective={collective!r}; "
                             "use 'ring' or 'tree'")
    else:  # tree
        if collective in ("broadcast", "reduce"):
            t = clg * (alpha + m * beta) + (clg * m * gamma if red else 0.0)
        elif collective == "all_reduce":
            t = 2 * clg * (alpha + m * beta) + clg * m * gamma
        else:
            raise ValueError(f"algorithm='tree' is not defined for collective={collective!r}; "
                             "use 'ring' or 'rhd'")
    t = np.asarray(t, dtype=float)
    return float(t) if t.ndim == 0 else t


def alpha_beta_grid(collective: str, algorithm: str, sizes, ns, alpha, bandwidth,
                    gamma=0.0):
    """:func:`alpha_beta` over every (n, size) pair at once: an array of shape
    ``(len(ns), len(sizes))``, seconds.

    The ring formulas are evaluated in one numpy expression with ``n`` as a column
    (a 10^5-point sweep in about a millisecond); other algorithms loop over ``ns`` with
    vectorised sizes. Same units, checks and results as :func:`alpha_beta`.

    >>> alpha_beta_grid("all_reduce", "ring", [8e9], [8], 0.0, 4e11).round(6).tolist()
    [[0.035]]
    """
    ns = [v.integer("ns", n, lo=1) for n in v.items("ns", np.atleast_1d(ns).tolist())]
    v.non_negative("sizes", sizes)
    m = np.atleast_1d(np.asarray(sizes, dtype=float))
    if algorithm != "ring":
        return np.array([np.broadcast_to(alpha_beta(collective, algorithm, m, n, alpha,
                                                    bandwidth, gamma), m.shape) for n in ns])
    alpha_beta(collective, algorithm, m, 1, alpha, bandwidth, gamma)  # the same checks
    p = np.array(ns, dtype=float)[:, None]
    return np.where(p == 1, 0.0, _ring_time(collective, p, m, alpha, 1.0 / bandwidth, gamma))


def _ring_time(collective, p, m, alpha, beta, gamma):
    """The ring's alpha-beta-gamma time for ``p`` ranks (a number, or a column of them
    against a row of sizes ``m``): what :func:`alpha_beta` and :func:`alpha_beta_grid`
    both evaluate. Per rank: latency steps, bytes sent and bytes reduced (x m)."""
    f = (p - 1) / p
    steps, sent, reduced = {"all_reduce": (2 * (p - 1), 2 * f, f),
                            "all_gather": (p - 1, f, 0.0),
                            "reduce_scatter": (p - 1, f, f),
                            "broadcast": (p - 1, 1.0, 0.0),
                            "reduce": (p - 1, 1.0, 1.0),
                            "all_to_all": (p - 1, f, 0.0)}[collective]
    return steps * alpha + sent * m * beta + reduced * m * gamma


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
            the model's cross-validated error on published runs of the same class (size
            regime, GPU count, network; :mod:`interlib.intervals`). None for
            :func:`nccl_estimate`.
    """

    time_s: object
    algbw: object
    busbw: object
    algorithm: object
    protocol: object
    n: int
    busbw_low: object = None
    busbw_high: object = None


def _links(sys_: System, g: int, k: int, nccl_view: bool = False):
    """Effective per-GPU intra bandwidth, per-node network bandwidth, intra hop kind.
    NCCL's own view (``nccl_view``) takes a NIC at its full line rate; the book's at the
    fitted share of it (:data:`~interlib.specs.calibration.NET_EFFICIENCY`).

    A node built by :func:`interlib.specs.custom.node` may pair PCIe cards with an NVLink
    bridge: two GPUs then talk over the bridge, more than two still cross PCIe."""
    gpu = sys_.gpu
    if sys_.intra == "nvswitch":
        b_intra = gpu.nvlink.per_gpu_effective
        hop = "nvlink"
    elif getattr(sys_, "nvlink_bridge", False) and g <= 2:
        b_intra = sys_.bridge_effective
        hop = "nvlink"
    else:
        from .specs import PCIE_HOST_COPY_EFFICIENCY
        b_intra = gpu.pcie.usable_per_direction(16) * PCIE_HOST_COPY_EFFICIENCY.value
        hop = "pcie"
    nics_used = min(sys_.nics_per_node, g * sys_.nics_per_gpu)
    b_node_net = nics_used * sys_.nic.rate.value * (1.0 if nccl_view else _cal("NET_EFFICIENCY"))
    return b_intra, b_node_net, hop


def _fabric(sys_: System) -> str:
    """The network kind that sets the plugin latency: ``InfiniBand``, ``Ethernet``, ``EFA``
    or ``GPUDirect-TCPXO`` (a NIC sold for both IB and Ethernet counts as InfiniBand)."""
    f = getattr(sys_, "fabric", None) or sys_.nic.fabric
    for kind in ("GPUDirect-TCPXO", "EFA", "InfiniBand", "Ethernet"):
        if f.startswith(kind):
            return kind
    return "InfiniBand"


def _tree_node_traffic(k: int) -> float:
    """Bytes each node sends (and receives) over its NICs per byte of all-reduce in NCCL's
    double binary tree of ``k`` nodes: 1 for two nodes (each is the root of one tree and
    the leaf of the other), 1.5 for three, 2 from four up (each node is interior in one
    tree: 3/2 of the half it carries there, plus 1/2 as a leaf of the other).

    >>> [_tree_node_traffic(k) for k in (2, 3, 4, 64)]
    [1.0, 1.5, 2.0, 2.0]
    """
    return {1: 0.0, 2: 1.0, 3: 1.5}.get(k, 2.0)


def _blackwell_before_2283(sys_) -> bool:
    ver = getattr(sys_, "nccl_version", None)
    return sys_.gpu.arch == "Blackwell" and ver is not None \
        and tuple(int(x) for x in ver.split(".")) < C.TREE_CAPS_CHANGED_IN


def _tree_cap(sys_, g: int, k: int, protocol: str = "Simple", level: int | None = None) -> float:
    """NCCL's cap on a tree's bus bandwidth, bytes/s: channels x
    ``perChMaxTreeBw[arch][1 node | 2 nodes | 3+]`` (``tuning.cc``: tree busBw = min(0.92 x
    link, nChannels x per-channel cap)). Across nodes the tree runs on the ring graph's
    channels (``init.cc``: the tree graph takes ``ringGraph->nChannels``), one per NIC on
    Hopper and Blackwell nodes and two per NIC on Ampere, whose channels ``search.cc``
    duplicates (only compute capability > 8.0 skips it); in one node on
    :data:`~interlib.specs.calibration.COLL_CHANNELS`. Blackwell's caps are those of the
    node's NCCL version (they changed in 2.28.3), with LL128's own table on Blackwell from
    2.28.3 (``perChMaxTreeLL128Bws``); ``level`` picks the column (1 node, 2, 3+) if it is
    not the node count's. Measured with ``NCCL_ALGO=Tree`` on B200
    nodes of 8 x 400G: 8 x 42.8 = 342 GB/s on 2 nodes, 8 x 24 = 192 GB/s from 3 nodes.

    >>> round(_tree_cap(_system_lookup("dgx-b200"), 8, 4) / 1e9)
    192
    """
    arch = sys_.gpu.arch
    caps = C.PER_CHANNEL_TREE_BW[arch]
    if _blackwell_before_2283(sys_):
        caps = C.PER_CHANNEL_TREE_BW_BLACKWELL_BEFORE_2283
    elif protocol == "LL128" and arch == "Blackwell":  # tuning.cc's LL128 tree caps
        caps = C.PER_CHANNEL_TREE_LL128_BW_BLACKWELL
    if k == 1:
        channels = C.COLL_CHANNELS[arch].value
    else:
        channels = min(sys_.nics_per_node, g * sys_.nics_per_gpu) * (2 if arch == "Ampere" else 1)
    return channels * caps[(min(k, 3) if level is None else level) - 1].value


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
    return float(_nvls_algbw(sys_, g, k))


def _nvls_algbw(sys_, g, k, links_only=False):
    eta = C.NVLS_EFFICIENCY[sys_.gpu.arch].value
    wire = eta * sys_.gpu.nvlink.per_gpu_effective * g / (g + 1)
    if links_only or sys_.gpus_per_server >= sys_.gpus_per_node:
        return wire
    chunk = (C.NVLS_TREE_CHUNK_MANY_NODES.value if k >= C.NVLS_TREE_CHUNK_MIN_NODES.value
             else C.NVLS_CHUNK.value)
    channels = C.NVLS_CHANNELS[sys_.gpu.arch].value
    return min(wire, channels * chunk / _cal("NVLS_CHUNK_TIME_RACK"))


def _inside(x: float, y: float, poly) -> bool:
    """Whether ``(x, y)`` lies in the polygon ``poly`` or on its edge (even-odd rule), all
    in log2 coordinates as aws-ofi-nccl's ``is_inside_region``."""
    pts = [(math.log2(max(px, 1e-300)) if px > 0 else -1e9, math.log2(py)) for px, py in poly]
    inside = False
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        dx, dy = x1 - x0, y1 - y0
        t = ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy or 1.0)
        t = min(1.0, max(0.0, t))
        if math.hypot(x - x0 - t * dx, y - y0 - t * dy) < 1e-10:
            return True  # on an edge counts as inside (in_out >= 0)
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * dx / dy:
            inside = not inside
    return inside


def aws_tuner_choice(size_bytes: float, ranks: int):
    """The (algorithm, protocol) AWS's region tuner picks for an all-reduce on P6 (p6-b200,
    8 GPUs per node, EFA) at one size and rank count, or None where it defers to NCCL.

    From aws-ofi-nccl's ``nccl_ofi_regions.cpp`` (:data:`interlib.specs.calibration.
    AWS_TUNER_P6_ALL_REDUCE`); NVLSTree is ``"nvls_tree"``.

    >>> aws_tuner_choice(64 * 2**10, 32), aws_tuner_choice(2**30, 32)
    (('tree', 'LL'), ('ring', 'Simple'))
    >>> aws_tuner_choice(2**28, 32)
    ('nvls_tree', 'Simple')
    """
    v.positive("size_bytes", size_bytes)
    r = v.integer("ranks", ranks, lo=1)
    x, y = math.log2(float(size_bytes)), math.log2(r)
    for alg, proto, poly in C.AWS_TUNER_P6_ALL_REDUCE:
        if _inside(x, y, poly):
            return alg, proto
    return None


def _aws_tuned(sys_, collective, g, k) -> bool:
    """Whether AWS's region tuner chooses here: all-reduce, B200 nodes of 8 GPUs on EFA
    (the P6 platform table), more than two nodes."""
    return (collective == "all_reduce" and _fabric(sys_) == "EFA" and sys_.gpu.name == "B200"
            and g == 8 and k >= C.AWS_TUNER_MIN_NODES.value)


def _supported(sys_: System, collective: str, algorithm: str, g: int, k: int) -> str | None:
    """Why ``algorithm`` cannot run here, or None if it can."""
    if algorithm in ("nvls", "nvls_tree"):
        if collective != "all_reduce":
            return f"{NCCL_NAMES[algorithm]} (NVLink SHARP) is modelled for all_reduce only"
        if sys_.intra != "nvswitch" or sys_.nvswitch_gen is None or sys_.nvswitch_gen < 3:
            return f"{sys_.name} has no NVSwitch with in-switch reduction (needs NVSwitch 3+)"
        if algorithm == "nvls_tree" and k < 2:
            return ("NVLSTree joins NVLS domains across nodes and NCCL disables it on a single "
                    "node (tuning.cc): use 'nvls' within a node")
    if algorithm == "sharp":
        if collective != "all_reduce":
            return "SHARP in-network reduction is modelled for all_reduce only"
        if k < 2:
            return "SHARP reduces in the network switches: it needs nodes >= 2"
    if algorithm in ("tree", "hierarchical") and collective != "all_reduce":
        return f"{algorithm!r} is modelled for all_reduce only (NCCL uses ring for the rest)"
    if algorithm == "rhd" and collective not in ("all_reduce", "all_gather", "reduce_scatter"):
        return "'rhd' is defined for all_reduce, all_gather and reduce_scatter"
    if algorithm == "direct" and collective != "all_to_all":
        return "'direct' (pairwise exchange) is the all_to_all algorithm"
    if collective == "all_to_all" and algorithm not in ("direct",):
        return "all_to_all uses algorithm 'direct' (or 'auto')"
    return None


def _profile(sys_, k: int):
    """The cloud profile's settings that bind this run (a dict of
    :data:`~interlib.specs.calibration.TCPXO_PROFILES`), or None: only a multi-node run over
    GPUDirect-TCPXO is bound by one (only such a node has a ``tcpxo_profile``)."""
    name = getattr(sys_, "tcpxo_profile", None)
    return C.TCPXO_PROFILES[name] if k > 1 and name is not None else None


def _nvls_name(k: int) -> str:
    """What NVLS is on ``k`` nodes: ``"nvls"`` within one node, ``"nvls_tree"`` (NCCL's
    NVLSTree) across nodes. NCCL's own ``NVLS`` across nodes is NVLS + CollNet (IB SHARP):
    ``tuning.cc`` disables it for ``nNodes > 1`` unless CollNet is enabled; the model does
    not cover it, so an ``"nvls"`` asked for across nodes is timed as NVLSTree and labelled
    so."""
    return "nvls" if k == 1 else "nvls_tree"


def _candidates(sys_, collective, algorithm, g, k, nvls=True):
    """(algorithm, protocol) pairs to evaluate (``nvls=False``: NCCL_NVLS_ENABLE=0)."""
    n = g * k
    prof = _profile(sys_, k)
    if algorithm == "auto":
        if collective == "all_to_all":
            algs = ["direct"]
        elif collective == "all_reduce":
            algs = ["ring", "tree"]
            if nvls and _supported(sys_, collective, "nvls", g, k) is None \
                    and g >= C.NVLS_MIN_GPUS.value:
                algs.append(_nvls_name(k))
            if prof is not None:  # the profile's NCCL_ALGO / NCCL_NVLS_ENABLE
                algs = [a for a in algs if a in prof["algorithms"]]
        else:
            algs = ["ring"]
    else:
        algs = [_nvls_name(k) if algorithm == "nvls" else algorithm]
    pairs = []
    for a in algs:
        if a in ("nvls", "nvls_tree", "sharp", "rhd", "hierarchical", "direct"):
            pairs.append((a, "Simple"))
            continue
        for p in C.PROTOCOLS:
            if p == "LL128" and sys_.intra != "nvswitch":
                continue  # NCCL enables LL128 by default only over NVLink
            if prof is not None and p not in prof["protocols"]:
                continue  # the cloud's recommended NCCL_PROTO leaves it out
            if a == "tree" and n <= 2 and k == 1:
                continue
            pairs.append((a, p))
    return pairs


def _time(sys_, collective, a, p, S, g, k, nccl_view=False):
    """Time for one (algorithm, protocol) pair; S is an array of sizes.

    With ``nccl_view`` the estimate NCCL's own tuning model would make (how it chooses
    for ``"auto"``): links at full effective rate for NVLS, NCCL's tree bandwidth (half of
    the bottleneck link, capped per channel) and NVLSTree's inter-node bandwidth doubled on
    two nodes; the book's extra mechanisms are left out."""
    n = g * k
    b_intra, b_net, hop = _links(sys_, g, k, nccl_view)
    t0 = 0.0 if nccl_view else _cal("LAUNCH_OVERHEAD")
    if p == "LL":
        eff = _cal("LL_EFFICIENCY")
    else:
        eff = C.PROTOCOL_EFFICIENCY[p].value
    F = bus_factor(collective, n)
    if n == 1:
        return np.full_like(S, t0)
    # the network plugin's own latency, added to every inter-node step (twice for Simple,
    # as tuning.cc adds the flush latency)
    plugin = C.NET_PLUGIN_LATENCY[_fabric(sys_)].value
    if _fabric(sys_) == "GPUDirect-TCPXO" and not nccl_view:
        # what TCP adds per step but the plugin does not tell NCCL (calibrated)
        plugin += _cal("TCPXO_STEP_LATENCY")

    def hl(kind, alg=a, proto=p):
        lat = C.HOP_LATENCY[(kind, alg, proto)].value
        if kind == "net":
            lat += plugin * (2 if proto == "Simple" else 1)
        return lat

    # a larger Simple buffer (NCCL_BUFFSIZE: the run's own setting, or a vendor profile's
    # across nodes) makes a ring's or tree's chunks, and so the pipeline window, larger in
    # proportion; NVLS and NVLSTree cut theirs from NCCL_NVLS_CHUNKSIZE instead
    # (enqueue.cc), so the buffer leaves them alone
    buff_scale = 1.0
    if p == "Simple" and a in ("ring", "tree"):
        buff = getattr(sys_, "buffsize", None)
        if buff is None and k > 1 and _fabric(sys_) in C.FABRIC_BUFFSIZE:
            buff = C.FABRIC_BUFFSIZE[_fabric(sys_)].value
        if buff is not None:
            buff_scale = buff / C.NCCL_DEFAULT_BUFFSIZE.value

    def fill(steps, bw, parts=1):
        """Pipeline fill: the first chunk crosses steps - 1 stages before the rest flows
        (the book's calibrated addition; NCCL's own estimate has none). A ring cuts the
        buffer into one slice per rank, NVLS into one share per GPU (``parts``), so a
        chunk is never larger than ``size / parts``."""
        if nccl_view:
            return 0.0 * S
        window = np.minimum(_cal("PIPELINE_WINDOW") * buff_scale,
                            S / max(_cal("PIPELINE_CHUNKS"), parts))
        return (steps - 1) * window / bw

    if a == "ring":
        steps = {"all_reduce": 2 * (n - 1)}.get(collective, n - 1)
        inter = {"all_reduce": 2 * (k - 1)}.get(collective, k - 1)
        lat = C.BASE_LATENCY[("ring", p)].value + (steps - inter) * hl(hop) + inter * hl("net")
        if k > 1 and p == "Simple":
            lat *= C.RING_SIMPLE_INTERNODE_LATENCY_FACTOR.value
        b = (b_intra if k == 1 else min(b_intra, b_net)) * eff
        # the first chunk crosses the ring's NVLink stages at NVLink speed and its
        # inter-node stages at the NICs' (one node: every stage is NVLink)
        t_fill = fill(steps - inter, b_intra * eff, n) + fill(inter + 1, b, n)
        return t0 + lat + t_fill + F * S / b
    if a == "tree":
        lat = C.BASE_LATENCY[("tree", p)].value + 2 * ((g - 1) * hl(hop) + math.log2(k) * hl("net"))
        scale = C.TREE_EFFICIENCY.value * (eff if p != "Simple" else 1.0)
        corr = np.asarray(C.TREE_CORRECTION[p])
        idx = np.clip(np.floor(np.log2(np.maximum(S / 64, 1))).astype(int), 0, corr.size)
        scale = scale * np.where(idx < corr.size, corr[np.minimum(idx, corr.size - 1)], 1.0)
        # a chain inside the node (each GPU sends the buffer up and the result down) and,
        # between nodes, a double binary tree whose per-node traffic depends on k
        t_bw = 2 * S / (b_intra * scale)
        b_fill = b_intra * scale
        cap = _tree_cap(sys_, g, k) * scale / C.TREE_EFFICIENCY.value
        if nccl_view:  # tuning.cc: busBw = min(0.92 x link, channels x per-channel cap)
            # on two nodes the tree graph's search raises bwIntra up to twice bwInter
            # (search.cc, "increase bwIntra for trees (2 nodes or collnet)"): a two-node
            # tree moves about S per node across the network, a ring 2(n-1)/n S
            b_link = b_intra if k == 1 else min(b_intra, (2 if k == 2 else 1) * b_net)
            t_bw = 2 * S / np.minimum(b_link * scale, cap)
        elif k > 1:
            t_bw = np.maximum(t_bw, _tree_node_traffic(k) * S / (b_net * scale))
            b_fill = np.minimum(b_fill, b_net * scale)
            if p in ("Simple", "LL128"):  # NCCL's per-channel tree throughput binds too
                t_bw = np.maximum(t_bw, 2 * S / (_tree_cap(sys_, g, k, p) * scale
                                                 / C.TREE_EFFICIENCY.value))
        return t0 + lat + fill(2 * (g - 1 + math.log2(k)), b_fill) + t_bw
    if a == "rhd":
        alpha = hl("net" if k > 1 else hop, "ring", "Simple")
        b = b_intra if k == 1 else min(b_intra, b_net / g)
        return t0 + alpha_beta(collective, "rhd", S, n, alpha, b)
    if a == "direct":  # all-to-all: (g-1)/n of the data over NVLink, (n-g)/n over the NICs
        lat = C.BASE_LATENCY[("ring", "Simple")].value + hl(hop, "ring", "Simple") \
            + (hl("net", "ring", "Simple") if k > 1 else 0.0)
        t_intra = (g - 1) / n * S / b_intra
        t_inter = (n - g) / n * S / (b_net / g) if k > 1 else 0.0 * S
        return t0 + lat + fill(n - 1, b_intra) + np.maximum(t_intra, t_inter)
    # all-reduce algorithms built from an intra-node part and (for k > 1) an inter-node part
    if a in ("nvls", "nvls_tree"):
        # each GPU pushes its buffer once into the switch and pulls the result once, at the
        # pace of the links or (in a rack-scale domain) of NCCL's NVLS channels
        b_nvls = _nvls_algbw(sys_, g, k, links_only=nccl_view)
        t_intra = S / b_nvls
        lat = hl("nvlink", "nvls")
        # the switch reduces and multicasts: the pipeline is g chunks deep, not a ring's
        # 2(g-1) steps (calibrated, see C.NVLS_PIPELINE_STEPS_PER_GPU and Appendix A). Each
        # GPU reduces and multicasts its own 1/g share (NCCL's NVLS heads), so, as in a
        # ring, a chunk is never larger than size / g: enqueue.cc shrinks the NVLS chunk
        # until the message holds several chunks per channel and head
        steps, parts = _cal("NVLS_PIPELINE_STEPS_PER_GPU") * g, g
        b_fill = b_nvls * (g + 1) / g
    else:  # hierarchical or sharp: ring reduce-scatter + all-gather inside the node
        t_intra = 2 * (g - 1) / g * S / b_intra if g > 1 else 0.0 * S
        lat = C.BASE_LATENCY[("ring", "Simple")].value + 2 * (g - 1) * hl(hop, "ring", "Simple")
        steps, b_fill, parts = 2 * (g - 1), b_intra, g  # a ring of g slices
    if k > 1:
        if a == "sharp":  # the switches reduce: each node sends its data once
            t_inter = S / b_net
            if not nccl_view and sys_.gpu.arch == "Blackwell":
                # CollNet chain: inside each node a chain, the tree's intra-node primitive,
                # at NCCL's one-node per-channel tree throughput (tuning.cc rates CollNet
                # by the intra-node graph; measured CollNetChain on B200 sits at the
                # one-node tree plateau, 8 x 70 GB/s, from 2 to 64 nodes). Only where it
                # was measured: on H100 (CoreWeave's SHARP run) 8 x 38.7 GB/s would be
                # far below the published plateau
                t_inter = np.maximum(t_inter, 2 * S / _tree_cap(sys_, g, k, level=1))
            lat += 2 * hl("net", "tree", "Simple")
            inter_steps = 2  # up to the switch and back down
            b_inter = b_net
        elif a == "nvls_tree":
            # NCCL's NVLSTree: a double binary tree between nodes, through at most 32 head
            # GPUs (and their NICs) per NVLink domain
            heads = min(g, C.NVLS_MAX_HEADS.value)
            # each head GPU crosses the network through its own NICs (all of them on a
            # node with several NICs per GPU, as p5's 4 x 100G EFA per GPU)
            b_heads = b_net * min(1.0, heads * max(1.0, sys_.nics_per_gpu)
                                  / max(1.0, min(sys_.nics_per_node, g * sys_.nics_per_gpu)))
            t_inter = _tree_node_traffic(k) * S / b_heads
            if nccl_view:  # tuning.cc: bwInter x2 on two nodes, else x1; per-channel cap
                arch = sys_.gpu.arch
                cap = (C.NVLS_CHANNELS[arch].value
                       * C.PER_CHANNEL_NVLS_TREE_BW[arch][min(k, 3) - 1].value / 2)
                t_inter = np.maximum((1.0 if k <= 2 else 2.0) * S / b_heads, S / cap)
            inter_steps = 2 * math.ceil(math.log2(k))
            lat += hl("net", "nvls_tree", "Simple") * inter_steps
            b_inter = b_heads
        else:  # ring all-reduce of the 1/g shards across nodes, one NIC set per GPU
            t_inter = 2 * (k - 1) / k * S / b_net
            inter_steps = 2 * (k - 1)
            lat += inter_steps * hl("net", "ring", "Simple")
            b_inter = b_net
        # NCCL pipelines the phases chunk by chunk: the slower phase sets the pace. The
        # first window crosses the intra-node stages at NVLink speed and the inter-node
        # stages through all the node's NICs in use at once.
        inter_fill = fill(inter_steps + 1, b_inter)
        t_bw = np.maximum(t_intra, t_inter)
        if a == "nvls_tree" and not nccl_view and sys_.gpu.arch == "Blackwell" \
                and sys_.gpu.name in C.X86_HOST_GPUS:
            # NCCL v2.29's NVLSTree correction on Blackwell with an x86 host (tuning.cc):
            # below 1 GiB the tree runs at treeCorrectionFactor[Simple][log2(size / 64)]
            corr = np.asarray(C.NVLS_TREE_CORRECTION_BLACKWELL_X86)
            idx = np.floor(np.log2(np.maximum(S / 64, 1))).astype(int)
            t_bw = t_bw / np.where(idx < corr.size, corr[np.minimum(idx, corr.size - 1)], 1.0)
        return t0 + lat + fill(steps, b_fill, parts) + inter_fill + t_bw
    return t0 + lat + fill(steps, b_fill, parts) + t_intra


def _times(sys_, collective, pairs, S, g, k, nccl_view=False):
    """:func:`_time` of each (algorithm, protocol) pair, one row per pair."""
    return np.stack([np.broadcast_to(_time(sys_, collective, a, p, S, g, k, nccl_view),
                                     S.shape) for a, p in pairs])


def _resolve(system, gpus_per_node, nodes):
    """(System, g, k) from predict-style arguments, validated."""
    if isinstance(system, str):
        from .specs import SYSTEMS

        sys_ = _system_lookup(v.choice("system", system, SYSTEMS))
    else:
        sys_ = system
    if not isinstance(sys_, System):
        raise ValueError(f"system={system!r} must be a catalogue id, a specs.System or a "
                         "node from specs.custom.node()")
    g = sys_.gpus_per_node if gpus_per_node is None else v.integer(
        "gpus_per_node", gpus_per_node, lo=1, hi=sys_.gpus_per_node)
    k = v.integer("nodes", nodes, lo=1, hi=100_000)
    return sys_, g, k


def _checked(collective, size_bytes, system, gpus_per_node, nodes, algorithm, nvls):
    """The arguments :func:`predict` and :func:`nccl_estimate` share, checked: the node,
    GPUs per node, nodes and the sizes as an array (``algorithm`` is already a valid
    name)."""
    v.choice("collective", collective, COLLECTIVES)
    v.flag("nvls", nvls)
    sys_, g, k = _resolve(system, gpus_per_node, nodes)
    v.number("size_bytes", size_bytes, lo=1)
    if algorithm in ("nvls", "nvls_tree") and not nvls:
        raise ValueError(f"algorithm={algorithm!r} is not available with nvls=False "
                         "(NCCL_NVLS_ENABLE=0): choose another algorithm or nvls=True")
    if algorithm not in ("auto", "fastest"):
        why = _supported(sys_, collective, algorithm, g, k)
        if why:
            raise ValueError(f"algorithm={algorithm!r} is not available: {why}")
    return sys_, g, k, np.atleast_1d(np.asarray(size_bytes, dtype=float))


def predict(collective: str, size_bytes, system, gpus_per_node: int | None = None,
            nodes: int = 1, algorithm: str = "auto", *, nvls: bool = True) -> Prediction:
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
    pairs = _candidates(sys_, collective, "auto" if algorithm == "fastest" else algorithm,
                        g, k, nvls)
    times = _times(sys_, collective, pairs, S, g, k)
    if algorithm == "auto" and k > 1 and _fabric(sys_) in C.UNPUBLISHED_TUNERS:
        # the cloud's tuner plugin decides and its configuration is not published: assume
        # it picks the fastest pair its profile allows
        best = np.argmin(times, axis=0)
    elif algorithm == "auto":  # what NCCL picks: the fastest by NCCL's own estimate
        est = _times(sys_, collective, pairs, S, g, k, nccl_view=True)
        best = np.argmin(est, axis=0)
        if _aws_tuned(sys_, collective, g, k):  # the network plugin's tuner decides
            for i, size in enumerate(S):
                pick = aws_tuner_choice(size, g * k)
                if pick in pairs:
                    best[i] = pairs.index(pick)
    else:  # a forced algorithm's best protocol, or the fastest by the book's model
        best = np.argmin(times, axis=0)
    out = _prediction(collective, size_bytes, S, times, best, pairs, g * k)
    low, high = intervals.bounds(out.busbw, size_bytes, g * k, k, _fabric(sys_))
    return replace(out, busbw_low=low, busbw_high=high)


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
                  nodes: int = 1, algorithm: str = "auto", *, nvls: bool = True) -> Prediction:
    """NCCL's own estimate of one collective, as its tuning model (``tuning.cc``) makes it
    to choose an algorithm and protocol: the pair :func:`predict` calls ``"auto"``, timed
    with NCCL's latencies and bandwidths alone. The book's time differs both ways: it adds
    a launch cost, the pipeline fill, a network plugin's unreported latency and, in an
    NVL72 rack, NVLS's chunk pace; and it does not apply two terms NCCL's model uses to
    choose (the per-channel cap on tree bandwidth, and NVLSTree's inter-node bandwidth
    doubled on two nodes).

    Comparing it with :func:`predict` and with a measurement shows which mechanism a miss
    comes from (Appendix A). A vendor tuner plugin (AWS's regions, a
    cloud's TCPXO profile) may override NCCL's choice; this is the choice NCCL's own model
    would make.

    Args:
        collective, size_bytes, system, gpus_per_node, nodes, nvls: As :func:`predict`.
        algorithm: ``"auto"`` (NCCL's choice) or a named algorithm, whose protocol NCCL's
            estimate picks (``"fastest"`` is the book's notion and not accepted here).

    Returns:
        A :class:`Prediction` of NCCL's estimate (time_s in s, algbw and busbw in bytes/s).

    >>> from interlib.units import GiB
    >>> e = nccl_estimate("all_reduce", GiB, "dgx-h100", 8, 2)
    >>> e.time_s < predict("all_reduce", GiB, "dgx-h100", 8, 2).time_s
    True
    """
    v.choice("algorithm", algorithm, [a for a in ALGORITHMS if a != "fastest"])
    sys_, g, k, S = _checked(collective, size_bytes, system, gpus_per_node, nodes,
                             algorithm, nvls)
    pairs = _candidates(sys_, collective, algorithm, g, k, nvls)
    est = _times(sys_, collective, pairs, S, g, k, nccl_view=True)
    return _prediction(collective, size_bytes, S, est, np.argmin(est, axis=0), pairs, g * k)


# ------------------------------------------------------------- ring walkthrough
def ring_all_reduce_state(n: int, step: int):
    """Which partial sums each GPU holds after ``step`` steps of a ring all-reduce.

    The buffer is cut into ``n`` chunks. In reduce-scatter step s (0-based), GPU g sends
    chunk ``(g - s) mod n`` to GPU ``g+1``, which adds it to its own copy. After n-1 steps
    GPU g holds the complete sum of chunk ``(g+1) mod n``. All-gather then passes the
    complete chunks around for another n-1 steps. Total: 2(n-1) steps, each moving 1/n of
    the buffer per GPU, hence 2(n-1)/n of the buffer per GPU.

    Args:
        n: GPUs in the ring (2..16).
        step: Steps completed, 0 .. 2(n-1).

    Returns:
        ``counts``: int array (n GPUs, n chunks): how many GPUs' contributions the copy of
        each chunk on each GPU contains (1 = only its own, n = fully reduced).

    >>> int(ring_all_reduce_state(4, 6).min())   # after 2(n-1) steps all chunks complete
    4
    """
    n = v.integer("n", n, lo=2, hi=16)
    step = v.integer("step", step, lo=0, hi=2 * (n - 1))
    counts = np.ones((n, n), dtype=int)
    for s in range(step):
        new = counts.copy()
        for g in range(n):
            if s < n - 1:
                c = (g - s) % n
                new[(g + 1) % n, c] = counts[(g + 1) % n, c] + counts[g, c]
            else:
                c = (g + 1 - (s - (n - 1))) % n
                new[(g + 1) % n, c] = counts[g, c]
        counts = new
    return counts


def ring_step_sends(n: int, step: int):
    """The chunk each GPU sends in 0-based ``step`` of a ring all-reduce (array of n),
    and the phase name (``"reduce-scatter"`` or ``"all-gather"``).

    Args:
        n: GPUs in the ring (2..16).
        step: Step index, 0 .. 2(n-1) - 1.
    """
    n = v.integer("n", n, lo=2, hi=16)
    step = v.integer("step", step, lo=0, hi=2 * (n - 1) - 1)
    g = np.arange(n)
    if step < n - 1:
        return (g - step) % n, "reduce-scatter"
    return (g + 1 - (step - (n - 1))) % n, "all-gather"


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
