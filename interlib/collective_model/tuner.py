"""NCCL's own cost model, release by release: the estimate ``tuning.cc`` makes of each
(algorithm, protocol) pair, from which NCCL picks the fastest (``enqueue.cc``,
``topoGetAlgoInfo``). :func:`interlib.collectives.nccl_estimate` returns it, and
``predict(..., algorithm="auto")`` takes NCCL's choice from it.

``time = latency + size / algbw`` (``ncclTopoGetAlgoTime``), with every constant read
from :mod:`interlib.specs.nccl_tuning` for the release the run used:

* **latency**: ``baseLat[a][p]`` plus per-step ``hwLat`` terms (ring: ``(nsteps -
  nInter) x intra + nInter x inter``; tree: ``2 ((g - 1) intra + log2i(k) inter)``;
  NVLS: ``intra``; NVLSTree: ``intra + 2 log2i(k) inter``), where a network step adds the
  plugin's reported latency (twice for Simple); a multi-node Ring/Simple all-reduce
  multiplies it by the ring plateau factor (1.4);
* **bandwidth**: ``busBw = channels x bw`` refined per algorithm and protocol (ring LL x
  0.5 up to ``llMaxBw``, LL128 x 0.92 up to ``channels x perChMaxRingLL128Bw``; tree x
  0.92 up to ``channels x perChMaxTreeBw``, LL / 3.8, LL128 x 7/9 or 120/128; NVLS and
  NVLSTree by the formula of their release), converted to algbw (ring, NVLS:
  ``nRanks / nsteps``; tree: 0.5), times ``treeCorrectionFactor`` for a tree (and, from
  2.29.2, NVLSTree on an x86 Blackwell host).

What NCCL reads from its topology search (a graph's channel count and per-channel speed)
is approximated from the catalogue: a graph's total bandwidth is the GPU's effective
NVLink (or PCIe) rate inside a node and the node's NICs at line rate across nodes (``links``
with ``nccl_view``); its channels are NCCL's coll channels on one node and one per NIC
across nodes (two on Ampere, :func:`~interlib.collective_model.links.tree_channels`).
"""

from __future__ import annotations

import math

import numpy as np

from ..specs import calibration as C
from ..specs import nccl_tuning as T
from ..units import GB_per_s, us
from .fabrics import plugin_latency
from .links import links, nvls_heads, tree_channels, tree_node_traffic

NCCL_ALGORITHMS = ("ring", "tree", "nvls", "nvls_tree")
"""The algorithms whose estimate follows ``tuning.cc`` release by release here; the
others (CollNet, the all-to-all) keep the release-independent estimate of
:mod:`~interlib.collective_model.algorithms`."""


def version_of(sys_, nccl_version: str | None = None) -> str:
    """The release whose constants a run's estimate uses: ``nccl_version`` if given, else
    the node's own (``Node.nccl_version``, set for a published run that states it), else
    :data:`interlib.specs.nccl_tuning.DEFAULT_VERSION`; always one of the releases read
    (:func:`interlib.specs.nccl_tuning.release`).

    A node whose own release is older than the oldest read (a log from NCCL 2.9.9, say)
    takes the oldest read release's constants, and the result names that release, so a
    reader's old run is still compared; an ``nccl_version`` asked for explicitly must be one
    the book has read (older ones are refused by name)."""
    if nccl_version is None:
        own = getattr(sys_, "nccl_version", None)
        if own is not None and T.parse_version(own) < T.parse_version(T.TAGS[0]):
            return T.TAGS[0]
        return T.release(own)
    return T.release(nccl_version)


def _row(consts: dict, table: str, arch: str):
    """A per-architecture row of ``table``: before NCCL 2.25.1 a Blackwell GPU indexes
    Hopper's row (``compCapIndex`` had no Blackwell entry)."""
    return consts.get((table, arch), consts.get((table, "Hopper")))


def _log2i(x: int) -> int:
    return int(math.floor(math.log2(x))) if x >= 1 else -1


def _correction(row, S, limit):
    """``treeCorrectionFactor[p][log2i(S >> 6)]`` where ``0 <= log2i < limit``, else 1."""
    corr = np.asarray(row)
    idx = np.floor(np.log2(np.maximum(np.floor(S / 64), 0.5))).astype(int)
    ok = (idx >= 0) & (idx < min(limit, corr.size))
    return np.where(ok, corr[np.clip(idx, 0, corr.size - 1)], 1.0)


def latency(sys_, collective, a, p, g, k, version) -> float:
    """NCCL's latency of one call of ``a``/``p`` at ``version``, seconds (before the ring
    plateau factor); see the module docstring for the formulas."""
    consts = T.constants(version)
    n = g * k
    _, _, hop = links(sys_, g, k, nccl_view=True)
    plugin = plugin_latency(sys_, nccl_view=True) / us
    nsteps = {"all_reduce": 2 * (n - 1), "all_gather": n - 1,
              "reduce_scatter": n - 1}.get(collective, n)

    def hw(kind, alg):
        return consts.get(("hwLat", kind, alg, p), 0.0)

    base = consts.get(("baseLat", a, p), 0.0)
    intra = hw(hop, a)
    net_alg = "tree" if (g == 1 and consts[("rule", "ppn1TreeNetLatency")]) else a
    inter = hw("net", net_alg) + plugin * (2 if p == "Simple" else 1)
    if a == "ring":
        if collective in ("broadcast", "reduce"):
            return (base + nsteps * hw("net" if k > 1 else hop, a)) * us
        if k > 1:  # inter-node rings still launch nsteps x the net overhead
            overhead = C.NCCL_NET_OVERHEAD[C.host_cpu(sys_)].value / us
            intra = max(intra, overhead * (3 if p == "Simple" else 1))
        if k == 1:
            n_inter = 0
        elif collective == "all_reduce":
            n_inter = 2 * (k + consts[("rule", "ringInterSteps")])
        else:
            n_inter = k - 1
        return (base + (nsteps - n_inter) * intra + n_inter * inter) * us
    if a == "tree":
        return (base + 2 * ((g - 1) * intra + _log2i(k) * inter)) * us
    if a == "nvls":
        if consts[("rule", "nvlsLatency")] == 1:  # 2.18: the base latency alone
            return base * us
        return intra * us
    if a == "nvls_tree":
        if consts[("rule", "nvlsLatency")] == 1:  # 2.18: 2 (k - 1) network steps, no plugin
            return (base + 2 * (k - 1) * hw("net", a)) * us
        return (base + intra + 2 * _log2i(k) * inter) * us
    raise ValueError(f"algorithm={a!r} has no tuning.cc estimate here")


def algbw(sys_, collective, a, p, S, g, k, version, book: bool = False):
    """NCCL's algorithm bandwidth of ``a``/``p`` at ``version``, bytes/s, for each size
    (the tree correction applied); see the module docstring for the formulas. With
    ``book`` the NICs run at the book's fitted share of their line rate
    (``interlib.specs.calibration.NET_EFFICIENCY``) instead of NCCL's full rate: the
    bandwidth the book's timing starts from."""
    consts = T.constants(version)
    arch = sys_.gpu.arch
    n = g * k
    idx = min(k, 3) - 1
    b_intra, b_net, _ = links(sys_, g, k, nccl_view=not book)
    B, N = b_intra / GB_per_s, b_net / GB_per_s
    nsteps = {"all_reduce": 2 * (n - 1), "all_gather": n - 1,
              "reduce_scatter": n - 1}.get(collective, n)
    channels = tree_channels(sys_, g, k)
    S = np.asarray(S, dtype=float)
    if k == 1:
        ll_row = _row(consts, "llMaxBws", arch)
    else:
        ll_row = consts[("llMaxBws", "Ampere/AMD" if C.host_cpu(sys_) == "AMD"
                         else "Volta/Intel")]
    ll_max = ll_row[idx]
    if a == "ring":
        bus = B if k == 1 else min(B, N)
        if p == "LL":
            f_multi, f_one = consts[("rule", "ringLLFactor")]
            f = f_multi if (k > 1 or collective in ("all_reduce", "reduce")) else f_one
            bus = min(ll_max, bus * f)
        elif p == "LL128":
            f_ppn1, f = consts[("rule", "ringLL128Factor")]
            bus = min(bus * (f_ppn1 if g < 2 else f),
                      channels * _row(consts, "perChMaxRingLL128Bws", arch)[idx])
        return np.full_like(S, bus * n / nsteps * GB_per_s)
    if a == "tree":
        # NCCL: bwIntra raised to twice bwInter on 2 nodes, bwInter beyond; the book: the
        # node's NICs carry traffic(k) x S of the double binary tree (S on 2 nodes, 1.5 S
        # on 3, 2 S from 4: tree_node_traffic), the same but on 3 nodes
        net_share = 2.0 / tree_node_traffic(k) if book and k > 1 else (2 if k == 2 else 1)
        bw = B if k == 1 else min(B, net_share * N)
        bus = min(bw * 0.92, channels * _row(consts, "perChMaxTreeBws", arch)[idx])
        if p == "LL":
            bus = min(bus / 3.8, ll_max)
        elif p == "LL128":
            bus = min(bus * (7 / 9 if k == 1 else 120 / 128),
                      channels * _row(consts, "perChMaxTreeLL128Bws", arch)[idx])
        corr = _correction(consts[("treeCorrectionFactor", p)], S, 23)
        return bus * 0.5 * GB_per_s * corr
    if a in ("nvls", "nvls_tree"):
        model = consts[("rule", "nvlsModel")]
        inter = _heads_bw(sys_, g, k, N) if k > 1 else B
        if model == 1:  # 2.18: bwIntra up to 2 nodes, bwInter beyond; fixed ratios
            bus = B if k <= 2 else inter
            ratio = consts[("rule", "nvlsRatio")] if a == "nvls" \
                else 0.70 * k / (2 * (k - 1))
            alg = bus * ratio
        elif model == 2:  # 2.19-2.27: min(bwIntra, bwInter (halved from 3 nodes)) x 5/6
            bus = min(B, inter if (a == "nvls" or k <= 2) else inter / 2)
            alg = bus * 5 / 6
        else:  # 2.28.3+: NVLS efficiency, all-reduce pipelining two operations
            ch = nvls_heads(sys_, g, k)  # graphs[NVLS]->nChannels: the NVLS graph's heads
            intra = B * consts.get(("nvlsEfficiency", arch), 0.0) * (ch - 1) / ch
            intra *= 2 if collective == "all_reduce" else (g - 1) / g
            bus = min(intra, inter * (2 if (a == "nvls_tree" and k <= 2) else 1))
            if a == "nvls_tree":
                bus = min(bus, ch * _row(consts, "perChMaxNVLSTreeBws", arch)[idx])
            alg = bus * n / nsteps
        alg = np.full_like(S, alg * GB_per_s)
        if a == "nvls_tree" and consts[("rule", "nvlsTreeX86Correction")] \
                and arch == "Blackwell" and C.host_cpu(sys_) != "Arm":
            alg = alg * _correction(consts[("treeCorrectionFactor", "Simple")], S, 24)
        return alg
    raise ValueError(f"algorithm={a!r} has no tuning.cc estimate here")


THREADS = {"LL": 512, "LL128": 640, "Simple": 512}
"""Threads per channel NCCL starts from (``NCCL_LL_MAX_NTHREADS``,
``NCCL_LL128_MAX_NTHREADS``, ``NCCL_SIMPLE_MAX_NTHREADS``; ``src/include/device.h``)."""

THREAD_THRESHOLD = {"LL": 8, "LL128": 8, "Simple": 64}
"""Bytes per thread below which NCCL gives a call fewer channels
(``NCCL_LL_THREAD_THRESHOLD``, ``NCCL_LL128_THREAD_THRESHOLD``,
``NCCL_SIMPLE_THREAD_THRESHOLD``; ``src/include/comm.h``); a ring's LL threshold is
multiplied by the rank count (``tuning.cc``: ``threadThresholds[RING][LL] *= nRanks``)."""


def channels_used(S, a: str, p: str, n_ranks: int, max_channels: int):
    """The channels NCCL gives one call of ``S`` bytes (``enqueue.cc``, ``topoGetAlgoInfo``:
    ``while (nBytes < nc * nt * threadThreshold) nc--`` for a ring or a tree, down to one):
    ``clip(S / (nt x threshold), 1, max_channels)``, with ``nt`` and the threshold of the
    protocol (:data:`THREADS`, :data:`THREAD_THRESHOLD`; x ranks for a ring's LL). NCCL
    takes the whole part of ``S / (nt x threshold)``; the model takes it as it is, so a
    call's time never falls as its size grows where NCCL adds a channel. NVLS, NVLSTree
    and the others keep all their channels.

    >>> float(channels_used(32 * 1024, "ring", "Simple", 8, 16)), float(channels_used(2**20, "ring", "Simple", 8, 16))
    (1.0, 16.0)
    """
    S = np.asarray(S, dtype=float)
    if a not in ("ring", "tree"):
        return np.full_like(S, float(max_channels))
    thr = THREAD_THRESHOLD[p] * (n_ranks if (a == "ring" and p == "LL") else 1)
    return np.clip(S / (THREADS[p] * thr), 1, max_channels)


def _heads_bw(sys_, g, k, N):
    """The NICs NVLS's heads cross the network through, GB/s: those of at most
    ``NCCL_MAX_NVLS_ARITY`` head GPUs (all the node's NICs on an 8-GPU node)."""
    heads = min(g, C.NVLS_MAX_HEADS.value)
    used = max(1.0, min(sys_.nics_per_node, g * sys_.nics_per_gpu))
    return N * min(1.0, heads * max(1.0, sys_.nics_per_gpu) / used)


def time(sys_, collective, a, p, S, g, k, version=None):
    """NCCL's estimate of one call, seconds for each size: ``latency (x the ring plateau
    factor for a multi-node Ring/Simple all-reduce once a channel's share of a rank is 64
    bytes or more) + size / algbw``; infinite where NCCL's model gives the pair no
    bandwidth (``busBw`` 0: ``tuning.cc`` never picks it)."""
    version = T.release(version)
    consts = T.constants(version)
    S = np.asarray(S, dtype=float)
    lat = latency(sys_, collective, a, p, g, k, version)
    bw = algbw(sys_, collective, a, p, S, g, k, version)
    lat = np.full_like(S, lat)
    if a == "ring" and p == "Simple" and k > 1 and collective == "all_reduce":
        plateau = S / (tree_channels(sys_, g, k) * g * k) >= 64
        lat = np.where(plateau, lat * consts[("rule", "ringPlateau")], lat)
    with np.errstate(divide="ignore"):
        return lat + np.where(bw > 0, S / bw, np.inf)
