"""Textbook collective costs: nccl-tests' bus bandwidth and the alpha-beta formulas.

Conventions mirror nccl-tests (``doc/PERFORMANCE.md``, :cite:`nccltests`):

* ``size_bytes`` is nccl-tests' *size*: the per-rank buffer for all-reduce, broadcast and
  reduce; the total (gathered) array for all-gather, reduce-scatter and all-to-all.
* ``algbw = size / time``; ``busbw = algbw x bus_factor(collective, n)`` with the factors
  in ``BUS_FACTOR``. For point-to-point algorithms (ring, tree) busbw is the rate each
  rank's link carried, comparable to a link's per-direction bandwidth; with in-network
  reduction (NVLS, SHARP) it exceeds that rate (``wire_rate`` gives the real one).

:func:`~interlib.collectives.alpha_beta` gives the classic formulas (MPICH's cost comments, Thakur, Rabenseifner
and Gropp 2005 :cite:`thakur2005`) for ring, tree and recursive halving/doubling, given a
per-message latency alpha and a link bandwidth; ``ring_all_reduce_state`` walks a ring
all-reduce step by step. Chapter 1 teaches these. What a real node achieves is
:func:`interlib.collectives.predict` (:mod:`interlib.collective_model`), which re-exports
everything here.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate as v

COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
               "all_to_all")
"""The collectives, as nccl-tests names its tests (``all_reduce_perf`` ...)."""


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
    broadcast / reduce (pipelined chain): size.

    With in-network reduction, all-reduce only:

    * ``"nvls"`` (NVLink SHARP): size x (n + 1)/n per direction. The switch reads every
      rank's whole buffer once for the reductions (``multimem.ld_reduce``: size out of each
      rank), and each rank, the head of one 1/n share, returns that share's sum with one
      multicast store (``multimem.st``: size/n more out; in, the n shares' sums, size, plus
      its own reduced share, size/n). NCCL v2.30.7-1 ``src/device/all_reduce.h`` lines
      390-455 (``RunWorkColl<..., NCCL_ALGO_NVLS, ...>``: "Reduce, broadcast through NVLS",
      one ``directRecvDirectSend`` of ``chunkSize`` per head; the scatter and gather warps
      copy within a GPU). This is Chapter 8's worked count (S + S/n), and the model's NVLS
      rate ``eta x B x n/(n + 1)`` (:func:`interlib.collectives.nvls_rate`); at 8 GPUs a
      ring sends 1.75 / 1.125 = 1.56x as much, approaching 2x only for large n.
    * ``"sharp"`` (a SHARP switch in the network): size. Each rank sends its buffer up once
      and the switch tree sends the sum down once; no rank stores a share for the others.

    >>> wire_bytes_per_rank("all_reduce", 8.0, 8, "nvls"), wire_bytes_per_rank("all_reduce", 8.0, 8, "sharp")
    (9.0, 8.0)
    """
    v.choice("algorithm", algorithm, ("ring", "nvls", "sharp"))
    v.non_negative("size_bytes", size_bytes)
    _ranks(n)
    if algorithm == "nvls":
        v.choice("collective", collective, ("all_reduce",))
        return v.result(np.asarray(size_bytes, dtype=float) * (n + 1) / n)
    if algorithm == "sharp":
        v.choice("collective", collective, ("all_reduce",))
        return v.result(size_bytes)
    return v.result(np.asarray(size_bytes, dtype=float) * bus_factor(collective, n))


def wire_rate(collective: str, size_bytes, time_s, n, algorithm: str = "ring"):
    """The rate each rank's link really carried, bytes/s per direction:
    :func:`wire_bytes_per_rank` / ``time_s``.

    For point-to-point algorithms (ring) this equals busbw (nccl-tests' definition). With
    in-network reduction each rank sends about its buffer once (``"sharp"``: exactly, so the
    wire rate is algbw; ``"nvls"``: plus its share's multicast store, algbw x (n + 1)/n), and
    busbw = algbw x 2(n-1)/n overstates the link's traffic: busbw then says what link speed
    a ring would need to keep up (Chapter 4).

    >>> wire_rate("all_reduce", 8e9, 0.02, 8) == busbw("all_reduce", 8e9, 0.02, 8)
    True
    >>> wire_rate("all_reduce", 8e9, 0.02, 8, "sharp") == algbw(8e9, 0.02)
    True
    >>> float(wire_rate("all_reduce", 8e9, 0.02, 8, "nvls") / algbw(8e9, 0.02))
    1.125
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

