"""Chapter 8 demos: scaling efficiency, the price of waiting, the capstone design."""

from __future__ import annotations

from .. import capstone, cost, display, scaling, steptime
from ..plots import ch08 as P
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch08 as A


def _eff_summary(model, mfu, overlap):
    sweep = P.efficiency_sweep(model, mfu, overlap)  # memoised: the figure computed it
    parts = []
    for fab in steptime.FABRICS:
        eff = [sweep[fab][list(P.GPU_COUNTS).index(n)] for n in cost.SCALES]
        parts.append(f"{fab}: " + ", ".join(f"{n:,} GPUs {display.fmt_pct(e)}"
                                            for n, e in zip(cost.SCALES, eff)))
    return f"{scaling.model(model).name}, efficiency (compute / step): " + "; ".join(parts)


register(Demo(
    "scaling_efficiency", P.scaling_efficiency,
    {"model": Dropdown(tuple(scaling.MODELS), "llama-3-70b", "model"),
     "mfu": FloatSlider(0.1, 0.7, 0.4, "MFU of the maths kernels", step=0.05),
     "overlap": FloatSlider(0.0, 1.0, 0.8, "share of DP traffic overlapped", step=0.05)},
    _eff_summary,
    (("Raise the MFU from 0.4 to 0.6. Does efficiency go up or down, and why is a faster GPU "
      "harder to keep busy?",
      A.eff_mfu),
     ("Set the overlap to 0. Which fabric loses more, and at which GPU count does the "
      "curve stop falling?",
      A.eff_overlap),
     ("Switch to the 8B model. Why does the commodity fabric look even worse for a small "
      "model?",
      A.eff_8b)),
    update=P._fill_scaling_efficiency))


def _cost_summary(price_per_gpu_hour, days, mfu, overlap):
    costs = P.communication_costs(price_per_gpu_hour, days, mfu, overlap)  # memoised
    parts = []
    for fab in steptime.FABRICS:
        parts.append(f"{fab}: " + ", ".join(
            f"{n:,} GPUs ${ic.dollars_lost:,.0f}" for n, _, ic in costs[fab]))
    return (f"Dollars lost to waiting on communication over {days:g} days at "
            f"${price_per_gpu_hour:.2f}/GPU-hour (assumed): " + "; ".join(parts))


register(Demo(
    "idle_cost", P.idle_cost,
    {"price_per_gpu_hour": FloatSlider(0.5, 10.0, cost.DEFAULT_PRICE_PER_GPU_HOUR,
                                       "$ per GPU-hour (your assumption)", step=0.25),
     "days": FloatSlider(1.0, 90.0, 30.0, "days of training", step=1.0),
     "mfu": FloatSlider(0.1, 0.7, 0.4, "MFU", step=0.05),
     "overlap": FloatSlider(0.0, 1.0, 0.8, "overlap", step=0.05)},
    _cost_summary,
    (("At your own price, how much would a 16K-GPU run lose per month on the commodity "
      "fabric? How many extra GPUs would that money buy?",
      A.cost_16k),
     ("The dollars scale linearly with price and days. What does not scale linearly, and "
      "where in the model does it come from?",
      A.cost_nonlinear)),
    update=P._fill_idle_cost))


def _capstone_summary(**params):
    try:
        d = P.design(**params)  # memoised: the figure computed it
    except ValueError as e:
        return f"Not a valid design: {e}"
    s, t = d.step, d.tree
    bn = s.layout.bottleneck
    return (f"{d.n_gpus:,} GPUs, {t.switches:,} switches {t.switches_per_tier}, "
            f"{t.cables:,} cables, bisection {display.fmt_rate(t.bisection_per_direction)} "
            f"per direction; step {display.fmt_time(s.step)} (compute "
            f"{display.fmt_time(s.compute)}, TP {display.fmt_time(s.tp)}, PP "
            f"{display.fmt_time(s.pp)}, DP {display.fmt_time(s.dp)}, hidden "
            f"{display.fmt_time(s.hidden)}); slowest {bn.kind} over {bn.rung}; efficiency "
            f"{display.fmt_pct(s.efficiency)}; lost to waiting "
            f"${d.idle.dollars_lost:,.0f} per {display.fmt_time(d.period_s)}")


def _capstone(gpu, nodes, nics_per_node, nic_gbps, fabric, radix, oversubscription, model,
              tp, pp, mfu, overlap, price_per_gpu_hour):
    return dict(gpu=gpu, nodes=nodes, nics_per_node=nics_per_node, nic_gbps=nic_gbps,
                fabric=fabric, radix=radix, oversubscription=oversubscription, model=model,
                tp=tp, pp=pp,
                mfu=mfu, overlap=overlap, price_per_gpu_hour=price_per_gpu_hour)


def _capstone_plot(gpu, nodes, nics_per_node, nic_gbps, fabric, radix, oversubscription, model,
                   tp, pp, mfu, overlap, price_per_gpu_hour):
    return P.capstone_design(**_capstone(gpu, nodes, nics_per_node, nic_gbps, fabric,
                                         radix, oversubscription, model, tp, pp, mfu,
                                         overlap, price_per_gpu_hour))


def _capstone_text(gpu, nodes, nics_per_node, nic_gbps, fabric, radix, oversubscription, model,
                   tp, pp, mfu, overlap, price_per_gpu_hour):
    return _capstone_summary(**_capstone(gpu, nodes, nics_per_node, nic_gbps, fabric,
                                         radix, oversubscription, model, tp, pp, mfu,
                                         overlap, price_per_gpu_hour))


def _capstone_update(fig, **params):
    """The capstone figure's fill (in place) at the demo's parameters."""
    return P._fill_capstone_design(fig, **_capstone(**params))


R = capstone.REFERENCE
register(Demo(
    "capstone", _capstone_plot,
    {"gpu": Dropdown(("a100-sxm-80gb", "h100-sxm", "h200", "b200", "b300"), R["gpu"], "GPU"),
     "nodes": IntSlider(1, 2048, R["nodes"], "servers (8 GPUs each)"),
     "nics_per_node": Dropdown((1, 2, 4, 8), R["nics_per_node"], "NICs per server"),
     "nic_gbps": Dropdown((100.0, 200.0, 400.0, 800.0), R["nic_gbps"], "Gb/s per NIC"),
     "fabric": Dropdown(tuple(capstone.FABRICS), R["fabric"], "fabric"),
     "radix": Dropdown((32, 64, 128, 144), R["radix"], "switch ports (fat tree)"),
     "oversubscription": FloatSlider(1.0, 7.0, R["oversubscription"],
                                     "leaf oversubscription (x:1)", step=0.5),
     "model": Dropdown(tuple(scaling.MODELS), R["model"], "model"),
     "tp": Dropdown((1, 2, 4, 8), R["tp"], "tensor parallel"),
     "pp": Dropdown((1, 2, 4, 8), R["pp"], "pipeline parallel"),
     "mfu": FloatSlider(0.1, 0.7, R["mfu"], "MFU", step=0.05),
     "overlap": FloatSlider(0.0, 1.0, R["overlap"], "overlap", step=0.05),
     "price_per_gpu_hour": FloatSlider(0.5, 10.0, cost.DEFAULT_PRICE_PER_GPU_HOUR,
                                       "$ per GPU-hour (your assumption)", step=0.25)},
    _capstone_text,
    (("Halve the NICs per server. What happens to the switch and cable counts, and to the "
      "step time? Is the saving worth it at your price?",
      A.cap_nics),
     ("Raise the oversubscription to 3 at 2,048 servers, then pick 'InfiniBand + SHARP'. "
      "How much of the DP time do the switches' reductions win back? Why do plain "
      "InfiniBand and Ethernet give the same step in this model?",
      A.cap_sharp),
     ("Try B200 GPUs with the same network. Why does efficiency fall although nothing in the "
      "network changed?",
      A.cap_b200)),
    update=_capstone_update))
