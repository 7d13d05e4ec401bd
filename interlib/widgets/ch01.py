"""Chapter 1 demos."""

from __future__ import annotations

from .. import collectives, display, hierarchy, scaling
from ..plots import ch01 as P
from ..units import billion
from . import Demo, Dropdown, FloatSlider, IntSlider, register


def _ring_summary(n, step):
    step = min(step, 2 * (n - 1))
    done = int((collectives.ring_all_reduce_state(n, step) == n).sum())
    moved = step / n
    return (f"{n} GPUs, {step} of {2 * (n - 1)} steps: {done} of {n * n} chunk copies fully "
            f"reduced; each GPU has sent {moved:.3g} buffers so far "
            f"(2(n-1)/n = {collectives.bus_factor('all_reduce', n):.3g} in total)")


register(Demo(
    "ring_all_reduce", P.ring_all_reduce,
    {"n": IntSlider(2, 8, 4, "GPUs"), "step": IntSlider(0, 14, 0, "steps done")},
    _ring_summary,
    ("After how many steps does the first chunk become fully reduced somewhere? Why that "
     "many?",
     "How many buffers does each GPU send in total for n = 2, 4 and 8? What does it "
     "approach as n grows, and why does that make the ring bandwidth-optimal?",
     "Which step would a GPU that is twice as slow as the others delay, and by how much?")))


def _sync_summary(params_billion, n_gpus, link, bytes_per_param):
    p = params_billion * billion
    rung = hierarchy.link(link)
    t = scaling.ring_sync_time(p, n_gpus, rung, bytes_per_param)
    t_peak = scaling.ring_sync_time(p, n_gpus, rung, bytes_per_param, achieved=False)
    g = scaling.gradient_bytes(p, bytes_per_param)
    return (f"{display.fmt_bytes(g)} gradient, {n_gpus} GPUs over {link}: "
            f"{display.fmt_time(t)} at {display.fmt_rate(rung.effective)} achieved "
            f"({display.fmt_time(t_peak)} at the {display.fmt_rate(rung.peak)} line rate); "
            f"each GPU sends {display.fmt_bytes(g * collectives.bus_factor('all_reduce', n_gpus))}")


def _sync_update(fig, params_billion, n_gpus, link, bytes_per_param):
    """In-place twin of plots.ch01.gradient_sync (same artists, same order)."""
    ax = fig.axes[0]
    lines, legend = ax.lines, ax.get_legend().get_lines()
    sizes = lines[0].get_xdata()
    for i, (name, rung) in enumerate(hierarchy.link_options().items()):
        lw = 2.6 if name == link else 1.2
        lines[2 * i].set_ydata(scaling.ring_sync_time(sizes, n_gpus, rung, bytes_per_param))
        lines[2 * i].set_linewidth(lw)
        legend[i].set_linewidth(lw)
        lines[2 * i + 1].set_ydata(
            scaling.ring_sync_time(sizes, n_gpus, rung, bytes_per_param, False))
    p = params_billion * billion
    t = scaling.ring_sync_time(p, n_gpus, link, bytes_per_param)
    lines[-1].set_data([p], [t])
    note = ax.texts[-1]
    note.xy = (p, t)
    note.set_text(display.fmt_time(t))
    ax.set_title(f"Ring all-reduce of a {bytes_per_param}-byte gradient on {n_gpus} GPUs "
                 "(dashed: line rate)", fontsize=10)
    return [*lines, ax.get_legend(), note, ax.title]


register(Demo(
    "gradient_sync", P.gradient_sync,
    {"params_billion": FloatSlider(1.0, 1000.0, 70.0, "parameters (billions)", step=0.01,
                                   log=True),
     "n_gpus": IntSlider(2, 1024, 8, "GPUs in the ring"),
     "link": Dropdown(tuple(hierarchy.link_options()), "NVLink 4", "link"),
     "bytes_per_param": Dropdown((2, 4), 2, "bytes per gradient value")},
    _sync_summary,
    ("Move the GPU count from 8 to 1024. Why does the time barely change for large models "
     "but grow for small ones?",
     "How many times longer does PCIe take than NVLink 4 for the same model? Compare with "
     "the ratio of their achieved bandwidths.",
     "If a training step computes for 1 s, which links let a 70B model synchronise its "
     "gradient without doubling the step time?"),
    update=_sync_update))


def _straggler_summary(n_gpus, jitter):
    t = scaling.expected_step_time(n_gpus, 1.0, jitter)
    sim = scaling.simulated_step_time(n_gpus, 1.0, jitter)
    return (f"{n_gpus} GPUs with {display.fmt_pct(jitter)} jitter: expected step "
            f"{t:.3f}× the mean GPU time (simulation of {scaling.simulation_steps(n_gpus)} steps: "
            f"{sim:.3f}×)")


def _straggler_update(fig, n_gpus, jitter):
    """In-place twin of plots.ch01.straggler (same artists, same order)."""
    ax = fig.axes[0]
    lines = ax.lines
    legend = ax.get_legend()
    ns = lines[0].get_xdata()
    lines[3].set_ydata(scaling.expected_step_time(ns, 1.0, jitter))
    legend.get_texts()[3].set_text(f"chosen jitter {display.fmt_pct(jitter)}")
    t = scaling.expected_step_time(n_gpus, 1.0, jitter)
    sim = scaling.simulated_step_time(n_gpus, 1.0, jitter)
    lines[4].set_data([n_gpus], [t])
    lines[5].set_data([n_gpus], [sim])
    legend.get_texts()[4].set_text(f"simulated ({scaling.simulation_steps(n_gpus)} steps)")
    note = ax.texts[-1]
    note.xy = (n_gpus, t)
    note.set_text(f"{t:.3f}× the mean")
    return [*lines[3:], legend, note]


register(Demo(
    "straggler", P.straggler,
    {"n_gpus": IntSlider(1, 100000, 64, "GPUs"),
     "jitter": FloatSlider(0.0, 0.3, 0.05, "jitter (std/mean)", step=0.005)},
    _straggler_summary,
    ("Going from 1,000 to 100,000 GPUs, how much slower does the average step get? Why does "
     "the growth slow down?",
     "Halve the jitter. What happens to the slowdown, and what does that suggest about the "
     "value of consistent hardware and quiet networks?"),
    update=_straggler_update))


def _traffic_summary(tp, pp, dp):
    m = scaling.model("llama-3-70b")
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, 4096, 1, 8, tp=tp, pp=pp,
                                     dp=dp)
    return (f"{m.name}, TP={tp} PP={pp} DP={dp}: per GPU per step DP "
            f"{display.fmt_bytes(tr.dp)}, TP {display.fmt_bytes(tr.tp)}, "
            f"PP {display.fmt_bytes(tr.pp)}")


def _traffic_update(fig, tp, pp, dp):
    """In-place twin of plots.ch01.parallelism_traffic at its default model and sequence
    (bars, value labels, x range, title). The x range changes, so the whole figure is
    redrawn (returns None): no blitting."""
    import inspect

    ax = fig.axes[0]
    d = {k: p.default for k, p in inspect.signature(P.parallelism_traffic).parameters.items()}
    m = scaling.model(d["model"])
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, d["seq_len"], 1,
                                     d["micro_batches"], tp=tp, pp=pp, dp=dp)
    vals = [tr.dp, tr.tp, tr.pp]
    for bar, label, val in zip(ax.patches, ax.texts, vals):
        bar.set_width(val)
        label.set_x(val)
        label.set_text(" " + display.fmt_bytes(val))
    ax.set_xlim(0, max(max(vals), 1.0) * 1.3)
    ax.set_title(f"{m.name}: traffic per GPU per step, TP={tp} × PP={pp} × DP={dp}",
                 fontsize=10)
    return None


register(Demo(
    "parallelism_traffic", P.parallelism_traffic,
    {"tp": Dropdown((1, 2, 4, 8), 8, "tensor parallel"),
     "pp": Dropdown((1, 2, 4, 8, 16), 4, "pipeline parallel"),
     "dp": Dropdown((1, 2, 8, 16, 64, 256), 16, "data parallel")},
    _traffic_summary,
    ("Which kind of parallelism sends the most bytes per GPU? Which one must finish inside "
     "every layer before the next can start?",
     "Set TP to 1. Where did the traffic go, and what new problem (memory) appears?"),
    update=_traffic_update))
