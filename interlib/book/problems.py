"""Problem sets: fresh problems for each pair of chapters, a check a student can run, and
worked solutions.

``problems.show("A1")`` displays a problem's statement (givens from the catalogue);
``problems.check("A1", answer)`` says *right*, *close* or *wrong and why* (the rules of
:func:`interlib.quiz.check`: a relative tolerance, known mistakes recognised and
explained); ``problems.solution("A1")`` is the worked solution (an
:class:`interlib.worked.Derivation`: formula, givens with units, intermediate results and
the ``interlib`` call that agrees). Every answer is computed by ``interlib`` when asked.

Sets: ``A`` (Chapters 1-2), ``B`` (3-4), ``C`` (5-6), ``D`` (7-8).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from .. import _validate as v
from .. import display as D
from .quiz import Numeric, check as _check
from ..units import GB, GB_per_s, TB_per_s, billion, kB, ms


@dataclass(frozen=True)
class Problem:
    """A problem: its statement, the checked answer and the worked solution."""

    key: str
    title: str
    statement: str
    numeric: Numeric
    solution: object  # interlib.worked.Derivation

    def _repr_mimebundle_(self, **kwargs):
        unit = f" in {self.numeric.unit}" if self.numeric.unit else ""
        md = (f"**Problem {self.key}: {self.title}**\n\n{self.statement}\n\n"
              f"*Answer{unit}; check it with* `problems.check(\"{self.key}\", answer)`.\n")
        return {"text/markdown": md, "text/plain": md.replace("*", "").replace("`", "")}


def _p_a1():
    from .. import hierarchy, scaling
    from . import worked

    p, b, n, link = 8 * billion, 2, 8, "PCIe 5.0 x16"
    d = worked.ring_sync(p, b, n, link)
    t = scaling.ring_sync_time(p, n, link, b)
    r = hierarchy.link(link)
    s = scaling.gradient_bytes(p, b)
    return ("Gradient sync over PCIe",
            f"An {p / billion:g}-billion-parameter model keeps bf16 gradients ({b} bytes "
            f"each) and trains with pure data parallelism on {n} GPUs that talk only over "
            f"{link} (achieved {D.fmt_rate(r.effective)} per direction, per-hop latency "
            f"{D.fmt_time(r.latency)}). How long does one ring all-reduce of the gradient "
            "take?",
            Numeric("ring all-reduce time", t / ms, "ms", 0.03,
                    "t = 2(n − 1)·α + 2(n − 1)/n × S/B.",
                    ((s / r.effective / ms, "you left out the factor 2(n − 1)/n: each GPU "
                      "sends almost two buffers."),
                     (scaling.ring_sync_time(p, n, link, 4) / ms, "bf16 gradients are 2 "
                      "bytes, not 4.")),
                    "Each GPU sends 2(n − 1)/n of the buffer.",
                    "Use the achieved per-direction rate, and bytes (not bits)."), d)


def _p_a2():
    from .. import scaling
    from . import worked

    target, jitter = 1.05, 0.02
    n = scaling.gpus_for_slowdown(target, jitter)
    d = worked.straggler_gpus(target, jitter)
    return ("Jitter on a quiet cluster",
            f"A well-tuned cluster keeps each GPU's step-time jitter (standard deviation ÷ "
            f"mean) at {D.fmt_pct(jitter)}. From how many GPUs on is the expected synchronous "
            f"step at least {D.fmt_pct(target - 1)} slower than the average GPU?",
            Numeric("GPU count", float(n), "GPUs", 0.02,
                    "Solve 1 + j·E_n ≥ T for the smallest n, with E_n the expected maximum "
                    "of n standard normals (table).",
                    ((float(round(math.exp(((target - 1) / jitter) ** 2 / 2))),
                      "that is the √(2 ln n) approximation, which overestimates E_n at "
                      "small n: use the table."),),
                    "E_n grows slowly: you need more GPUs.",
                    "Check E_n in the table at your n."), d)


def _p_a3():
    from .. import pcie
    from . import worked

    p, b, n, k, gen = 16 * billion, 2, 8, 2, "4.0"
    d = worked.pcie_load(p, b, n, k, gen)
    share = p * b / n
    t = float(pcie.shared_transfer_time(share, k, gen, "host"))
    alone = float(pcie.transfer_time(share, gen))
    return ("Loading a model on a PCIe 4.0 server",
            f"A {p / billion:g}-billion-parameter model in bf16 is split evenly over {n} "
            f"GPUs; each loads its share from host memory over its own PCIe {gen} x16 link, "
            f"all at once. The GPUs sit {k} per PCIe switch, each switch with one x16 "
            "uplink to the CPU. How long does loading take?",
            Numeric("load time", t / ms, "ms", 0.03,
                    "Each GPU's share crosses the shared uplink: t = α + share ÷ (B/k).",
                    ((alone / ms, f"the {k} GPUs under one switch share its uplink; each "
                      "gets only its part of it."),),
                    "Divide the model by the GPU count first.",
                    "Each GPU loads only its own share."), d)


def _p_b1():
    from .. import nvlink
    from . import worked

    s, gen = 20 * GB, 5
    d = worked.copy_three_ways(s, gen)
    t = s / nvlink.gpu_bandwidth(gen, "effective")
    return ("A copy over NVLink 5",
            f"How long does a {D.fmt_bytes(s)} GPU-to-GPU copy take over NVLink {gen} at "
            "NCCL's achieved per-direction rate?",
            Numeric("copy time", t / ms, "ms", 0.03, "t = S ÷ achieved per-direction rate.",
                    ((s / nvlink.gpu_bandwidth(gen, "headline") / ms, "the headline adds "
                      "both directions; a copy uses one."),
                     (s / nvlink.gpu_bandwidth(gen, "line") / ms, "that is the line rate; "
                      "use the achieved rate.")),
                    "Use the per-direction rate.", "Use the achieved, per-direction rate."), d)


def _p_b2():
    from .. import tensor_parallel as TP
    from . import worked

    b, s, h, tp, mfu, link = 1, 8192, 16384, 8, 0.5, "NVLink 5 (B200)"
    d = worked.tp_layer(b, s, h, tp, mfu, link)
    c = TP.layer_cost(b, s, h, tp, link, mfu)
    return ("Tensor parallelism for a wide model on B200",
            f"A model of width h = {h:,} runs one sequence of {s:,} tokens per micro-batch "
            f"with TP = {tp} on B200 GPUs over {link.split(' (')[0]}, at an assumed MFU of "
            f"{D.fmt_pct(mfu)}. What share of a layer's forward pass is spent in the two "
            "activation all-reduces?",
            Numeric("communication share", float(c.comm_share) * 100, "%", 0.05,
                    "share = comm ÷ (comm + compute), compute = 24·b·s·h² ÷ TP ÷ (peak × "
                    "MFU).",
                    ((float(c.comm_s / (c.comm_s + c.compute_s * tp)) * 100,
                      "each GPU computes only 1/TP of the layer: divide the FLOPs by TP."),),
                    "Check the compute: FLOPs ÷ TP ÷ (peak × MFU).",
                    "Divide the FLOPs by TP, and use the peak at the assumed MFU."), d)


def _p_b3():
    from .. import nvswitch, specs
    from . import worked

    d = worked.dgx_bandwidths("gb200-nvl72")
    s = specs.system("gb200-nvl72")
    nv = specs.nvlink(5)
    both = float(nvswitch.bisection_bandwidth(s.gpus_per_node, nv.per_gpu_per_direction, True))
    agg = float(nvswitch.aggregate_bandwidth(s.gpus_per_node, nv.per_gpu_bidirectional))
    return ("The bisection of an NVL72 rack",
            f"{s.title} joins {s.gpus_per_node} GPUs with non-blocking NVSwitch trays; each GPU "
            f"has {D.fmt_rate(nv.per_gpu_per_direction)} of {nv.name} per direction. What is "
            "its bisection bandwidth, counting both directions?",
            Numeric("bisection, both directions", both / TB_per_s, "TB/s", 0.02,
                    "n/2 GPUs on each side × per-GPU rate per direction × 2 directions.",
                    ((agg / TB_per_s, "that is the aggregate (every GPU, both directions), "
                      "twice the bisection."),
                     (both / 2 / TB_per_s, "that is per direction; the question counts both.")),
                    "Count both directions.", "Only half of the GPUs send across the cut."), d)


def _p_c1():
    from .. import flowcontrol, specs
    from . import worked

    dist = 40
    d = worked.credit_buffer(dist)
    rate = specs.infiniband("NDR").port_rate()
    need = flowcontrol.credit_buffer_bytes(rate, dist)
    return ("Credits for a row-to-row cable",
            f"An NDR InfiniBand link ({D.fmt_rate(rate)} per direction) runs over {dist} m "
            "of fibre. Ignoring switch delays, how many bytes of receive buffer must the "
            "receiving port have to run at full rate? Answer in kB.",
            Numeric("buffer", need / kB, "kB", 0.03,
                    "rate × round trip; the round trip is 2 × distance ÷ speed in fibre.",
                    ((need / 2 / kB, "use the round trip, not the one-way delay."),),
                    "Use the round trip.", "kB = 1,000 bytes."), d)


def _p_c2():
    from .. import topology
    from . import worked

    k, over = 128, 2.0
    d = worked.fat_tree_two_tier(k, over)
    hosts = topology.max_hosts(k, 2, over)
    return ("A tapered two-tier fabric",
            f"Leaves of {k}-port switches are oversubscribed {over:g}:1 (more ports down to "
            "hosts than up to spines). How many hosts fit in two tiers?",
            Numeric("hosts", float(hosts), "hosts", 0.01,
                    "hosts = k leaves × host ports per leaf.",
                    ((float(k * k // 2), "that is the non-blocking count; at "
                      f"{over:g}:1 each leaf gives more ports to hosts."),),
                    "More ports go down at this ratio.", "A spine still has only k ports."),
            d)


def _p_c3():
    from .. import reliability
    from . import worked
    from ..reliability import drop_step_setup

    n, p = 4096, 1e-10
    d = worked.drop_probability(n, p)
    m, base = drop_step_setup()
    s = reliability.step_time_with_drops(n, p, m, base, ms)
    return ("Drops on a mid-size cluster",
            f"{n:,} GPUs each send {m:,} packets per step (the chapter's 1 GB per GPU in "
            f"4 KiB packets); the network drops each packet with probability {p:.0e}. What "
            "share of steps contain at least one drop? Answer in %.",
            Numeric("share of steps", s.p_step_hit * 100, "%", 0.02,
                    "1 − (1 − p)^(m·N).",
                    ((min(m * n * p, 1e9) * 100, "m·N·p is the expected number of drops, "
                      "not the probability of at least one."),
                     ((1 - (1 - p) ** m) * 100, "that is one GPU's probability; count every "
                      "GPU's packets.")),
                    "Every GPU's packets count.", "Use 1 − (1 − p)^(m·N)."), d)


def _p_d1():
    from .. import steptime
    from . import worked

    tp, pp, dp, model = 8, 8, 16, "llama-3-405b"
    d = worked.tp_phase(tp, pp, dp, model)
    ph = steptime.layout_traffic("dgx-h100", model, tp, pp, dp).phase("TP")
    return ("Tensor-parallel time of a 405B layout",
            f"Llama 3 405B runs on DGX H100 servers with TP = {tp}, PP = {pp}, DP = {dp}, "
            "one sequence of 4,096 tokens per micro-batch and 16 micro-batches per step. "
            "How much time per step does each GPU spend in tensor-parallel all-reduces?",
            Numeric("TP time per step", ph.time_s / ms, "ms", 0.03,
                    "operations (4 × layers ÷ PP × micro-batches) × one all-reduce's time.",
                    ((ph.time_s / ms * pp, "each GPU holds only layers ÷ PP layers."),
                     (ph.time_s / ms / 2, "there are four all-reduces per layer per "
                      "micro-batch: two forward, two backward.")),
                    "Count four all-reduces per layer per micro-batch.",
                    "A GPU holds only its pipeline stage's layers."), d)


def _p_d2():
    from .. import cost
    from . import worked

    n, days, price, frac = 8192, 14.0, 3.0, 0.15
    d = worked.idle_dollars(n, days, price, frac)
    from ..units import day
    ic = cost.idle_cost(n, frac, days * day, price)
    return ("The price of waiting",
            f"A {n:,}-GPU job runs for {days:g} days at ${price:.2f} per GPU-hour and spends "
            f"{D.fmt_pct(frac)} of every step waiting on communication. How many dollars "
            "does the waiting cost?",
            Numeric("dollars lost", float(ic.dollars_lost), "$", 0.02,
                    "GPUs × days × 24 × price × fraction.",
                    ((float(ic.dollars_lost) / 24, "turn days into hours (× 24)."),
                     (float(ic.gpu_hours) * price, "only the waiting fraction is lost, "
                      "not the whole bill.")),
                    "Count hours, not days.", "Only the waiting fraction is lost."), d)


def _p_d3():
    from .. import hierarchy
    from .worked import Derivation

    over = 4.0
    rungs = {r.name: r for r in hierarchy.ladder("H100", over)}
    nic, spine = rungs["Scale-out NIC"].peak, rungs["Spine"].peak
    d = Derivation("Bandwidth per GPU across a tapered spine")
    d.given(f"one NIC per H100 at {D.fmt_rate(nic)} per direction; spine oversubscribed "
            f"{over:g}:1")
    d.formula("per-GPU share of the spine = NIC rate ÷ oversubscription (every GPU sending "
              "across it at once)")
    d.step(f"{D.fmt_rate(nic)} ÷ {over:g} = **{D.fmt_rate(nic / over)}**")
    d.check(f'hierarchy.ladder("H100", {over:g}) spine rung', nic / over, spine, D.fmt_rate)
    return ("A tapered spine",
            f"A cluster of H100 servers (one {D.fmt_rate(nic)} NIC per GPU) has a spine "
            f"oversubscribed {over:g}:1. When every GPU's traffic crosses the spine at once "
            "(a cluster-wide DP all-reduce), what bandwidth per GPU per direction is left? "
            "Answer in GB/s.",
            Numeric("per-GPU spine bandwidth", spine / GB_per_s, "GB/s", 0.02,
                    "NIC rate ÷ oversubscription.",
                    ((nic * over / GB_per_s, "oversubscription divides the bandwidth."),
                     (nic / GB_per_s, "that is the NIC; the spine gives each GPU only its "
                      "share.")),
                    "Divide, don't subtract.", "Divide by the oversubscription."), d)


_BUILDERS = {"A1": _p_a1, "A2": _p_a2, "A3": _p_a3, "B1": _p_b1, "B2": _p_b2, "B3": _p_b3,
             "C1": _p_c1, "C2": _p_c2, "C3": _p_c3, "D1": _p_d1, "D2": _p_d2, "D3": _p_d3}

#: Problem keys of each set
SETS = {"A": ("A1", "A2", "A3"), "B": ("B1", "B2", "B3"), "C": ("C1", "C2", "C3"),
        "D": ("D1", "D2", "D3")}


@functools.cache
def get(key: str) -> Problem:
    """Problem ``key`` (``"A1"`` ... ``"D3"``)."""
    v.choice("key", key, _BUILDERS)
    title, statement, numeric, solution = _BUILDERS[key]()
    return Problem(key, title, statement, numeric, solution)


def show(key: str) -> Problem:
    """The problem, for display (its statement and how to check an answer)."""
    return get(key)


def check(key: str, answer) -> str:
    """``"right: ..."``, ``"close: ..."`` or ``"wrong: ..."`` for ``answer`` to problem
    ``key`` (a number in the problem's unit, or text containing one). ``None`` (nothing
    entered yet) says what to do."""
    p = get(key)
    if answer is None:
        return (f"Problem {key}: set `answer` to your result in {p.numeric.unit or 'no unit'} "
                "and run this cell again.")
    verdict, why = _check(p.numeric, answer)
    return f"{verdict}: {why}"


def solution(key: str):
    """The worked solution of problem ``key`` (a :class:`~interlib.worked.Derivation`)."""
    return get(key).solution


def answer(key: str) -> float:
    """The answer of problem ``key``, in its unit."""
    return get(key).numeric.answer
