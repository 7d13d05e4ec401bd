"""Answers to Chapter 7's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from ... import display as D, hierarchy
from ...plots import ch07 as P
from ...specs import studies
from . import control, default, ratio


def ladder_steepest() -> str:
    parts = []
    for gen in hierarchy.LADDER_SYSTEMS:
        steps = hierarchy.rung_ratios(gen)
        top, low, r, _ = max(steps, key=lambda s: s[2])
        parts.append(f"{gen}: {top} → {low} ({D.fmt_ratio(r, 3)})")
    first, last = list(hierarchy.LADDER_SYSTEMS)[0], "B200"
    g0, g1 = hierarchy.nvlink_network_gap(first), hierarchy.nvlink_network_gap(last)
    return ("Per GPU, at line rate: " + "; ".join(parts) + ". The steepest step is either into the NVLink "
            "domain (HBM → NVLink) or out of it (NVLink → PCIe and the NIC), and the step "
            f"out of it got steeper: NVLink over one NIC was {D.fmt_ratio(list(g0.values())[0], 3)} on "
            f"{first} and {D.fmt_ratio(list(g1.values())[0], 3)} on {last}, because NVLink "
            "doubled while the NIC per GPU stayed the same. That is why the scale-up domain "
            "grew (NVL72) and why placement matters more each generation. "
            f"{_b300_nic_sentence()}")


def _b300_nic_sentence() -> str:
    """Blackwell Ultra doubled the NIC instead of NVLink (issue 28)."""
    g = hierarchy.nvlink_network_gap("GB300 NVL72")
    nic = hierarchy.ladder("GB300 NVL72")[-2].peak
    return (f"Blackwell Ultra (HGX B300, GB300 NVL72) turned it back: NVLink stayed, the "
            f"NIC doubled to a {D.fmt_rate(nic)} ConnectX-8 per GPU, so the gap fell to "
            f"{D.fmt_ratio(list(g.values())[0], 3)}.")


def ladder_taper() -> str:
    over = studies.META_AGG_OVERSUBSCRIPTION.value
    rungs = {r.name: r for r in hierarchy.ladder("H100", over)}
    spine = rungs["Spine"].peak
    below = [n for n, r in rungs.items() if r.peak > spine and n != "Spine"]
    return (f"At {over:g}:1 an H100's share of the spine is {D.fmt_rate(spine)} per "
            f"direction, below every other rung ({', '.join(below)}), including the "
            f"{D.fmt_rate(rungs['Scale-out NIC'].peak)} of its own NIC. Keep tensor "
            "parallelism (every layer) and pipeline parallelism (every micro-batch) off it; "
            "only data parallelism's once-per-step gradient sync, which can overlap with "
            "the backward pass, should cross the tapered layer, as Meta does between pods.")


def ladder_pcie() -> str:
    rungs = {r.name: r for r in hierarchy.ladder("H100")}
    pc, nic = rungs["PCIe"].peak, rungs["Scale-out NIC"].peak
    return (f"PCIe 5.0 x16 gives {D.fmt_rate(pc)} per direction and the scale-out NIC "
            f"{D.fmt_rate(nic)}: only {ratio(pc, nic)}. The NIC itself sits on a PCIe x16 "
            "link, so PCIe was sized to just feed one NIC. Staging network traffic through "
            "host memory would cross PCIe twice (NIC to host, host to GPU) and share the "
            "host's links and memory with everything else; GPUDirect RDMA lets the NIC "
            "write straight into GPU memory through the PCIe switch, once.")


def _lay(**kw):
    base = {k: default("layout", k) for k in ("tp", "pp", "dp", "model", "oversubscription")}
    base.update(kw)
    return P._layout_traffic("dgx-h100", base["model"], base["tp"], base["pp"], base["dp"],
                             base["oversubscription"])


def layout_tp16() -> str:
    small, big = default("layout", "tp"), max(control("layout", "tp").options)
    a, b = _lay(tp=small), _lay(tp=big)
    ta, tb = a.phase("TP"), b.phase("TP")
    return (f"TP {small} fits in one DGX H100 (eight GPUs on NVLink); TP {big} spans two servers, "
            f"so its all-reduces cross the {tb.rung} rung. TP time per step goes from "
            f"{D.fmt_time(ta.time_s)} over {ta.rung} to {D.fmt_time(tb.time_s)} over "
            f"{tb.rung} ({ratio(tb.time_s, ta.time_s)}), although each GPU moves about the "
            "same bytes: the slowest link of a ring sets its pace. Tensor parallelism should "
            "not leave the NVLink domain.")


def layout_taper() -> str:
    steps = [1.0 + k * 0.5 for k in range(15)]
    tp = _lay(dp=512).phase("TP").time_s
    worst = next((o for o in steps if _lay(dp=512, oversubscription=o).bottleneck.kind == "DP"),
                 None)
    before = worst - 0.5 if worst else steps[-1]
    d0, d1 = (_lay(dp=512, oversubscription=o).phase("DP").time_s for o in (1.0, worst or 8.0))
    return (f"At 1:1 the DP sync takes {D.fmt_time(d0)} against TP's {D.fmt_time(tp)}. DP time "
            "grows in proportion to the oversubscription once the spine is its slowest hop. "
            f"It stays below TP up to {before:g}:1 and becomes the slowest phase at "
            f"{worst:g}:1 ({D.fmt_time(d1)}). So a data-parallel-only spine can be tapered "
            "a few times over before it shows, which is why operators do it; how far depends "
            "on the model and how well DP overlaps the backward pass.")


def layout_pp_vs_tp() -> str:
    lay = _lay(tp=8, pp=4, dp=8)
    tp, pp = lay.phase("TP"), lay.phase("PP")
    return (f"Per GPU per step, TP moves {D.fmt_bytes(tp.bytes)} and PP "
            f"{D.fmt_bytes(pp.bytes)} at the defaults. TP all-reduces the full activation "
            "four times in every layer, and the layer waits; PP sends one activation "
            "(and one gradient back) per micro-batch only at the boundary between stages, "
            "point to point, and other micro-batches keep the GPUs busy meanwhile. Fewer "
            "bytes, fewer synchronisations and natural overlap: PP crosses the NIC "
            f"({D.fmt_time(pp.time_s)} over {pp.rung}) without hurting much.")
