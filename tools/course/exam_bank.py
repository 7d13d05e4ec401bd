"""The exam bank: items for midterms and finals, and the draw (`make exam SEED=n`).

An item has one or more parts. A *numeric* part is a problem of the sets (its statement
and givens, in an exam variant of its own: never the book's published numbers), checked
like the problem. A *short* part asks for an explanation in a few sentences and carries a
rubric (criteria with points): what a full answer must say, from the chapter that teaches
it. Items are multi-part problems (a computation, then what it means), two-problem
challenges, and conceptual questions; difficulty labels as in the problem sets.

:func:`draw` picks, for a seed, a **midterm** (Chapters 1-4) and a **final** (all
chapters) with at least one challenging item each and every chapter pair of the final
covered; :func:`paper` is the student's paper (no answers), :func:`key` the instructor's
(answers, tolerances, rubrics), which ``make instructor SEED=n`` puts into the instructor
edition only (:func:`keys_markdown`). Instructor-only: outside ``interlib``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from interlib.book.answers import fmt

from . import problems

DIFFICULTIES = problems.DIFFICULTIES


@dataclass(frozen=True)
class Part:
    """A part of an item: ``problem`` (a problem key, numeric) or ``prompt`` with a
    ``rubric`` of ``(criterion, points)`` (short answer)."""

    problem: str | None = None
    prompt: str | None = None
    rubric: tuple = ()

    @property
    def points(self) -> int:
        if self.problem:
            return {"warm-up": 2, "standard": 3, "challenging": 4}[
                problems.get(self.problem).difficulty]
        return sum(p for _, p in self.rubric)


@dataclass(frozen=True)
class Item:
    """An exam item: its id, title, chapters, difficulty and parts."""

    id: str
    title: str
    chapters: tuple
    difficulty: str
    parts: tuple

    @property
    def points(self) -> int:
        return sum(p.points for p in self.parts)

    @property
    def kind(self) -> str:
        kinds = {"numeric" if p.problem else "short" for p in self.parts}
        return "multi-part" if len(self.parts) > 1 else kinds.pop()


def _short(prompt: str, *rubric) -> Part:
    return Part(prompt=prompt, rubric=tuple(rubric))


def _num(key: str) -> Part:
    return Part(problem=key)


# What each problem means, asked after it is computed (part b of the multi-part items).
FOLLOW = {
    "A1": _short("Which term of the ring all-reduce's time dominates here, and what would "
                 "change it most: more GPUs, or a faster link?",
                 ("names the bandwidth term 2(n − 1)/n × S ÷ B as dominant over 2(n − 1)α", 1),
                 ("more GPUs barely change it: 2(n − 1)/n approaches 2", 1),
                 ("a faster link (or fewer bytes) divides it in proportion", 1)),
    "A2": _short("Why does a synchronous job slow down as it grows even when no GPU is "
                 "slower on average?",
                 ("every step waits for the slowest GPU (the maximum, not the mean)", 1),
                 ("the expected maximum of n noisy step times grows with n", 1),
                 ("so jitter that is harmless on one GPU costs time at scale", 1)),
    "A3": _short("Why does loading get no faster past a point when more GPUs share one PCIe "
                 "switch?",
                 ("the switch's one uplink to the CPU is shared by its GPUs", 1),
                 ("each gets B ÷ k, so the uplink, not the GPU's own link, is the bottleneck", 1),
                 ("more GPUs per switch means less each; the total stays the uplink's rate", 1)),
    "A4": _short("FSDP sends more bytes per step than plain data parallelism. What does it "
                 "buy with them?",
                 ("each GPU keeps only 1/n of parameters, gradients and optimiser state", 1),
                 ("memory per GPU falls, so larger models fit", 1),
                 ("the price: the parameters are gathered again for the forward and the "
                  "backward pass (1.5× the bytes)", 1)),
    "A5": _short("Why is a mixture-of-experts layer's all-to-all harder on the network than "
                 "a data-parallel all-reduce of the same size?",
                 ("it runs inside every MoE layer, forward and backward, on the critical path", 1),
                 ("every GPU sends to every other: it crosses the slowest links of the group", 1),
                 ("it cannot be overlapped as easily as the gradient all-reduce", 1)),
    "A6": _short("Why does the usable rate differ from lanes × transfer rate, and by how "
                 "much for PCIe 6.0 compared with 5.0?",
                 ("line coding / FLIT framing spends part of the raw bits", 1),
                 ("128b/130b costs about 1.5 % (PCIe 3.0 to 5.0)", 1),
                 ("PCIe 6.0's FLIT mode has its own overhead, so its usable share differs", 1)),
    "A7": _short("What does the half-bandwidth size tell you about sending many small "
                 "messages?",
                 ("below it a copy spends more time in start-up latency than moving data", 1),
                 ("small messages should be batched or fused to reach the link's rate", 1),
                 ("the size grows with both α and B: faster links need larger messages", 1)),
    "B1": _short("Why is the headline NVLink figure the wrong one for this copy?",
                 ("the headline adds both directions; a copy uses one", 1),
                 ("the line rate is not what NCCL achieves: use the achieved rate", 1),
                 ("so the copy takes more than twice as long as headline ÷ size suggests", 1)),
    "B2": _short("What happens to this share if the GPU doubles its FLOP/s on the same "
                 "NVLink, and why?",
                 ("compute time halves while the all-reduce time stays", 1),
                 ("so the communication share grows", 1),
                 ("faster GPUs need faster links (or more overlap) to keep the same share", 1)),
    "B3": _short("A vendor page quotes a much larger figure for this system. Which figure is "
                 "it likely to be, and why is it not the bisection?",
                 ("the aggregate: every GPU's rate, both directions, added", 1),
                 ("the bisection counts only what crosses a cut between two halves", 1),
                 ("aggregate = 2 × bisection for a non-blocking switch", 1)),
    "B4": _short("Why can NVLS reach a bus bandwidth above the link rate, when a ring "
                 "cannot?",
                 ("the switch adds the buffers (multimem reduction in the switch)", 1),
                 ("each GPU sends its buffer about once, not 2(n − 1)/n times", 1),
                 ("busbw is computed with the ring's factor, so it can exceed the link rate", 1)),
    "B5": _short("Why does a full mesh stop scaling, and what does a switch change?",
                 ("a GPU's links are split over n − 1 peers, so each pair gets less", 1),
                 ("links per GPU are fixed by the chip", 1),
                 ("a switch gives every pair the GPU's full rate (non-blocking)", 1)),
    "B6": _short("Which cut of a non-blocking switched box is the worst, and why?",
                 ("the balanced cut (n/2 | n/2), the bisection", 1),
                 ("a cut's rate is set by its smaller side", 1),
                 ("unbalanced cuts have fewer GPUs on the small side but are not limiting", 1)),
    "C1": _short("What happens if the receive buffer is half this size?",
                 ("credits run out before the first returns", 1),
                 ("the sender stalls for part of every round trip", 1),
                 ("throughput falls to about half the port rate (buffer ÷ round trip)", 1)),
    "C2": _short("What does oversubscription buy and what does it cost?",
                 ("more host ports per leaf: more hosts per switch, fewer spines and cables", 1),
                 ("less bandwidth leaves a leaf: bisection drops to up ÷ down", 1),
                 ("fine for traffic that stays under a leaf (rails), bad for all-to-all", 1)),
    "C3": _short("Why do rare drops matter so much for a large training job on RoCE?",
                 ("the step needs every packet: one drop stalls the collective", 1),
                 ("with m·N packets per step, at least one drop becomes likely", 1),
                 ("go-back-N recovery and timeouts make each drop expensive", 1)),
    "C4": _short("Which MTU would you choose for bulk RDMA transfers, and what limits it?",
                 ("the largest the fabric supports (4096 B for RoCE)", 1),
                 ("per-packet headers then cost the smallest share", 1),
                 ("all switches and NICs on the path must agree on it", 1)),
    "C5": _short("Name two ways the book describes to make this transfer closer to the "
                 "balanced time.",
                 ("more queue pairs per connection (the hash spreads smaller shares)", 1),
                 ("hashing on the queue-pair field (enhanced ECMP) or adaptive routing", 1),
                 ("packet spraying with a transport that tolerates reordering", 1)),
    "C6": _short("What does a dragonfly give up compared with a fat tree of the same hosts?",
                 ("global bandwidth: one (or few) links between two groups", 1),
                 ("needs non-minimal, adaptive routing (Valiant/UGAL) under adversarial traffic", 1),
                 ("in exchange for fewer long cables and fewer hops", 1)),
    "C7": _short("Which traffic of a training job would you keep under one leaf, and why?",
                 ("the traffic between GPUs of one rail / one leaf never crosses the spine", 1),
                 ("so it does not feel the leaf's oversubscription", 1),
                 ("place jobs (and NCCL rings) so the heavy phases stay under leaves", 1)),
    "D1": _short("Why does this layout keep TP inside a server?",
                 ("TP all-reduces run in every layer, on the critical path", 1),
                 ("NVLink inside the server is an order of magnitude faster than the NIC", 1),
                 ("across servers the same traffic would take many times longer", 1)),
    "D2": _short("What would you compare this dollar figure with before buying a faster "
                 "network?",
                 ("the network's price (switches, optics, NICs)", 1),
                 ("how much of the waiting a faster network would actually remove", 1),
                 ("over the cluster's life, not one job", 1)),
    "D3": _short("Which parallelism can cross this spine with least harm, and which should "
                 "not?",
                 ("data parallelism: once per step, overlappable", 1),
                 ("not tensor parallelism (every layer, latency-critical)", 1),
                 ("pipeline sends are small but frequent: keep them below the spine if possible", 1)),
    "D4": _short("How does the checkpoint interval change if the cluster doubles, and what "
                 "does that mean for the time lost?",
                 ("MTBI halves, so τ falls by √2", 1),
                 ("checkpoints are written more often: more time writing them", 1),
                 ("and more recomputation after each failure: the lost fraction grows", 1)),
    "D5": _short("Why does a larger job see interruptions so much more often?",
                 ("each GPU (and its host, links) fails independently", 1),
                 ("rates add: N GPUs fail N times as often", 1),
                 ("one failure stops the whole synchronous job", 1)),
    "D6": _short("Why do TP and PP shrink the data-parallel traffic per GPU?",
                 ("each GPU holds only 1/(TP × PP) of the parameters", 1),
                 ("so its gradient shard is that much smaller", 1),
                 ("the DP all-reduce runs over the replicas of that shard only", 1)),
    "D7": _short("Why is one point of efficiency worth more on a larger or longer job?",
                 ("the bill scales with GPUs × hours", 1),
                 ("a point is a fixed share of the bill", 1),
                 ("so the same improvement saves more dollars at scale", 1)),
}

# Conceptual items (short answers with rubrics), by chapter.
CONCEPTS = [
    ("Why GPUs must exchange data every step", (1,), "warm-up",
     "Explain why synchronous data-parallel training must communicate every step, and what "
     "is communicated.",
     (("each GPU computes gradients on its own data", 1),
      ("the gradients are averaged (all-reduce) before the optimiser step", 1),
      ("so every replica keeps the same parameters", 1))),
    ("algbw and busbw", (1,), "standard",
     "nccl-tests prints algbw and busbw. Say what each measures and why busbw is the one to "
     "compare with a link's rate.",
     (("algbw = size ÷ time, what the application sees", 1),
      ("busbw = algbw × the algorithm's factor (2(n − 1)/n for all-reduce)", 1),
      ("busbw is independent of n for a ring and comparable with the link rate", 1))),
    ("Raw, usable, achieved, headline", (2,), "warm-up",
     "PCIe 5.0 x16 has four different bandwidth figures. Name them in order and say what "
     "separates each from the next.",
     (("raw: transfers/s × lanes (per direction)", 1),
      ("usable: after line coding", 1),
      ("achieved: what measured copies reach (protocol overhead)", 1),
      ("headline: both directions added", 1))),
    ("Where the NIC sits", (2,), "standard",
     "Why does a GPU server put each NIC under the same PCIe switch as its GPU?",
     (("GPUDirect RDMA moves data GPU ↔ NIC without the CPU", 1),
      ("the peer-to-peer path then stays under one switch, off the root complex", 1),
      ("so it does not share the CPU uplink or cross sockets", 1))),
    ("Per direction", (3,), "warm-up",
     "A colleague divides 900 GB/s into a 90 GB copy and expects 0.1 s. What two "
     "corrections does the estimate need?",
     (("900 GB/s adds both directions; a copy uses one (450 GB/s)", 1),
      ("use the achieved rate, below the line rate", 1),
      ("so the copy takes more than twice as long", 1))),
    ("Copy engines or SMs", (3,), "challenging",
     "NCCL can move bytes with the GPU's SMs rather than its copy engines. What does each "
     "choice cost and gain?",
     (("copy engines free the SMs for compute", 1),
      ("SM-driven copies can reduce data on the way and reach higher rates for collectives", 1),
      ("but take SMs from the model's kernels", 1),
      ("small transfers pay fixed costs either way", 1))),
    ("Aggregate vs bisection", (4,), "warm-up",
     "Define a switch's aggregate and its bisection bandwidth, and say which one bounds an "
     "all-to-all.",
     (("aggregate: every port's rate added (often both directions)", 1),
      ("bisection: the rate across the worst cut into two halves", 1),
      ("all-to-all sends half its data across any cut: the bisection bounds it", 1))),
    ("When NCCL uses NVLS", (4,), "challenging",
     "NVLS all-reduce is not always faster than the ring. When does NCCL choose it, and "
     "when does the ring win?",
     (("NVLS for large messages inside an NVSwitch domain with multicast support", 1),
      ("its fixed latency loses to the ring for small messages", 1),
      ("limits on how many GPUs (its arity) and on other collectives", 1),
      ("the choice is NCCL's tuner model per size", 1))),
    ("RDMA", (5,), "warm-up",
     "What does RDMA remove from the data path compared with TCP sockets?",
     (("the kernel network stack and its copies", 1),
      ("the CPU on the receiving side (one-sided, NIC to memory)", 1),
      ("so latency and CPU cost fall", 1))),
    ("Credit flow control", (5,), "standard",
     "How does InfiniBand's credit-based flow control avoid dropping packets, and what does "
     "it need from the receiver's buffer?",
     (("the sender sends only when it holds credits for buffer space", 1),
      ("credits return as the receiver frees space", 1),
      ("the buffer must cover a round trip at the port rate (bandwidth-delay product)", 1))),
    ("Why rails", (5,), "challenging",
     "Explain rail-optimised wiring and why it suits NCCL's hierarchical all-reduce.",
     (("NIC r of every node connects to leaf r", 1),
      ("the inter-node phase runs between same-rank GPUs, so it stays under one leaf", 1),
      ("fewer spine crossings and hops", 1),
      ("NVLink inside the node does the rest of the exchange", 1))),
    ("PFC pause storms", (6,), "challenging",
     "How can PFC pause frames spread through a fabric, and what does the watchdog trade?",
     (("a congested port pauses its upstream link per priority", 1),
      ("paused switches fill and pause their own upstream: the pause spreads (tree)", 1),
      ("innocent flows sharing the paused links stop too (head-of-line)", 1),
      ("the watchdog drops/stops honouring pauses after a time: stops the storm, loses "
       "losslessness", 1))),
    ("ECN and DCQCN", (6,), "standard",
     "How do ECN marking and DCQCN slow senders before a buffer fills?",
     (("switches mark packets when a queue passes a threshold", 1),
      ("receivers send congestion notification packets (CNPs)", 1),
      ("the sender cuts its rate multiplicatively and recovers gradually", 1))),
    ("InfiniBand or RoCE", (6,), "challenging",
     "A team must choose InfiniBand or RoCEv2 for a 4,000-GPU training cluster. Give two "
     "technical arguments on each side that the book supports.",
     (("IB: lossless credits, subnet manager routing, adaptive routing, SHARP", 1),
      ("RoCE: Ethernet ecosystem, operations skills, multi-vendor", 1),
      ("RoCE needs PFC/ECN tuning or a transport that tolerates loss", 1),
      ("latency comparisons alone do not decide it (claim e)", 1))),
    ("The steepest rung", (7,), "warm-up",
     "On the per-GPU bandwidth ladder (HBM, NVLink, PCIe, NIC, spine), where is the "
     "steepest step, and what follows for placing parallelism?",
     (("between NVLink and the NIC (scale-up to scale-out)", 1),
      ("TP stays inside the NVLink domain", 1),
      ("PP and DP cross the network", 1))),
    ("72-GPU domains", (7,), "challenging",
     "What changes when the NVLink domain grows from 8 to 72 GPUs, for the layout of a "
     "large model?",
     (("TP (or EP) groups larger than 8 can stay on NVLink", 1),
      ("more of the all-to-all / TP traffic avoids the NIC", 1),
      ("the DP and PP traffic still crosses the network", 1),
      ("failure and cost domains grow with the rack", 1))),
    ("Faster GPUs, same network", (8,), "standard",
     "Why can a faster GPU lower the scaling efficiency of a job on the same network?",
     (("compute time per step falls", 1),
      ("communication time stays", 1),
      ("so the exposed share grows unless overlap hides it", 1))),
    ("Interference", (8,), "challenging",
     "Two jobs share a fabric. What does the book say happens to a training job's step "
     "time, and what helps?",
     (("shared links split bandwidth; queueing adds delay", 1),
      ("the synchronous job waits for its slowest flow", 1),
      ("isolation: placement, separate rails or traffic classes", 1),
      ("congestion control and adaptive routing reduce the tail", 1))),
]

# Two-problem challenges: a computation across chapters, then what it means.
COMBOS = [
    ("Sync across the ladder", (1, 2), ("A1", "A6"),
     _short("Compare the two results: what do they say about training over PCIe alone?",
            ("the gradient sync is bound by the PCIe rate computed in (b)", 1),
            ("bits and bytes: the NIC-style Gb/s figure must be divided by 8", 1),
            ("NVLink or a network at a higher rate is needed for large models", 1))),
    ("A box and its cuts", (4,), ("B3", "B6"),
     _short("Why is the bisection the right figure for an all-to-all inside the box, and "
            "the uneven cut not?",
            ("all-to-all sends half its data across the balanced cut", 1),
            ("the bisection is the smallest balanced cut", 1),
            ("an uneven cut limits only traffic between those groups", 1))),
    ("Credits and drops", (5, 6), ("C1", "C3"),
     _short("InfiniBand avoids the drops of (b) with the buffers of (a). What does RoCE use "
            "instead, and what does it cost?",
            ("PFC pause frames (lossless Ethernet)", 1),
            ("headroom buffers per priority, like credits", 1),
            ("pause spreading and head-of-line blocking (storms)", 1))),
    ("Headers and hashes", (6,), ("C4", "C5"),
     _short("Which of the two losses would you fix first on a RoCE fabric for a training "
            "job, and why?",
            ("the ECMP imbalance can double a step's transfer time", 1),
            ("header overhead is a few percent at most with a large MTU", 1),
            ("fix the hashing (more QPs, QP-aware hashing) first", 1))),
    ("Layout and failures", (7, 8), ("D6", "D5"),
     _short("A larger DP degree lowers each GPU's share of nothing here but adds GPUs. What "
            "does it do to the job's interruptions and to its DP traffic?",
            ("DP bytes per GPU barely change with DP (2(DP − 1)/DP)", 1),
            ("more GPUs mean proportionally more interruptions", 1),
            ("so larger jobs need cheaper checkpoints and restarts", 1))),
    ("What waiting costs", (8,), ("D2", "D7"),
     _short("Relate the two figures: how many points of efficiency is the waiting worth?",
            ("the waiting fraction × 100 is its size in points", 1),
            ("each point is worth the amount of (b) for that job", 1),
            ("so removing waiting pays in proportion to job size", 1))),
]


def _chapters_of(keys) -> tuple:
    out = set()
    for k in keys:
        out.add(int(problems.get(k).section.split()[1].rstrip(",")))
    return tuple(sorted(out))


def bank() -> tuple[Item, ...]:
    """Every item of the bank, with stable ids (E01 ...)."""
    items = []
    for keys in problems.SETS.values():
        for k in keys:
            p = problems.get(k)
            diff = p.difficulty
            items.append(("problem", f"{p.title}", _chapters_of([k]), diff,
                          (_num(k), FOLLOW[k])))
    for title, chapters, diff, prompt, rubric in CONCEPTS:
        items.append(("concept", title, chapters, diff, (_short(prompt, *rubric),)))
    for title, chapters, (k1, k2), follow in COMBOS:
        items.append(("combo", title, chapters, "challenging", (_num(k1), _num(k2), follow)))
    return tuple(Item(f"E{i:02d}", t, ch, d, parts)
                 for i, (_, t, ch, d, parts) in enumerate(items, 1))


def item(item_id: str) -> Item:
    for it in bank():
        if it.id == item_id:
            return it
    raise ValueError(f"item_id={item_id!r} is not in the bank (E01 to E{len(bank()):02d})")


#: What each exam draws: chapters, items, and at least this many challenging / short
EXAMS = {"midterm": dict(chapters=(1, 2, 3, 4), items=6, challenging=1, short=2, minutes=75),
         "final": dict(chapters=(1, 2, 3, 4, 5, 6, 7, 8), items=10, challenging=2, short=3,
                       minutes=150)}


def exam_seed(seed: int, key: str) -> int:
    """The problem seed of ``key`` in the exams drawn with ``seed``: one of its distinct
    variants (never the book's published numbers)."""
    return random.Random(f"exam/{seed}/{key}").choice(problems.variants(key))


def draw(seed: int) -> dict[str, tuple[Item, ...]]:
    """The midterm and the final for ``seed`` (module docstring). No item is in both."""
    rng = random.Random(f"exams/{seed}")
    used: set[str] = set()
    out = {}
    for name, rule in EXAMS.items():
        pool = [it for it in bank() if set(it.chapters) <= set(rule["chapters"])
                and it.id not in used]
        for _ in range(10_000):
            pick = rng.sample(pool, rule["items"])
            chal = sum(it.difficulty == "challenging" for it in pick)
            short = sum(it.kind == "short" for it in pick)
            pairs = {(c + 1) // 2 for it in pick for c in it.chapters}
            if chal >= rule["challenging"] and short >= rule["short"] and \
                    pairs >= {(c + 1) // 2 for c in rule["chapters"]}:
                break
        else:  # pragma: no cover - the bank is large enough (tests/test_exam.py)
            raise RuntimeError(f"no {name} satisfies its rule")
        pick.sort(key=lambda it: (min(it.chapters), it.id))
        used |= {it.id for it in pick}
        out[name] = tuple(pick)
    return out


def _part_text(part: Part, seed: int, letter: str) -> str:
    if part.problem:
        p = problems.get(part.problem, exam_seed(seed, part.problem))
        unit = f" (answer in {p.numeric.unit})" if p.numeric.unit else ""
        return f"**({letter})** [{part.points} points]{unit} {p.statement}"
    return f"**({letter})** [{part.points} points] {part.prompt} *(a few sentences)*"


def paper(name: str, seed: int) -> str:
    """The student's paper (Markdown): statements, givens, points; no answers."""
    items = draw(seed)[name]
    rule = EXAMS[name]
    total = sum(it.points for it in items)
    out = [f"# {name.capitalize()} (seed {seed})", "",
           "Name: ______________________________   Student id: ____________________", "",
           f"*{len(items)} items, {total} points, {rule['minutes']} minutes, on paper; a "
           "calculator is allowed. Give every number with its unit.*", ""]
    for i, it in enumerate(items, 1):
        out += [f"## {i}. {it.title} ({it.difficulty}, {it.points} points)", ""]
        for j, part in enumerate(it.parts):
            out += [_part_text(part, seed, "abc"[j]), ""]
    return "\n".join(out).rstrip() + "\n"


def key(name: str, seed: int) -> str:
    """The instructor's key (Markdown): answers with what is accepted, and rubrics."""
    items = draw(seed)[name]
    out = [f"### {name.capitalize()} (seed {seed}): key", ""]
    for i, it in enumerate(items, 1):
        out += [f"**{i}. {it.title}** ({it.id}, {it.difficulty}, {it.points} points)", ""]
        for j, part in enumerate(it.parts):
            letter = "abc"[j]
            if part.problem:
                sd = exam_seed(seed, part.problem)
                q = problems.get(part.problem, sd).numeric
                acc = "exactly" if q.exact else f"within {fmt(q.tolerance * 100)} %"
                out.append(f"- ({letter}) {fmt(q.answer)} {q.unit} ({acc}; problem "
                           f"{part.problem}, variant {sd}): {q.explanation}")
            else:
                crit = "; ".join(f"{c} ({p})" for c, p in part.rubric)
                out.append(f"- ({letter}) rubric, {part.points} points: {crit}")
        out.append("")
    return "\n".join(out)


def keys_markdown(seed: int) -> str:
    """Both exams' keys, for the instructor edition (``make instructor SEED=n``)."""
    return ("## Exams: keys\n\nThe midterm and the final that `make exam SEED="
            f"{seed}` draws from the exam bank ({len(bank())} items), with every answer, "
            "what is accepted and the rubric of each short answer.\n\n"
            + key("midterm", seed) + "\n" + key("final", seed))
