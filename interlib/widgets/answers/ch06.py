"""Answers to Chapter 6's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from ... import display as D, reliability
from ...plots import ch06 as P
from ...units import ms
from . import default


def drop_billion() -> str:
    packets, base = reliability.drop_step_setup()
    p = P.DROP_RATE_RANGE[0]
    n = reliability.gpus_for_hit_probability(p, packets, 0.5)
    s = P.drop_stats(p, n, 1.0)
    return (f"Each GPU sends {packets:,} packets per step. A step is clean only if every packet "
            "of every GPU arrives: probability (1 − p)^(m·N). It drops below one half when "
            "N > ln 2 ÷ (m·p) (using ln(1 − p) ≈ −p): at p = "
            f"{D.fmt_num(p)} that is N = {n:,} GPUs, where the model gives "
            f"{D.fmt_num(s.p_step_hit)} for a step with a drop. A rate that sounds negligible per "
            "packet is multiplied by the packets of the whole job every step.")


def drop_p99() -> str:
    s = P.drop_stats(1e-6, 1024, 1.0)
    return ("Every step is a barrier: all GPUs wait for the slowest, and a job runs for "
            "thousands of steps, so the rare slow steps happen again and again and each one "
            "idles every GPU. The tail is also what a drop produces: most steps are clean or "
            "nearly so, a few lose a retransmission timeout. At the demo's defaults the mean "
            f"step is {s.mean_slowdown:.3f}× the drop-free time and the 99th percentile "
            f"{s.p99_slowdown:.3f}×; one step in a hundred is that slow, and with ten "
            "thousand steps that is a hundred of them. Tail latency, not the average, "
            "decides the throughput of synchronous work.")


def drop_levers() -> str:
    n, p, pen = 16384, 1e-6, 1.0
    base = P.drop_stats(p, n, pen)
    rate = P.drop_stats(p / 2, n, pen)
    time = P.drop_stats(p, n, pen / 2)
    return (f"At {n:,} GPUs (drop rate {D.fmt_num(p)}, {D.fmt_time(pen * ms)} per drop) the mean "
            f"step is {base.mean_slowdown:.3f}×. Halving the drop rate gives "
            f"{rate.mean_slowdown:.3f}×; halving the time per drop gives "
            f"{time.mean_slowdown:.3f}×. At this scale almost every step already contains "
            "drops, and the step waits for the GPU with the most of them; halving the rate "
            "removes only some drops from that worst GPU, while halving the penalty halves "
            "the cost of every one of them. Fast retransmission (short timeouts, selective "
            "repeat) beats shaving the loss rate once drops are certain.")


def pfc_off() -> str:
    r = P.pfc_storm_run(True, False, 600, 0.6)
    return ("With the watchdog off, the stuck receiver keeps pausing switch 2's port; switch "
            "2 fills with packets for it and pauses the uplink; switch 1 then fills and "
            f"pauses its hosts. At the end {int(r.paused_hosts.max())} of {P.PFC_SENDERS} "
            "senders are paused, and the healthy receiver gets "
            f"{r.good_rx[-100:].mean():.3f} packets per step. Only host 0 was sending to the "
            "broken receiver; the others were sending to a healthy one and are victims: PFC "
            "pauses a whole link (per priority class), not a flow, so the pause spreads "
            "backwards through the shared uplink to everyone behind it. That is a PFC storm.")


def pfc_short() -> str:
    load, long_w = default("pfc_storm", "load"), default("pfc_storm", "watchdog_steps")
    short_w = 100  # a shortened trigger
    long_, short = (P.pfc_storm_run(True, True, w, load) for w in (long_w, short_w))
    return (f"A shorter trigger breaks the storm sooner: with {long_w} steps it fires at t = "
            f"{long_.watchdog_fired_at} and at most {int(long_.paused_hosts.max())} senders "
            f"are paused at once; with {short_w} steps it fires at t = {short.watchdog_fired_at} "
            f"and {int(short.paused_hosts.max())} are. The healthy traffic recovers "
            "sooner. The risk: the watchdog drops packets for that port and disables "
            "lossless behaviour on a lossless (RDMA) class. A receiver that is only briefly "
            "slow (a burst, a short GC pause) pauses legitimately; a trigger shorter than "
            "such pauses turns normal back-pressure into drops and RDMA retransmissions. "
            "The trigger must sit above the longest legitimate pause.")


def dcqcn_kmax() -> str:
    a, b = P.dcqcn_run(8, 5.0, 200.0, 0.01), P.dcqcn_run(8, 5.0, 2000.0, 0.01)
    rate = a.capacity
    return (f"The mean queue grows from {D.fmt_bytes(a.mean_queue)} to "
            f"{D.fmt_bytes(b.mean_queue)} with the link still "
            f"{D.fmt_pct(b.utilisation)} used: marking probability now rises more slowly "
            "with the queue, so senders are told to slow down only when the queue is deeper. "
            "A small message behind that queue waits queue ÷ link rate: "
            f"{D.fmt_time(a.mean_queue / rate)} before, {D.fmt_time(b.mean_queue / rate)} "
            f"after, at {D.fmt_rate(rate)}. Throughput is free, latency is not: "
            "latency-sensitive collectives (small all-reduces) pay it on every hop.")


def dcqcn_steep() -> str:
    a, b = P.dcqcn_run(8, 5.0, 200.0, 0.01), P.dcqcn_run(8, 5.0, 101.0, 1.0)
    return (f"The queue shrinks ({D.fmt_bytes(a.mean_queue)} → {D.fmt_bytes(b.mean_queue)}), "
            "but the late joiner takes much longer to reach its fair share: "
            f"{D.fmt_time(a.settle_time())} with the default marking, "
            f"{D.fmt_time(b.settle_time())} with steep marking. With a tiny queue almost "
            "every sender is marked all the time, so all rates are cut often and the "
            "newcomer, which starts at line rate and is cut with everyone, has to climb "
            "back slowly by additive increase. Steep marking trades convergence speed (and, "
            "in a real network, stability) for a short queue.")


def dcqcn_joiner() -> str:
    r = P.dcqcn_run(8, 5.0, 200.0, 0.01)
    return (f"About {D.fmt_time(r.settle_time())} at the defaults (the joiner ends at "
            f"{D.fmt_pct(r.joiner_share)} of its fair share). DCQCN converges through its "
            "timers and counters, not the round trip: senders are cut at most once per CNP "
            "interval, and raise their rate by fast recovery then additive and hyper "
            "increase once per increase interval. The incumbents must be cut and the "
            "joiner's rate must settle; that takes many tens of increase intervals, "
            "milliseconds, far longer than the microsecond round trip.")
