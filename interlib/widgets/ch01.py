"""Chapter 1 demos."""

from __future__ import annotations


from .. import collectives, display, hierarchy, scaling
from ..plots import ch01 as P
from ..units import billion
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch01 as A


def _ring_summary(n, step):
    step = min(step, 2 * (n - 1))
    done = int((collectives.ring_all_reduce_state(n, step) == n).sum())
    moved = step / n
    return (f"{n} GPUs, {step} of {2 * (n - 1)} steps: {done} of {n * n} chunk copies fully "
            f"reduced; each GPU has sent {display.fmt_count(moved, 'buffer')} so far "
            f"(2(n-1)/n = {collectives.bus_factor('all_reduce', n):.3g} in total)")


register(Demo(
    "ring_all_reduce", P.ring_all_reduce,
    {"n": IntSlider(2, P.RING_MAX_N, 4, "GPUs"),
     "step": IntSlider(0, 2 * (P.RING_MAX_N - 1), 3, "steps done")},
    _ring_summary,
    (("After how many steps does the first chunk become fully reduced somewhere? Why that "
      "many?",
      A.ring_first_chunk),
     ("How many buffers does each GPU send in total for n = 2, 4 and 8? What does it "
      "approach as n grows, and why does that make the ring bandwidth-optimal?",
      A.ring_buffers_sent),
     ("Suppose one GPU's link is twice as slow as the others'. Which of the steps does it "
      "delay (look at which chunks are outlined at each step), and about how long does the "
      "whole all-reduce then take?",
      A.ring_slow_link)),
    update=P._fill_ring_all_reduce,
    limits=lambda n, step: {"step": (0, 2 * (n - 1))}))


def _sync_summary(params_billion, n_gpus, link, bytes_per_param):
    p = params_billion * billion
    rung = hierarchy.link(link)
    t = scaling.ring_sync_time(p, n_gpus, rung, bytes_per_param)
    t_peak = scaling.ring_sync_time(p, n_gpus, rung, bytes_per_param, achieved=False)
    g = scaling.gradient_bytes(p, bytes_per_param)
    text = (f"{display.fmt_bytes(g)} gradient, {display.fmt_count(n_gpus, 'GPU')} over "
            f"{link}: {display.fmt_time(t)} at {display.fmt_rate(rung.effective)} achieved "
            f"({display.fmt_time(t_peak)} at the {display.fmt_rate(rung.peak)} usable line "
            "rate); each GPU sends "
            f"{display.fmt_bytes(g * collectives.bus_factor('all_reduce', n_gpus))}")
    # A ring larger than any machine on this link rates hardware that does not exist:
    # say so (STYLE.md, a demo a reader can trust).
    beyond = A.beyond_machine(link, n_gpus)
    return f"{text}; but {beyond}" if beyond else text


_RING_MAX_GPUS = 1024


def _ring_gpus(link):
    """The GPU-count slider's range over ``link``: up to the largest NVLink domain of that
    generation in the catalogue (:data:`interlib.specs.inside_box.NVLINK_DOMAINS`) for an
    NVLink link (a ring over NVLink cannot leave its domain), else up to 1,024."""
    from ..specs.inside_box import NVLINK_DOMAINS

    gen = hierarchy.link(link).name.removeprefix("NVLink ")
    domains = [d for d in NVLINK_DOMAINS.values() if str(d.nvlink_gen) == gen]
    if not domains:
        return (2, _RING_MAX_GPUS)
    big = max(domains, key=lambda d: d.gpus.value)
    n = int(big.gpus.value)
    return (2, n, 1, f"the largest NVLink {gen} domain in the catalogue, {big.name}, has "
                     f"{n:,} GPUs")


register(Demo(
    "gradient_sync", P.gradient_sync,
    {"params_billion": FloatSlider(1.0, 1000.0, 70.0, "parameters (billions)", step=0.01,
                                   log=True, readout_format="num"),
     "n_gpus": IntSlider(2, _RING_MAX_GPUS, 8, "GPUs in the ring", log=True,
                         readout_format="num"),
     "link": Dropdown(tuple(hierarchy.link_options()), "NVLink 4", "link"),
     "bytes_per_param": Dropdown((2, 4), 2, "bytes per gradient value",
                                 ("2 (bf16)", "4 (fp32)"))},
    _sync_summary,
    (("Move the GPU count from 8 to 1024. Why does the time barely change for large models "
      "but grow for small ones?",
      A.sync_gpu_count),
     ("How many times longer does PCIe take than NVLink 4 for the same model? Compare with "
      "the ratio of their achieved bandwidths.",
      A.sync_pcie_vs_nvlink),
     ("If a training step computes for 1 s, which links let a 70B model synchronise its "
      "gradient without doubling the step time?",
      A.sync_one_second)),
    update=P._fill_gradient_sync,
    limits=lambda link, **_: {"n_gpus": _ring_gpus(link)}))


def _gpus(n_gpus) -> int:
    """The log slider's value as a whole GPU count."""
    return int(round(n_gpus))


def _straggler(n_gpus=64, jitter=0.05):
    """:func:`interlib.plots.ch01.straggler` at a whole GPU count (the slider is
    logarithmic, so its values are floats)."""
    return P.straggler(_gpus(n_gpus), jitter)


def _straggler_update(fig, n_gpus, jitter):
    return P._fill_straggler(fig, _gpus(n_gpus), jitter)


def _straggler_summary(n_gpus, jitter):
    n_gpus = _gpus(n_gpus)
    t = scaling.expected_step_time(n_gpus, 1.0, jitter)
    sim = P._simulated_step_time(n_gpus, jitter)  # memoised: the figure needs it too
    return (f"{display.fmt_count(n_gpus, 'GPU')} with {display.fmt_pct(jitter)} jitter: "
            f"expected step "
            f"{t:.3f}× the mean GPU time (simulation of {scaling.simulation_steps(n_gpus)} steps: "
            f"{sim:.3f}×)")


register(Demo(
    "straggler", _straggler,
    {"n_gpus": IntSlider(1, 100000, 64, "GPUs", log=True, readout_format="num"),
     "jitter": FloatSlider(0.0, P.STRAGGLER_JITTER_MAX, 0.05, "jitter (std/mean)",
                           step=0.005)},
    _straggler_summary,
    (("Going from 1,000 to 100,000 GPUs, how much slower does the average step get? Why does "
      "the growth slow down?",
      A.straggler_growth),
     ("Halve the jitter. What happens to the slowdown, and what does that suggest about the "
      "value of consistent hardware and quiet networks?",
      A.straggler_jitter)),
    update=_straggler_update))


# The demo moves tp, pp and dp; the model, sequence length and micro-batches stay at the
# plot function's defaults (for the summary too).
_TRAFFIC_FIXED = P.TRAFFIC_FIXED


def _traffic_summary(tp, pp, dp):
    m, tr = P._traffic(tp=tp, pp=pp, dp=dp, **_TRAFFIC_FIXED)
    return (f"{m.name}, {_TRAFFIC_FIXED['micro_batches']} micro-batches of one "
            f"{_TRAFFIC_FIXED['seq_len']:,}-token sequence, TP={tp} PP={pp} DP={dp}: "
            "per GPU per step DP "
            f"{display.fmt_bytes(tr.dp)}, TP {display.fmt_bytes(tr.tp)}, "
            f"PP {display.fmt_bytes(tr.pp)}")


def _traffic_update(fig, tp, pp, dp):
    """The shared fill of plots.ch01.parallelism_traffic at the demo's fixed settings."""
    return P._fill_parallelism_traffic(fig, tp, pp, dp, **_TRAFFIC_FIXED)


register(Demo(
    "parallelism_traffic", P.parallelism_traffic,
    {"tp": Dropdown(P.TRAFFIC_OPTIONS["tp"], 8, "tensor parallel"),
     "pp": Dropdown(P.TRAFFIC_OPTIONS["pp"], 4, "pipeline parallel"),
     "dp": Dropdown(P.TRAFFIC_OPTIONS["dp"], 16, "data parallel")},
    _traffic_summary,
    (("Which kind of parallelism sends the most bytes per GPU? Which one must finish inside "
      "every layer before the next can start?",
      A.traffic_most),
     ("Set TP to 1. Where did the traffic go, and what new problem (memory) appears?",
      A.traffic_tp1)),
    update=_traffic_update))
