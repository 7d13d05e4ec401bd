"""The time of one collective with one (algorithm, protocol) pair: one function per
algorithm, each with its formula.

Every function takes a :class:`Run` (the system, collective, protocol, sizes ``S`` in
bytes, ``g`` GPUs per node, ``k`` nodes, and the links and latencies of that run) and
returns the time in seconds for each size. Two views share the formulas:

* **NCCL's own estimate** (``nccl_view``; what ``tuning.cc`` computes to choose an
  algorithm, :func:`interlib.collectives.nccl_estimate`): a latency plus bytes over a
  bandwidth, with NICs at their line rate, NCCL's tree caps, and NVLSTree's inter-node
  bandwidth doubled on two nodes;
* **the book's timing** (:func:`interlib.collectives.predict`): the same plus a launch
  overhead ``t0``, the pipeline fill (the first chunk crossing the stages before the rest
  flows), NICs at their fitted efficiency, and the mechanisms NCCL's estimate leaves out
  (each named where it is applied).

Notation: ``n = g k`` ranks; ``B`` the per-GPU NVLink (or PCIe) bandwidth and ``N`` the
node's network bandwidth (:func:`~interlib.collective_model.links.links`); ``eff`` the
protocol's efficiency; ``h(kind)`` NCCL's latency per hop of that kind (plus, on network
hops, the plugin's latency for the protocol: :func:`~interlib.collective_model.fabrics.step_latency`,
which in the book's view takes AWS's stated 20 us per EFA step on p5 where the plugin
reports 75 us, and counts NCCL's flush only where NCCL flushes); ``fill(steps, bw, parts)`` the pipeline fill of
``Run.fill``. The constants and their sources are in :mod:`interlib.specs.calibration`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..alphabeta import alpha_beta, bus_factor
from ..specs import System, calibration as C
from ..specs import nccl_tuning as T
from .calibrated import cal
from . import tuner
from .fabrics import buffsize_scale, step_latency
from .links import (links, nvls_algbw, nvls_heads, tree_cap, tree_channels,
                    tree_node_traffic)


@dataclass(frozen=True)
class Run:
    """One (algorithm, protocol) pair on one system: what every algorithm's time uses.

    Attributes:
        sys_: The node (:class:`interlib.specs.System`).
        collective: One of :data:`interlib.collectives.COLLECTIVES`.
        a, p: Algorithm and protocol.
        S: Sizes, bytes (array).
        g, k, n: GPUs per node, nodes, ranks.
        nccl_view: NCCL's own estimate (True) or the book's timing.
        b_intra, b_net: Per-GPU intra-node and per-node network bandwidth, bytes/s.
        hop: ``"nvlink"`` or ``"pcie"``: the kind of an intra-node hop.
        t0: Launch overhead, s (0 in NCCL's view).
        eff: The protocol's share of the bandwidth.
        plugin: The network plugin's latency per inter-node step of LL or LL128, s.
        plugin_simple: The same for a Simple step (:func:`~interlib.collective_model.fabrics.step_latency`).
        buff_scale: Simple buffer / NCCL's default (ring and tree windows scale with it).
        version: The NCCL release the run uses (:mod:`interlib.specs.nccl_tuning`).
    """

    sys_: System
    collective: str
    a: str
    p: str
    S: object
    g: int
    k: int
    n: int
    nccl_view: bool
    b_intra: float
    b_net: float
    hop: str
    t0: float
    eff: float
    plugin: float
    plugin_simple: float
    buff_scale: float
    version: str = T.DEFAULT_VERSION

    def hl(self, kind, alg=None, proto=None):
        """NCCL's latency of one hop of ``kind`` (``"nvlink"``, ``"pcie"``, ``"net"``) for
        ``alg``/``proto`` (default: this run's), s; a network hop adds the plugin's latency
        for the protocol (:func:`~interlib.collective_model.fabrics.step_latency`: in NCCL's
        view twice for Simple, as ``tuning.cc`` adds the flush latency)."""
        alg = self.a if alg is None else alg
        proto = self.p if proto is None else proto
        lat = C.HOP_LATENCY[(kind, alg, proto)].value
        if kind == "net":
            lat += self.plugin_simple if proto == "Simple" else self.plugin
        return lat

    def fill(self, steps, bw, parts=1):
        """Pipeline fill: the first chunk crosses steps - 1 stages before the rest flows
        (the book's calibrated addition; NCCL's own estimate has none). A ring cuts the
        buffer into one slice per rank, NVLS into one share per GPU (``parts``), so a
        chunk is never larger than ``size / parts``:
        ``(steps - 1) x min(window, S / max(chunks, parts)) / bw``; a pipeline of no stage
        (one GPU's ring in its node) or one has nothing to fill."""
        if self.nccl_view or (self.p != "Simple" and _FILL_SIMPLE_ONLY) or \
                (self.k == 1 and _FILL_MULTI_NODE_ONLY):
            return 0.0 * self.S
        window = np.minimum(cal("PIPELINE_WINDOW") * self.buff_scale,
                            self.S / max(cal("PIPELINE_CHUNKS"), parts))
        return max(steps - 1, 0) * window / bw


_FILL_SIMPLE_ONLY = False
_FILL_MULTI_NODE_ONLY = False

# ------------------------------------------------------------------ point to point
def _bandwidth(r: Run, a: str):
    """The bandwidth the book times ``a`` (ring or tree) at, bytes/s per size, as algbw:
    NCCL's own bandwidth formula for the protocol (:func:`tuner.algbw` at the run's release,
    with the NICs at the book's fitted share of their line rate) times the share of the
    channels NCCL gives a call of that size (:func:`tuner.channels_used`)."""
    alg = tuner.algbw(r.sys_, r.collective, a, r.p, r.S, r.g, r.k, r.version, book=True)
    nc = tree_channels(r.sys_, r.g, r.k)
    return alg * tuner.channels_used(r.S, a, r.p, r.n, nc) / nc


def ring(r: Run):
    """Ring: ``t = t0 + lat + fill + S / algbw``, with ``algbw`` NCCL's ring bandwidth for the
    protocol (the bottleneck ``B`` on one node or ``min(B, N)`` across nodes, x 0.5 up to
    ``llMaxBw`` for LL, x 0.92 up to ``channels x perChMaxRingLL128Bw`` for LL128, over
    the bus factor) at the share of NCCL's channels the size gets (``_bandwidth``), and
    ``lat = base + (steps - inter) h(hop) + inter h(net)`` over the 2(n-1) steps (n-1 for
    the others), 2(k-1) of them across nodes, where across nodes an intra-node step costs
    at least NCCL's network post overhead (1 us on an Intel or Arm host, 2 us on AMD; x 3
    for Simple: ``tuning.cc``, "inter-node rings still have to launch nsteps * net
    overhead"); NCCL multiplies a multi-node Ring/Simple all-reduce's latency by 1.4 once a
    channel's share of a rank is 64 bytes or more. The first chunk crosses the NVLink
    stages at NVLink speed and the network stages at the NICs'."""
    n, k, S = r.n, r.k, r.S
    steps = {"all_reduce": 2 * (n - 1)}.get(r.collective, n - 1)
    inter = {"all_reduce": 2 * (k - 1)}.get(r.collective, k - 1)
    intra = r.hl(r.hop)
    if k > 1:  # every step of an inter-node ring posts to the network
        intra = max(intra, C.NCCL_NET_OVERHEAD[C.host_cpu(r.sys_)].value
                    * (3 if r.p == "Simple" else 1))
    lat = C.BASE_LATENCY[("ring", r.p)].value + (steps - inter) * intra + inter * r.hl("net")
    if k > 1 and r.p == "Simple" and r.collective == "all_reduce":
        plateau = S / (tree_channels(r.sys_, r.g, k) * n) >= 64
        lat = np.where(plateau, lat * C.RING_SIMPLE_INTERNODE_LATENCY_FACTOR.value, lat)
    alg = _bandwidth(r, "ring")
    b = alg * bus_factor(r.collective, n)  # the bus rate each link carries
    raw = r.b_intra if k == 1 else min(r.b_intra, r.b_net)
    # the first chunk crosses the ring's NVLink stages at NVLink speed and its
    # inter-node stages at the NICs' (one node: every stage is NVLink)
    t_fill = r.fill(steps - inter, b * r.b_intra / raw, n) + r.fill(inter + 1, b, n)
    return r.t0 + lat + t_fill + S / alg


def tree(r: Run):
    """NCCL's double binary tree (all-reduce): a chain inside each node (each GPU sends the
    buffer up and the result down) and a double binary tree between nodes.
    ``lat = base + 2 ((g-1) h(hop) + log2(k) h(net))``; the bandwidth is NCCL's tree
    formula (``tuning.cc``): ``busBw = min(0.92 x link, channels x perChMaxTreeBw)`` (LL:
    / 3.8 up to ``llMaxBw``; LL128: x 7/9 on one node, x 120/128 across, up to
    ``channels x perChMaxTreeLL128Bw``) times the size's tree correction, with ``link =
    B`` on one node and ``min(B, 2 N / traffic(k))`` across nodes, each node sending
    ``traffic(k) x S`` (:func:`~interlib.collective_model.links.tree_node_traffic`: S on two
    nodes, as NCCL's tree search raising bwIntra to twice bwInter says; 1.5 S on three,
    where NCCL's estimate takes 2 S and NVIDIA/nccl#1801 measured a tree 1.19-1.23x a
    ring; 2 S from four up); the
    per-channel caps are those of the run's NCCL release and bind in the measured runs
    (B200, ``NCCL_ALGO=Tree``: 8 x 42.8 GB/s on 2 nodes, 8 x 24 from 3). ``algbw =
    busBw / 2`` at the share of NCCL's channels the size gets (``_bandwidth``); fill
    over ``2 (g - 1 + log2 k)`` stages."""
    g, k, p, S = r.g, r.k, r.p, r.S
    lat = C.BASE_LATENCY[("tree", p)].value + 2 * ((g - 1) * r.hl(r.hop)
                                                   + math.log2(k) * r.hl("net"))
    alg = _bandwidth(r, "tree")
    return r.t0 + lat + r.fill(2 * (g - 1 + math.log2(k)), 2 * alg) + S / alg


def rhd(r: Run):
    """Recursive halving/doubling (not NCCL's): the textbook cost
    (:func:`interlib.collectives.alpha_beta`) with alpha = one Ring/Simple hop (a network hop
    across nodes) and bandwidth ``B`` on one node, ``min(B, N / g)`` across nodes."""
    alpha = r.hl("net" if r.k > 1 else r.hop, "ring", "Simple")
    b = r.b_intra if r.k == 1 else min(r.b_intra, r.b_net / r.g)
    return r.t0 + alpha_beta(r.collective, "rhd", r.S, r.n, alpha, b)


def direct(r: Run):
    """All-to-all by pairwise exchange: (g-1)/n of the data over NVLink at ``B`` and
    (n-g)/n over the NICs at ``N / g`` per GPU, at once, so ``t = t0 + lat + fill(n, B) +
    max((g-1)/n S / B, (n-g)/n S / (N/g))``; ``lat`` is one Ring/Simple base and hop (plus
    a network hop across nodes)."""
    g, k, n, S = r.g, r.k, r.n, r.S
    lat = C.BASE_LATENCY[("ring", "Simple")].value + r.hl(r.hop, "ring", "Simple") \
        + (r.hl("net", "ring", "Simple") if k > 1 else 0.0)
    t_intra = (g - 1) / n * S / r.b_intra
    t_inter = (n - g) / n * S / (r.b_net / g) if k > 1 else 0.0 * S
    return r.t0 + lat + r.fill(n - 1, r.b_intra) + np.maximum(t_intra, t_inter)


# ---------------------------------------- all-reduce: inside the node, then across nodes
@dataclass(frozen=True)
class _InNode:
    """The intra-node phase of a two-level all-reduce: its bandwidth time, latency, and
    the pipeline (stages, bandwidth and slices) its first chunk fills."""

    t: object
    lat: float
    steps: float
    b_fill: object
    parts: int


def _nvls_in_node(r: Run) -> _InNode:
    # each GPU pushes its buffer once into the switch and pulls the result once, at the
    # pace of the links or (in a rack-scale domain) of NCCL's NVLS channels
    g = r.g
    b_nvls = nvls_algbw(r.sys_, g, r.k, links_only=r.nccl_view, version=r.version)
    # the switch reduces and multicasts: the pipeline is g chunks deep, not a ring's
    # 2(g-1) steps (calibrated, see C.NVLS_PIPELINE_STEPS_PER_GPU and Appendix A). Each
    # GPU reduces and multicasts its own 1/g share (NCCL's NVLS heads), so, as in a
    # ring, a chunk is never larger than size / g: enqueue.cc shrinks the NVLS chunk
    # until the message holds several chunks per channel and head
    return _InNode(r.S / b_nvls, r.hl("nvlink", "nvls"), cal("NVLS_PIPELINE_STEPS_PER_GPU") * g,
                   b_nvls * (g + 1) / g, g)


def _ring_in_node(r: Run) -> _InNode:
    # ring reduce-scatter + all-gather inside the node: a ring of g slices
    g = r.g
    t = 2 * (g - 1) / g * r.S / r.b_intra if g > 1 else 0.0 * r.S
    lat = C.BASE_LATENCY[("ring", "Simple")].value + 2 * (g - 1) * r.hl(r.hop, "ring", "Simple")
    return _InNode(t, lat, 2 * (g - 1), r.b_intra, g)


def _one_node(r: Run, intra: _InNode):
    return r.t0 + intra.lat + r.fill(intra.steps, intra.b_fill, intra.parts) + intra.t


def _two_level(r: Run, intra: _InNode, t_inter, lat_inter, inter_steps, b_inter,
               correction=False):
    """NCCL pipelines the phases chunk by chunk: the slower phase sets the pace, ``t = t0 +
    lat_intra + lat_inter + fill_intra + fill_inter + max(t_intra, t_inter)``. The first
    window crosses the intra-node stages at NVLink speed and the inter-node stages through
    all the node's NICs in use at once. ``correction``: NCCL v2.29's NVLSTree correction on
    Blackwell with an x86 host (``tuning.cc``): below 1 GiB the tree runs at
    ``treeCorrectionFactor[Simple][log2(size / 64)]`` (the book's view only)."""
    lat = intra.lat
    lat += lat_inter
    inter_fill = r.fill(inter_steps + 1, b_inter)
    t_bw = np.maximum(intra.t, t_inter)
    if correction and not r.nccl_view and r.sys_.gpu.arch == "Blackwell" \
            and C.host_cpu(r.sys_) != "Arm":
        corr = np.asarray(C.NVLS_TREE_CORRECTION_BLACKWELL_X86)
        idx = np.floor(np.log2(np.maximum(r.S / 64, 1))).astype(int)
        t_bw = t_bw / np.where(idx < corr.size, corr[np.minimum(idx, corr.size - 1)], 1.0)
    return r.t0 + lat + r.fill(intra.steps, intra.b_fill, intra.parts) + inter_fill + t_bw


def nvls(r: Run):
    """NVLink SHARP in one node (NCCL's NVLS): each GPU pushes its buffer into the switch
    once and pulls the result once, ``t = t0 + h(nvlink, NVLS) + fill + S / algbw`` with
    ``algbw = eta x B x g / (g + 1)`` (nccl-tests PR #239) or, in a rack-scale domain, the
    pace of NCCL's NVLS channels (:func:`interlib.collectives.nvls_rate`); the pipeline is
    ``NVLS_PIPELINE_STEPS_PER_GPU x g`` chunks deep (calibrated), a chunk at most S / g.
    Across nodes it is NVLSTree (:func:`nvls_tree`)."""
    if r.k > 1:
        return nvls_tree(r)
    return _one_node(r, _nvls_in_node(r))


def nvls_tree(r: Run):
    """NCCL's NVLSTree: NVLS inside each node (:func:`nvls`), a double binary tree between
    nodes through at most 32 head GPUs and their NICs per domain (``N_heads``: all the NICs
    of those heads). Across nodes ``t_inter = traffic(k) x S / N_heads`` (S on two nodes,
    1.5 S on three, 2 S from four up; NCCL's own estimate is
    :func:`interlib.collective_model.tuner.algbw`'s). ``2 ceil(log2 k)`` network steps of
    ``h(net, NVLSTree)``; the phases pipeline (``_two_level``), with NCCL v2.29's x86
    Blackwell correction in the book's view.

    In the book's view the NVLSTree pipeline also runs no faster than NCCL's own
    per-channel NVLSTree ceiling (:func:`interlib.collective_model.algorithms.nvls_tree_cap`): busbw at most
    ``heads x perChMaxNVLSTreeBw(arch, nodes)``, e.g. on two nodes of 8 H100 8 x 57.7 =
    461.6 GB/s where the links alone allow about 520; measured 469 (NCCL 2.26.2,
    InfiniBand), 479-487 (EFA), 430 (RoCE) at 8-16 GiB."""
    sys_, g, k, S = r.sys_, r.g, r.k, r.S
    intra = _nvls_in_node(r)
    if k == 1:
        return _one_node(r, intra)
    # NCCL's NVLSTree: a double binary tree between nodes, through at most 32 head
    # GPUs (and their NICs) per NVLink domain
    heads = min(g, C.NVLS_MAX_HEADS.value)
    # each head GPU crosses the network through its own NICs (all of them on a
    # node with several NICs per GPU, as p5's 4 x 100G EFA per GPU)
    b_heads = r.b_net * min(1.0, heads * max(1.0, sys_.nics_per_gpu)
                            / max(1.0, min(sys_.nics_per_node, g * sys_.nics_per_gpu)))
    t_inter = tree_node_traffic(k) * S / b_heads
    inter_steps = 2 * math.ceil(math.log2(k))
    t = _two_level(r, intra, t_inter, r.hl("net", "nvls_tree", "Simple") * inter_steps,
                   inter_steps, b_heads, correction=True)
    if r.nccl_view:  # NCCL's own estimate applies its cap in tuner.algbw
        return t
    cap = nvls_tree_cap(sys_, g, k, r.version)
    if cap is None:
        return t
    return np.maximum(t, S * bus_factor("all_reduce", g * k) / cap)


def nvls_tree_cap(sys_, g: int, k: int, version: str) -> float | None:
    """The busbw NVLSTree reaches at most on ``k`` nodes of ``g`` GPUs, bytes/s:
    ``heads x perChMaxNVLSTreeBw`` (``tuning.cc``'s per-channel NVLSTree ceiling, GB/s
    per channel, columns 2 nodes and 3+; :func:`interlib.collective_model.links.nvls_heads`
    channels, one per head GPU), or None where NCCL has no such row (no NVLS: Ampere).

    Source: NVIDIA/nccl ``src/graph/tuning.cc`` ``perChMaxNVLSTreeBws``, read at every
    release (:data:`interlib.specs.nccl_tuning.HISTORY`): Hopper {0, 57.7, 45.5}, Blackwell
    {0, 96.0, 43.1} from v2.28.3-1, 43.8 from v2.28.9, 80.0 from v2.30.3 (when
    ``ncclNvlsTreeSm100Tuning`` changed the NVLSTree chunks and channels on Blackwell). It
    is NCCL's statement of what the NVLSTree kernel delivers per channel; NCCL uses it to
    choose, and the book takes it as the pipeline's ceiling. A run on a release older
    than 2.28.3, before NCCL stated one, takes 2.28.3's (the same kernel's chunking up to
    2.30.3). Units: bytes/s of busbw (per GPU, per direction).

    >>> from interlib.specs import system
    >>> round(nvls_tree_cap(system("dgx-h100"), 8, 2, "2.26.2") / 1e9, 1)
    461.6
    """
    arch = sys_.gpu.arch
    key = ("perChMaxNVLSTreeBws", arch)
    if key not in T.HISTORY:
        return None
    first = T.HISTORY[key][0]
    row = (first.value if T.parse_version(T.release(version)) < T.parse_version(first.since)
           else T.reading(key, version).value)
    per_channel = row[min(k, 3) - 1]
    if per_channel <= 0:
        return None
    return nvls_heads(sys_, g, k) * per_channel * 1e9


def hierarchical(r: Run):
    """Hierarchical all-reduce (not NCCL's): a ring reduce-scatter inside the node
    (``2 (g-1)/g x S / B``), a ring all-reduce of each GPU's 1/g shard across nodes
    through the node's NICs (``2 (k-1)/k x S / N``, 2(k-1) network steps), and the
    all-gather back; the phases pipeline (``_two_level``)."""
    k = r.k
    intra = _ring_in_node(r)
    if k == 1:
        return _one_node(r, intra)
    # ring all-reduce of the 1/g shards across nodes, one NIC set per GPU
    t_inter = 2 * (k - 1) / k * r.S / r.b_net
    inter_steps = 2 * (k - 1)
    return _two_level(r, intra, t_inter, inter_steps * r.hl("net", "ring", "Simple"),
                      inter_steps, r.b_net)


def sharp(r: Run):
    """CollNet with IB SHARP: a ring inside the node as :func:`hierarchical`, and across
    nodes the switches reduce, so each node sends its data once: ``t_inter = S / N``, two
    network steps (up to the switch and back down). In the book's view on Blackwell also
    ``2 S / cap_1node``: CollNetChain's chain inside each node at NCCL's one-node
    per-channel tree throughput (``tuning.cc`` rates CollNet by the intra-node graph;
    measured CollNetChain on B200 sits at the one-node tree plateau, 8 x 70 GB/s, from 2
    to 64 nodes). Only where it was measured: on H100 (CoreWeave's SHARP run) 8 x 38.7
    GB/s would be far below the published plateau."""
    intra = _ring_in_node(r)
    if r.k == 1:
        return _one_node(r, intra)
    t_inter = r.S / r.b_net
    if not r.nccl_view and r.sys_.gpu.arch == "Blackwell":
        t_inter = np.maximum(t_inter, 2 * r.S / tree_cap(r.sys_, r.g, r.k, level=1))
    return _two_level(r, intra, t_inter, 2 * r.hl("net", "tree", "Simple"), 2, r.b_net)


TIMES = {"ring": ring, "tree": tree, "rhd": rhd, "direct": direct, "nvls": nvls,
         "nvls_tree": nvls_tree, "hierarchical": hierarchical, "sharp": sharp}
"""The time function of each algorithm."""


def time(sys_, collective, a, p, S, g, k, nccl_view=False, nccl_version=None):
    """Time for one (algorithm, protocol) pair, seconds; ``S`` is an array of sizes.

    With ``nccl_view`` the estimate NCCL's own tuning model would make (how it chooses
    for ``"auto"``): for ring, tree, NVLS and NVLSTree that of ``tuning.cc`` at the
    release ``nccl_version`` (:mod:`~interlib.collective_model.tuner`; None: the node's
    own or the newest read), for the others this module's formulas with the NICs at line
    rate and without the book's launch, fill and unreported latencies. One rank takes only
    the launch."""
    n = g * k
    if nccl_view and n > 1 and a in tuner.NCCL_ALGORITHMS:
        return tuner.time(sys_, collective, a, p, S, g, k,
                          tuner.version_of(sys_, nccl_version))
    b_intra, b_net, hop = links(sys_, g, k, nccl_view)
    t0 = 0.0 if nccl_view else cal("LAUNCH_OVERHEAD")
    eff = C.PROTOCOL_EFFICIENCY[p].value if p in C.PROTOCOL_EFFICIENCY else 0.5
    bus_factor(collective, n)  # checks the collective
    if n == 1:
        return np.full_like(S, t0)
    version = tuner.version_of(sys_, nccl_version)
    r = Run(sys_, collective, a, p, S, g, k, n, nccl_view, b_intra, b_net, hop, t0, eff,
            step_latency(sys_, "LL", nccl_view, version),
            step_latency(sys_, "Simple", nccl_view, version), buffsize_scale(sys_, a, p, k),
            version)
    return TIMES[a](r)


def times(sys_, collective, pairs, S, g, k, nccl_view=False, nccl_version=None):
    """:func:`time` of each (algorithm, protocol) pair, one row per pair."""
    return np.stack([np.broadcast_to(time(sys_, collective, a, p, S, g, k, nccl_view,
                                          nccl_version), S.shape) for a, p in pairs])
