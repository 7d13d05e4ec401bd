"""Answers to Chapter 8's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from ... import cost, display as D, steptime
from ...plots import ch08 as P


def _eff(model="llama-3-70b", mfu=0.4, overlap=0.8) -> dict:
    sweep = P.efficiency_sweep(model, mfu, overlap)
    counts = list(P.GPU_COUNTS)
    return {fab: {n: float(sweep[fab][counts.index(n)]) for n in counts
                  if sweep[fab][counts.index(n)] == sweep[fab][counts.index(n)]}
            for fab in steptime.FABRICS}  # only the counts where the model fits in HBM


def _fabrics():
    fast, slow = list(steptime.FABRICS)
    return fast, slow


def eff_mfu() -> str:
    a, b = _eff(mfu=0.4), _eff(mfu=0.6)
    n = max(P.GPU_COUNTS)
    return ("Efficiency goes down: "
            + "; ".join(f"{f} at {n:,} GPUs {D.fmt_pct(a[f][n])} → {D.fmt_pct(b[f][n])}"
                        for f in steptime.FABRICS)
            + ". Higher MFU shortens the compute of each step, but the bytes to move, and "
            "so the communication time, stay the same. Efficiency is compute ÷ step, so "
            "the waiting becomes a larger share. A faster GPU (or better kernels) needs a "
            "faster network just to keep the same efficiency.")


def eff_overlap() -> str:
    a, b = _eff(overlap=0.8), _eff(overlap=0.0)
    out = []
    for f in steptime.FABRICS:
        counts = sorted(b[f])
        flat = next(n for n, m in zip(counts, counts[1:]) if b[f][n] - b[f][m] < 0.005)
        out.append(f"{f}: at {max(counts):,} GPUs {D.fmt_pct(a[f][max(counts)])} → "
                   f"{D.fmt_pct(b[f][max(counts)])}, flat from about {flat:,} GPUs")
    return ("; ".join(out) + ". The slower fabric loses more in absolute points (its DP "
            "all-reduce is longer, so hiding it mattered more). Both curves stop falling "
            "once DP spans more than a few nodes: the ring's bytes per GPU approach "
            "2 × the gradient shard and stop growing, so the exposed DP time levels off.")


def eff_8b() -> str:
    a, b = _eff(model="llama-3-70b"), _eff(model="llama-3-8b")
    fast, slow = _fabrics()
    n = max(P.GPU_COUNTS)
    return (f"At {n:,} GPUs: 70B {D.fmt_pct(a[fast][n])} vs {D.fmt_pct(a[slow][n])}; 8B "
            f"{D.fmt_pct(b[fast][n])} vs {D.fmt_pct(b[slow][n])}. A narrower model does "
            "less compute per byte it communicates: compute grows with the width squared, "
            "activation traffic only with the width, so its tensor-parallel all-reduces "
            "are a larger share of each layer, and a slow link (PCIe, commodity Ethernet) cannot hide "
            "them.")


def cost_16k() -> str:
    from ..core import get
    n = max(cost.SCALES)
    c = get("idle_cost").defaults()
    d, days = c["price_per_gpu_hour"], c["days"]
    costs = P.communication_costs(d, days, c["mfu"], c["overlap"])
    _, slow = _fabrics()
    ic = next(ic for m, _, ic in costs[slow] if m == n)
    gpu_hours_each = ic.gpu_hours / n
    return (f"At the default ${d:.2f} per GPU-hour, {n:,} GPUs on the commodity fabric lose "
            f"${ic.dollars_lost:,.0f} in {days:g} days ({D.fmt_pct(ic.fraction)} of the GPU "
            f"hours). That money rents about {ic.dollars_lost / (d * gpu_hours_each):,.0f} "
            "more GPUs for the same period (dollars lost ÷ (price × hours per GPU)). Move the price slider to your own "
            "figure: the dollars scale with it, the GPU count does not (the price cancels). Buying a faster network is usually cheaper "
            "than buying the GPUs that idle waiting for a slow one.")


def cost_nonlinear() -> str:
    fast, _ = _fabrics()
    e = _eff()
    counts = sorted(e[fast])
    return ("The fraction of time lost to communication. It comes from the step-time model "
            "(steptime.step_time): the exposed TP, PP and DP time against the compute, "
            "which depends non-linearly on MFU, overlap, the model's shape and the GPU "
            f"count. On the fast fabric efficiency is {D.fmt_pct(e[fast][counts[0]])} at "
            f"{counts[0]} GPUs and {D.fmt_pct(e[fast][counts[-1]])} at {counts[-1]:,}. The "
            "dollars are just GPU-hours × price × that fraction.")


def _design(**kw):
    from ..core import get
    return P.design(**{**get("capstone").defaults(), **kw})


def cap_nics() -> str:
    a, b = _design(), _design(nics_per_node=4)
    price = a.idle.dollars_lost / max(a.idle.gpu_hours_lost, 1e-300)
    return (f"{a.tree.switches} → {b.tree.switches} switches and {a.tree.cables:,} → "
            f"{b.tree.cables:,} cables: half the NIC ports need half the fabric. The step "
            f"goes from {D.fmt_time(a.step.step)} to {D.fmt_time(b.step.step)} (PP "
            f"{D.fmt_time(a.step.pp)} → {D.fmt_time(b.step.pp)}, DP {D.fmt_time(a.step.dp)} → "
            f"{D.fmt_time(b.step.dp)}, partly hidden), so waiting costs "
            f"${a.idle.dollars_lost:,.0f} → ${b.idle.dollars_lost:,.0f} per month at "
            f"${price:.2f} per GPU-hour. Compare the difference with what half the NICs, "
            "switches, cables and optics cost: at this size, where TP on NVLink dominates, "
            "the saving can be worth it; at a price where the extra idle dollars exceed "
            "the hardware saved, it is not.")


def cap_sharp() -> str:
    kw = dict(oversubscription=3.0, nodes=2048)
    ib, sh, eth = (_design(fabric=f, **kw) for f in ("InfiniBand", "InfiniBand + SHARP",
                                                     "Ethernet"))
    return (f"DP goes from {D.fmt_time(ib.step.dp)} to {D.fmt_time(sh.step.dp)}: in-switch "
            "reduction sends each GPU's shard into the network once instead of about twice, "
            f"and the tapered spine carries half the bytes; the step drops from "
            f"{D.fmt_time(ib.step.step)} to {D.fmt_time(sh.step.step)}. Plain InfiniBand and "
            f"Ethernet give the same step ({D.fmt_time(eth.step.step)}) because this model "
            "gives them the same port rate and the same ring algorithm; their real "
            "differences (congestion control, loss recovery, adaptive routing, tail "
            "latency: Chapters 5 and 6) are not in a bandwidth model.")


def cap_b200() -> str:
    a, b = _design(), _design(gpu="b200")
    return (f"Compute per step falls from {D.fmt_time(a.step.compute)} to "
            f"{D.fmt_time(b.step.compute)}; communication shrinks less (TP "
            f"{D.fmt_time(a.step.tp)} → {D.fmt_time(b.step.tp)} on the faster NVLink, DP "
            f"{D.fmt_time(a.step.dp)} → {D.fmt_time(b.step.dp)} on the unchanged network). "
            f"Efficiency, compute ÷ step, falls from {D.fmt_pct(a.step.efficiency)} to "
            f"{D.fmt_pct(b.step.efficiency)}: the GPU spends a larger share of a shorter "
            "step waiting. The job is faster, but each expensive GPU is less busy.")
