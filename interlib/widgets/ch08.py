"""Chapter 8 demos: scaling efficiency, the price of waiting, the capstone design."""

from __future__ import annotations

from .. import capstone, cost, display, scaling, steptime
from ..specs import GPUS
from ..plots import ch08 as P
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch08 as A

_MODEL_NAMES = tuple(scaling.MODELS[m].name for m in scaling.MODELS)


def _eff_summary(model, mfu, overlap):
    sweep = P.efficiency_sweep(model, mfu, overlap)  # memoised: the figure computed it
    parts = []
    for fab in steptime.FABRICS:
        eff = [sweep[fab][list(P.GPU_COUNTS).index(n)] for n in cost.SCALES]
        parts.append(f"{fab}: " + ", ".join(
            f"{n:,} GPUs {display.fmt_pct(e)}" if e == e else
            f"{n:,} GPUs does not fit in HBM" for n, e in zip(cost.SCALES, eff)))
    return f"{scaling.model(model).name}, efficiency (compute / step): " + "; ".join(parts)


register(Demo(
    "scaling_efficiency", P.scaling_efficiency,
    {"model": Dropdown(tuple(scaling.MODELS), "llama-3-70b", "model", _MODEL_NAMES),
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
            f"{n:,} GPUs ${ic.dollars_lost:,.0f}" if ic is not None else
            f"{n:,} GPUs does not fit in HBM" for n, _, ic in costs[fab]))
    return (f"Dollars lost to waiting on communication over {display.fmt_count(days, 'day')} at "
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
    head = (f"{display.fmt_count(d.n_gpus, 'GPU')} (TP {d.tp} x PP {d.pp} x DP {d.dp}); "
            f"network: {capstone.switches_text(t)}, {display.fmt_count(t.cables, 'cable')}, "
            f"bisection {display.fmt_rate(t.bisection_per_direction)} per direction.\n"
            f"Memory: {capstone.memory_text(d)}.\n")
    if not d.fits:
        return (head + "No step time or efficiency: this design cannot run. Raise TP or PP, "
                "the ZeRO stage, or pick a GPU with more HBM.")
    bubble, comm = d.waiting_split
    return (head + f"Step {display.fmt_time(s.step)} = compute {display.fmt_time(s.compute)}"
            f" + bubble {display.fmt_time(s.bubble)} + TP {display.fmt_time(s.tp)} + PP "
            f"{display.fmt_time(s.pp)} + DP {display.fmt_time(s.dp)} − hidden by overlap "
            f"{display.fmt_time(s.hidden)}; slowest communication: "
            f"{capstone._slowest(s.layout.bottleneck)}.\n"
            f"Efficiency (compute / step) {display.fmt_pct(s.efficiency)}: the other "
            f"{display.fmt_pct(1 - s.efficiency)} of GPU time costs "
            f"${d.not_computing.dollars_lost:,.0f} per {display.fmt_time(d.period_s)} (bubble "
            f"${bubble:,.0f}, communication ${comm:,.0f})." + (
                "\nRoCE Ethernet prices the same as InfiniBand here: at one port rate the model "
                "has no congestion and no like-for-like latency measurement, so only SHARP "
                "(InfiniBand's in-switch reduction) tells the fabrics apart."
                if params.get("fabric") == "Ethernet" else ""))


def _capstone(gpu, nodes, nics_per_node, nic_gbps, fabric, radix, oversubscription, model,
              tp, pp, zero, mfu, overlap, price_per_gpu_hour):
    return dict(gpu=gpu, nodes=nodes, nics_per_node=nics_per_node, nic_gbps=nic_gbps,
                fabric=fabric, radix=radix, oversubscription=oversubscription, model=model,
                tp=tp, pp=pp, zero=zero,
                mfu=mfu, overlap=overlap, price_per_gpu_hour=price_per_gpu_hour)


def _capstone_plot(gpu, nodes, nics_per_node, nic_gbps, fabric, radix, oversubscription, model,
                   tp, pp, zero, mfu, overlap, price_per_gpu_hour):
    return P.capstone_design(**_capstone(gpu, nodes, nics_per_node, nic_gbps, fabric,
                                         radix, oversubscription, model, tp, pp, zero,
                                         mfu, overlap, price_per_gpu_hour))


def _capstone_text(gpu, nodes, nics_per_node, nic_gbps, fabric, radix, oversubscription, model,
                   tp, pp, zero, mfu, overlap, price_per_gpu_hour):
    return _capstone_summary(**_capstone(gpu, nodes, nics_per_node, nic_gbps, fabric,
                                         radix, oversubscription, model, tp, pp, zero,
                                         mfu, overlap, price_per_gpu_hour))


def _capstone_update(fig, **params):
    """The capstone figure's fill (in place) at the demo's parameters."""
    return P._fill_capstone_design(fig, **_capstone(**params))


def _capstone_servers(tp, pp):
    """The servers slider's valid values: 1 to 2,048, in multiples of the servers one
    TP x PP group fills (:func:`interlib.capstone.server_multiple`), so every position is a
    design whose GPUs split into whole data-parallel replicas."""
    m = capstone.server_multiple(tp, pp, _GPUS_PER_SERVER)
    return (1, _MAX_SERVERS, m,
            f"TP {tp} × PP {pp} = {tp * pp} GPUs, "
            f"{display.fmt_count(m, 'server')}' worth, must divide the GPUs"
            if m > 1 else "")


_GPUS_PER_SERVER = 8
_MAX_SERVERS = 2048
R = capstone.REFERENCE
_GPUS = ("a100-sxm-80gb", "h100-sxm", "h200", "b200", "b300")
_RATES = (100.0, 200.0, 400.0, 800.0)
_FABRIC_LABELS = {"InfiniBand": "InfiniBand",
                  "InfiniBand + SHARP": "InfiniBand + SHARP (switches reduce)",
                  "Ethernet": "RoCE Ethernet (same rate, no SHARP)"}
_ZERO_LABELS = ("nothing (ZeRO off)", "optimizer state (ZeRO-1)",
                "+ gradients (ZeRO-2)", "+ weights (ZeRO-3, FSDP)")
register(Demo(
    "capstone", _capstone_plot,
    {"gpu": Dropdown(_GPUS, R["gpu"], "GPU", tuple(GPUS[g].name for g in _GPUS)),
     "nodes": IntSlider(1, _MAX_SERVERS, R["nodes"],
                        f"servers ({_GPUS_PER_SERVER} GPUs each)", log=True,
                        readout_format="num"),
     "price_per_gpu_hour": FloatSlider(0.5, 10.0, cost.DEFAULT_PRICE_PER_GPU_HOUR,
                                       "$ per GPU-hour (your assumption)", step=0.25),
     "nics_per_node": Dropdown((1, 2, 4, 8), R["nics_per_node"], "NICs per server"),
     "nic_gbps": Dropdown(_RATES, R["nic_gbps"], "port rate per NIC",
                          tuple(f"{r:g} Gb/s" for r in _RATES)),
     "fabric": Dropdown(tuple(capstone.FABRICS), R["fabric"], "fabric",
                        tuple(_FABRIC_LABELS[f] for f in capstone.FABRICS)),
     "radix": Dropdown((32, 64, 128, 144), R["radix"], "switch ports (fat tree)"),
     "oversubscription": FloatSlider(1.0, 7.0, R["oversubscription"],
                                     "leaf oversubscription (x:1)", step=0.5),
     "model": Dropdown(tuple(scaling.MODELS), R["model"], "model", _MODEL_NAMES),
     "tp": Dropdown((1, 2, 4, 8), R["tp"], "tensor parallel"),
     "pp": Dropdown((1, 2, 4, 8), R["pp"], "pipeline parallel"),
     "zero": Dropdown(tuple(steptime.ZERO_STAGES), R["zero"], "sharded over DP (ZeRO)",
                      _ZERO_LABELS),
     "mfu": FloatSlider(0.1, 0.7, R["mfu"], "MFU", step=0.05),
     "overlap": FloatSlider(0.0, 1.0, R["overlap"], "overlap", step=0.05)},
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
    update=_capstone_update,
    limits=lambda tp, pp, **_: {"nodes": _capstone_servers(tp, pp)},
    groups=(("Cluster", ("gpu", "nodes", "price_per_gpu_hour")),
            ("Network", ("nics_per_node", "nic_gbps", "fabric", "radix",
                         "oversubscription")),
            ("Model", ("model", "tp", "pp", "zero", "mfu", "overlap")))))
