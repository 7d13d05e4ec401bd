"""The problem sets' builders: every problem's statement, answer, known mistakes and worked
solution, for the book's numbers (seed 0) and for any variant (seed > 0). Instructor-only.

This module is not part of ``interlib`` (the reader's package, which the site's wheel,
JupyterLite and ``pip install .`` carry): the reader's :mod:`interlib.book.problems` holds
only the book's own problems (seed 0), written from here into
``interlib/book/problem_sets.json`` by ``tools/problem_notebooks.py``; variants, keys and
worked solutions stay with the instructor (``tools/course``; ``make assignments``,
``make instructor``, ``make exam``).

Every problem names the section of the book that teaches its method (``section``), and
:func:`variants` lists, for each problem, variants whose answers differ from each other and
from the book's published answer (seed 0) by more than two tolerances, so that a student's
answer to one variant is never accepted for another.

Sets: ``A`` (Chapters 1-2), ``B`` (3-4), ``C`` (5-6), ``D`` (7-8).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from dataclasses import dataclass

from interlib import _validate as v
from interlib import display as D
from interlib.book import quiz
from interlib.book.quiz import Numeric
from interlib.units import GB, GB_per_s, Gbit_per_s, TB_per_s, billion, kB, ms, us

from . import problems_fresh as _fresh
from .problems_fresh import _answer, _sec

#: Difficulty labels, easiest first.
DIFFICULTIES = ("warm-up", "standard", "challenging")


@dataclass(frozen=True)
class Problem:
    """A problem: its statement (givens included), the section that teaches its method, the
    checked answer and the worked solution."""

    key: str
    title: str
    difficulty: str
    question: str
    givens: tuple
    numeric: Numeric
    solution: object  # interlib.book.worked.Derivation
    section: str
    seed: int = 0
    fresh: bool = True

    @property
    def statement(self) -> str:
        """The question, its givens and the section that teaches it, as Markdown."""
        g = "".join(f"\n- {x}" for x in self.givens)
        out = f"{self.question}\n\n*Given:*{g}" if self.givens else self.question
        return out + f"\n\n*Method:* {self.section}."

    def public(self) -> dict:
        """What the reader's package keeps of the book's problem (seed 0): no solution."""
        q = self.numeric
        return {"key": self.key, "title": self.title, "difficulty": self.difficulty,
                "question": self.question, "givens": list(self.givens),
                "section": self.section, "fresh": self.fresh,
                "numeric": {"question": q.question, "answer": q.answer, "unit": q.unit,
                            "tolerance": q.tolerance, "explanation": q.explanation,
                            "mistakes": [[m, why] for m, why in q.mistakes],
                            "hint_low": q.hint_low, "hint_high": q.hint_high,
                            "exact": q.exact}}


class _V:
    """The givens of one variant: the book's value at seed 0, else a draw from realistic
    options (deterministic per problem and seed)."""

    def __init__(self, key: str, seed: int):
        self.seed = seed
        self.rng = random.Random(f"{key}/{seed}")

    def pick(self, book, options):
        return book if self.seed == 0 else self.rng.choice(list(options))


def _g(x: float) -> str:
    return f"{x:g}"


_SUBSCRIPT = str.maketrans("0123456789n", "₀₁₂₃₄₅₆₇₈₉ₙ")


def _e(k) -> str:
    """The expected maximum of ``k`` standard normals as a reader writes it: Eₙ, E₂₄."""
    return "E" + str(k).translate(_SUBSCRIPT)


def _a(x: float) -> str:
    """The article before a number read aloud: "An 8-billion", "A 13-billion"."""
    return "An" if f"{x:g}".startswith(("8", "11", "18")) else "A"


# ------------------------------------------------------------------ set A: Chapters 1-2
def _p_a1(V):
    from interlib import hierarchy, scaling
    from interlib.book import worked

    p = V.pick(8, (3, 7, 8, 13, 34)) * billion
    n = V.pick(8, (4, 8, 16))
    b, link = 2, "PCIe 5.0 x16"
    r = hierarchy.link(link)
    t = scaling.ring_sync_time(p, n, link, b)
    s = scaling.gradient_bytes(p, b)
    return dict(
        section=_sec(1, "How long does gradient synchronisation take?"),
        title="Gradient sync over PCIe", difficulty="warm-up", fresh=True,
        question=(f"{_a(p / billion)} {p / billion:g}-billion-parameter model keeps bf16 "
                  "gradients and trains "
                  f"with pure data parallelism on {n} GPUs that talk only over {link}. How "
                  "long does one ring all-reduce of the gradient take (Chapter 1's "
                  "alpha-beta model)?"),
        givens=(f"bf16: {b} bytes per gradient value",
                f"{link}: achieved {D.fmt_rate(r.effective, 4)} per direction, per-hop "
                f"latency α = {D.fmt_time(r.latency)}",
                "ring all-reduce: t = 2(n − 1)·α + 2(n − 1)/n × S ÷ B"),
        numeric=_answer("ring all-reduce time", t / ms, "ms", 0.03,
                        "t = 2(n − 1)·α + 2(n − 1)/n × S/B.",
                        ((s / r.effective / ms, "you left out the factor 2(n − 1)/n: each "
                          "GPU sends almost two buffers."),
                         (scaling.ring_sync_time(p, n, link, 4) / ms, "bf16 gradients are "
                          "2 bytes, not 4.")),
                        low="each GPU sends 2(n − 1)/n of the buffer, not 1/n of it.",
                        high="use the achieved rate, not the line rate."),
        solution=worked.ring_sync(p, b, n, link))


def _p_a2(V):
    from interlib import scaling
    from interlib.book import worked

    # (T, j) pairs with distinct thresholds (T - 1) / j: 2, 2.2, 2.25, 7/3, 2.4, 2.6, 8/3,
    # 2.8, 3 (the book's is 2.5)
    target, jitter = V.pick((1.05, 0.02), ((1.04, 0.02), (1.055, 0.025), (1.045, 0.02),
                                           (1.035, 0.015), (1.06, 0.025), (1.065, 0.025),
                                           (1.08, 0.03), (1.07, 0.025), (1.045, 0.015)))
    n = scaling.gpus_for_slowdown(target, jitter)
    z = (target - 1) / jitter
    rows = sorted({max(2, n // 4), max(2, n // 2), *range(max(2, n - 4), n + 5), 2 * n,
                   4 * n})
    table = ", ".join(f"{_e(k)} = {scaling.expected_max_standard_normal(k):.4f}" for k in rows)
    rough = float(round(math.exp(z * z / 2)))
    mistakes = [(float(n - 1), "one short: at that n the expected step is still below the "
                 "target (compare Eₙ with (T − 1) ÷ j, at or above).")]
    if abs(rough - n) > 0.05 * n:
        mistakes.append((rough, "that is the √(2 ln n) approximation, which overestimates "
                         "Eₙ at small n: use the table."))
    return dict(
        section=_sec(1, "Everyone waits for the slowest"),
        title="Jitter on a quiet cluster", difficulty="standard", fresh=True,
        question=(f"A well-tuned cluster keeps each GPU's step-time jitter (standard "
                  f"deviation ÷ mean) at {D.fmt_pct(jitter)}. From how many GPUs on is the "
                  f"expected synchronous step at least {D.fmt_pct(target - 1)} slower than "
                  "the average GPU? (A whole number.)"),
        givens=("expected synchronous step ÷ mean = 1 + j × Eₙ, with Eₙ the expected "
                "maximum of n standard normal variables",
                f"Eₙ (numerical integration): {table}"),
        numeric=_answer("GPU count", float(n), "GPUs", 0.02,
                        f"Solve 1 + j·Eₙ ≥ T: Eₙ ≥ (T − 1) ÷ j = {z:.4g}; the table's first "
                        f"n at or above it is {n}.",
                        tuple(mistakes),
                        low="Eₙ must reach (T − 1) ÷ j; at your n it is still below.",
                        high="take the first n whose Eₙ reaches (T − 1) ÷ j.",
                        exact=True),
        solution=worked.straggler_gpus(target, jitter))


def _p_a3(V):
    from interlib import pcie
    from interlib.book import worked

    p = V.pick(16, (7, 8, 13, 16, 20, 34, 70, 72)) * billion
    k = V.pick(2, (1, 2, 4))
    b, n, gen = 2, 8, "4.0"
    share = p * b / n
    t = float(pcie.shared_transfer_time(share, k, gen, "host"))
    alone = float(pcie.transfer_time(share, gen))
    B = pcie.link_bandwidth(gen, 16)
    return dict(
        section=_sec(2, "The PCIe tree: root complex, switches, devices"),
        title="Loading a model on a PCIe 4.0 server", difficulty="warm-up", fresh=False,
        question=(f"{_a(p / billion)} {p / billion:g}-billion-parameter model in bf16 (2 bytes per "
                  f"parameter) is split evenly over {n} GPUs; each loads its share from host "
                  f"memory over PCIe {gen} x16, all at once. The GPUs sit {k} per PCIe "
                  "switch, each switch with one x16 uplink to the CPU, which its GPUs share "
                  "equally. How long does loading take?"),
        givens=(f"PCIe {gen} x16 (each GPU's link and each uplink): achieved "
                f"{D.fmt_rate(B, 4)} per direction",
                f"start-up latency of a copy α = {D.fmt_time(pcie.LATENCY.value)}",
                "t = α + S ÷ B"),
        numeric=_answer("load time", t / ms, "ms", 0.03,
                        "Each GPU's share crosses the shared uplink: t = α + share ÷ (B/k).",
                        ((alone / ms, f"the {k} GPUs under one switch share its uplink; "
                          "each gets only its part of it."),
                         (float(pcie.shared_transfer_time(p * b, k, gen, "host")) / ms,
                          "each GPU loads only its own share: divide the model by the GPU "
                          "count.")),
                        low="the GPUs under one switch share its uplink's rate.",
                        high="each GPU loads only its share (model ÷ GPUs)."),
        solution=worked.pcie_load(p, b, n, k, gen))


# ------------------------------------------------------------------ set B: Chapters 3-4
def _p_b1(V):
    from interlib import nvlink
    from interlib.book import worked

    s = V.pick(20, (5, 8, 10, 16, 20, 25, 32, 40, 50, 64)) * GB
    gen = V.pick(5, (3, 4, 5))
    eff, line, head = (nvlink.gpu_bandwidth(gen, x) for x in ("effective", "line", "headline"))
    return dict(
        section=_sec(3, "Line rate vs what applications get"),
        title=f"A copy over NVLink {gen}", difficulty="warm-up", fresh=True,
        question=(f"How long does a {D.fmt_bytes(s)} GPU-to-GPU copy take over NVLink {gen}, "
                  "at the rate NCCL achieves? Pick the right figure from the givens."),
        givens=(f"NVLink {gen} per GPU: headline {D.fmt_rate(head)} (both directions added); "
                f"line rate {D.fmt_rate(line)} per direction; achieved {D.fmt_rate(eff, 4)} "
                "per direction",
                "latency is negligible at this size: t = S ÷ B"),
        numeric=_answer("copy time", s / eff / ms, "ms", 0.03,
                        "t = S ÷ achieved per-direction rate.",
                        ((s / head / ms, "the headline adds both directions; a copy uses "
                          "one."),
                         (s / line / ms, "that is the line rate; use the achieved rate.")),
                        low="the achieved rate is below the line rate: use it, not the headline.",
                        high="divide the size by the achieved rate, once."),
        solution=worked.copy_three_ways(s, gen))


def _p_b2(V):
    from interlib import tensor_parallel as TP
    from interlib.book import worked

    h = V.pick(16384, (6144, 8192, 12288, 16384))
    s = V.pick(8192, (4096, 8192))
    tp = V.pick(8, (4, 8))
    b, mfu, link = 1, 0.5, "NVLink 5 (B200)"
    c = TP.layer_cost(b, s, h, tp, link, mfu)
    peak = TP.peak_flops(TP.LINKS[link][1])
    comm = float(c.comm_s)
    return dict(
        section=_sec(3, "Why tensor parallelism needs NVLink"),
        title="Tensor parallelism for a wide model on B200", difficulty="standard",
        fresh=True,
        question=(f"A model of width h = {h:,} runs one sequence of s = {s:,} tokens per "
                  f"micro-batch with TP = {tp} on B200 GPUs over NVLink 5. What share of a "
                  "layer's forward pass is spent in its two activation all-reduces?"),
        givens=("a layer's forward pass: 24·b·s·h² FLOPs, split evenly over the TP GPUs",
                f"B200 peak {D.fmt_si(peak, 'FLOP/s')} dense BF16; assumed MFU "
                f"{D.fmt_pct(mfu)}",
                f"the two forward all-reduces of the layer's activations (b·s·h × 2 B each) "
                f"take {D.fmt_time(comm, 4)} together ({c.algorithm}, the collective "
                "model of Chapter 4, latency and pipeline fill included)",
                "share = comm ÷ (comm + compute)"),
        numeric=_answer("communication share", float(c.comm_share) * 100, "%", 0.05,
                        "share = comm ÷ (comm + compute), compute = 24·b·s·h² ÷ TP ÷ (peak × "
                        "MFU).",
                        ((float(c.comm_s / (c.comm_s + c.compute_s * tp)) * 100,
                          "each GPU computes only 1/TP of the layer: divide the FLOPs by "
                          "TP."),),
                        low="each GPU does only 1/TP of the FLOPs, and at peak × MFU, "
                            "not at peak.",
                        high="check the compute (FLOPs ÷ TP ÷ (peak × MFU)) and that "
                             "the all-reduce time counts once."),
        solution=worked.tp_layer(b, s, h, tp, mfu, link))


def _p_b3(V):
    from interlib import nvswitch, specs
    from interlib.book.worked import Derivation

    # the book's GB200 NVL72, or an NVLink domain of n GPUs on non-blocking NVSwitches
    gen, n = V.pick((5, 72), ((3, 8), (3, 16), (4, 8), (4, 32), (4, 256), (5, 8), (5, 36),
                              (5, 144)))
    nv = specs.nvlink(gen)
    name = specs.system("gb200-nvl72").title if V.seed == 0 else f"An {nv.name} domain"
    per = nv.per_gpu_per_direction
    both = float(nvswitch.bisection_bandwidth(n, per, True))
    agg = float(nvswitch.aggregate_bandwidth(n, nv.per_gpu_bidirectional))
    d = Derivation(f"The bisection of {n} GPUs on {nv.name}")
    d.given(f"n = {n} GPUs on non-blocking NVSwitches; each GPU {D.fmt_rate(per)} per "
            "direction")
    d.formula("bisection (both directions) = n/2 GPUs on one side × per-GPU rate per "
              "direction × 2 directions")
    d.step(f"{n // 2} × {D.fmt_rate(per)} × 2 = **{D.fmt_rate(both)}**")
    d.check(f"nvswitch.bisection_bandwidth({n}, per_gpu, True)", n / 2 * per * 2, both,
            D.fmt_rate)
    return dict(
        section=_sec(4, "Aggregate vs bisection: a classic mix-up"),
        title="The bisection of an NVLink domain", difficulty="warm-up", fresh=False,
        question=(f"{name} joins {n} GPUs with non-blocking NVSwitches. What "
                  "is its bisection bandwidth, counting both directions?"),
        givens=(f"each GPU: {D.fmt_rate(per)} of {nv.name} per direction",),
        numeric=_answer("bisection, both directions", both / TB_per_s, "TB/s", 0.02,
                        "n/2 GPUs on each side × per-GPU rate per direction × 2 directions.",
                        ((agg / TB_per_s, "that is the aggregate (every GPU, both "
                          "directions), twice the bisection."),
                         (both / 2 / TB_per_s, "that is per direction; the question counts "
                          "both.")),
                        low="count both ways across the cut.",
                        high="only half of the GPUs send across the cut."),
        solution=d)


# ------------------------------------------------------------------ set C: Chapters 5-6
def _p_c1(V):
    from interlib import flowcontrol, specs
    from interlib.book import worked

    dist = V.pick(40, (10, 20, 30, 50, 60, 80, 100, 150, 200))
    rate = specs.infiniband("NDR").port_rate()
    need = flowcontrol.credit_buffer_bytes(rate, dist)
    return dict(
        section=_sec(5, "Credit-based flow control: never send what cannot be stored"),
        title="Credits for a row-to-row cable", difficulty="warm-up", fresh=False,
        question=(f"An NDR InfiniBand link runs over {dist} m of fibre. Ignoring switch "
                  "delays, how much receive buffer must the receiving port have to run at "
                  "full rate? Answer in kB (1 kB = 1,000 bytes)."),
        givens=(f"NDR port rate {D.fmt_rate(rate)} per direction",
                f"light in fibre: {D.fmt_si(flowcontrol.FIBRE_SPEED, 'm/s')} (5 ns per "
                "metre)"),
        numeric=_answer("buffer", need / kB, "kB", 0.03,
                        "rate × round trip; the round trip is 2 × distance ÷ speed in fibre.",
                        ((need / 2 / kB, "use the round trip, not the one-way delay."),),
                        low="a credit comes back only after a full round trip (2 × the "
                            "one-way delay).",
                        high="the buffer covers one round trip at the port's rate, no more."),
        solution=worked.credit_buffer(dist))


def _p_c2(V):
    from interlib import topology
    from interlib.book import worked

    k = V.pick(128, (64, 128, 144))
    over = V.pick(2.0, (2.0, 3.0, 4.0, 5.0))
    d = worked.fat_tree_two_tier(k, over)
    hosts = topology.max_hosts(k, 2, over)
    return dict(
        section=_sec(5, "Topologies: how to wire thousands of nodes"),
        title="A tapered two-tier fabric", difficulty="standard", fresh=True,
        question=(f"Leaves of {k}-port switches are oversubscribed {over:g}:1 (more ports down "
                  "to hosts than up to spines), under spines of the same switch. How many "
                  "hosts fit in two tiers? (A whole number.)"),
        givens=("a leaf gives d = ⌊k × r ÷ (r + 1)⌋ ports down to hosts and the rest up, for "
                "a ratio r:1",
                "each spine has k ports, one per leaf"),
        numeric=_answer("hosts", float(hosts), "hosts", 0.01,
                        "hosts = k leaves × host ports per leaf.",
                        ((float(k * k // 2), "that is the non-blocking count; at "
                          f"{over:g}:1 each leaf gives more ports to hosts."),),
                        low="at this ratio more ports go down to hosts.",
                        high="a spine has only k ports, so at most k leaves.",
                        exact=True),
        solution=d)


def _p_c3(V):
    from interlib import reliability
    from interlib.book import worked
    from interlib.reliability import drop_step_setup

    n = V.pick(4096, (1024, 4096, 16384))
    p = V.pick(1e-10, (1e-11, 1e-10, 3e-10))
    m, base = drop_step_setup()
    s = reliability.step_time_with_drops(n, p, m, base, ms)
    return dict(
        section=_sec(6, "Why lossy Ethernet hurts RDMA"),
        title="Drops on a mid-size cluster", difficulty="standard", fresh=False,
        question=(f"{n:,} GPUs each send {m:,} packets per step; the network drops each "
                  f"packet with probability {D.fmt_num(p)}, independently. What share of steps "
                  "contain at least one drop? Answer in %."),
        givens=("P(at least one drop) = 1 − (1 − p)^(m·N) ≈ 1 − exp(−m·N·p)",),
        numeric=_answer("share of steps", s.p_step_hit * 100, "%", 0.02,
                        "1 − (1 − p)^(m·N).",
                        ((min(m * n * p, 1e9) * 100, "m·N·p is the expected number of "
                          "drops, not the probability of at least one."),
                         ((1 - (1 - p) ** m) * 100, "that is one GPU's probability; count "
                          "every GPU's packets.")),
                        low="every GPU's packets count (m·N of them).",
                        high="use 1 − (1 − p)^(m·N); m·N·p is the expected count, not "
                             "a probability."),
        solution=worked.drop_probability(n, p))


# ------------------------------------------------------------------ set D: Chapters 7-8
def _p_d1(V):
    from interlib import collectives, scaling, steptime
    from interlib.book import worked

    tp, dp, model = 8, 16, "llama-3-405b"
    pp = V.pick(8, (2, 4, 8, 16))
    mb = V.pick(16, (4, 8, 12, 16, 24, 32))
    seq = 4096
    m = scaling.model(model)
    act = seq * m.hidden * 2
    one = collectives.predict("all_reduce", act, "dgx-h100", tp, 1)
    ph = steptime.layout_traffic("dgx-h100", model, tp, pp, dp, seq, 1, mb).phase("TP")
    return dict(
        section=_sec(7, "Mapping parallelism onto the ladder"),
        title="Tensor-parallel time of a 405B layout", difficulty="standard", fresh=True,
        question=(f"{m.name} runs on DGX H100 servers with TP = {tp} (inside a server), "
                  f"PP = {pp}, DP = {dp}, one sequence of {seq:,} tokens per micro-batch and "
                  f"{mb} micro-batches per step. How much time per step does each GPU spend "
                  "in tensor-parallel all-reduces?"),
        givens=(f"{m.name}: {m.layers} layers, width h = {m.hidden:,}, bf16 activations",
                "each layer does 4 TP all-reduces of its activations (s·h × 2 B) per "
                "micro-batch: 2 in the forward pass, 2 in the backward",
                f"one such all-reduce on {tp} GPUs of a DGX H100 takes "
                f"{D.fmt_time(one.time_s, 4)} ({one.algorithm}, the collective model of "
                "Chapter 4)"),
        numeric=_answer("TP time per step", ph.time_s / ms, "ms", 0.03,
                        "operations (4 × layers ÷ PP × micro-batches) × one all-reduce's "
                        "time.",
                        ((ph.time_s / ms * pp, "each GPU holds only layers ÷ PP layers."),
                         (ph.time_s / ms / 2, "there are four all-reduces per layer per "
                          "micro-batch: two forward, two backward.")),
                        low="count four all-reduces per layer per micro-batch, for "
                            "every micro-batch.",
                        high="a GPU holds only its pipeline stage's layers (layers ÷ "
                             "PP)."),
        solution=worked.tp_phase(tp, pp, dp, model, micro_batches=mb))


def _p_d2(V):
    from interlib import cost
    from interlib.book import worked
    from interlib.units import day

    n = V.pick(8192, (2048, 4096, 8192, 16384))
    days = V.pick(14.0, (7.0, 14.0, 30.0))
    price = V.pick(3.0, (2.0, 2.5, 3.0))
    frac = V.pick(0.15, (0.1, 0.15, 0.2, 0.25))
    ic = cost.idle_cost(n, frac, days * day, price)
    return dict(
        section=_sec(8, "What idle GPUs cost"),
        title="The price of waiting", difficulty="warm-up", fresh=False,
        question=(f"{_a(n)} {n:,}-GPU job runs for {days:g} days at ${price:.2f} per GPU-hour and "
                  f"spends {D.fmt_pct(frac)} of every step waiting on communication. How "
                  "many dollars does the waiting cost?"),
        givens=(),
        numeric=_answer("dollars lost", float(ic.dollars_lost), "$", 0.02,
                        "GPUs × days × 24 × price × fraction.",
                        ((float(ic.dollars_lost) / 24, "turn days into hours (× 24)."),
                         (float(ic.gpu_hours) * price, "only the waiting fraction is lost, "
                          "not the whole bill.")),
                        low="count hours (days × 24), for every GPU.",
                        high="only the waiting fraction of the bill is lost."),
        solution=worked.idle_dollars(n, days, price, frac))


def _p_d3(V):
    from interlib import hierarchy
    from interlib.book.worked import Derivation

    over = V.pick(4.0, (1.5, 2.0, 2.5, 3.0, 5.0, 6.0, 8.0, 10.0, 16.0))
    rungs = {r.name: r for r in hierarchy.ladder("H100", over)}
    nic, spine = rungs["Scale-out NIC"].peak, rungs["Spine"].peak
    d = Derivation("Bandwidth per GPU across a tapered spine")
    d.given(f"one NIC per H100 at {D.fmt_rate(nic)} per direction ({_g(nic / Gbit_per_s)} "
            f"Gb/s); spine oversubscribed {over:g}:1")
    d.formula("per-GPU share of the spine = NIC rate ÷ oversubscription (every GPU sending "
              "across it at once)")
    d.step(f"{D.fmt_rate(nic)} ÷ {over:g} = **{D.fmt_rate(nic / over)}** "
           f"({_g(nic / over / Gbit_per_s)} Gb/s)")
    d.check(f'hierarchy.ladder("H100", {over:g}) spine rung', nic / over, spine, D.fmt_rate)
    return dict(
        section=_sec(7, "The ladder, rung by rung"),
        title="A tapered spine", difficulty="warm-up", fresh=False,
        question=("When every GPU's traffic crosses the spine at once (a cluster-wide DP "
                  "all-reduce), what bandwidth per GPU per direction is left? Answer in "
                  "Gb/s, as network vendors quote it."),
        givens=(f"H100 servers, one {_g(nic / Gbit_per_s)} Gb/s NIC per GPU "
                f"({D.fmt_rate(nic)} per direction)",
                f"the spine is oversubscribed {over:g}:1"),
        numeric=_answer("per-GPU spine bandwidth", spine / Gbit_per_s, "Gb/s", 0.02,
                        "NIC rate ÷ oversubscription.",
                        ((nic * over / Gbit_per_s, "oversubscription divides the bandwidth."),
                         (nic / Gbit_per_s, "that is the NIC; the spine gives each GPU only "
                          "its share.")),
                        low="divide the NIC rate once by the oversubscription.",
                        high="divide by the oversubscription (do not subtract it)."),
        solution=d)


_BUILDERS = {"A1": _p_a1, "A2": _p_a2, "A3": _p_a3, "B1": _p_b1, "B2": _p_b2, "B3": _p_b3,
             "C1": _p_c1, "C2": _p_c2, "C3": _p_c3, "D1": _p_d1, "D2": _p_d2, "D3": _p_d3}

#: Problem keys of each set
SETS = {"A": ("A1", "A2", "A3"), "B": ("B1", "B2", "B3"), "C": ("C1", "C2", "C3"),
        "D": ("D1", "D2", "D3")}


for _s, _b in _fresh.FRESH.items():  # the fresh problems (interlib.book.problems_fresh)
    _BUILDERS.update(_b)
    SETS[_s] = SETS[_s] + tuple(_b)


def _distinct(q: Numeric) -> Numeric:
    """``q`` keeping only the known mistakes that a variant's numbers keep apart: a mistake
    within two tolerances of the answer, or within one of an earlier mistake, would be
    taken for a near miss or for the other slip (at some seeds, top-1 routing makes "forgot
    k" equal the answer, and a tiny drop rate makes m·N·p equal 1 − (1 − p)^(m·N))."""
    keep = []
    for m, why in q.mistakes:
        if abs(m - q.answer) <= 2 * q.tolerance * abs(q.answer):
            continue
        if any(abs(m - k) <= q.tolerance * abs(k) for k, _ in keep):
            continue
        keep.append((m, why))
    return dataclasses.replace(q, mistakes=tuple(keep))


@functools.cache
def get(key: str, seed: int = 0) -> Problem:
    """Problem ``key`` (``"A1"`` ...) in variant ``seed`` (0: the book's numbers)."""
    v.choice("key", key, _BUILDERS)
    v.integer("seed", seed, lo=0, hi=10**9)
    f = _BUILDERS[key](_V(key, seed))
    v.choice("difficulty", f["difficulty"], DIFFICULTIES)
    f["numeric"] = _distinct(f["numeric"])
    return Problem(key, f["title"], f["difficulty"], f["question"], tuple(f["givens"]),
                   f["numeric"], f["solution"], f["section"], seed, f.get("fresh", True))


def check(key: str, answer, seed: int = 0) -> str:
    """``"right: ..."``, ``"close: ..."``, ``"wrong: ..."`` or ``"invalid: ..."`` for
    ``answer`` to problem ``key`` in variant ``seed`` (the instructor's side: the book's
    in-page check, for any variant)."""
    verdict, why = quiz.check(get(key, seed).numeric, answer)
    return f"{verdict}: {why}"


def apart(a: float, b: float, q: Numeric) -> bool:
    """Two answers that no check could confuse: different whole numbers for an exact
    answer, else more than two tolerances apart."""
    if q.exact:
        return a != b
    return abs(a - b) > 2 * q.tolerance * max(abs(a), abs(b))


@functools.cache
def variants(key: str, limit: int = 600) -> tuple[int, ...]:
    """The seeds of problem ``key``'s distinct variants, in order of discovery: each
    variant's answer is apart (:func:`apart`) from every other's, from the book's (seed 0)
    and from 1 (the placeholder a class types everywhere), so no published answer is ever
    right for a variant and no two variants share an answer. Searches seeds 1 to
    ``limit``."""
    book = get(key, 0).numeric
    found, answers = [], [book.answer, 1.0]
    for seed in range(1, limit + 1):
        a = get(key, seed).numeric.answer
        if all(apart(a, b, book) for b in answers):
            found.append(seed)
            answers.append(a)
    return tuple(found)


#: The practice exam: problems from every set, at a variant of their own (90 minutes)
EXAM = ("A1", "A5", "B2", "B4", "C4", "C5", "D1", "D4")
EXAM_SEED = 2026
EXAM_MINUTES = 90
