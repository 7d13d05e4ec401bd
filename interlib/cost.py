"""What waiting costs: GPU-hours and dollars lost to communication, and interruptions at
scale (Chapter 8).

The price of a GPU-hour is **the reader's assumption**, not a catalogue fact: every function
takes it as a parameter. :data:`DEFAULT_PRICE_PER_GPU_HOUR` is only a labelled default so
the book can print an example; change it to your own contract or cloud price.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .specs import LLAMA3_GPUS, LLAMA3_INTERRUPTIONS, LLAMA3_SNAPSHOT_DAYS
from .units import day, hour

DEFAULT_PRICE_PER_GPU_HOUR = 2.0
"""US dollars per GPU-hour. A reader assumption (an illustrative round number for a
rented H100-class GPU), not a sourced price. Pass your own ``price_per_gpu_hour``."""


@dataclass(frozen=True)
class IdleCost:
    """GPU time and money lost to exposed communication.

    Attributes:
        gpu_hours: All GPU-hours in the period (n_gpus x hours).
        gpu_hours_lost: GPU-hours spent waiting on communication.
        dollars_lost: gpu_hours_lost x price.
        fraction: The share of time lost (exposed communication / step).
    """

    gpu_hours: object
    gpu_hours_lost: object
    dollars_lost: object
    fraction: object


def idle_cost(n_gpus, comm_fraction, period_s=30 * day,
              price_per_gpu_hour=DEFAULT_PRICE_PER_GPU_HOUR) -> IdleCost:
    """GPU-hours and dollars lost when ``comm_fraction`` of every step is spent waiting.

    ``lost = n_gpus x period / hour x comm_fraction``; ``dollars = lost x price``.

    Args:
        n_gpus: GPUs in the job (>= 1), scalar or array.
        comm_fraction: Exposed communication / step time, in [0, 1]
            (:attr:`interlib.steptime.StepTime.comm_fraction`).
        period_s: Length of the run, s (> 0); default 30 days.
        price_per_gpu_hour: Reader's price, US dollars per GPU-hour (>= 0).

    >>> round(idle_cost(1000, 0.1, 10 * hour, 2.0).dollars_lost, 6)
    2000.0
    """
    v.whole("n_gpus", n_gpus, lo=1)
    v.number("comm_fraction", comm_fraction, lo=0.0, hi=1.0)
    v.positive("period_s", period_s)
    v.non_negative("price_per_gpu_hour", price_per_gpu_hour)
    total = np.asarray(n_gpus, float) * period_s / hour
    lost = total * np.asarray(comm_fraction, float)
    return IdleCost(v.result(total), v.result(lost), v.result(lost * price_per_gpu_hour),
                    v.result(comm_fraction))


_ONE_PERCENT = 0.01


def value_of_efficiency_point(n_gpus, period_s=30 * day,
                              price_per_gpu_hour=DEFAULT_PRICE_PER_GPU_HOUR):
    """Dollars that one percentage point of efficiency is worth over ``period_s``:
    the :func:`idle_cost` of a 1 % share of the time, ``n_gpus x hours x price / 100``.

    Args:
        n_gpus: GPUs in the job (>= 1), scalar or array.
        period_s: Length of the run, s (> 0); default 30 days.
        price_per_gpu_hour: Reader's price, US dollars per GPU-hour (>= 0).

    >>> round(value_of_efficiency_point(100, 10 * hour, 2.0), 6)
    20.0
    """
    return idle_cost(n_gpus, _ONE_PERCENT, period_s, price_per_gpu_hour).dollars_lost


# --------------------------------------------------------------------- interruptions
def interruption_rate_per_gpu_hour() -> float:
    """Unexpected interruptions per GPU-hour in the Llama 3 405B snapshot:
    ``419 / (16,384 GPUs x 54 days)``, assuming they scale with GPU count."""
    gpu_hours = LLAMA3_GPUS.value * LLAMA3_SNAPSHOT_DAYS.value * day / hour
    return LLAMA3_INTERRUPTIONS["unexpected"].value / gpu_hours


def mean_time_between_interruptions(n_gpus):
    """Mean time between unexpected job interruptions for a synchronous job on
    ``n_gpus`` GPUs, s: ``1 / (rate_per_GPU x n_gpus)`` at the Llama 3 rate
    (:func:`interruption_rate_per_gpu_hour`). 16,384 GPUs: 54 days / 419, about 3.1 h.

    Args:
        n_gpus: GPUs (>= 1), scalar or array.
    """
    v.whole("n_gpus", n_gpus, lo=1)
    return v.result(hour / (interruption_rate_per_gpu_hour() * np.asarray(n_gpus, float)))


def young_checkpoint_interval(checkpoint_s, mtbi_s):
    """Young's optimal checkpoint interval, s: ``sqrt(2 x checkpoint_s x mtbi_s)``
    (J. W. Young, CACM 17(9), 1974).

    Args:
        checkpoint_s: Time to write one checkpoint, s (> 0).
        mtbi_s: Mean time between interruptions, s (> 0).
    """
    v.positive("checkpoint_s", checkpoint_s)
    v.positive("mtbi_s", mtbi_s)
    return v.result(np.sqrt(2 * np.asarray(checkpoint_s, float) * mtbi_s))


def interruption_overhead(n_gpus, restart_s=10 * 60.0, checkpoint_s=60.0):
    """Share of time lost to unexpected interruptions, checkpointing at Young's interval.

    Per interruption the job loses the restart time plus, on average, half a checkpoint
    interval of work; it also pays ``checkpoint_s`` every interval:
    ``overhead = checkpoint_s / T + (restart_s + T / 2) / MTBI``, capped at 1,
    with ``T = young_checkpoint_interval(checkpoint_s, MTBI)``.

    Args:
        n_gpus: GPUs (>= 1), scalar or array.
        restart_s: Time to detect, restart and reload after a failure, s (>= 0).
        checkpoint_s: Time to write one checkpoint, s (> 0).
    """
    v.non_negative("restart_s", restart_s)
    mtbi = mean_time_between_interruptions(n_gpus)
    T = young_checkpoint_interval(checkpoint_s, mtbi)
    return v.result(np.minimum(checkpoint_s / T + (restart_s + T / 2) / mtbi, 1.0))


def interruption_table():
    """Llama 3 405B's interruption snapshot (Table 5) as a :class:`~interlib.display.Table`:
    count, the share of unexpected interruptions computed from the counts, and the
    network-related subtotal. Categories this catalogue does not carry are summed as
    "other"."""
    from . import display

    I = LLAMA3_INTERRUPTIONS
    unexpected = I["unexpected"].value
    cats = [k for k in I if k not in ("total", "planned", "unexpected")]
    rows = []
    for k in cats:
        rows.append([k, f"{I[k].value:g}", display.fmt_pct(I[k].value / unexpected),
                     I[k].note])
    other = unexpected - sum(I[k].value for k in cats)
    rows.append(["other categories", f"{other:g}", display.fmt_pct(other / unexpected),
                 "the rest of Table 5 (GPU SRAM, software bugs, host maintenance, ...)"])
    net = network_interruptions()
    rows.append(["network-related (switch/cable + NIC + NCCL watchdog)", f"{net:g}",
                 display.fmt_pct(net / unexpected),
                 "sum of the three rows above (a watchdog timeout can also have other causes)"])
    rows.append(["all unexpected", f"{unexpected:g}", display.fmt_pct(1.0),
                 f"plus {I['planned'].value:g} planned = {I['total'].value:g} in "
                 f"{LLAMA3_SNAPSHOT_DAYS.value:g} days on {LLAMA3_GPUS.value:,.0f} GPUs"])
    return display.Table(["category", "count", "share of unexpected (computed)", "note"],
                         rows, f"Source: {I['total'].source.title}.")


def network_interruptions() -> float:
    """Network-related unexpected interruptions in the Llama 3 snapshot: switch/cable +
    NIC + NCCL watchdog timeouts (35 + 7 + 7)."""
    I = LLAMA3_INTERRUPTIONS
    return sum(I[k].value for k in ("Network switch/cable", "NIC",
                                    "NCCL watchdog timeouts"))


def network_interruption_interval(n_gpus, include_watchdog: bool = False):
    """Mean time between *network-hardware* interruptions (switch/cable and NIC rows of
    Llama 3's Table 5) for a synchronous job on ``n_gpus`` GPUs, s, assuming they scale
    with GPU count like the rest: ``54 days x 16,384 / (42 x n_gpus)``. Link flaps and
    failing optics land in the switch/cable row.

    Args:
        n_gpus: GPUs (>= 1), scalar or array.
        include_watchdog: Also count the NCCL watchdog timeouts (whose cause the paper
            leaves unknown).

    >>> from interlib.units import day
    >>> round(float(network_interruption_interval(16384)) / day, 2)  # 54 / (35 + 7)
    1.29
    """
    v.whole("n_gpus", n_gpus, lo=1)
    v.flag("include_watchdog", include_watchdog)
    I = LLAMA3_INTERRUPTIONS
    keys = ["Network switch/cable", "NIC"] + (["NCCL watchdog timeouts"]
                                              if include_watchdog else [])
    count = sum(I[k].value for k in keys)
    gpu_s = LLAMA3_GPUS.value * LLAMA3_SNAPSHOT_DAYS.value * day
    return v.result(gpu_s / (count * np.asarray(n_gpus, float)))


# ------------------------------------------------------------ cost at three scales
SCALES = (8, 1024, 16384)
"""The GPU counts Chapter 8 prices: one node, "1K" and "16K" (Llama 3 405B's scale)."""


def communication_cost(system="NVLink + NDR InfiniBand", n_gpus=SCALES,
                       model: str = "llama-3-70b", tp: int = 8, pp: int = 1,
                       mfu: float = 0.4, overlap: float = 0.8, period_s=30 * day,
                       price_per_gpu_hour=DEFAULT_PRICE_PER_GPU_HOUR):
    """Step time and money lost to exposed communication at several GPU counts.

    Weak scaling with :func:`interlib.steptime.step_time`: TP x PP fixed, dp = n / (tp pp),
    the micro-batches and sequence length of :func:`interlib.steptime.step_time`'s
    defaults per replica.

    Args:
        system: Catalogue id, :data:`interlib.steptime.FABRICS` name or System.
        n_gpus: GPU counts (each a multiple of tp x pp).
        model, tp, pp, mfu, overlap: As in :func:`interlib.steptime.step_time`.
        period_s: Run length, s; price_per_gpu_hour: reader's price, $.

    Returns:
        A list of ``(n, StepTime, IdleCost)``.
    """
    from . import scaling, steptime

    v.choice("model", model, scaling.MODELS)
    tp = v.integer("tp", tp, lo=1)
    pp = v.integer("pp", pp, lo=1)
    out = []
    for n in v.items("n_gpus", n_gpus):
        n = v.integer("n_gpus", n, lo=1)
        if n % (tp * pp):
            raise ValueError(f"n_gpus={n} is out of range: must be a multiple of tp x pp")
        st = steptime.step_time(system, model, tp, pp, n // (tp * pp), mfu=mfu,
                                overlap=overlap)
        out.append((n, st, idle_cost(n, st.comm_fraction, period_s, price_per_gpu_hour)))
    return out


def communication_cost_table(price_per_gpu_hour=DEFAULT_PRICE_PER_GPU_HOUR,
                             mfu: float = 0.4, overlap: float = 0.8, period_s=30 * day,
                             model: str = "llama-3-70b"):
    """:func:`communication_cost` for both Chapter 8 fabrics as a Table. A scale at which the
    model does not fit in the GPUs' HBM (:attr:`interlib.steptime.StepTime.fits`: Llama 3
    70B on one 8-GPU node) is not priced: its row says what each GPU would have to hold."""
    from . import display, scaling, steptime

    v.choice("model", model, scaling.MODELS)
    rows = []
    unfit = False
    for fab in steptime.FABRICS:
        for n, st, ic in communication_cost(fab, SCALES, model, mfu=mfu, overlap=overlap,
                                            period_s=period_s,
                                            price_per_gpu_hour=price_per_gpu_hour):
            if not st.fits:
                unfit = unfit or (n, st.memory)
                rows.append([fab, f"{n:,}", "does not fit in HBM", "—", "—", "—", "—"])
                continue
            rows.append([fab, f"{n:,}", display.fmt_time(st.step),
                         display.fmt_pct(st.comm_fraction), display.fmt_pct(st.efficiency),
                         f"{ic.gpu_hours_lost:,.0f}", f"${ic.dollars_lost:,.0f}"])
    return display.Table(
        ["fabric", "GPUs", "step", "waiting on communication", "efficiency", "GPU-hours lost",
         "dollars lost"], rows,
        f"{display.fmt_time(period_s)} of training, TP 8 x DP, MFU {display.fmt_pct(mfu)}, "
        f"overlap {display.fmt_pct(overlap)}, ${price_per_gpu_hour:.2f} per GPU-hour "
        "(reader assumption)." + (
            f" Not priced on {unfit[0]:,} GPUs: each would hold "
            f"{display.fmt_bytes(unfit[1].total)} (weights, gradients, optimizer state, "
            f"activations) in {display.fmt_bytes(unfit[1].capacity)} of HBM." if unfit else ""))


def interruption_scale_table(n_gpus=SCALES, restart_s=10 * 60.0, checkpoint_s=60.0):
    """Mean time between interruptions, Young's checkpoint interval and the share of time
    lost, at several GPU counts (Llama 3 interruption rate), as a Table."""
    from . import display

    rows = []
    for n in v.items("n_gpus", n_gpus):
        v.integer("n_gpus", n, lo=1)
        mtbi = float(mean_time_between_interruptions(n))
        rows.append([f"{n:,}", display.fmt_time(mtbi),
                     display.fmt_time(float(young_checkpoint_interval(checkpoint_s, mtbi))),
                     display.fmt_pct(float(interruption_overhead(n, restart_s,
                                                                 checkpoint_s)))])
    return display.Table(
        ["GPUs", "mean time between interruptions", "checkpoint every (Young)",
         "time lost"], rows,
        f"Assumes interruptions scale with GPU count at the Llama 3 rate; restart "
        f"{display.fmt_time(restart_s)} and checkpoint write {display.fmt_time(checkpoint_s)}"
        " are reader assumptions.")
