"""Chapter 4 demos: NVSwitch.

Every demo's ``update`` hook is its plot's own fill function (``plots.ch04._fill_*``), the
code the plot function itself calls after building the figure's fixed skeleton, so a
slider move redraws only the changed artists over a cached background.

>>> from interlib.widgets import get
>>> all(get(name).update is getattr(P, f"_fill_{name}")
...     for name in ("mesh_vs_switch", "ring_vs_nvls", "bisection"))
True
"""

from __future__ import annotations

from .. import display, nvswitch
from ..plots import ch04 as P
from ..specs import NVLINK, system as _system
from ..specs.inside_box import NVLINK_DOMAINS
from ..units import MiB
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch04 as A


def _mesh_summary(n, gen):
    nv = NVLINK[gen]
    pair = nvswitch.mesh_pair_bandwidth(n, gen)
    share = (f"split evenly, a pair gets {display.fmt_rate(pair)} per direction" if pair > 0
             else f"{nv.links_per_gpu.value:g} links cannot reach {n - 1:,} peers, so some "
                  "pairs get no direct link")
    return (f"{display.fmt_count(n, 'GPU')} with {nv.name}: a full mesh needs "
            f"{display.fmt_count(nvswitch.mesh_links(n), 'link')} and "
            f"{display.fmt_count(nvswitch.mesh_ports_per_gpu(n), 'port')} per GPU (each GPU has "
            f"{nv.links_per_gpu.value:g}); {share} vs "
            f"{display.fmt_rate(nv.per_gpu_per_direction)} through a switch; switched: "
            f"{display.fmt_count(nvswitch.switch_links(n, gen), 'GPU-to-switch link')}")


register(Demo(
    "mesh_vs_switch", P.mesh_vs_switch,
    {"n": IntSlider(2, P.MESH_MAX_GPUS, 8, "GPUs"),
     "gen": Dropdown((3, 4, 5), 4, "NVLink generation")},
    _mesh_summary,
    (("At what GPU count can an H100 no longer reach every other GPU with even one direct "
      "link? What does that say about a 72-GPU mesh?",
      A.mesh_limit),
     ("A telephone exchange connects any caller to any other without a wire per pair. "
      "What does the switch cost instead (think ports and chips)?",
      A.mesh_exchange)),
    update=P._fill_mesh_vs_switch))


def nccl_choice(system, gpus: int, size_bytes, predictions) -> str:
    """What NCCL would run for this all-reduce, by NCCL's name, and, where the book's timing
    has the other of ring and NVLS ahead, why: NCCL chooses by its own estimate
    (``collectives.nccl_estimate``: tuning.cc's latencies and bandwidths), not by the time
    the choice then takes, and the book's time adds what that estimate leaves out (in a
    rack-scale domain, NVLS paced by NCCL's NVLS channels; elsewhere the pipeline fill)."""
    from .. import collectives
    from ..collective_model.links import nvls_algbw

    pick = predictions["auto"].algorithm
    name = collectives.NCCL_NAMES.get(pick, pick)
    text = f"NCCL would pick {name}"
    if pick not in ("ring", "nvls"):
        return text + " (its own estimate has it ahead of both)"
    other = "nvls" if pick == "ring" else "ring"
    t_pick, t_other = (float(predictions[a].time_s) for a in (pick, other))
    if t_pick <= t_other:
        return text
    est = {a: float(collectives.nccl_estimate("all_reduce", size_bytes, system, gpus, 1,
                                               a).time_s) for a in ("ring", "nvls")}
    sys_ = _system(system)
    links = float(nvls_algbw(sys_, gpus, 1, links_only=True))
    paced = float(nvls_algbw(sys_, gpus, 1, links_only=False))
    if paced < links * 0.999:
        why = (f"the book's NVLS moves at the pace of NCCL's NVLS channels in a rack-scale "
               f"domain ({display.fmt_rate(paced)} per GPU, where the links alone would carry "
               f"{display.fmt_rate(links)}), which NCCL's estimate leaves out")
    else:
        why = ("the book's times add the pipeline fill and a launch cost, which NCCL's "
               "estimate leaves out")
    other_name = "the ring" if other == "ring" else "NVLS"
    return (f"{text}, though the book times it {display.fmt_pct(t_pick / t_other - 1, 2)} "
            f"slower than {other_name}: NCCL chooses by its own estimate (tuning.cc: "
            f"NVLS {display.fmt_time(est['nvls'])}, ring {display.fmt_time(est['ring'])}), "
            f"not by the time the choice then takes, and {why}")


def _nvls_summary(system, gpus, size_mib):
    g = min(gpus, _system(system).gpus_per_node)
    s = size_mib * MiB
    p = P._predictions(system, g, size_mib)  # memoised, shared with the figure
    return (f"{_system(system).title}, {g} GPUs, {display.fmt_bytes(s, binary=True)}: ring "
            f"{display.fmt_time(p['ring'].time_s)} (busbw {display.fmt_rate(p['ring'].busbw)}), "
            f"NVLS {display.fmt_time(p['nvls'].time_s)} (busbw "
            f"{display.fmt_rate(p['nvls'].busbw)}); {nccl_choice(system, g, s, p)}; "
            f"ideal NVLS factor 2(n-1)/(n+1) = {nvswitch.nvls_busbw_factor(g):.3g}; the "
            f"model's pipeline chunks reach full size at "
            f"{display.fmt_bytes(P.full_chunk_size(g), binary=True)} (below it the pipeline "
            f"fill grows with the buffer and busbw stalls)")


register(Demo(
    "ring_vs_nvls", P.ring_vs_nvls,
    {"system": Dropdown(P.SYSTEMS, "dgx-h100", "system",
                        tuple(_system(s).title for s in P.SYSTEMS)),
     "gpus": IntSlider(2, P.NVLS_MAX_GPUS, 8, "GPUs (up to the domain size)"),
     "size_mib": FloatSlider(*P.SIZE_MIB_RANGE, 1024.0, "buffer per GPU (MiB)", step=0.01,
                             log=True, readout_format="num")},
    _nvls_summary,
    (("Why can NVLS busbw exceed the NVLink line rate while the ring's never does?",
      A.nvls_above_line),
     ("Set 2 or 3 GPUs. Why is NVLS no better there, and why does NCCL not pick it?",
      A.nvls_small_n),
     ("Slide the buffer down to a few KiB. Below what size does the ring win, and what "
      "does NVLS pay there that the ring does not (compare the two times)?",
      A.nvls_crossover)),
    update=P._fill_ring_vs_nvls,
    limits=lambda system, gpus, size_mib: {"gpus": (2, _system(system).gpus_per_node)}))


def _bisection_summary(domain, k):
    d = NVLINK_DOMAINS[domain]
    n = int(d.gpus.value)
    k = max(1, min(k, n - 1))
    nv = NVLINK[d.nvlink_gen]
    cut = nvswitch.cut_bandwidth(n, k, nv.per_gpu_per_direction)
    how = "" if d.bisection_known else " (assuming non-blocking switches)"
    return (f"{d.name}{how}, cut {k} | {n - k}: {display.fmt_rate(cut)} per direction "
            f"({display.fmt_rate(2 * cut)} both directions); bisection "
            f"{display.fmt_rate(nvswitch.bisection_bandwidth(n, nv.per_gpu_per_direction))} "
            f"per direction; aggregate "
            f"{display.fmt_rate(nvswitch.aggregate_bandwidth(n, nv.per_gpu_bidirectional))} "
            "(both directions, every GPU added)")


register(Demo(
    "bisection", P.bisection,
    {"domain": Dropdown(P.DOMAINS, "gb200-nvl72", "NVLink domain",
                        tuple(NVLINK_DOMAINS[d].name for d in P.DOMAINS)),
     "k": IntSlider(1, max(P._domain(d)[1] for d in P.DOMAINS) - 1,
                    P._domain("gb200-nvl72")[1] // 2, "GPUs on one side", log=True,
                    readout_format="num")},
    _bisection_summary,
    (("The aggregate is four times the per-direction bisection. Which two factors of two "
      "are those?",
      A.bisection_factors),
     ("A cut of 1 GPU against the rest: what limits it, the switch or the GPU?",
      A.bisection_one)),
    update=P._fill_bisection,
    limits=lambda domain, k: {"k": (1, int(NVLINK_DOMAINS[domain].gpus.value) - 1)}))
