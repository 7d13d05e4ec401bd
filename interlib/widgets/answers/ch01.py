"""Answers to Chapter 1's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from ... import collectives, display as D, hierarchy, scaling
from ...plots import ch01 as P
from ...units import GB, billion
from . import control, default, more, ratio


def largest_machine(link: str):
    """``(GPUs, title)`` of the largest machine in the catalogue whose GPUs talk to each
    other over ``link`` (a gradient_sync link: an NVLink generation through NVSwitch, or
    PCIe), or None for a network link, which joins any number of GPUs.

    >>> largest_machine("NVLink 4"), largest_machine("InfiniBand NDR (1 NIC/GPU)")
    ((8, 'NVIDIA DGX H100'), None)
    """
    from ...specs import SYSTEMS

    if link.startswith("NVLink "):
        gen = int(link.split()[1])
        machines = [s for s in SYSTEMS.values()
                    if s.intra == "nvswitch" and s.gpu.nvlink_gen == gen]
    elif link.startswith("PCIe"):
        machines = [s for s in SYSTEMS.values() if s.intra == "pcie"]
    else:
        return None
    if not machines:
        return None
    best = max(machines, key=lambda s: s.gpus_per_node)
    return best.gpus_per_node, best.title


def beyond_machine(link: str, n_gpus: int) -> str:
    """What a ring of ``n_gpus`` GPUs all over ``link`` is when no catalogued machine has
    that many GPUs on that link ("" when one has): the link's own limit, not a machine."""
    largest = largest_machine(link)
    if largest is None or n_gpus <= largest[0]:
        return ""
    most, title = largest
    return (f"the largest machine in the book's catalogue with its GPUs on {link}, the "
            f"{title}, has {most:,} of them: a ring of {n_gpus:,} at {link} speed throughout "
            "is the link's own limit, not a machine, and a real ring that size crosses the "
            "network between nodes (Chapter 5)")


def _ring_default_n() -> int:
    from ..core import get
    return get("ring_all_reduce").controls["n"].default


def ring_first_chunk() -> str:
    n = _ring_default_n()
    first = next(s for s in range(2 * (n - 1) + 1)
                 if (collectives.ring_all_reduce_state(n, s) == n).any())
    return (f"After n − 1 steps: with n = {n} GPUs that is step {first}. A chunk starts on one "
            "GPU and collects one more GPU's contribution at every hop; it needs the "
            f"contributions of all {n} GPUs, so it must visit the other {n - 1}, one hop "
            "per step. Every chunk starts moving at step one, so after n − 1 steps every GPU "
            "holds one fully reduced chunk (the end of reduce-scatter); the next n − 1 steps "
            "(all-gather) only copy the finished chunks around.\n\n"
            "Move the steps slider one notch at a time: the count in the outlined chunk "
            f"grows by one per step and first reaches {n} at step {first}.")


def ring_buffers_sent() -> str:
    ns = (2, 4, 8)
    f = {n: collectives.bus_factor("all_reduce", n) for n in ns}
    big_n = 1024
    big = collectives.bus_factor("all_reduce", big_n)
    return ("Each GPU sends one chunk (1/n of the buffer) at each of the 2(n − 1) steps, so "
            "2(n − 1)/n buffers in all: "
            + ", ".join(f"{f[n]:.3g} for n = {n}" for n in ns)
            + f". It approaches {collectives.bus_factor('all_reduce', 10**9):.3g} "
            f"(already {big:.4g} at n = {big_n:,}).\n\n"
            "Why that is optimal: every GPU must get the other n − 1 GPUs' share of the "
            "sum into the result, and must give its own data to be added; any algorithm "
            "has to move at least (n − 1)/n of the buffer out of each GPU to reduce and "
            "(n − 1)/n back in to share the result. The ring sends exactly that, "
            "2(n − 1)/n, and keeps every link busy in both phases, so its per-GPU traffic "
            "does not grow with the number of GPUs: adding GPUs adds steps (latency), "
            "not bytes.")


def ring_slow_link() -> str:
    n = _ring_default_n()
    steps = 2 * (n - 1)
    busy = min(len(set(collectives.ring_step_sends(n, s)[0].tolist())) for s in range(steps))
    rung = hierarchy.link("NVLink 4")
    size = GB
    fast = collectives.alpha_beta("all_reduce", "ring", size, n, rung.latency, rung.effective)
    slow = collectives.alpha_beta("all_reduce", "ring", size, n, rung.latency,
                                  rung.effective / 2)
    return ("All of them. At every step every GPU sends one chunk to its neighbour at the "
            f"same time (in the demo each of the {steps} steps outlines a chunk on all "
            f"{busy} GPUs), and a step ends only when its slowest transfer has arrived, "
            "because the next step forwards what just came in. So the slow link sets the "
            "pace of every step and the whole all-reduce takes about twice as long: for a "
            f"{D.fmt_bytes(size)} buffer on {n} GPUs at NVLink 4's achieved rate the "
            f"alpha-beta model gives {D.fmt_time(fast)}, and {D.fmt_time(slow)} with every "
            f"step at half the rate ({ratio(slow, fast)}). One weak link in a ring costs as "
            "much as every link being weak, which is why NCCL checks topologies and why a "
            "degraded cable slows a whole job.")


def sync_gpu_count() -> str:
    rung = hierarchy.link("NVLink 4")
    gpus, params = control("gradient_sync", "n_gpus"), control("gradient_sync", "params_billion")
    few, many = gpus.default, gpus.max
    big_b, small_b = params.default, params.min
    big, small = big_b * billion, small_b * billion
    t = {(p, n): scaling.ring_sync_time(p, n, rung) for p in (big, small) for n in (few, many)}
    return ("The ring time is 2(n − 1)·α + 2(n − 1)/n · S/B. The bandwidth term barely moves "
            "with n because 2(n − 1)/n goes from "
            f"{collectives.bus_factor('all_reduce', few):.3g} at {few} GPUs to "
            f"{collectives.bus_factor('all_reduce', many):.3g} at {many:,}; the latency term "
            f"grows in proportion to n. For a {big_b:g}B model the bytes dominate: "
            f"{D.fmt_time(t[big, few])} at {few} GPUs, {D.fmt_time(t[big, many])} at {many:,} "
            f"({more(t[big, many], t[big, few])} more). For a {small_b:g}B model the bytes are "
            f"few and the per-hop latency shows: {D.fmt_time(t[small, few])} at {few} GPUs, "
            f"{D.fmt_time(t[small, many])} at {many:,} ({ratio(t[small, many], t[small, few])})."
            + (f" Mind that {beyond_machine(rung.name, many)}."
               if beyond_machine(rung.name, many) else ""))


def sync_pcie_vs_nvlink() -> str:
    p_b, n = default("gradient_sync", "params_billion"), default("gradient_sync", "n_gpus")
    p = p_b * billion
    pc, nv = hierarchy.link("PCIe 5.0 x16"), hierarchy.link("NVLink 4")
    tp, tn = scaling.ring_sync_time(p, n, pc), scaling.ring_sync_time(p, n, nv)
    return (f"For a {p_b:g}B model on {n} GPUs PCIe takes {D.fmt_time(tp)} and NVLink 4 "
            f"{D.fmt_time(tn)}: {ratio(tp, tn)} as long. The achieved bandwidths are "
            f"{D.fmt_rate(pc.effective)} and {D.fmt_rate(nv.effective)} per direction, a ratio "
            f"of {ratio(nv.effective, pc.effective)}: the same number, because for a large "
            "gradient the time is bytes divided by bandwidth and the bytes are the same. For "
            "a small model the latency terms (per-hop α) make the ratio differ from the "
            "bandwidth ratio.")


def sync_one_second() -> str:
    p, n = default("gradient_sync", "params_billion") * billion, default("gradient_sync", "n_gpus")
    budget = 1.0  # seconds of compute per step, as the question sets it
    t = {name: scaling.ring_sync_time(p, n, r) for name, r in hierarchy.link_options().items()}
    ok = [k for k, x in t.items() if x <= budget]
    no = [k for k, x in t.items() if x > budget]
    return ("Synchronising in no more than the compute time (so the step at most doubles if "
            f"nothing overlaps) means a sync time of at most one second. On {n} GPUs: "
            + "; ".join(f"{k} {D.fmt_time(x)}" for k, x in t.items())
            + f". So {', '.join(ok)} make it, and {', '.join(no)} do not"
            + (". " if no else ". ")
            + "The gradient is the same for every link; only the achieved bandwidth differs, "
            "which is why the within-server link (NVLink) matters so much for data "
            "parallelism inside a node, and why across nodes the sync must overlap with the "
            "backward pass.")


def straggler_growth() -> str:
    j = default("straggler", "jitter")
    few, many = 1000, 100000  # the question's GPU counts
    a, b = scaling.expected_step_time(few, 1.0, j), scaling.expected_step_time(many, 1.0, j)
    za, zb = (scaling.expected_max_standard_normal(few),
              scaling.expected_max_standard_normal(many))
    return (f"With {D.fmt_pct(j)} jitter the expected step is {a:.3f}× the mean GPU time at "
            f"{few:,} GPUs and {b:.3f}× at {many:,}: a hundred times more GPUs make the "
            f"step only {more(b, a)} slower. The step waits for the slowest GPU, "
            "mean × (1 + jitter × E[max of n normals]), and the expected maximum of n "
            "normal draws grows only like √(2 ln n): "
            f"{za:.3f} at {few:,} and {zb:.3f} at {many:,}. Each further factor of ten "
            "adds less, because the next-slowest GPU has to be an ever rarer outlier.")


def straggler_jitter() -> str:
    n, j = 1000, 0.05
    full = scaling.expected_step_time(n, 1.0, j) - 1
    half = scaling.expected_step_time(n, 1.0, j / 2) - 1
    return ("The slowdown (step ÷ mean − 1) halves exactly: the model is "
            "1 + jitter × E[max], linear in the jitter. At "
            f"{n:,} GPUs it goes from {D.fmt_pct(full)} to {D.fmt_pct(half)}. Halving "
            "variability is worth as much as cutting the GPU count by a huge factor, "
            "which is why large clusters invest in identical hardware, health checks that "
            "evict slow nodes, and quiet, uncongested networks: the slowest member sets "
            "everyone's pace.")


def traffic_most() -> str:
    tp, pp, dp = (default("parallelism_traffic", k) for k in ("tp", "pp", "dp"))
    m, tr = P._traffic(tp=tp, pp=pp, dp=dp, **_fixed())
    return (f"At the defaults ({m.name}, TP {tp}, PP {pp}, DP {dp}) one GPU sends per step: TP "
            f"{D.fmt_bytes(tr.tp)}, DP {D.fmt_bytes(tr.dp)}, PP {D.fmt_bytes(tr.pp)}. Tensor "
            "parallelism sends the most, and it is also the one that must finish inside "
            "every layer: each layer's matrix product is split across the TP GPUs and their "
            "partial results are all-reduced before the next layer can start (four "
            "all-reduces per layer, forward and backward). That is why TP stays on the "
            "fastest link, NVLink inside a server. DP's gradient all-reduce happens once per "
            "step and can overlap with the backward pass; PP only passes activations between "
            "neighbouring stages.")


def traffic_tp1() -> str:
    tp, pp, dp = (default("parallelism_traffic", k) for k in ("tp", "pp", "dp"))
    m, tr8 = P._traffic(tp=tp, pp=pp, dp=dp, **_fixed())
    _, tr1 = P._traffic(tp=1, pp=pp, dp=dp, **_fixed())
    w8 = scaling.gradient_bytes(m.params) / (tp * pp)
    w1 = scaling.gradient_bytes(m.params) / pp
    return (f"TP traffic drops to {D.fmt_bytes(tr1.tp)}, but DP traffic grows from "
            f"{D.fmt_bytes(tr8.dp)} to {D.fmt_bytes(tr1.dp)}: each GPU now holds a whole "
            "pipeline stage's parameters instead of one eighth of them, so its gradient "
            "shard (what it all-reduces) is eight times larger. The memory problem is the "
            f"same factor: the bf16 weights alone of a stage are {D.fmt_bytes(w1)} per GPU "
            f"instead of {D.fmt_bytes(w8)}, before gradients, optimizer state (several times "
            "more) and activations. A large model simply does not fit on one GPU without "
            "tensor (or more pipeline) parallelism.")


def _fixed() -> dict:
    return dict(P.TRAFFIC_FIXED)
