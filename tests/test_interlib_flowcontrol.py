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
    with pytest.raises(ValueError, match="credits=.*whole"):
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
