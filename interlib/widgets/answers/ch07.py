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


def ladder_tpu() -> str:
    from ...specs import scaleup, system

    tpu, gaudi_name = hierarchy.LADDER_OTHER  # the TPU, then Gaudi
    steps = hierarchy.rung_ratios(tpu)
    top, low, r, _ = max(steps, key=lambda s: s[2])
    dom = scaleup.scaleup_domain(hierarchy.LADDER_OTHER[tpu][0])
    job = scaleup.TPU_V5P_LARGEST_JOB.value
    h100 = list(hierarchy.nvlink_network_gap("H100").values())[0]
    _, up, out = hierarchy.LADDER_OTHER[gaudi_name]  # the scale-up -> scale-out step
    gaudi = next(s for s in hierarchy.rung_ratios(gaudi_name) if s[:2] == (up, out))
    nvl = [system(n).gpus_per_node for n in ("dgx-h100", "gb200-nvl72")]
    return (f"The steepest step is {top} → {low}, {D.fmt_ratio(r, 3)} at line rate, where "
            f"an H100 falls {D.fmt_ratio(h100, 3)} from NVLink to its NIC and a {gaudi_name} "
            f"{D.fmt_ratio(gaudi[2], 3)} from its scale-up to its scale-out ports. Google "
            f"can afford it because its scale-up domain is huge: ICI joins "
            f"{dom.domain_size.value:,.0f} chips of a pod as a {dom.topology}, and one job "
            f"gets up to {job:,.0f} of them in one slice, against {nvl[0]} or {nvl[1]} GPUs in "
            "an NVLink domain. Everything that talks every layer or every micro-batch (tensor, "
            "expert and pipeline parallelism, and data parallelism inside the slice) stays "
            "on ICI; only traffic between slices crosses the data-centre network, and the "
            "same rule as for the spine applies: let only the once-per-step gradient sync "
            "cross it. The demo shows line rates only: no source we read gives achieved "
            "ICI or DCN rates, or the TPU's host link, so it draws none.")


def _lay(**kw):
    base = {k: default("layout", k) for k in ("tp", "pp", "dp", "model", "oversubscription")}
    base.update(kw)
    return P._layout_traffic("dgx-h100", base["model"], base["tp"], base["pp"], base["dp"],
                             base["oversubscription"])


def _one_all_reduce(size, g, k, oversubscription=1.0, algorithm="auto"):
    """The collective model's choice for one all-reduce (algorithm, protocol, time)."""
    from ... import collectives, specs, steptime

    s = steptime.tapered(specs.system("dgx-h100"), oversubscription)
    return collectives.predict("all_reduce", size, s, g, k, algorithm)


def layout_tp16() -> str:
    from ... import scaling

    small, big = default("layout", "tp"), max(control("layout", "tp").options)
    a, b = _lay(tp=small), _lay(tp=big)
    ta, tb = a.phase("TP"), b.phase("TP")
    act = 4096 * scaling.model(default("layout", "model")).hidden * 2
    ra, rb = _one_all_reduce(act, small, 1), _one_all_reduce(act, 8, big // 8)
    ring = _one_all_reduce(act, 8, big // 8, algorithm="ring")
    return (f"TP {small} fits in one DGX H100 (eight GPUs on NVLink); TP {big} spans two servers. "
            f"TP time per step goes from {D.fmt_time(ta.time_s)} to {D.fmt_time(tb.time_s)}, "
            f"only {ratio(tb.time_s, ta.time_s)}. At TP {small} the model picks "
            f"{ra.algorithm.upper()} with the {ra.protocol} protocol: the NVSwitches reduce "
            f"({D.fmt_time(ra.time_s)} per all-reduce). At TP {big} it picks NCCL's NVLSTree "
            f"({rb.protocol}): NVLS inside each server, then a tree between the two servers "
            "through all eight of each server's NICs at once, so only the already-reduced "
            f"data crosses the network ({D.fmt_time(rb.time_s)} per all-reduce; a ring across "
            f"the two servers would take {D.fmt_time(ring.time_s)}, "
            f"{ratio(ring.time_s, rb.time_s)}). Even so, every layer now waits on the "
            "network: tensor parallelism should not leave the NVLink domain.")


def layout_taper() -> str:
    steps = [1.0 + k * 0.5 for k in range(15)]
    tp = _lay(dp=512).phase("TP").time_s
    worst = next((o for o in steps if _lay(dp=512, oversubscription=o).bottleneck.kind == "DP"),
                 None)
    before = worst - 0.5 if worst else steps[-1]
    one, two, four = 1.0, 2.0, 4.0  # the tapers compared: none, 2:1, 4:1
    p0, p2, p4 = (_lay(dp=512, oversubscription=o).phase("DP") for o in (one, two, four))
    shard = p0.bytes / (2 * 511 / 512)
    r0, r2 = _one_all_reduce(shard, 1, 512, one), _one_all_reduce(shard, 1, 512, two)
    ring0 = _one_all_reduce(shard, 1, 512, one, "ring")
    d1 = _lay(dp=512, oversubscription=worst or 8.0).phase("DP").time_s
    return (f"At {one:g}:1 the DP sync takes {D.fmt_time(p0.time_s)} against TP's "
            f"{D.fmt_time(tp)}: the model picks NCCL's {r0.algorithm} ({r0.protocol}). At "
            f"{two:g}:1 it takes {D.fmt_time(p2.time_s)}, {ratio(p2.time_s, p0.time_s)} and "
            f"not {two:g}×: with less of the spine per GPU NCCL's tuning switches to the "
            f"{r2.algorithm} ({r2.protocol}), which at {one:g}:1 would already take "
            f"{D.fmt_time(ring0.time_s)} ({ratio(ring0.time_s, p0.time_s)} the "
            f"{r0.algorithm}). From there the {r2.algorithm}'s time grows in proportion to "
            f"the taper ({four:g}:1: {D.fmt_time(p4.time_s)}, "
            f"{ratio(p4.time_s, p2.time_s)} the {two:g}:1 time). DP stays below TP up to "
            f"{before:g}:1 and becomes the slowest phase at {worst:g}:1 ({D.fmt_time(d1)}). "
            "So a data-parallel-only spine can be tapered a little before it shows; how far "
            "depends on the model and how well DP overlaps the backward pass.")


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
