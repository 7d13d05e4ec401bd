"""Tests for interlib.flowcontrol: credit-based vs lossy links, and the PFC storm model.

Expected values are hand-derived limits: a credit loop of C credits over a round trip of
R packet times carries min(1, C/R) packets per packet time; nothing is dropped with
credits; a lossy link with a buffer larger than everything sent never drops; with one
sender below line rate PFC never pauses.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interlib import flowcontrol as F


@pytest.mark.parametrize("rtt, credits", [(16, 4), (16, 8), (16, 12), (32, 8), (8, 2)])
def test_credit_throughput_is_credits_over_rtt(rtt, credits):
    r = F.credit_vs_lossy("credit", credits, 0.0, rtt, steps=4000)
    assert r.drops == 0
    # start-up costs at most one round trip
    assert r.goodput == pytest.approx(credits / rtt, abs=rtt / 4000 + 1e-9)
    assert F.credit_throughput_bound(credits, rtt) == pytest.approx(credits / rtt)


@pytest.mark.parametrize("rtt", [4, 16, 64])
def test_credits_at_least_bdp_give_full_rate(rtt):
    for credits in (F.bdp_packets(rtt), 2 * rtt):
        r = F.credit_vs_lossy("credit", credits, 0.0, rtt, steps=4000)
        assert r.goodput >= 1 - rtt / 2 / 4000 - 1e-9
        assert r.drops == 0 and r.discarded == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 128), st.floats(0.0, 0.9), st.sampled_from([2, 8, 16, 40]),
       st.integers(0, 5))
def test_credit_never_drops_and_respects_buffer(buf, load, rtt, seed):
    r = F.credit_vs_lossy("credit", buf, load, rtt, steps=600, seed=seed)
    assert r.drops == 0 and r.discarded == 0
    assert r.occupancy.max() <= buf
    assert np.all(np.diff(r.delivered) >= 0)
    assert r.goodput <= F.credit_throughput_bound(buf, rtt, 1.0) + 1e-12


def test_lossy_with_huge_buffer_never_drops():
    r = F.credit_vs_lossy("lossy", 4096, 0.5, 16, steps=3000)
    assert r.drops == 0 and r.discarded == 0
    # the receiver still only forwards at its drain rate
    assert r.goodput == pytest.approx(0.5, abs=0.03)


def test_lossy_under_congestion_drops_and_wastes_the_link():
    r = F.credit_vs_lossy("lossy", 16, 0.5, 16, steps=4000)
    c = F.credit_vs_lossy("credit", 16, 0.5, 16, steps=4000)
    assert r.drops > 0 and r.discarded > 0
    assert r.offered == pytest.approx(1.0, abs=1e-3)      # the sender never slows down
    assert c.offered < 0.6                                 # credits pace the sender
    assert r.goodput <= c.goodput + 0.02


def test_same_seed_same_result():
    a = F.credit_vs_lossy("lossy", 8, 0.4, 16, steps=1000, seed=3)
    b = F.credit_vs_lossy("lossy", 8, 0.4, 16, steps=1000, seed=3)
    assert a.drops == b.drops and np.array_equal(a.delivered, b.delivered)


def test_pfc_one_sender_no_pauses():
    # one sender at line rate into a healthy receiver: never a pause
    r = F.pfc_storm(senders=1, load=1.0, failure=False, watchdog=False)
    assert r.pause_steps == 0
    assert r.good_rx[5:].min() == pytest.approx(1.0)
    # the stuck receiver pauses its own link, but no traffic of ours waits behind it
    s = F.pfc_storm(senders=1, load=1.0, failure=True, watchdog=False)
    assert s.paused_uplink.max() == 0 and s.paused_hosts.max() == 0


def test_pfc_no_failure_no_pauses_and_full_delivery():
    r = F.pfc_storm(senders=4, load=0.8, failure=False)
    assert r.pause_steps == 0
    assert (r.good_rx + r.bad_rx)[10:].mean() == pytest.approx(0.8)


def test_pfc_storm_spreads_without_watchdog():
    r = F.pfc_storm(senders=4, load=0.6, failure=True, watchdog=False, steps=800)
    assert r.paused_uplink[-1] == 1.0
    assert r.paused_hosts[-1] == 4          # every sender is paused: congestion spread
    assert r.good_rx[-100:].max() == 0.0    # the healthy receiver starves (HOL blocking)


def test_pfc_watchdog_contains_the_storm():
    r = F.pfc_storm(senders=4, load=0.6, failure=True, watchdog=True, watchdog_steps=300,
                    steps=1000)
    assert r.watchdog_fired_at == 50 + 300 - 1
    # healthy flows recover to their offered share: 3 of 4 senders x 0.6 / 4
    assert r.good_rx[-100:].mean() == pytest.approx(0.45, abs=1e-6)
    assert r.dropped[-1] > 0


@pytest.mark.parametrize("call, name", [
    (lambda: F.credit_vs_lossy("tcp"), "^mode="),
    (lambda: F.credit_vs_lossy("credit", 0), "^buffer_packets="),
    (lambda: F.credit_vs_lossy("credit", 8, 1.5), "^load="),
    (lambda: F.credit_vs_lossy("credit", 8, 0.0, 15), "^rtt_steps="),
    (lambda: F.credit_vs_lossy("credit", 8, 0.0, 16, steps=10), "^steps="),
    (lambda: F.credit_throughput_bound(0, 16), "^credits="),
    (lambda: F.pfc_storm(senders=0), "^senders="),
    (lambda: F.pfc_storm(load=0.0), "^load="),
    (lambda: F.pfc_storm(xoff=10, xon=20), "^xon="),
    (lambda: F.pfc_storm(failure="yes"), "^failure="),
    (lambda: F.pfc_storm(watchdog_steps=0), "^watchdog_steps="),
    (lambda: F.pfc_headroom_bytes(50e9, 10, response_s=-1), "^response_s="),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_buffer_sizing_by_hand():
    from interlib.units import GB_per_s, us

    # 100 m of fibre at 2e8 m/s: 0.5 us each way, 1 us round trip
    assert F.round_trip(100) == pytest.approx(1 * us)
    # 400 Gb/s = 50 GB/s x 1 us = 50 kB
    assert F.credit_buffer_bytes(50 * GB_per_s, 100) == pytest.approx(50e3)
    assert F.pfc_headroom_bytes(50 * GB_per_s, 100, 1 * us, 4096) == pytest.approx(
        50 * GB_per_s * 2 * us + 2 * 4096)
    with pytest.raises(ValueError, match="^distance_m="):
        F.round_trip(-1)
    with pytest.raises(ValueError, match="^link_rate="):
        F.credit_buffer_bytes(0, 1)


# ----------------------------------------------------- argument sweep: whole credits
@pytest.mark.parametrize("credits", [2.5, np.array([4, 4.5])])
def test_credit_throughput_bound_refuses_fractional_credits(credits):
    with pytest.raises(ValueError, match="^credits=.*whole"):
        F.credit_throughput_bound(credits, 16)


# --------------------------------------------------- deep- vs shallow-buffer switches
def test_deep_buffer_queue_by_hand():
    """5 ms of a 100 Gb/s port is 62.5 MB; of 400 GbE (the default) 250 MB; and that
    waiting time is four orders of magnitude above a shallow switch hop (100-300 ns)."""
    from interlib.specs import fabric as F
    from interlib.units import Gbit_per_s, MB
    assert F.deep_buffer_queue_bytes(100 * Gbit_per_s) == pytest.approx(62.5 * MB)
    assert F.deep_buffer_queue_bytes() == pytest.approx(250 * MB)
    assert F.DEEP_BUFFER_QUEUE_LIMIT.value / F.SWITCH_HOP_LATENCY["high"].value > 1e4


def test_nccl_ib_defaults_and_sharp_trees():
    from interlib.specs import fabric as F
    assert F.NCCL_IB_DEFAULTS["qps_per_connection"].value == 1
    assert F.NCCL_IB_DEFAULTS["timeout_exponent"].value == 20
    assert F.SHARP_TREES["Quantum-2 (NDR)"].value > F.SHARP_TREES["Quantum (HDR)"].value
    assert F.XDR_SWITCH_PORT_RATE.value == pytest.approx(2 * 400e9 / 8)


@pytest.mark.parametrize("rate", [0, -1.0, float("nan")])
def test_deep_buffer_bad_input(rate):
    from interlib.specs import fabric as F
    with pytest.raises(ValueError, match="^port_rate="):
        F.deep_buffer_queue_bytes(rate)


# ------------------------------------------------------- the PFC storm, step by step by hand
def test_pfc_storm_without_failure_by_hand():
    # 4 hosts offer 0.6 packets per step, 0.15 each; the uplink (1 per step) carries all
    # of it at once; host 0's 0.15 reaches the failing receiver, the other 0.45 the
    # healthy one; no queue ever forms, so nothing pauses and nothing is dropped
    r = F.pfc_storm(4, 0.6, failure=False)
    assert r.t.tolist() == list(range(600))
    assert r.good_rx == pytest.approx(np.full(600, 0.45))
    assert r.bad_rx == pytest.approx(np.full(600, 0.15))
    for q in (r.q_leaf, r.q_good, r.q_bad, r.paused_uplink, r.paused_hosts, r.dropped):
        assert q == pytest.approx(np.zeros(600), abs=1e-12)
    assert r.pause_steps == 0 and r.watchdog_fired_at == -1


def test_pfc_storm_without_watchdog_by_hand():
    # the failing receiver stops at step 50: after step t its switch-2 queue holds
    # 0.15 (t - 49) packets; that exceeds XOFF = 40 first at t - 49 = 267, t = 316, when
    # switch 2 pauses the uplink; from step 317 the healthy receiver gets nothing. Each
    # host then queues 0.15 a step in switch 1 and exceeds 40 at step 316 + 267 = 583,
    # when switch 1 pauses all 4 hosts. Link-steps paused: the stuck receiver 550 (steps
    # 50-599), the uplink 284 (316-599), the hosts 4 x 17 (583-599): 902
    r = F.pfc_storm(4, 0.6, failure=True, watchdog=False)
    assert r.bad_rx[:50] == pytest.approx(np.full(50, 0.15)) and not r.bad_rx[50:].any()
    assert r.q_bad[315] == pytest.approx(0.15 * 266) and r.q_bad[316] == pytest.approx(40.05)
    assert r.paused_uplink[:316].sum() == 0 and r.paused_uplink[316:].all()
    assert r.good_rx[:317] == pytest.approx(np.full(317, 0.45))
    assert not r.good_rx[317:].any()
    assert r.q_leaf[400] == pytest.approx(4 * 0.15 * (400 - 316))
    assert r.paused_hosts[:583].sum() == 0 and (r.paused_hosts[583:] == 4).all()
    assert r.pause_steps == 550 + 284 + 4 * 17
    assert r.watchdog_fired_at == -1 and not r.dropped.any()


def test_pfc_storm_watchdog_by_hand():
    # the watchdog counts stuck steps from step 50 and fires on the 100th, step 149,
    # dropping the 0.15 x 100 = 15 packets held (below XOFF: the uplink never paused), then
    # every 0.15 that arrives for the dead port: 15 + 0.15 x 450 = 82.5 by step 599. The
    # stuck link counts as paused in steps 50-148 (99 steps; in step 149 the watchdog
    # takes over). The healthy receiver never notices.
    r = F.pfc_storm(4, 0.6)
    assert r.watchdog_fired_at == 149
    assert r.dropped[148] == 0 and r.dropped[149] == pytest.approx(15)
    assert r.dropped[-1] == pytest.approx(15 + 0.15 * 450)
    assert r.good_rx == pytest.approx(np.full(600, 0.45))
    assert not r.paused_uplink.any() and r.pause_steps == 99
    # 99 stuck steps' packets before the firing step (50-148), 100 with it
    assert r.q_bad[148] == pytest.approx(0.15 * 99) and not r.q_bad[149:].any()
    # a failure that starts later and a shorter watchdog move both by hand: fail at 100,
    # 20 steps: fires at step 119 with 0.15 x 20 = 3 packets held
    s = F.pfc_storm(4, 0.6, fail_at=100, watchdog_steps=20)
    assert s.watchdog_fired_at == 119 and s.dropped[119] == pytest.approx(3)
    assert s.pause_steps == 19


def test_pfc_storm_hysteresis_by_hand():
    # XOFF 10, XON 5, watchdog after 100 stuck steps: switch 2 holds 0.15 (t - 49) > 10
    # from t = 116 and pauses the uplink; the watchdog fires at step 149 and empties the
    # dead port's queue (0.15 x 67 = 10.05 packets: nothing arrived while paused), so
    # switch 2 holds 0 < XON and resumes the uplink after step 149. Meanwhile each host
    # queued 0.15 x 33 = 4.95 packets in switch 1 (steps 117-149), below XOFF: no host
    # pause. With XON = 9.9 instead the uplink would stay paused while switch 2 holds more
    # than 9.9: the same here, since the queue drops straight to 0
    r = F.pfc_storm(4, 0.6, xoff=10, xon=5)
    assert r.paused_uplink[:116].sum() == 0 and r.paused_uplink[116:149].all()
    assert not r.paused_uplink[149:].any()
    assert r.dropped[149] == pytest.approx(10.05)
    assert r.q_leaf[149] == pytest.approx(4 * 4.95)
    assert not r.paused_hosts.any()
    # after the resume the uplink drains switch 1's backlog at its full rate of 1 per step
    assert r.good_rx[150] == pytest.approx(1.0 * 0.75)   # the healthy 3 of 4 hosts' share
    assert r.pause_steps == 99 + (149 - 116)


def test_bounds_and_headroom_edges_by_hand():
    # a round trip of 2..10,000 packet times; more credits than the round trip cannot
    # beat the link (min(1, drain, C/R)): 64 credits over 16 steps -> 1, drain 0.5 -> 0.5
    assert F.bdp_packets(2) == 2 and F.bdp_packets(10_000) == 10_000
    assert F.credit_throughput_bound(64, 16) == 1.0
    assert F.credit_throughput_bound(64, 16, 0.5) == 0.5
    assert F.credit_throughput_bound(np.array([4, 32]), 16).tolist() == [0.25, 1.0]
    # PFC headroom at the defaults (no reaction time, 4,096-byte frames): 400 Gb/s
    # = 50 GB/s over 100 m of fibre (1 us round trip at 2e8 m/s) = 50,000 B + 2 x 4,096
    assert F.pfc_headroom_bytes(50e9, 100) == pytest.approx(50_000 + 8192)
    assert F.pfc_headroom_bytes(50e9, 100, 1e-6, 9000) == pytest.approx(100_000 + 18_000)
    for call, param in [(lambda: F.bdp_packets(1), "rtt_steps=1"),
                        (lambda: F.bdp_packets(10_001), "rtt_steps=10001"),
                        (lambda: F.credit_throughput_bound(0, 16), "credits=0"),
                        (lambda: F.credit_throughput_bound(4, 16, 0), "drain=0"),
                        (lambda: F.pfc_headroom_bytes(0, 100), "link_rate=0"),
                        (lambda: F.pfc_headroom_bytes(1e9, 100, -1), "response_s=-1"),
                        (lambda: F.pfc_headroom_bytes(1e9, 100, 0, 0), "mtu_bytes=0")]:
        with pytest.raises(ValueError, match=f"^{param}"):
            call()


def test_pfc_storm_parameter_edges():
    # the documented ranges: senders 1..16, load (0, 1], steps 10..20,000, fail_at
    # 0..steps-1, watchdog_steps 1..10,000, 0 < xon < xoff <= 10,000; the edges run
    for kw in (dict(senders=16), dict(load=1.0), dict(steps=10, fail_at=9),
               dict(senders=1, steps=20_000), dict(watchdog_steps=1),
               dict(watchdog_steps=10_000), dict(xoff=10_000.0, xon=1e-3),
               dict(xoff=1e-3, xon=1e-4)):
        assert F.pfc_storm(**kw).t.size == kw.get("steps", 600)
    # a failure from step 0: the 100th stuck step is step 99 (nothing resets the count)
    r = F.pfc_storm(4, 0.6, fail_at=0)
    assert r.watchdog_fired_at == 99 and r.dropped[99] == pytest.approx(15)
    for kw, param in [(dict(senders=17), "senders=17"), (dict(load=1.01), "load=1.01"),
                      (dict(steps=9), "steps=9"), (dict(steps=20_001), "steps=20001"),
                      (dict(fail_at=-1), "fail_at=-1"), (dict(fail_at=600), "fail_at=600"),
                      (dict(watchdog_steps=10_001), "watchdog_steps=10001"),
                      (dict(xoff=0.0, xon=-1.0), "xoff=0.0"),
                      (dict(xoff=10_001.0), "xoff=10001.0"),
                      (dict(xon=-1.0), "xon=-1.0"), (dict(xon=40.0), "xon=40.0"),
                      (dict(watchdog="on"), "watchdog='on' must be True or False")]:
        with pytest.raises(ValueError, match=f"^{param}"):
            F.pfc_storm(**kw)


def test_pfc_defaults_and_host_resume_by_hand():
    # the defaults (4 senders, load 0.6, failure at 50, watchdog after 100 steps, XOFF 40,
    # XON 20, 600 steps) are the watchdog run above: fires at 149, drops 82.5 in all
    d = F.pfc_storm()
    assert (d.t.size, d.watchdog_fired_at) == (600, 149)
    assert d.dropped[-1] == pytest.approx(15 + 0.15 * 450)
    # a slow watchdog (560 steps) lets the storm reach the hosts: uplink paused after step
    # 316, each host paused after step 583 holding 0.15 x 267 = 40.05 packets; the
    # watchdog fires at 50 + 559 = 609 and drops the 40.05 stuck in switch 2, which
    # resumes the uplink. Each paused host's queue then drains 0.25 a step (the uplink's 1
    # shared by 4) and the host resumes once it holds no more than XON = 20:
    # 40.05 - 0.25 x 81 = 19.8 after step 610 + 80 = 690 (at XOFF it would resume at once)
    r = F.pfc_storm(steps=800, watchdog_steps=560)
    assert r.watchdog_fired_at == 609 and r.dropped[609] == pytest.approx(40.05)
    assert (r.paused_hosts[583:690] == 4).all() and not r.paused_hosts[690:].any()
    assert r.q_leaf[689] == pytest.approx(4 * 20.05) and r.q_leaf[690] == pytest.approx(
        4 * 19.8)


def test_pfc_watchdog_at_step_zero_and_two_senders_by_hand():
    # stuck from step 0 with a 1-step watchdog: it fires in step 0, dropping the 0.15
    # that arrived, then drops host 0's 0.15 every step: 0.15 x 600 = 90; nothing reaches
    # the failing receiver and no link-step counts as paused
    r = F.pfc_storm(4, 0.6, fail_at=0, watchdog_steps=1)
    assert r.watchdog_fired_at == 0 and r.pause_steps == 0
    assert r.dropped[0] == pytest.approx(0.15) and r.dropped[-1] == pytest.approx(90)
    assert not r.bad_rx.any() and not r.q_bad.any()
    # two senders: host 0 sends its half, 0.3, to the failing receiver
    two = F.pfc_storm(2, 0.6, failure=False)
    assert two.bad_rx == pytest.approx(np.full(600, 0.3))
    assert two.good_rx == pytest.approx(np.full(600, 0.3))


# ------------------------------------------------ the thresholds, exactly at XOFF and XON
# Quarter packets are exact in binary floating point, so queues land exactly on the
# thresholds: 2 senders offer 0.5 packets a step, 0.25 each; XOFF 3.75, XON 2; the failing
# receiver is stuck from step 0; the watchdog fires after 40 stuck steps, at step 39.
def _quarter_storm():
    return F.pfc_storm(2, 0.5, fail_at=0, watchdog_steps=40, xoff=3.75, xon=2.0, steps=60)


def test_pfc_uplink_pauses_only_above_xoff():
    # after step t switch 2 holds host 0's 0.25 (t + 1): exactly XOFF = 3.75 after step 14,
    # which does not exceed it; 4.0 after step 15 does, and the uplink is paused from then on
    # until the watchdog empties the dead port's queue at step 39
    r = _quarter_storm()
    assert r.q_bad[14] == 3.75 and r.q_bad[15] == 4.0
    assert not r.paused_uplink[:15].any() and r.paused_uplink[15:39].all()
    assert not r.paused_uplink[39:].any()


def test_pfc_host_pauses_only_above_xoff():
    # from step 16 the paused uplink takes nothing: each host queues 0.25 a step in switch 1,
    # 0.25 (t - 15) after step t: exactly XOFF = 3.75 after step 30 (no pause), 4.0 after
    # step 31, when switch 1 pauses both hosts (they then send nothing: 4.0 stays queued)
    r = _quarter_storm()
    assert r.q_leaf[30] == 2 * 3.75 and r.q_leaf[31] == 2 * 4.0
    assert not r.paused_hosts[:31].any() and (r.paused_hosts[31:39] == 2).all()
    assert r.q_leaf[38] == 2 * 4.0


def test_pfc_host_resumes_at_xon():
    # the watchdog fires at step 39 and switch 2 resumes the uplink, which serves switch 1's
    # 8 packets at 1 a step, 0.5 from each host: 3.5, 3.0, 2.5 after steps 40-42 (still
    # paused, above XON = 2) and 2.0 after step 43: no more than XON, so both hosts resume
    r = _quarter_storm()
    assert r.watchdog_fired_at == 39
    assert r.q_leaf[40:44].tolist() == [7.0, 6.0, 5.0, 4.0]
    assert (r.paused_hosts[39:43] == 2).all() and not r.paused_hosts[43:].any()
