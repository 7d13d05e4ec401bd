"""The chapters' self-check quizzes (shown with :func:`interlib.quiz.show`).

Each chapter's quiz is built when shown: every number in a question, an answer or a
known mistake comes from the catalogue and models, formatted with :mod:`interlib.display`.
"""

from __future__ import annotations

from .. import (collectives, cost, display as D, hierarchy, nvlink, nvswitch, pcie,
                 reliability, scaling, topology, flowcontrol)
from .quiz import Choice, Numeric, Quiz
from ..specs import NVLINK, PCIE
from ..units import GB, GB_per_s, billion, day, kB, ms

_TOL = 0.03


def ch01() -> Quiz:
    n = 8
    rung = hierarchy.link("NVLink 4")
    p = 70 * billion
    t = scaling.ring_sync_time(p, n, rung) / ms
    g = scaling.gradient_bytes(p)
    no_factor = (g / rung.effective + 2 * (n - 1) * rung.latency) / ms
    fp32 = scaling.ring_sync_time(p, n, rung, bytes_per_param=4) / ms
    return Quiz("ch01", "Chapter 1 self-check", (
        Choice("In a ring all-reduce of a buffer over n GPUs, about how much data does each "
               "GPU send in total when n is large?",
               ("n buffers", "about 2 buffers", "1/n of a buffer", "log2(n) buffers"), 1,
               ("No: that is what a naive all-to-all would send. The ring forwards chunks of "
                "1/n of the buffer.",
                f"Right: 2(n − 1) steps of 1/n each, 2(n − 1)/n buffers: "
                f"{collectives.bus_factor('all_reduce', n):.3g} at n = {n}, approaching 2.",
                "No: each GPU sends 1/n of the buffer per step, but there are 2(n − 1) steps.",
                "No: log2(n) is the number of steps of a tree or recursive doubling, not the "
                "ring's bytes.")),
        Numeric(f"A {D.fmt_bytes(g)} bf16 gradient (70 billion parameters) is ring "
                f"all-reduced over {n} GPUs on NVLink 4 at its achieved "
                f"{D.fmt_rate(rung.effective)} per direction, with a per-hop latency of "
                f"{D.fmt_time(rung.latency)}. How long does it take, in ms?",
                t, "ms", _TOL,
                f"t = 2(n − 1)·α + 2(n − 1)/n · S/B = {D.fmt_time(t * ms)}; the bandwidth "
                "term is nearly all of it.",
                ((no_factor, "you left out the factor 2(n − 1)/n: each GPU sends almost two "
                  "buffers, not one."),
                 (fp32, "that is the time for 4-byte (fp32) gradients; bf16 uses 2 bytes.")),
                "Each GPU sends 2(n − 1)/n of the buffer, not 1/n.",
                "Use the achieved bandwidth, and count the factor 2(n − 1)/n once."),
        Choice("Which kind of parallelism must finish its communication inside every layer "
               "before the next layer can start?",
               ("Data parallelism", "Tensor parallelism", "Pipeline parallelism"), 1,
               ("No: the gradient all-reduce happens once per step and can overlap with the "
                "backward pass.",
                "Right: each layer's partial results are all-reduced across the TP GPUs "
                "before the next layer; that is why TP stays on NVLink.",
                "No: pipeline stages pass activations between stages, and other "
                "micro-batches keep the GPUs busy meanwhile.")),
    ))


def ch02() -> Quiz:
    g5 = PCIE["5.0"]
    usable = pcie.link_bandwidth("5.0", 16, "usable") / GB_per_s
    raw = pcie.link_bandwidth("5.0", 16, "raw") / GB_per_s
    head = pcie.link_bandwidth("5.0", 16, "headline") / GB_per_s
    s = GB
    t = float(pcie.transfer_time(s, "5.0", 16)) / ms
    t_usable = float(pcie.transfer_time(s, "5.0", 16, achieved=False)) / ms
    ach = pcie.link_bandwidth("5.0", 16)
    share = float(pcie.switch_bandwidth_per_device(4, "5.0", "host", 16))
    return Quiz("ch02", "Chapter 2 self-check", (
        Numeric(f"PCIe 5.0 signals at {D.fmt_si(g5.transfer_rate.value, 'T/s')} per lane "
                f"with {g5.encoding} line coding. What is the usable bandwidth of an x16 link "
                "in one direction, in GB/s?",
                usable, "GB/s", 0.01,
                "Transfers per second × 16 lanes ÷ 8 bits per byte × the line-coding "
                f"efficiency ({g5.encoding_efficiency.value:.4g}).",
                ((head, f"{D.fmt_rate(head * GB_per_s)} is the vendor headline: both "
                  "directions added, before line coding."),
                 (raw, "that is the raw rate per direction; line coding (128b/130b) takes "
                  "its share first.")),
                "Lanes × transfers per second ÷ 8 gives bytes per second.",
                "Take line coding's share off the raw rate."),
        Numeric(f"How long does a {D.fmt_bytes(s)} host-to-GPU copy take over PCIe 5.0 x16 at "
                f"the achieved {D.fmt_rate(ach)}, with a start-up latency of "
                f"{D.fmt_time(pcie.LATENCY.value)}? Answer in ms.",
                t, "ms", _TOL,
                "t = α + S/B; for a copy this large the latency is negligible.",
                ((t_usable, "that uses the usable line rate; a copy achieves less."),),
                "Use the achieved bandwidth, not the line rate.",
                "Divide the size by the achieved rate, once."),
        Choice("Four devices under one PCIe switch with an x16 uplink all copy to host memory "
               "at once. What share of its own x16 link does each get?",
               ("All of it", "About a half", "About a quarter", "About an eighth"), 2,
               ("No: their traffic all goes up the one shared uplink.",
                "No: count the devices sharing the uplink.",
                f"Right: the uplink is shared four ways, {D.fmt_rate(share)} each.",
                "No: the uplink has the same width as each device link, shared by four.")),
    ))


def ch03() -> Quiz:
    line = nvlink.gpu_bandwidth(4, "line") / GB_per_s
    head = nvlink.gpu_bandwidth(4, "headline") / GB_per_s
    links = int(NVLINK[4].links_per_gpu.value)
    s = 10 * GB
    t = float(nvlink.transfer_time(s, 4)) / ms
    t_line = float(nvlink.transfer_time(s, 4, achieved=False)) / ms
    st = nvlink.p2p_vs_staged(GB, 4, "5.0")
    return Quiz("ch03", "Chapter 3 self-check", (
        Numeric(f"An H100 has {links} NVLink 4 links. What is its NVLink bandwidth to "
                "another GPU in one direction, at line rate, in GB/s?",
                line, "GB/s", _TOL,
                f"{links} links × {D.fmt_rate(NVLINK[4].per_gpu_per_direction / links)} per "
                "link per direction.",
                ((head, "that is the headline, both directions added; one copy uses one "
                  "direction."),),
                "Multiply the per-link rate by the number of links.",
                "Count each link once, at its per-link rate."),
        Numeric(f"How long does a {D.fmt_bytes(s)} GPU-to-GPU copy take over NVLink 4 at the "
                "achieved rate the chapter's model uses? Answer in ms.",
                t, "ms", _TOL,
                f"S ÷ achieved rate (plus a few µs of latency): "
                f"{D.fmt_rate(float(nvlink.effective_bandwidth(s, 4)))} delivered.",
                ((t_line, "that uses the line rate; NCCL's measured efficiency is lower."),),
                "a short time means too high a rate: use the achieved rate, not the line "
                "rate or the headline.",
                "a long time means too low a rate: use all the links' rate, not one link's."),
        Choice("A GPU-to-GPU copy is staged through host memory, the two PCIe legs one after "
               "the other. Compared with a direct PCIe peer copy it takes about…",
               ("the same time", "twice as long", "half as long", "four times as long"), 1,
               ("No: that is the pipelined case, where the two legs overlap.",
                f"Right: two legs of one copy each: {D.fmt_time(st['staged_serial'])} against "
                f"{D.fmt_time(st['pcie_p2p'])}.",
                "No: staging never beats a direct copy on the same links.",
                "No: each leg is one copy's time; there are two legs.")),
    ))


def ch04() -> Quiz:
    n = 8
    links = nvswitch.mesh_links(n)
    f = float(nvswitch.nvls_busbw_factor(n))
    ring = collectives.bus_factor("all_reduce", n)
    return Quiz("ch04", "Chapter 4 self-check", (
        Numeric(f"How many point-to-point links does a full mesh of {n} GPUs need (one link "
                "per pair)?", float(links), "links", _TOL,
                "n(n − 1)/2 pairs.",
                ((float(n * (n - 1)), "you counted each link twice (once from each end)."),
                 (float(n * n), "a GPU needs no link to itself, and each link serves two "
                  "GPUs.")),
                "Every pair of GPUs needs its own link.", "Count each pair once.",
                exact=True),
        Numeric(f"NVLink SHARP (NVLS): what is the ideal ratio of busbw to each GPU's link "
                f"bandwidth for an all-reduce on {n} GPUs?", f, "", 0.02,
                "2(n − 1)/(n + 1), from the multimem mechanism: each GPU's links carry its "
                "buffer S out once (the switch reduces it) plus S/n for the multicast store "
                "of its share of the sum, so t = (S + S/n) ÷ B = S(n + 1) ÷ (nB); busbw = "
                "S/t × 2(n − 1)/n = 2(n − 1)/(n + 1) × B.",
                ((ring, "that is the ring's bus factor 2(n − 1)/n; NVLS divides by n + 1."),),
                "busbw is algbw × 2(n − 1)/n, and with NVLS it can approach twice "
                "the link rate.",
                "the multicast store adds S/n to the S each GPU sends, so the "
                "factor is 2(n − 1)/(n + 1), below 2(n − 1)/n."),
        Choice("A non-blocking NVSwitch domain is cut into one GPU and all the others. What "
               "limits the bandwidth across that cut?",
               ("The switches", "The one GPU's own NVLinks", "The PCIe link",
                "Nothing: it equals the bisection"), 1,
               ("No: a non-blocking switch carries whatever the GPUs can send.",
                "Right: the cut carries min(k, n − k) GPUs' worth of links; with k = 1 it is "
                "one GPU's NVLink bandwidth.",
                "No: PCIe is not in the NVLink path.",
                "No: the bisection is the balanced cut, k = n/2.")),
    ))


def ch05() -> Quiz:
    k = 64
    two = topology.max_hosts(k, 2)
    rtt = 32
    rate = 50 * GB_per_s
    d = 100
    buf = flowcontrol.credit_buffer_bytes(rate, d) / kB
    return Quiz("ch05", "Chapter 5 self-check", (
        Numeric(f"How many hosts fit in a two-tier non-blocking fat tree of {k}-port "
                "switches?", float(two), "hosts", _TOL,
                "Leaves use half their ports for hosts, half for spines; a spine has one "
                f"port per leaf, so k leaves × k/2 hosts = k²/2.",
                ((float(k * k), "each leaf gives only half its ports to hosts (the other "
                  "half go up, for full bisection)."),
                 (float(k * k // 4), "a spine has k ports, so there can be k leaves, not "
                  "k/2.")),
                "k leaves, each with k/2 hosts.", "Half of each leaf's ports go up.",
                exact=True),
        Numeric(f"A credit-based link has a round trip of {rtt} packet times. How many "
                "credits (receive-buffer packets) does the sender need to run at full rate?",
                float(flowcontrol.bdp_packets(rtt)), "packets", _TOL,
                "One round trip's worth: the bandwidth-delay product in packets.",
                ((float(rtt // 2), "a credit returns only after a full round trip, not "
                  "half of one."),),
                "Each credit is tied up for a whole round trip.",
                "One packet per packet time, for one round trip.", exact=True),
        Numeric(f"A {D.fmt_rate(rate)} InfiniBand port drives {d} m of fibre (light covers a "
                f"metre in {D.fmt_time(1 / flowcontrol.FIBRE_SPEED)}). How much receive "
                "buffer does it need to run at full rate, in kB (ignore switch delays)?",
                buf, "kB", _TOL,
                "Rate × round trip; the round trip is twice the cable's one-way delay.",
                ((buf / 2, "the credit must travel back: use the round trip, twice the "
                  "one-way delay."),),
                "Use the round trip.", "The buffer covers one round trip at the link's rate, no more."),
        Choice("At 128 nodes, in-switch reduction (SHARP) beats the flat ring by a far wider "
               "margin for a small buffer than for a large one. Why?",
               ("SHARP sends fewer bytes for small buffers only",
                "The flat ring's time for a small buffer is mostly per-step latency, and it "
                "takes 2(n − 1) steps; SHARP takes a handful",
                "The switches compute faster than the GPUs"), 1,
               ("No: SHARP halves the bytes each GPU sends into the network at every size.",
                "Right: small messages are a latency problem (count the steps); large ones "
                "a bandwidth problem (count the bytes).",
                "No: the reduction arithmetic is not the bottleneck at either size.")),
    ))


def ch06() -> Quiz:
    from ..reliability import drop_step_setup

    packets, _ = drop_step_setup()
    p, n = 1e-9, 1024
    hit = 1 - (1 - p) ** (packets * n)
    one = 1 - (1 - p) ** packets
    return Quiz("ch06", "Chapter 6 self-check", (
        Numeric(f"Each of {n:,} GPUs sends {packets:,} packets per step; each packet is "
                f"dropped with probability {D.fmt_num(p)}, independently. What is the probability "
                "that a step contains at least one drop (a number between 0 and 1)?",
                hit, "", _TOL,
                "1 − (1 − p)^(m·N), about 1 − exp(−m·N·p).",
                ((one, "that is one GPU's probability; the step needs every GPU's packets."),
                 (packets * n * p, "m·N·p is the expected number of drops, not the "
                  "probability of at least one (it can exceed 1).")),
                "All GPUs' packets count.", "Use 1 − (1 − p)^(m·N)."),
        Choice("A receiver gets stuck and keeps sending PFC pause frames. Which senders end "
               "up paused if no watchdog intervenes?",
               ("Only the senders to the stuck receiver",
                "Every sender whose traffic shares a paused link with it",
                "No one: PFC pauses only the flow that caused congestion"), 1,
               ("No: PFC pauses a whole link (per priority class), not a flow.",
                "Right: the pause spreads backwards hop by hop to every sender behind the "
                "paused links, including victims sending to healthy receivers.",
                "No: that would be per-flow congestion control (like DCQCN), not PFC.")),
        Choice("DCQCN's switch marks packets (ECN) as the queue grows. What does raising the "
               "upper marking threshold Kmax mostly change?",
               ("The link's utilisation", "The standing queue and so the latency",
                "The fairness between senders"), 1,
               ("No: the link stays fully used either way.",
                "Right: senders are slowed only when the queue is deeper, so packets wait "
                "longer: a latency cost for small messages.",
                "No: the senders still converge to fair shares.")),
    ))


def ch07() -> Quiz:
    gap = list(hierarchy.nvlink_network_gap("H100").values())[0]
    over = 7.0
    rungs = {r.name: r for r in hierarchy.ladder("H100", over)}
    spine = rungs["Spine"].peak / GB_per_s
    nic = rungs["Scale-out NIC"].peak / GB_per_s
    nv = rungs["NVLink"].peak / GB_per_s
    return Quiz("ch07", "Chapter 7 self-check", (
        Numeric("On an H100 system, how many times faster is NVLink per GPU per direction "
                f"({D.fmt_rate(nv * GB_per_s)}) than the GPU's scale-out NIC "
                f"({D.fmt_rate(nic * GB_per_s)}), at line rate?", gap, "×", _TOL,
                "Divide the two per-direction rates.",
                ((gap * 2, "compare per-direction figures on both sides, not NVLink's "
                  "headline."),),
                "NVLink is the faster one.", "Divide the NVLink rate by the NIC rate, both in the same unit."),
        Numeric(f"A spine is oversubscribed {over:g}:1 and each H100 has a "
                f"{D.fmt_rate(nic * GB_per_s)} NIC. What bandwidth per GPU per direction is "
                "left across the spine when every GPU sends across it, in GB/s?",
                spine, "GB/s", _TOL, "NIC rate ÷ oversubscription.",
                ((nic * over, "oversubscription divides the bandwidth; it does not "
                  "multiply it."),),
                "divide the NIC rate once by the oversubscription (7:1 → ÷ 7).",
                "oversubscription divides the NIC rate; it is not subtracted."),
        Choice("Which traffic should you let cross a tapered (oversubscribed) spine?",
               ("Tensor parallelism", "Pipeline parallelism", "Data parallelism"), 2,
               ("No: TP all-reduces inside every layer and would stall every layer.",
                "No: PP sends every micro-batch's activations; better kept below the spine "
                "when possible.",
                "Right: DP's gradient sync happens once per step and overlaps with the "
                "backward pass.")),
    ))


def ch08() -> Quiz:
    n, days, price, frac = 1024, 30.0, cost.DEFAULT_PRICE_PER_GPU_HOUR, 0.2
    ic = cost.idle_cost(n, frac, days * day, price)
    return Quiz("ch08", "Chapter 8 self-check", (
        Numeric(f"A {n:,}-GPU job runs for {days:g} days at ${price:.2f} per GPU-hour and "
                f"waits on communication {frac:.0%} of every step. How many dollars are lost "
                "to waiting?", float(ic.dollars_lost), "$", _TOL,
                "GPUs × days × 24 hours × price × fraction waiting.",
                ((float(ic.dollars_lost) / 24, "days must be turned into hours (× 24)."),
                 (float(ic.gpu_hours_lost), "that is GPU-hours; multiply by the price.")),
                "Count GPU-hours: GPUs × hours.", "Only the waiting fraction is lost."),
        Choice("You raise the MFU of the maths kernels (the GPU computes faster). What "
               "happens to scaling efficiency (compute ÷ step) if the network stays the "
               "same?",
               ("It goes up", "It goes down", "It does not change"), 1,
               ("No: the job gets faster, but communication does not shrink with it.",
                "Right: compute shrinks while communication stays, so waiting is a larger "
                "share of each step.",
                "No: efficiency is a ratio; only one of its parts changed.")),
        Choice("Why does a small model (8B) suffer more than a 70B model on a slow fabric?",
               ("It has more layers", "It does less compute per byte communicated",
                "It uses more GPUs"), 1,
               ("No: the 8B model has fewer layers.",
                "Right: compute grows with width squared, activation traffic with width; "
                "narrow models communicate more per FLOP.",
                "No: the comparison is at the same GPU count.")),
    ))


QUIZZES = {f"ch0{i}": f for i, f in enumerate((ch01, ch02, ch03, ch04, ch05, ch06, ch07,
                                               ch08), start=1)}


def show(name: str) -> Quiz:
    """The quiz of chapter ``name`` (``"ch01"`` ... ``"ch08"``), for display."""
    from .. import _validate as v

    return QUIZZES[v.choice("name", name, QUIZZES)]()
