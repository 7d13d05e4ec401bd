"""Answers to Chapter 3's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from ... import display as D, nvlink, tensor_parallel as TP
from ...plots import ch03 as P
from ...specs import NVLINK
from ...units import GB, kB
from . import default, ratio

_H100, _B200 = "NVLink 4 (H100)", "NVLink 5 (B200)"


def transfer_generations() -> str:
    first, last = min(NVLINK), max(NVLINK)
    big, small = 10 * GB, 10 * kB
    tb = {g: float(nvlink.transfer_time(big, g)) for g in (first, last)}
    ts = {g: float(nvlink.transfer_time(small, g)) for g in (first, last)}
    return (f"A {D.fmt_bytes(big)} copy took {D.fmt_time(tb[first])} on NVLink {first} and "
            f"takes {D.fmt_time(tb[last])} on NVLink {last}: {ratio(tb[first], tb[last])} "
            f"faster, the growth of the per-GPU bandwidth "
            f"({D.fmt_rate(nvlink.gpu_bandwidth(first))} to "
            f"{D.fmt_rate(nvlink.gpu_bandwidth(last))} per direction). A {D.fmt_bytes(small)} "
            f"copy went from {D.fmt_time(ts[first])} to {D.fmt_time(ts[last])}, only "
            f"{ratio(ts[first], ts[last])}: its time is almost all start-up latency (launching "
            "the copy, the first bytes crossing the link), which bandwidth does not shorten. "
            "Each generation widened the pipe; the time to open it barely changed.")


def transfer_direction() -> str:
    g = 4
    return ("The per-direction figure. The headline "
            f"({D.fmt_rate(nvlink.gpu_bandwidth(g, 'headline'))} for NVLink {g}) adds both "
            "directions; a one-way copy uses only one, so its ceiling is the per-direction "
            f"line rate, {D.fmt_rate(nvlink.gpu_bandwidth(g, 'line'))}, and in practice the "
            f"achieved {D.fmt_rate(float(nvlink.effective_bandwidth(10 * GB, g)))} the model "
            "gives for a large copy. Only traffic in both directions at once (as in a ring "
            "all-reduce, where every GPU sends and receives) uses the headline's other half.")


def tp_width() -> str:
    hs = (TP.FIGURE_WIDTHS[0] * 2, TP.FIGURE_WIDTHS[0] * 8, TP.FIGURE_WIDTHS[1])
    tp, seq, mfu = (default("tp_comm_share", k) for k in ("tp", "seq_len", "mfu"))
    c = {h: P.tp_layer_cost(tp, h, _H100, seq, mfu) for h in hs}
    return (f"A layer's compute is about {TP.layer_forward_flops(1, 1, 1):g}·s·h² FLOPs (it grows with the square of the "
            "width), but each all-reduce moves one activation of s·h values (it grows "
            "linearly). Doubling h multiplies compute by four and the bytes by two, so the "
            f"communication share falls. At TP {tp} on NVLink 4 with {seq:,} tokens: "
            + "; ".join(f"h = {h:,}: compute {D.fmt_time(float(x.compute_s))}, all-reduces "
                        f"{D.fmt_time(float(x.comm_s))}, share {D.fmt_pct(float(x.comm_share))}"
                        for h, x in c.items()) + ".")


def _sends(algorithm, n: int) -> str:
    """What one GPU's links carry in an all-reduce of one activation with ``algorithm`` on
    ``n`` GPUs: a ring's 2(n - 1)/n, NVLS's (n + 1)/n (the switch reduces)."""
    if str(algorithm).startswith("nvls"):
        return f"each GPU's links carry (n + 1)/n = {(n + 1) / n:.4g} activations"
    return f"each GPU sends 2(n − 1)/n = {2 * (n - 1) / n:.3g} activations"


def _name(algorithm) -> str:
    return "NVLS" if str(algorithm).startswith("nvls") else f"the {algorithm}"


def tp_degree() -> str:
    h, seq, mfu = (default("tp_comm_share", k) for k in ("hidden", "seq_len", "mfu"))
    hi = default("tp_comm_share", "tp")
    lo = hi // 2
    a, b = (P.tp_layer_cost(t, h, _H100, seq, mfu) for t in (lo, hi))
    both_nvls = str(a.algorithm).startswith("nvls") and str(b.algorithm).startswith("nvls")
    return (f"From TP {lo} to TP {hi} (h = {h:,}) the all-reduce of "
            f"{D.fmt_bytes(float(a.allreduce_bytes))} takes about the same time "
            f"({D.fmt_time(float(a.comm_s))} vs {D.fmt_time(float(b.comm_s))}), but not "
            f"because the bytes stay put: at TP {lo} the model (NCCL's choice) picks "
            f"{_name(a.algorithm)} ({_sends(a.algorithm, lo)}), at TP {hi} "
            f"{_name(b.algorithm)} ({_sends(b.algorithm, hi)}). A ring at TP {hi} would send "
            f"{2 * (hi - 1) / hi:.3g}; "
            + ("in-switch reduction keeps each GPU's bytes near one activation whatever the "
               "degree, which is what keeps the time level. " if both_nvls else
               "the switch to in-switch reduction is what keeps the time level. ")
            + f"Meanwhile the compute per GPU halves ({D.fmt_time(float(a.compute_s))} to "
            f"{D.fmt_time(float(b.compute_s))}). The share rises from "
            f"{D.fmt_pct(float(a.comm_share))} to {D.fmt_pct(float(b.comm_share))}. Every "
            "doubling halves the useful work per all-reduce, so beyond some degree the GPUs "
            "mostly wait: TP is kept inside one NVLink domain and rarely set above the GPUs "
            "of one server.")


def tp_b200() -> str:
    tp, hid, seq, mfu = (default("tp_comm_share", k) for k in ("tp", "hidden", "seq_len", "mfu"))
    h, b = (P.tp_layer_cost(tp, hid, link, seq, mfu) for link in (_H100, _B200))
    fh, fb = TP.peak_flops("h100-sxm"), TP.peak_flops("b200")
    return ("The share is comm / (comm + compute). The B200 has "
            f"{ratio(fb, fh)} the H100's dense BF16 peak, so the same layer computes in "
            f"{D.fmt_time(float(b.compute_s))} instead of {D.fmt_time(float(h.compute_s))}; "
            f"NVLink 5 doubles the link, but the all-reduce only drops from "
            f"{D.fmt_time(float(h.comm_s))} to {D.fmt_time(float(b.comm_s))} (latency and "
            "achieved efficiency do not double). Compute shrank more than communication, so "
            f"the share grows from {D.fmt_pct(float(h.comm_share))} to "
            f"{D.fmt_pct(float(b.comm_share))}. Faster GPUs need faster links just to stay "
            "where they were.")


def p2p_staging() -> str:
    s = GB
    t = nvlink.p2p_vs_staged(s, 4, "5.0")
    return ("Through host memory the data crosses PCIe twice: GPU A → host, then host → GPU "
            "B, each leg as fast as a direct PCIe copy. One after the other that is two "
            f"copies: for {D.fmt_bytes(s)}, {D.fmt_time(t['staged_serial'])} against "
            f"{D.fmt_time(t['pcie_p2p'])} direct ({ratio(t['staged_serial'], t['pcie_p2p'])}). "
            "Pipelined in chunks, the second leg carries chunk k while the first carries "
            "chunk k + 1; the two legs use different links, so the total is one leg's time "
            f"plus one chunk: {D.fmt_time(t['staged'])}. NVLink takes "
            f"{D.fmt_time(t['nvlink'])}.")


def p2p_small() -> str:
    small, big = 4 * kB, GB
    ts, tb = nvlink.p2p_vs_staged(small, 4, "5.0"), nvlink.p2p_vs_staged(big, 4, "5.0")
    return (f"Latency. A {D.fmt_bytes(small)} copy takes {D.fmt_time(ts['nvlink'])} over "
            f"NVLink and {D.fmt_time(ts['pcie_p2p'])} over PCIe: "
            f"{ratio(ts['pcie_p2p'], ts['nvlink'])}, against "
            f"{ratio(tb['pcie_p2p'], tb['nvlink'])} for {D.fmt_bytes(big)}. The bytes take "
            "nanoseconds; what is left is the fixed cost of starting a transfer, which is "
            "similar on both links. Slide the size down: the three curves converge on the "
            "left and fan out on the right.")
