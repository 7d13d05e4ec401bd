"""Packet loss at scale: why a rare drop becomes a certain stall in a collective.

Model (Chapter 6). In one training step every GPU sends ``packets`` packets through the
network; each is dropped independently with probability ``drop_rate``. On a lossy RDMA
transport a drop costs a recovery time ``penalty_s`` (a retransmission timeout, or a
go-back-N resend): that GPU's part of the collective finishes ``penalty_s`` later per
drop. A collective finishes when its slowest member does, so

    step time = base_s + penalty_s x max_i D_i,     D_i ~ Binomial(packets, drop_rate)

for ``n_gpus`` independent GPUs. The maximum, not the mean, sets the pace: with many GPUs
a drop somewhere is almost certain even when each GPU rarely sees one.

Two ways to compute it, which the tests check against each other:

* exact: ``P(max <= k) = F(k)^n`` with F the binomial CDF, so
  ``E[max] = sum_k (1 - F(k)^n)`` and any quantile follows directly;
* Monte Carlo (seeded): the maximum of n binomials is drawn in one go by inverting
  ``F^n`` at a uniform variate, or (for small n) by drawing every GPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .units import us


def retransmit_timeout(exponent: int) -> float:
    """InfiniBand/RoCE transport timeout for the QP ``timeout`` attribute:
    ``4.096 us x 2^exponent`` seconds (IBTA InfiniBand Architecture Specification,
    Vol. 1, local ACK timeout; the Linux RDMA drivers compute it the same way).

    Args:
        exponent: 0..31 (0 means "infinite" in the specification; here it is just the
            formula).

    >>> round(retransmit_timeout(14) * 1e3, 1)   # 14 -> about 67 ms
    67.1
    """
    e = v.integer("exponent", exponent, lo=0, hi=31)
    return 4.096 * us * 2**e


def _binom_cdf(m: int, p: float, kmax: int) -> np.ndarray:
    """Binomial(m, p) CDF at k = 0..kmax (log-space recursion, vectorised)."""
    k = np.arange(kmax + 1, dtype=float)
    if p == 0.0:
        return np.ones_like(k)
    if p == 1.0:
        return np.where(k >= m, 1.0, 0.0)
    steps = np.log(np.maximum(m - k[:-1], 1e-300)) - np.log(k[:-1] + 1)
    logpmf = m * math.log1p(-p) + np.concatenate(([0.0], np.cumsum(steps))) \
        + k * math.log(p / (1 - p))
    logpmf = np.where(k <= m, logpmf, -np.inf)
    return np.minimum(np.cumsum(np.exp(logpmf)), 1.0)


def _kmax(m: int, p: float) -> int:
    mean = m * p
    return int(min(m, math.ceil(mean + 12 * math.sqrt(mean + 1) + 30)))


@dataclass(frozen=True)
class DropStats:
    """Step-time statistics under packet loss (times in seconds).

    Attributes:
        n_gpus, drop_rate, packets: The inputs.
        p_step_hit: Probability that at least one GPU sees a drop in a step,
            ``1 - (1 - drop_rate)^(packets x n_gpus)``.
        mean_step: Expected step time (exact).
        p99_step: 99th-percentile step time (exact).
        mc_mean_step: Monte-Carlo mean over ``samples`` steps.
        mc_p99_step: Monte-Carlo 99th percentile.
        base_s: Step time with no drops.
        samples: Monte-Carlo steps drawn.
    """

    n_gpus: int
    drop_rate: float
    packets: int
    p_step_hit: float
    mean_step: float
    p99_step: float
    mc_mean_step: float
    mc_p99_step: float
    base_s: float
    samples: int

    @property
    def mean_slowdown(self) -> float:
        """Expected step time / drop-free step time."""
        return self.mean_step / self.base_s

    @property
    def p99_slowdown(self) -> float:
        """99th-percentile step time / drop-free step time."""
        return self.p99_step / self.base_s

    @property
    def mc_mean_slowdown(self) -> float:
        """Monte-Carlo mean step time / drop-free step time."""
        return self.mc_mean_step / self.base_s

    @property
    def mc_p99_slowdown(self) -> float:
        """Monte-Carlo 99th-percentile step time / drop-free step time."""
        return self.mc_p99_step / self.base_s


def expected_max_drops(n_gpus, drop_rate: float, packets: int):
    """E[max over ``n_gpus`` GPUs of Binomial(packets, drop_rate)] (exact sum).

    ``E[max] = sum_{k>=0} (1 - F(k)^n)``. For n = 1 it is ``packets x drop_rate``.

    Args:
        n_gpus: GPUs (>= 1), scalar or array.
        drop_rate: Per-packet drop probability, [0, 1).
        packets: Packets per GPU per step, 1..10^9.
    """
    v.whole("n_gpus", n_gpus, lo=1)
    p = float(v.number("drop_rate", drop_rate, lo=0.0, hi=1.0, hi_open=True))
    m = v.integer("packets", packets, lo=1, hi=10**9)
    F = _binom_cdf(m, p, _kmax(m, p))
    n = np.atleast_1d(np.asarray(n_gpus, dtype=float))
    logF = np.log(np.maximum(F, 1e-300))
    out = (1.0 - np.exp(np.outer(n, logF))).sum(axis=1)
    return float(out[0]) if np.ndim(n_gpus) == 0 else out


def max_drop_quantile(n_gpus: int, drop_rate: float, packets: int, q: float = 0.99) -> int:
    """Smallest k with ``P(max drops <= k) >= q``, i.e. ``F(k)^n >= q``.

    Args:
        n_gpus: GPUs (>= 1); drop_rate: [0, 1); packets: 1..10^9; q: quantile (0, 1).
    """
    n = v.integer("n_gpus", n_gpus, lo=1, hi=10**8)
    p = float(v.number("drop_rate", drop_rate, lo=0.0, hi=1.0, hi_open=True))
    m = v.integer("packets", packets, lo=1, hi=10**9)
    v.number("q", q, lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    F = _binom_cdf(m, p, _kmax(m, p))
    Fn = np.exp(n * np.log(np.maximum(F, 1e-300)))
    idx = np.nonzero(Fn >= q)[0]
    return int(idx[0]) if idx.size else int(F.size - 1)


def sample_max_drops(n_gpus: int, drop_rate: float, packets: int, samples: int = 2000,
                     seed: int = 0, per_gpu: bool = False) -> np.ndarray:
    """Seeded draws of the per-step maximum drop count over ``n_gpus`` GPUs.

    By default each draw inverts ``F(k)^n`` at one uniform variate (exact and cheap for
    any n). With ``per_gpu=True`` it draws every GPU's binomial and takes the maximum
    (needs ``n_gpus x samples <= 4,000,000``); the two agree in distribution.

    Args:
        n_gpus: GPUs, 1..10^8.
        drop_rate: [0, 1).
        packets: Packets per GPU per step, 1..10^9.
        samples: Steps to draw, 1..100,000.
        seed: Random seed.
        per_gpu: Draw every GPU explicitly.
    """
    n = v.integer("n_gpus", n_gpus, lo=1, hi=10**8)
    p = float(v.number("drop_rate", drop_rate, lo=0.0, hi=1.0, hi_open=True))
    m = v.integer("packets", packets, lo=1, hi=10**9)
    s = v.integer("samples", samples, lo=1, hi=100_000)
    v.integer("seed", seed, lo=0)
    v.flag("per_gpu", per_gpu)
    rng = np.random.default_rng(seed)
    if per_gpu:
        if n * s > 4_000_000:
            raise ValueError(f"samples={samples} is out of range for n_gpus={n_gpus} with "
                             "per_gpu=True: n_gpus x samples must be <= 4,000,000")
        return rng.binomial(m, p, size=(s, n)).max(axis=1)
    F = _binom_cdf(m, p, _kmax(m, p))
    Fn = np.exp(n * np.log(np.maximum(F, 1e-300)))
    u = rng.random(s)
    return np.minimum(np.searchsorted(Fn, u, side="left"), F.size - 1)


def step_time_with_drops(n_gpus: int, drop_rate: float, packets: int, base_s: float,
                         penalty_s: float, samples: int = 2000, seed: int = 0) -> DropStats:
    """Step time when every drop stalls its GPU by ``penalty_s`` and the step waits for
    the slowest GPU: ``base_s + penalty_s x max_i D_i`` (exact moments and a seeded
    Monte Carlo).

    Args:
        n_gpus: GPUs in the collective, 1..10^8.
        drop_rate: Per-packet drop probability, [0, 1).
        packets: Packets each GPU sends per step, 1..10^9.
        base_s: Step time without drops, s (> 0).
        penalty_s: Time lost per drop, s (>= 0).
        samples: Monte-Carlo steps (1..100,000).
        seed: Random seed.

    Returns:
        :class:`DropStats`.

    >>> s = step_time_with_drops(1024, 0.0, 1000, 0.1, 0.01)
    >>> s.mean_slowdown, s.p99_slowdown
    (1.0, 1.0)
    """
    n = v.integer("n_gpus", n_gpus, lo=1, hi=10**8)
    v.positive("base_s", base_s)
    v.non_negative("penalty_s", penalty_s)
    mean_max = expected_max_drops(n, drop_rate, packets)
    p99 = max_drop_quantile(n, drop_rate, packets, 0.99)
    draws = sample_max_drops(n, drop_rate, packets, samples, seed)
    t = base_s + penalty_s * draws
    hit = -math.expm1(packets * n * math.log1p(-drop_rate))
    return DropStats(n, float(drop_rate), int(packets), float(hit),
                     float(base_s + penalty_s * mean_max), float(base_s + penalty_s * p99),
                     float(t.mean()), float(np.quantile(t, 0.99, method="inverted_cdf")),
                     float(base_s), int(samples))


def gpus_for_hit_probability(drop_rate: float, packets: int, target: float = 0.5) -> int:
    """The fewest GPUs for which a step contains at least one drop with probability
    above ``target``: the smallest N with ``1 - (1 - p)^(m N) > target``, i.e.
    ``N > ln(1 - target) / (m ln(1 - p))``.

    Args:
        drop_rate: p, (0, 1).
        packets: m, packets per GPU per step, 1..10^9.
        target: Probability, (0, 1).

    >>> gpus_for_hit_probability(0.5, 1)     # one packet each, a coin flip per GPU
    2
    """
    p = float(v.number("drop_rate", drop_rate, lo=0.0, hi=1.0, lo_open=True, hi_open=True))
    m = v.integer("packets", packets, lo=1, hi=10**9)
    t = float(v.number("target", target, lo=0.0, hi=1.0, lo_open=True, hi_open=True))
    n = math.log1p(-t) / (m * math.log1p(-p))
    N = max(1, math.floor(n) + 1)
    return int(N)


def packets_for(size_bytes, payload: int = 4096):
    """Packets needed to carry ``size_bytes`` with ``payload`` bytes each (ceil).

    Args:
        size_bytes: Bytes (>= 0), scalar or array.
        payload: Payload bytes per packet (1..9000).
    """
    v.non_negative("size_bytes", size_bytes)
    pl = v.integer("payload", payload, lo=1, hi=9000)
    out = np.ceil(np.asarray(size_bytes, dtype=float) / pl).astype(np.int64)
    return int(out) if out.ndim == 0 else out


def drop_step_setup():
    """The fixed givens of the drop demo: bytes each GPU sends per step over its 400 GbE
    NIC (1 GB), packets (4096-byte payloads) and the drop-free network time.

    Returns ``(packets, base_s)``."""
    from .specs import ethernet
    from .units import GB

    size = 1 * GB
    packets = packets_for(size, 4096)
    return packets, size / ethernet(400).value


def figures_2026() -> dict:
    """Chapter 8's figures on what NCCL does about failures since 2.24 and on co-packaged
    optics (issue 28), as display strings for the prose.

    >>> figures_2026()["failover_default"]
    'off'
    """
    from .specs import NCCL_FEATURES, switch
    from .specs.software import NCCL_IB_PORT_FAILOVER_DEFAULT

    def rel(name):
        return NCCL_FEATURES[name].note.split(";")[0]

    return {"ras_release": rel("RAS"), "shrink_release": rel("ncclCommShrink"),
            "failover_release": rel("IB port failover"),
            "failover_date": NCCL_FEATURES["IB port failover"].date,
            "failover_default": "off" if NCCL_IB_PORT_FAILOVER_DEFAULT.value == 0 else "on",
            "cpo_ib_status": str(switch("quantum-x-photonics").status),
            "cpo_eth_status": str(switch("spectrum-x-photonics").status),
            "cpo_ib_ports": f"{switch('quantum-x-photonics').radix}"}
