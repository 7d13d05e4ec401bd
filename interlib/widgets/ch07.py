"""Chapter 7 demos: the ladder of a GPU generation; a 3D layout on the ladder."""

from __future__ import annotations

from .. import display, hierarchy, scaling, steptime
from ..specs import studies
from ..plots import ch07 as P
from .core import Demo, Dropdown, FloatSlider, register
from .answers import ch07 as A


def _ladder_summary(generation, oversubscription):
    rungs = hierarchy.ladder(generation, oversubscription)
    chain = " → ".join(f"{r.name} {display.fmt_rate(r.peak)}" for r in rungs)
    if generation in hierarchy.LADDER_SYSTEMS:
        gap = hierarchy.nvlink_network_gap(generation)
        line, ach = list(gap.values())[:2]
        return (f"{generation}, per GPU (HBM read + write; links per direction): {chain}. "
                f"NVLink / scale-out NIC: {display.fmt_ratio(line)} at line rate, "
                f"{display.fmt_ratio(ach)} achieved")
    # another vendor's accelerator: line rates only, and say what the sources lack
    by_row = {r.row: r for r in rungs}
    up, out = by_row.get("NVLink"), by_row.get("Scale-out NIC")
    gap = (f"{up.name} / {out.name}: {display.fmt_ratio(up.peak / out.peak)} at line rate"
           if up is not None and out is not None else "")
    missing = [m if m.startswith(("HBM", "RoCE")) else m.lower()
               for m in hierarchy.ladder_gaps(generation).values()]
    return (f"{generation}, per chip (HBM read + write; links per direction), line rates: "
            f"{chain}. {gap}; achieved rates: not in our sources. Not in our sources "
            f"either: its {' and '.join(missing)}")


register(Demo(
    "ladder", P.ladder,
    {"generation": Dropdown(hierarchy.LADDER_CHOICES, "H100",
                            "GPU generation (or another vendor's chip)"),
     "oversubscription": FloatSlider(1.0, 8.0, 1.0, "spine oversubscription (x:1)",
                                     step=0.5)},
    _ladder_summary,
    (("Which step of the ladder is the steepest for each generation? Did it get steeper or "
      "shallower from A100 to B200?",
      A.ladder_steepest),
     (f"Set the oversubscription to {studies.META_AGG_OVERSUBSCRIPTION.value:g} (Meta's "
      "taper between pods). Which rung does the spine now sit below, and which parallelism "
      "would you keep off it?",
      A.ladder_taper),
     ("Choose TPU v5p. Where is its steepest step, and why can Google live with it?",
      A.ladder_tpu)),
    update=P._fill_ladder))


def _layout_summary(tp, pp, dp, model, oversubscription):
    lay = P._layout_traffic("dgx-h100", model, tp, pp, dp, oversubscription)  # memoised
    parts = "; ".join(f"{p.kind} {display.fmt_bytes(p.bytes)} in "
                      f"{display.fmt_time(p.time_s)} over {p.rung}" if p.rung != "none" else
                      f"no {p.kind} traffic ({p.kind.lower()} = 1)" for p in lay.phases)
    bn = lay.bottleneck
    mem = steptime.memory_per_gpu("dgx-h100", model, tp, pp, dp)
    fit = ("fits" if mem.fits else "does NOT fit: this layout cannot train the model, its "
           "traffic is what it would be")
    slowest = f"{bn.kind} over {bn.rung}" if bn.time_s > 0 else "nothing is sent"
    return (f"{scaling.model(model).name} on {display.fmt_count(lay.n_gpus, 'DGX H100 GPU')} "
            f"({display.fmt_count(lay.nodes, 'node')}), per GPU per step: {parts}. Slowest: "
            f"{slowest}. Memory: {mem.describe()}: {fit}")


register(Demo(
    "layout", P.layout,
    {"tp": Dropdown((1, 2, 4, 8, 16), 8, "tensor parallel"),
     "pp": Dropdown((1, 2, 4, 8), 4, "pipeline parallel"),
     "dp": Dropdown((1, 2, 8, 64, 512), 8, "data parallel"),
     "model": Dropdown(tuple(scaling.MODELS), "llama-3-70b", "model",
                       tuple(m.name for m in scaling.MODELS.values())),
     "oversubscription": FloatSlider(1.0, 8.0, 1.0, "spine oversubscription (x:1)",
                                     step=0.5)},
    _layout_summary,
    (("Move TP from 8 to 16. Which rung does tensor parallelism now cross, and how much "
      "longer does it take per step?",
      A.layout_tp16),
     ("With DP = 512 the gradient sync crosses the spine. Raise the oversubscription: how "
      "far can you go before DP becomes the slowest phase?",
      A.layout_taper),
     ("Why does pipeline parallelism tolerate the scale-out network so much better than "
      "tensor parallelism, although both move activations?",
      A.layout_pp_vs_tp)),
    update=P._fill_layout))
