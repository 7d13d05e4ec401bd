"""Why communication decides scaling: gradient sync, stragglers, parallelism traffic.

Chapter 1 introduces these; Chapters 7 and 8 build step-time and efficiency models on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from . import collectives


def gradient_bytes(params, bytes_per_param=2):
    """Size of one full gradient, bytes: ``params x bytes_per_param`` (bf16: 2, fp32: 4).

    Args:
        params: Number of model parameters (> 0), scalar or array.
        bytes_per_param: Bytes per gradient element (1, 2, 4 or 8).
    """
    v.positive("params", params)
    if isinstance(bytes_per_param, (bool, np.bool_)) or bytes_per_param not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_param={bytes_per_param!r} is not one of [1, 2, 4, 8]")
    return v.result(np.asarray(params, dtype=float) * bytes_per_param)


def gradient_sync_time(params, n_gpus: int, system="dgx-h100", bytes_per_param=2,
                       algorithm="ring", nodes: int = 1):
    """Seconds to all-reduce one full gradient across ``n_gpus`` GPUs per node x ``nodes``
    (pure data parallelism), from :func:`interlib.collectives.predict`.

    Args:
        params: Model parameters (> 0), scalar or array.
        n_gpus: GPUs per node taking part, 1 .. the system's GPUs per node.
        system: Catalogue id or System.
        bytes_per_param: Bytes per gradient element.
        algorithm: As in :func:`~interlib.collectives.predict`.
        nodes: Number of nodes.
    """
    v.integer("n_gpus", n_gpus, lo=1)
    size = gradient_bytes(params, bytes_per_param)
    return collectives.predict("all_reduce", size, system, n_gpus, nodes, algorithm).time_s


def naive_sync_time(params, bandwidth, bytes_per_param=4):
    """The flawed estimate popular articles print: the whole gradient divided by one
    bandwidth, ``params x bytes_per_param / bandwidth``. It ignores the 2(N-1)/N bytes a
    ring really sends, latency, and (in the errata) even uses the HBM figure as if it were
    NVLink. Kept so the book can show *how far off* it is (Appendix B, claim a).

    Args:
        params: Model parameters (> 0).
        bandwidth: The bandwidth the article divides by, bytes/s (> 0).
        bytes_per_param: Bytes per gradient element (the articles use fp32: 4).
    """
    v.positive("bandwidth", bandwidth)
    return gradient_bytes(params, bytes_per_param) / bandwidth


# ---------------------------------------------------------------------- stragglers
_Z = np.linspace(-9.0, 9.0, 4001)
_PHI = np.exp(-_Z**2 / 2) / math.sqrt(2 * math.pi)
_CDF = 0.5 * (1 + np.array([math.erf(z / math.sqrt(2)) for z in _Z]))


def expected_max_standard_normal(n):
    """E[max of n independent standard normal variables] (numerical integration).

    ``E = integral z n phi(z) Phi(z)^(n-1) dz``. Exact values: n = 1 gives 0, n = 2 gives
    ``1/sqrt(pi)`` = 0.5642; it grows like ``sqrt(2 ln n)``.

    Args:
        n: Number of variables, >= 1 (scalar or array; non-integers are rounded).
    """
    v.number("n", n, lo=1)
    n_arr = np.rint(np.atleast_1d(np.asarray(n, dtype=float)))
    out = np.empty_like(n_arr)
    dz = _Z[1] - _Z[0]
    for i, k in enumerate(n_arr):
        # log form keeps Phi^(k-1) accurate for k up to millions
        logcdf = np.log(np.maximum(_CDF, 1e-300))
        dens = k * _PHI * np.exp((k - 1) * logcdf)
        out[i] = float(np.sum(_Z * dens) * dz)
    return float(out[0]) if np.ndim(n) == 0 else out


def expected_step_time(n_gpus, mean_s, jitter):
    """Expected time of a synchronous step when each of ``n_gpus`` GPUs takes
    ``mean_s x (1 + jitter x Z)`` with independent standard normal Z: everyone waits for
    the slowest, so the step takes ``mean_s x (1 + jitter x E[max of n Z])``.

    Args:
        n_gpus: GPUs that must synchronise (>= 1), scalar or array.
        mean_s: Mean per-GPU compute time, s (> 0).
        jitter: Coefficient of variation (std / mean) of one GPU's time, in [0, 0.5].

    Returns:
        Expected step time, s.
    """
    v.whole("n_gpus", n_gpus, lo=1)
    v.positive("mean_s", mean_s)
    v.number("jitter", jitter, lo=0.0, hi=0.5)
    return mean_s * (1 + jitter * expected_max_standard_normal(n_gpus))


def gpus_for_slowdown(slowdown, jitter) -> int:
    """Smallest GPU count whose expected synchronous step is at least ``slowdown`` times the
    mean GPU time (see :func:`expected_step_time`); solved by bisection on n.

    Args:
        slowdown: Target ratio step / mean, > 1 (e.g. 1.1 for 10 % slower).
        jitter: Coefficient of variation of one GPU's time, in (0, 0.5].

    Raises:
        ValueError: if even 10^9 GPUs stay below the target.
    """
    v.number("slowdown", slowdown, lo=1.0, lo_open=True)
    v.number("jitter", jitter, lo=0.0, hi=0.5, lo_open=True)
    lo, hi = 1, 10**9
    if expected_step_time(hi, 1.0, jitter) < slowdown:
        raise ValueError(f"slowdown={slowdown} is out of range for jitter={jitter}: "
                         f"not reached below {hi:,} GPUs")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if expected_step_time(mid, 1.0, jitter) >= slowdown:
            hi = mid
        else:
            lo = mid
    return hi if expected_step_time(lo, 1.0, jitter) < slowdown else lo


def straggler_samples(n_gpus: int, mean_s: float, jitter: float, steps: int = 200,
                      seed: int = 0):
    """Seeded Monte-Carlo draws of per-GPU times: an array (steps, n_gpus), truncated at 0.

    Args:
        n_gpus: GPUs per step (1..1,000,000).
        mean_s: Mean time, s (> 0).
        jitter: Coefficient of variation in [0, 0.5].
        steps: Number of steps to draw (1..10000).
        seed: Random seed (deterministic output).
    """
    v.integer("n_gpus", n_gpus, lo=1, hi=1_000_000)
    v.positive("mean_s", mean_s)
    v.number("jitter", jitter, lo=0.0, hi=0.5)
    v.integer("steps", steps, lo=1, hi=10000)
    if n_gpus * steps > 4_000_000:
        raise ValueError(f"steps={steps} is out of range for n_gpus={n_gpus}: "
                         f"n_gpus x steps must be <= 4,000,000")
    v.integer("seed", seed, lo=0)
    rng = np.random.default_rng(seed)
    return np.maximum(mean_s * (1 + jitter * rng.standard_normal((steps, n_gpus))), 0.0)


def simulation_steps(n_gpus: int) -> int:
    """How many steps a slider-speed straggler simulation draws: 200, fewer for very
    large GPU counts (keeping n_gpus x steps <= 1,000,000)."""
    v.integer("n_gpus", n_gpus, lo=1, hi=1_000_000)
    return int(max(10, min(200, 1_000_000 // n_gpus)))


# ----------------------------------------------------------- parallelism traffic
@dataclass(frozen=True)
class ModelShape:
    """A published transformer shape (the givens of worked examples).

    Attributes:
        name: e.g. ``"Llama 3 70B"``.
        params: Parameter count.
        layers: Transformer layers.
        hidden: Model width (d_model).
        source: Citation.
    """

    name: str
    params: float
    layers: int
    hidden: int
    source: str


_LLAMA3 = ("Llama Team, The Llama 3 Herd of Models, arXiv 2407.21783, Table 3 "
           "(layers, model dimension)")
#: The model shapes the book uses, by id (``"llama-3-70b"``, ...); look one up with ``interlib.scaling.model``.
MODELS = {
    "llama-3-8b": ModelShape("Llama 3 8B", 8e9, 32, 4096, _LLAMA3),
    "llama-3-70b": ModelShape("Llama 3 70B", 70e9, 80, 8192, _LLAMA3),
    "llama-3-405b": ModelShape("Llama 3 405B", 405e9, 126, 16384, _LLAMA3),
}


def model(name: str) -> ModelShape:
    """Look up a model shape by id (``"llama-3-70b"``, ...)."""
    return MODELS[v.choice("name", name, MODELS)]


@dataclass(frozen=True)
class Traffic:
    """Bytes one GPU sends per training step for each kind of parallelism.

    Attributes:
        dp: Data parallelism: the gradient all-reduce.
        tp: Tensor parallelism: activation all-reduces inside every layer.
        pp: Pipeline parallelism: activations passed to the next stage (and gradients back).
        dp_collective, tp_collective, pp_collective: How each is moved.
    """

    dp: float
    tp: float
    pp: float
    dp_collective: str = "all-reduce of gradients, once per step"
    tp_collective: str = "4 all-reduces of activations per layer (2 forward, 2 backward)"
    pp_collective: str = "point-to-point send of activations, forward and backward"


def parallelism_traffic(params, layers: int, hidden: int, seq_len: int, micro_batch: int,
                        micro_batches: int = 1, tp: int = 1, pp: int = 1, dp: int = 1,
                        bytes_per_elem: int = 2) -> Traffic:
    """Per-GPU bytes on the wire per step for a transformer under DP x TP x PP
    (Megatron-LM layout; Narayanan et al. SC'21, Shoeybi et al. 2019).

    * DP: ring all-reduce of this GPU's gradient shard, ``2 (dp-1)/dp x params/(tp pp) x b``.
    * TP: per layer 4 all-reduces of activations ``micro_batch x seq_len x hidden x b``,
      each ``2 (tp-1)/tp`` of that on the wire, for ``layers/pp`` layers and every
      micro-batch.
    * PP: each stage boundary sends one activation forward and one gradient backward per
      micro-batch: ``2 x micro_batch x seq_len x hidden x b`` (0 when pp = 1).

    Args:
        params: Model parameters (> 0).
        layers: Transformer layers (>= 1); hidden: model width (>= 1);
        seq_len: Tokens per sequence (>= 1); micro_batch: sequences per micro-batch (>= 1);
        micro_batches: Micro-batches per step per pipeline (>= 1).
        tp, pp, dp: Degrees of tensor, pipeline and data parallelism (>= 1).
        bytes_per_elem: Bytes per activation and gradient element (bf16: 2).
    """
    v.positive("params", params)
    for name, val in (("layers", layers), ("hidden", hidden), ("seq_len", seq_len),
                      ("micro_batch", micro_batch), ("micro_batches", micro_batches),
                      ("tp", tp), ("pp", pp), ("dp", dp)):
        v.integer(name, val, lo=1)
    if pp > layers:
        raise ValueError(f"pp={pp} is out of range: must be between 1 and layers={layers}")
    if isinstance(bytes_per_elem, (bool, np.bool_)) or bytes_per_elem not in (1, 2, 4):
        raise ValueError(f"bytes_per_elem={bytes_per_elem!r} is not one of [1, 2, 4]")
    act = micro_batch * seq_len * hidden * bytes_per_elem
    dp_bytes = 2 * (dp - 1) / dp * params / (tp * pp) * bytes_per_elem
    tp_bytes = (layers / pp) * 4 * 2 * (tp - 1) / tp * act * micro_batches
    pp_bytes = (2 * act * micro_batches) if pp > 1 else 0.0
    return Traffic(float(dp_bytes), float(tp_bytes), float(pp_bytes))


def ring_sync_time(params, n_gpus, link, bytes_per_param=2, achieved: bool = True):
    """Chapter 1's alpha-beta estimate: seconds to ring all-reduce one gradient over ``link``.

    ``t = 2(n-1) alpha + 2 (n-1)/n x gradient_bytes / B`` with B the link's achieved
    (or, with ``achieved=False``, peak) per-direction bandwidth and alpha its per-hop
    latency (:func:`interlib.hierarchy.link_options`).

    Args:
        params: Model parameters (> 0), scalar or array.
        n_gpus: GPUs in the ring (>= 1).
        link: A :class:`~interlib.hierarchy.Rung` or its name.
        bytes_per_param: Bytes per gradient element.
        achieved: Use the achieved bandwidth (True) or the line rate (False).
    """
    from . import hierarchy

    if isinstance(link, str):
        opts = hierarchy.link_options()
        rung = opts[v.choice("link", link, opts)]
    elif isinstance(link, hierarchy.Rung):
        rung = link
    else:
        raise ValueError(f"link={link!r} must be a link name, one of "
                         f"{list(hierarchy.link_options())}, or a hierarchy.Rung")
    v.integer("n_gpus", n_gpus, lo=1, hi=1_000_000)
    v.flag("achieved", achieved)
    size = gradient_bytes(params, bytes_per_param)
    bw = rung.effective if achieved else rung.peak
    return collectives.alpha_beta("all_reduce", "ring", size, n_gpus, rung.latency, bw)


def simulated_step_time(n_gpus: int, mean_s: float, jitter: float, seed: int = 0) -> float:
    """Seeded simulation of :func:`expected_step_time`: the mean over
    :func:`simulation_steps` steps of the slowest of ``n_gpus`` draws, s."""
    steps = simulation_steps(n_gpus)
    return float(straggler_samples(n_gpus, mean_s, jitter, steps, seed).max(axis=1).mean())
