"""Fresh problems for the problem sets (issue 27 item 6): topics the chapters' own
exercises leave out (FSDP, MoE all-to-all, message-size regimes, rates in Gb/s, NVLS
bytes, cuts of a switch, RoCE headers, hash collisions on ECMP uplinks, dragonflies, the
bisection of a tapered fabric, failures and checkpoints, the price of an efficiency point).
Each is solvable on paper from its printed givens with a method its named section teaches;
each answer is computed by ``interlib``; each takes a seed like the others.
Instructor-only, like :mod:`problems` (which registers these builders, sets A to D).
"""

from __future__ import annotations

import math

from interlib import display as D
from interlib.book.quiz import Numeric
from interlib.book.worked import Derivation
from interlib.units import GB, GB_per_s, Gbit_per_s, billion, hour, kB, minute, ms, day


def _g(x: float) -> str:
    return f"{x:g}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _sci(x: float) -> str:
    """A small rate to three significant figures as a person writes it: ``1.97 × 10⁻⁵``
    (``display.fmt_num`` keeps two)."""
    mant, exp = format(x, ".2e").split("e")
    mant = mant.rstrip("0").rstrip(".")
    return f"{mant} × 10{str(int(exp)).translate(_SUPERSCRIPT)}"


def _sec(chapter: int, title: str) -> str:
    """How a statement names the section that teaches its method."""
    return f"Chapter {chapter}, \u201c{title}\u201d"


def _answer(name, answer, unit, tolerance, explanation, mistakes=(), *, low, high,
            exact=False) -> Numeric:
    """A problem's answer check, the one shape every problem here and in :mod:`problems`
    uses: a :class:`~interlib.book.quiz.Numeric` whose hints say what to look at when an
    answer is too low (``low``) or too high (``high``): one phrase each, shown after "Too
    low:" / "Too high:". A hint names no unit slip (bits, prefixes, directions): the checker
    names those only when the answer is off by that slip's factor. ``mistakes`` are
    ``(value, why)`` pairs in ``unit``; ``exact`` marks a whole-number answer (a count, a
    threshold)."""
    return Numeric(name, answer, unit, tolerance, explanation, tuple(mistakes), low, high,
                   exact=exact)


def _solution(title, givens, formula, steps, call, ours, theirs, fmt) -> Derivation:
    d = Derivation(title)
    for g in givens:
        d.given(g)
    d.formula(formula)
    for s in steps:
        d.step(s)
    d.check(call, ours, theirs, fmt)
    return d


# ------------------------------------------------------------------ set A: Chapters 1-2
def a4_fsdp(V):
    from interlib import collectives

    p = V.pick(70, (7, 8, 13, 34, 40, 70, 141, 180, 405)) * billion
    n = V.pick(64, (16, 32, 64, 128))
    S = p * 2
    ag = float(collectives.wire_bytes_per_rank("all_gather", S, n))
    rs = float(collectives.wire_bytes_per_rank("reduce_scatter", S, n))
    total = 2 * ag + rs
    dp = float(collectives.wire_bytes_per_rank("all_reduce", S, n))
    givens = (f"P = {p / billion:g} billion parameters in bf16 (2 B each), n = {n} GPUs",
              "FSDP (ZeRO-3) per step: all-gather the parameters for the forward pass, "
              "again for the backward pass, and reduce-scatter the gradients",
              "an all-gather or a reduce-scatter of S bytes: each GPU sends (n − 1)/n × S")
    sol = _solution(
        "FSDP's bytes per GPU per step", givens,
        "bytes = 2 × (n − 1)/n × S (two all-gathers) + (n − 1)/n × S (one reduce-scatter)",
        [f"S = {p / billion:g} × 10⁹ × 2 B = {D.fmt_bytes(S)}",
         f"(n − 1)/n × S = {n - 1}/{n} × {D.fmt_bytes(S)} = {D.fmt_bytes(ag, digits=4)}",
         f"3 × {D.fmt_bytes(ag, digits=4)} = **{D.fmt_bytes(total, digits=4)}**, "
         f"{total / dp:.3g}× plain data parallelism's {D.fmt_bytes(dp, digits=4)}"],
        "2 × wire_bytes_per_rank('all_gather') + wire_bytes_per_rank('reduce_scatter')",
        3 * (n - 1) / n * S, total, D.fmt_bytes)
    return dict(
        section=_sec(1, "What real jobs add: sharding, experts and overlap"),
        title="What full sharding sends", difficulty="standard",
        question=("A model trains with fully sharded data parallelism (FSDP, ZeRO-3) over "
                  f"{n} GPUs. How many gigabytes does each GPU send per step?"),
        givens=givens,
        numeric=_answer("bytes per GPU per step", total / GB, "GB", 0.02,
                        "3 × (n − 1)/n × S: two all-gathers of the parameters and one "
                        "reduce-scatter of the gradients.",
                        ((dp / GB, "that is plain data parallelism's all-reduce, "
                          "2(n − 1)/n × S; FSDP gathers the parameters twice more."),
                         (ag / GB, "that is one all-gather; a step has two of them and a "
                          "reduce-scatter.")),
                        low="count both all-gathers (forward and backward) and the "
                            "reduce-scatter.",
                        high="each collective sends (n − 1)/n of S, not S per peer."),
        solution=sol)


def a5_moe(V):
    from interlib import collectives

    tokens = V.pick(8192, (4096, 8192, 16384))
    h = V.pick(4096, (4096, 5120, 7168))
    k = V.pick(2, (1, 2, 8))
    n = V.pick(8, (8, 16, 32))
    bw = 48 * GB_per_s
    S = tokens * h * 2 * k
    one = float(collectives.wire_bytes_per_rank("all_to_all", S, n))
    t = 2 * one / bw
    givens = (f"{tokens:,} tokens per GPU per micro-batch, width h = {h:,}, bf16 (2 B), each "
              f"token routed to its top-{k} experts",
              f"experts spread over n = {n} GPUs (expert parallelism); routing is uniform",
              f"each GPU's network rate: {D.fmt_rate(bw)} per direction (achieved)",
              "an all-to-all of S bytes per GPU: each GPU sends (n − 1)/n × S (the rest "
              "stays local)")
    sol = _solution(
        "MoE dispatch and combine", givens,
        "S = tokens × h × 2 B × k;  per layer: two all-to-alls (dispatch, combine);  "
        "t = 2 × (n − 1)/n × S ÷ B",
        [f"S = {tokens:,} × {h:,} × 2 B × {k} = {D.fmt_bytes(S)}",
         f"(n − 1)/n × S = {n - 1}/{n} × {D.fmt_bytes(S)} = {D.fmt_bytes(one)}",
         f"t = 2 × {D.fmt_bytes(one)} ÷ {D.fmt_rate(bw)} = **{D.fmt_time(t)}**"],
        "2 × collectives.wire_bytes_per_rank('all_to_all', S, n) / B",
        2 * (n - 1) / n * S / bw, t, D.fmt_time)
    return dict(
        section=_sec(1, "What real jobs add: sharding, experts and overlap"),
        title="A mixture-of-experts layer's all-to-alls", difficulty="standard",
        question=("A mixture-of-experts layer sends each token's activation to the GPUs "
                  "holding its experts (dispatch) and brings the results back (combine). "
                  "How long do one layer's two all-to-alls take per micro-batch, in ms, if "
                  "nothing overlaps them?"),
        givens=givens,
        numeric=_answer("all-to-all time per layer", t / ms, "ms", 0.03,
                        "2 × (n − 1)/n × tokens × h × 2 B × k ÷ B.",
                        ((t / 2 / ms, "a layer has two all-to-alls: dispatch and combine."),
                         (t / k / ms, f"each token goes to its top-{k} experts: multiply "
                          "by k.")),
                        low="two all-to-alls per layer, and each token is sent to k "
                            "experts.",
                        high="1/n of the tokens stays on the GPU; only (n − 1)/n "
                             "crosses the network."),
        solution=sol)


def a6_pcie_gbits(V):
    from interlib import pcie

    gen = V.pick("5.0", ("3.0", "4.0", "5.0", "6.0"))
    lanes = V.pick(16, (1, 2, 4, 8, 16))
    raw = pcie.link_bandwidth(gen, lanes, "raw")
    usable = pcie.link_bandwidth(gen, lanes, "usable")
    from interlib.specs import pcie as pcie_spec

    g = pcie_spec(gen)
    givens = (f"PCIe {gen}: {D.fmt_si(g.transfer_rate.value, 'T/s')} per lane, "
              f"{g.encoding} line coding (efficiency {g.encoding_efficiency.value:.6g})",
              f"x{lanes}: {lanes} lanes")
    sol = _solution(
        f"PCIe {gen} x{lanes} in Gb/s", givens,
        "usable = transfers/s × lanes × bits per transfer × coding efficiency",
        [f"raw = {D.fmt_si(g.transfer_rate.value, 'T/s')} × {lanes} = "
         f"{_g(raw / Gbit_per_s)} Gb/s per direction",
         f"usable = {_g(raw / Gbit_per_s)} × {g.encoding_efficiency.value:.6g} = "
         f"**{usable / Gbit_per_s:.4g} Gb/s** ({D.fmt_rate(usable)})"],
        f'pcie.link_bandwidth("{gen}", {lanes}, "usable")', raw * g.encoding_efficiency.value,
        usable, lambda x: f"{x / Gbit_per_s:.4g} Gb/s")
    return dict(
        section=_sec(2, "Lanes, transfers and line coding"),
        title="A PCIe link in network units", difficulty="warm-up",
        question=(f"A NIC vendor quotes rates in Gb/s. What usable rate, per direction, does "
                  f"a PCIe {gen} x{lanes} slot give it, in Gb/s (after line coding)?"),
        givens=givens,
        numeric=_answer("usable rate", usable / Gbit_per_s, "Gb/s", 0.01,
                        "transfers/s × lanes × coding efficiency (one bit per transfer).",
                        ((raw / Gbit_per_s, "that is the raw signalling rate; line coding "
                          "takes its share first."),
                         (2 * usable / Gbit_per_s, "that adds both directions; the question "
                          "asks for one.")),
                        low="one bit per transfer per lane, times every lane.",
                        high="take line coding's share off the raw rate."),
        solution=sol)


def a7_half_bandwidth(V):
    from interlib import pcie, transfer

    gen = V.pick("5.0", ("3.0", "4.0", "5.0", "6.0"))
    lanes = V.pick(16, (1, 2, 4, 8, 16))
    B = pcie.link_bandwidth(gen, lanes)
    a = pcie.LATENCY.value
    n_half = float(transfer.half_bandwidth_size(B, a))
    givens = (f"PCIe {gen} x{lanes}: achieved B = {D.fmt_rate(B, 4)} per direction, start-up "
              f"α = {D.fmt_time(a)}",
              "t(S) = α + S ÷ B; effective bandwidth = S ÷ t(S)")
    sol = _solution(
        "Where a copy reaches half its bandwidth", givens,
        "S ÷ (α + S/B) = B/2  ⇔  S = α × B",
        [f"S½ = {D.fmt_time(a)} × {D.fmt_rate(B, 4)} = **{D.fmt_bytes(n_half, digits=4)}**"],
        "transfer.half_bandwidth_size(B, α)", a * B, n_half, D.fmt_bytes)
    return dict(
        section=_sec(2, "Theory vs measurement"),
        title="Small copies and the latency regime", difficulty="standard",
        question=(f"From what message size does a host-to-GPU copy over PCIe {gen} x{lanes} reach "
                  "half of its achieved bandwidth? Answer in kB."),
        givens=givens,
        numeric=_answer("half-bandwidth size", n_half / kB, "kB", 0.03,
                        "S½ = α × B: at that size the latency and the transfer take equal "
                        "time.",
                        ((n_half / 2 / kB, "at α·B/2 the latency still takes two thirds of "
                          "the time; set S ÷ (α + S/B) = B/2."),),
                        low="solve S ÷ (α + S/B) = B/2 for S.",
                        high="S½ = α × B, with α in seconds and B in bytes per second."),
        solution=sol)


# ------------------------------------------------------------------ set B: Chapters 3-4
def b4_nvls_bytes(V):
    s = V.pick(8, (2, 4, 8, 16)) * GB
    n = V.pick(8, (4, 8))
    nvls = s * (n + 1) / n
    ring = 2 * (n - 1) / n * s
    givens = (f"S = {D.fmt_bytes(s)} per GPU, n = {n} GPUs on one NVSwitch domain",
              "NVLS all-reduce with multimem: each GPU pushes its buffer into the switch, "
              "which reduces it, and stores its 1/n share of the sum with a multicast that "
              "the switch copies to every GPU")
    sol = _solution(
        "Bytes on one GPU's links in an NVLS all-reduce", givens,
        "out of each GPU: S (its buffer) + S/n (its multicast store) = S(n + 1)/n;  "
        "a ring would send 2(n − 1)/n × S",
        [f"S + S/n = {D.fmt_bytes(s)} + {D.fmt_bytes(s / n, digits=4)} = "
         f"**{D.fmt_bytes(nvls, digits=4)}**",
         f"ring: 2 × {n - 1}/{n} × {D.fmt_bytes(s)} = {D.fmt_bytes(ring, digits=4)}"],
        "S ÷ (algbw = B × n/(n + 1)) × B (nccl-tests PR #239's NVLS rate)",
        nvls, s / (n / (n + 1)), D.fmt_bytes)
    return dict(
        section=_sec(4, "Inside NVLS: multimem loads and stores"),
        title="What NVLS puts on a GPU's links", difficulty="standard",
        question=("In an NVLink SHARP (NVLS) all-reduce, how many gigabytes leave each GPU "
                  "over its NVLinks?"),
        givens=givens,
        numeric=_answer("bytes out of each GPU", nvls / GB, "GB", 0.02,
                        "S + S/n = S(n + 1)/n: the buffer once, plus the multicast store of "
                        "its share.",
                        ((ring / GB, "that is the ring's 2(n − 1)/n × S; with NVLS the "
                          "switch reduces."),
                         (s / GB, "the buffer once is not all: add the S/n multicast "
                          "store.")),
                        low="add the S/n each GPU stores with its multicast.",
                        high="the switch reduces, so each GPU sends its buffer once."),
        solution=sol)


def b5_mesh_pair(V):
    from interlib import nvswitch, specs

    n = V.pick(4, (2, 3, 4, 5, 6, 7))
    gen = V.pick(4, (3, 4, 5))
    nv = specs.nvlink(gen)
    links = int(nv.links_per_gpu.value)
    per_link = nv.per_gpu_per_direction / links
    pair = float(nvswitch.mesh_pair_bandwidth(n, gen))
    givens = (f"{nv.name}: {links} links per GPU, {D.fmt_rate(per_link)} per link per "
              "direction",
              f"a full mesh of n = {n} GPUs with no switch: each GPU splits its links "
              "evenly over its n − 1 peers (whole links)")
    sol = _solution(
        "One pair's bandwidth in a full mesh", givens,
        "links per pair = ⌊links ÷ (n − 1)⌋;  pair bandwidth = links per pair × per-link rate",
        [f"links per pair = ⌊{links} ÷ {n - 1}⌋ = {links // (n - 1)}",
         f"pair = {links // (n - 1)} × {D.fmt_rate(per_link)} = **{D.fmt_rate(pair)}**"],
        f"nvswitch.mesh_pair_bandwidth({n}, {gen})", links // (n - 1) * per_link, pair,
        D.fmt_rate)
    return dict(
        section=_sec(4, "The telephone exchange"),
        title="A switchless mesh", difficulty="warm-up",
        question=(f"{n} GPUs with {nv.name} are wired as a full mesh, with no NVSwitch. What "
                  "bandwidth per direction does one pair of GPUs get, in GB/s?"),
        givens=givens,
        numeric=_answer("pair bandwidth", pair / GB_per_s, "GB/s", 0.02,
                        "⌊links ÷ (n − 1)⌋ × per-link rate.",
                        ((nv.per_gpu_per_direction / GB_per_s, "that is the GPU's whole "
                          "NVLink bandwidth; in a mesh it is split over the n − 1 peers."),),
                        low="divide the links over n − 1 peers, not n.",
                        high="each peer gets only its share of the links."),
        solution=sol)


def b6_cut(V):
    from interlib import nvswitch, specs

    sid = V.pick("dgx-h100", ("dgx-h100", "dgx-b200", "gb200-nvl72"))
    s = specs.system(sid)
    n = s.gpus_per_node
    k = V.pick(3, (1, 2, 3, 5, 6, 7) if s.gpus_per_node <= 8 else (1, 2, 3, 5, 9, 12, 20))
    nv = specs.nvlink({"Hopper": 4, "Blackwell": 5}.get(s.gpu.arch, 4))
    cut = float(nvswitch.cut_bandwidth(n, k, nv.per_gpu_per_direction))
    givens = (f"{s.title}: n = {n} GPUs on non-blocking NVSwitches, each GPU "
              f"{D.fmt_rate(nv.per_gpu_per_direction)} per direction",)
    sol = _solution(
        "An unbalanced cut", givens,
        "cut bandwidth (per direction) = min(k, n − k) × per-GPU rate",
        [f"min({k}, {n - k}) × {D.fmt_rate(nv.per_gpu_per_direction)} = "
         f"**{D.fmt_rate(cut)}**"],
        f"nvswitch.cut_bandwidth({n}, {k}, per_gpu)", min(k, n - k) *
        nv.per_gpu_per_direction, cut, D.fmt_rate)
    return dict(
        section=_sec(4, "Aggregate vs bisection: a classic mix-up"),
        title="Cutting a switched box unevenly", difficulty="warm-up",
        question=(f"The GPUs of a {s.title} are split into a group of {k} and a group of "
                  f"{n - k}. What bandwidth crosses between the groups, per direction, in "
                  "TB/s?"),
        givens=givens,
        numeric=_answer("cut bandwidth", cut / 1e12, "TB/s", 0.02,
                        "min(k, n − k) × per-GPU rate: the smaller side's links limit it.",
                        ((n // 2 * nv.per_gpu_per_direction / 1e12, "that is the "
                          "bisection (n/2 each side); this cut is unbalanced."),),
                        low="every GPU of the smaller group sends at its full rate.",
                        high="the smaller group's links limit the cut."),
        solution=sol)


# ------------------------------------------------------------------ set C: Chapters 5-6
def c4_roce_goodput(V):
    from interlib import packets

    mtu = V.pick(1024, (1024, 2048, 4096))
    gbe = V.pick(400, (200, 400, 800))
    rate = gbe * Gbit_per_s
    lay = packets.packet_layout(mtu, "rocev2")
    gp = float(packets.goodput(rate, mtu, "rocev2"))
    over = lay.wire - mtu
    givens = (f"{gbe} GbE port; RoCEv2 payload {mtu} B per packet",
              "per packet on the wire: " + ", ".join(f"{n} {b} B" for n, b in lay.layers))
    sol = _solution(
        "RoCEv2 goodput", givens,
        "goodput = line rate × payload ÷ (payload + all per-packet bytes on the wire)",
        [f"per-packet overhead = {over} B; wire bytes = {mtu} + {over} = {lay.wire} B",
         f"goodput = {gbe} Gb/s × {mtu} ÷ {lay.wire} = **{gp / Gbit_per_s:.4g} Gb/s**"],
        f'packets.goodput({gbe} Gb/s, {mtu}, "rocev2")', rate * mtu / lay.wire, gp,
        lambda x: f"{x / Gbit_per_s:.4g} Gb/s")
    return dict(
        section=_sec(6, "What the packet carries"),
        title="What the headers cost on RoCEv2", difficulty="standard",
        question=(f"A {gbe} GbE RoCEv2 link carries a long transfer in {mtu}-byte payloads. "
                  "What goodput (payload bits per second) does it reach at most, in Gb/s?"),
        givens=givens,
        numeric=_answer("goodput", gp / Gbit_per_s, "Gb/s", 0.005,
                        "line rate × payload ÷ wire bytes per packet.",
                        ((float(rate * mtu / lay.frame) / Gbit_per_s, "the preamble and the "
                          "inter-frame gap occupy the wire too."),
                         (gbe * 1.0, "the headers take their share of the line rate.")),
                        low="the overhead is per packet, added to the payload once.",
                        high="count every per-packet byte on the wire, preamble and "
                             "gap included."),
        solution=sol)


def c5_ecmp(V):
    from interlib import transfer

    size = V.pick(4, (1, 2, 4, 8)) * GB
    gbs = V.pick(400, (200, 400, 800))
    qps, j = V.pick((1, 2), ((1, 2), (1, 3), (4, 6), (4, 7), (16, 21), (16, 24)))
    flows = paths = 8
    rate = gbs * Gbit_per_s
    t = float(transfer.transfer_time(j * size / qps, rate))
    alone = size / rate
    givens = (f"{flows} flows leave one leaf for {paths} equal uplinks of {gbs} Gb/s per "
              f"direction; each flow carries {D.fmt_bytes(size)}",
              f"each flow is split over {qps} queue pair{'s' if qps > 1 else ''} carrying equal "
              "shares; ECMP hashes every queue pair onto an uplink",
              f"in this placement the busiest uplink carries {j} queue pairs' shares; an uplink "
              "shares its rate equally among the shares on it, and the step waits for the "
              "last flow")
    sol = _solution(
        "The busiest uplink sets the step", givens,
        "t = (shares on the busiest uplink) × (S ÷ queue pairs per flow) ÷ uplink rate",
        [f"one share = {D.fmt_bytes(size)} ÷ {qps} = {D.fmt_bytes(size / qps, digits=4)}",
         f"the busiest uplink carries {j} × {D.fmt_bytes(size / qps, digits=4)} = "
         f"{D.fmt_bytes(j * size / qps, digits=4)}",
         f"{gbs} Gb/s = {D.fmt_rate(rate)}; t = {D.fmt_bytes(j * size / qps, digits=4)} ÷ "
         f"{D.fmt_rate(rate)} = **{D.fmt_time(t, 4)}**, against {D.fmt_time(alone, 4)} for one "
         "flow alone on its uplink"],
        f"transfer.transfer_time({j} × S ÷ {qps}, {gbs} Gb/s)", j * size / qps / rate, t,
        D.fmt_time)
    return dict(
        section=_sec(6, "ECMP, elephant flows and queue pairs"),
        title="The busiest uplink under ECMP", difficulty="standard",
        question=("ECMP has hashed a collective's flows onto the uplinks unevenly. How long "
                  "does the step's transfer take, in ms, until the last flow finishes?"),
        givens=givens,
        numeric=_answer("transfer time", t / ms, "ms", 0.03,
                        "t = (shares on the busiest uplink) × S ÷ (queue pairs per flow) ÷ rate.",
                        ((alone / ms, "that is one flow alone on its uplink: the busiest "
                          "uplink is shared by several shares."),
                         (flows * size / (paths * rate) / ms, "that is the perfectly balanced "
                          "placement; the step waits for the busiest uplink.")),
                        low="count every share on the busiest uplink, each S ÷ (queue pairs).",
                        high="each queue pair carries only its share of the flow."),
        solution=sol)


def c6_dragonfly(V):
    from interlib import topology

    k = V.pick(32, (16, 24, 36, 40, 48, 64, 128, 144))
    d = topology.balanced_dragonfly(k)
    givens = (f"switches of radix up to {k}; a balanced dragonfly: each switch has p hosts, "
              "h global links and a − 1 links to the other switches of its group, with "
              "a = 2p = 2h and p + (a − 1) + h ≤ radix",
              "groups are all connected to each other by one global link: groups = a·h + 1")
    sol = _solution(
        "A balanced dragonfly", givens,
        "largest p with p + (2p − 1) + p ≤ radix;  hosts = p × a × (a·h + 1)",
        [f"4p − 1 ≤ {k} → p = {d.p}, a = {d.a}, h = {d.h}",
         f"groups = {d.a} × {d.h} + 1 = {d.groups}",
         f"hosts = {d.p} × {d.a} × {d.groups} = **{d.hosts:,}**"],
        f"topology.balanced_dragonfly({k}).hosts", d.p * d.a * (d.a * d.h + 1), d.hosts,
        lambda x: f"{x:,}")
    return dict(
        section=_sec(5, "Topologies: how to wire thousands of nodes"),
        title="How far a dragonfly reaches", difficulty="challenging",
        question=("How many hosts does the largest balanced dragonfly of these switches "
                  "connect, with at most three switch-to-switch hops? (A whole number.)"),
        givens=givens,
        numeric=_answer("hosts", float(d.hosts), "hosts", 0.01,
                        "p × a × (a·h + 1) with a = 2p = 2h.",
                        ((float(d.p * d.a * d.a * d.h), "add the group itself: groups = "
                          "a·h + 1."),),
                        low="every group connects to a·h others, so there are a·h + 1 "
                            "groups.",
                        high="p + (a − 1) + h must fit in the radix.", exact=True),
        solution=sol)


def c7_torus(V):
    from interlib import topology

    k, r = V.pick((64, 3), ((64, 3), (128, 3), (144, 2), (144, 3)))
    gbs = V.pick(400, (200, 400, 800))
    rate = gbs * Gbit_per_s
    n = topology.max_hosts(k, 2, r)
    ft = topology.fat_tree(n, k, r, rate)
    down = k * r // (r + 1)
    full = n / 2 * rate
    givens = (f"a two-tier fat tree of {k}-port switches: {n:,} hosts, one {gbs} Gb/s link "
              "each (per direction)",
              f"each leaf uses {down} ports for hosts and {k - down} up to the spines "
              f"(oversubscribed {r}:1); the spine tier itself is non-blocking")
    sol = _solution(
        "The bisection of a tapered fabric", givens,
        "non-blocking bisection = hosts/2 × link rate (per direction); a leaf passes only "
        "up ÷ down of its hosts' rate, so a tapered fabric keeps that share",
        [f"full = {n:,}/2 × {D.fmt_rate(rate)} = {D.fmt_rate(full)}",
         f"share kept = {k - down}/{down} = 1/{r}",
         f"bisection = {D.fmt_rate(full)} ÷ {r} = **{D.fmt_rate(ft.bisection_per_direction)}** "
         "per direction"],
        f"topology.fat_tree({n}, {k}, {r}, {gbs} Gb/s).bisection_per_direction",
        full / r, ft.bisection_per_direction, D.fmt_rate)
    return dict(
        section=_sec(5, "Topologies: how to wire thousands of nodes"),
        title="Cutting a tapered fabric in half", difficulty="standard",
        question=("What bisection bandwidth does this fabric keep, per direction, in TB/s "
                  "(the rate at which one half of the hosts can send to the other half)?"),
        givens=givens,
        numeric=_answer("bisection per direction", ft.bisection_per_direction / 1e12,
                        "TB/s", 0.02,
                        "hosts/2 × link rate × up ÷ down.",
                        ((full / 1e12, "that is the non-blocking bisection; the leaves pass "
                          "only up ÷ down of it."),
                         (n * rate / r / 1e12, "only half of the hosts send across the "
                          "cut.")),
                        low="half of the hosts send across the cut, each at its link rate.",
                        high="the leaves' uplinks pass only up ÷ down of the hosts' rate."),
        solution=sol)


# ------------------------------------------------------------------ set D: Chapters 7-8
def d4_checkpoint(V):
    from interlib import cost

    n = V.pick(16384, (2048, 4096, 8192, 24576, 32768, 65536, 100000))
    c = V.pick(60.0, (30.0, 45.0, 60.0, 90.0, 120.0, 300.0))
    lam = cost.interruption_rate_per_gpu_hour()
    mtbi = float(cost.mean_time_between_interruptions(n))
    tau = float(cost.young_checkpoint_interval(c, mtbi))
    givens = (f"interruptions: {_sci(lam)} per GPU-hour (a cluster of N GPUs fails N times as "
              "often)",
              f"N = {n:,} GPUs; writing one checkpoint takes C = {_g(c)} s",
              "Young's rule: checkpoint every τ = √(2 × C × MTBI)")
    sol = _solution(
        "How often to checkpoint", givens,
        "MTBI = 1 ÷ (N × λ);  τ = √(2 C × MTBI)",
        [f"MTBI = 1 ÷ ({n:,} × {_sci(lam)}) h = {D.fmt_time(mtbi)}",
         f"τ = √(2 × {_g(c)} s × {mtbi:,.0f} s) = {tau:,.0f} s = **{tau / minute:.3g} min**"],
        f"cost.young_checkpoint_interval({_g(c)}, cost.mean_time_between_interruptions({n}))",
        math.sqrt(2 * c / (n * lam) * hour), tau, D.fmt_time)
    return dict(
        section=_sec(8, "Failures at scale"),
        title="Checkpoints on a large cluster", difficulty="standard",
        question=("How often should a training job on this cluster write a checkpoint? "
                  "Answer in minutes."),
        givens=givens,
        numeric=_answer("checkpoint interval", tau / minute, "min", 0.03,
                        "τ = √(2 C × MTBI), MTBI = 1 ÷ (N λ).",
                        ((math.sqrt(c * mtbi) / minute, "Young's rule has a factor 2 "
                          "under the root."),
                         (2 * c * mtbi / 60 / minute, "take the square root.")),
                        low="MTBI is in hours; convert to seconds before the root.",
                        high="the cluster fails N times as often as one GPU."),
        solution=sol)


def d5_mtbi(V):
    from interlib import cost

    n = V.pick(24576, (2048, 4096, 8192, 16384, 32768, 49152, 65536, 100000, 131072))
    lam = cost.interruption_rate_per_gpu_hour()
    mtbi = float(cost.mean_time_between_interruptions(n))
    givens = (f"interruptions: {_sci(lam)} per GPU-hour, independent across GPUs",)
    sol = _solution(
        "Time between interruptions", givens, "MTBI = 1 ÷ (N × λ)",
        [f"MTBI = 1 ÷ ({n:,} × {_sci(lam)}) h = **{mtbi / hour:.3g} h**"],
        f"cost.mean_time_between_interruptions({n})", hour / (n * lam), mtbi, D.fmt_time)
    return dict(
        section=_sec(8, "Failures at scale"),
        title="How often a big job stops", difficulty="warm-up",
        question=(f"On average, how many hours pass between interruptions of a {n:,}-GPU "
                  "training job?"),
        givens=givens,
        numeric=_answer("mean time between interruptions", mtbi / hour, "h", 0.03,
                        "1 ÷ (N λ).",
                        ((1 / lam, "that is one GPU's mean time; N GPUs fail N times as "
                          "often."),),
                        low="divide 1 by N × λ, once.",
                        high="the rate adds up over all N GPUs."),
        solution=sol)


def d6_dp_bytes(V):
    from interlib import collectives, scaling, steptime

    tp, pp = V.pick(8, (4, 8)), V.pick(8, (2, 3, 6, 7, 9, 14, 18))
    dp = V.pick(64, (16, 64, 128))
    model = "llama-3-405b"
    m = scaling.model(model)
    shard = m.params / (tp * pp) * 2
    sent = float(collectives.wire_bytes_per_rank("all_reduce", shard, dp))
    ph = steptime.layout_traffic("dgx-h100", model, tp, pp, dp).phase("DP")
    givens = (f"{m.name}: {m.params / billion:g} billion parameters, bf16 gradients (2 B)",
              f"TP = {tp}, PP = {pp}: each GPU holds 1/(TP × PP) of the parameters",
              f"DP = {dp}: a ring all-reduce of each GPU's gradient shard across the "
              "replicas once per step")
    sol = _solution(
        "DP bytes per GPU", givens,
        "shard = P ÷ (TP × PP) × 2 B;  bytes = 2(DP − 1)/DP × shard",
        [f"shard = {m.params / billion:g} × 10⁹ ÷ {tp * pp} × 2 B = "
         f"{D.fmt_bytes(shard, digits=4)}",
         f"bytes = 2 × {dp - 1}/{dp} × {D.fmt_bytes(shard, digits=4)} = "
         f"**{D.fmt_bytes(sent, digits=4)}**"],
        f'steptime.layout_traffic("dgx-h100", "{model}", {tp}, {pp}, {dp}).phase("DP").bytes',
        2 * (dp - 1) / dp * shard, ph.bytes, D.fmt_bytes)
    return dict(
        section=_sec(7, "Mapping parallelism onto the ladder"),
        title="The data-parallel share of a 3D layout", difficulty="standard",
        question=("How many gigabytes does each GPU send per step in the data-parallel "
                  "gradient all-reduce?"),
        givens=givens,
        numeric=_answer("DP bytes per GPU per step", sent / GB, "GB", 0.02,
                        "2(DP − 1)/DP × P ÷ (TP × PP) × 2 B.",
                        ((2 * (dp - 1) / dp * m.params * 2 / GB, "each GPU holds only "
                          "1/(TP × PP) of the parameters."),
                         (shard / GB, "a ring all-reduce sends 2(DP − 1)/DP of the shard.")),
                        low="a ring all-reduce sends almost twice the shard.",
                        high="divide the parameters by TP × PP first."),
        solution=sol)


def d7_efficiency_point(V):
    from interlib import cost

    n = V.pick(1024, (512, 1024, 4096, 16384))
    days = V.pick(30.0, (14.0, 30.0, 90.0))
    price = V.pick(cost.DEFAULT_PRICE_PER_GPU_HOUR, (2.0, 2.5, 3.0))
    val = float(cost.value_of_efficiency_point(n, days * day, price))
    givens = (f"{n:,} GPUs for {_g(days)} days at ${price:.2f} per GPU-hour",)
    sol = _solution(
        "One point of efficiency", givens, "value = GPUs × hours × price × 1 %",
        [f"{n:,} × {_g(days)} × 24 h × ${price:.2f} × 0.01 = **${val:,.0f}**"],
        f"cost.value_of_efficiency_point({n}, {_g(days)} days, {price:g})",
        n * days * 24 * price * 0.01, val, lambda x: f"${x:,.0f}")
    return dict(
        section=_sec(8, "What idle GPUs cost"),
        title="What one point of efficiency is worth", difficulty="warm-up",
        question=("How many dollars does one percentage point of scaling efficiency save "
                  "(the bill is for GPU time; one point is 1 % of it)?"),
        givens=givens,
        numeric=_answer("dollars per point", val, "$", 0.02,
                        "GPUs × days × 24 × price × 0.01.",
                        ((val / 24, "turn days into hours (× 24)."),
                         (val * 100, "one point is 1 % of the bill, not all of it.")),
                        low="count hours (days × 24) for every GPU.",
                        high="one point is 1 % of the bill."),
        solution=sol)


#: key -> builder, per set
FRESH = {"A": {"A4": a4_fsdp, "A5": a5_moe, "A6": a6_pcie_gbits, "A7": a7_half_bandwidth},
         "B": {"B4": b4_nvls_bytes, "B5": b5_mesh_pair, "B6": b6_cut},
         "C": {"C4": c4_roce_goodput, "C5": c5_ecmp, "C6": c6_dragonfly, "C7": c7_torus},
         "D": {"D4": d4_checkpoint, "D5": d5_mtbi, "D6": d6_dp_bytes,
               "D7": d7_efficiency_point}}
