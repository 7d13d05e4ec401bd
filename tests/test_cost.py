"""GPU-hours, dollars and interruptions: hand derivations from the Llama 3 table
(facts.md V12, 4k) and bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interlib import cost, specs, units as u


def test_idle_cost_hand():
    r = cost.idle_cost(1000, 0.1, 10 * u.hour, 2.0)
    assert r.gpu_hours == pytest.approx(10_000)
    assert r.gpu_hours_lost == pytest.approx(1_000)
    assert r.dollars_lost == pytest.approx(2_000)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 100_000), f=st.floats(0, 1), p=st.floats(0, 20))
def test_idle_cost_linear(n, f, p):
    r = cost.idle_cost(n, f, 30 * u.day, p)
    assert r.gpu_hours_lost <= r.gpu_hours + 1e-9
    assert r.dollars_lost == pytest.approx(r.gpu_hours_lost * p)


def test_llama3_table_counts():
    I = specs.LLAMA3_INTERRUPTIONS
    assert I["total"].value == 466 and I["planned"].value == 47
    assert I["unexpected"].value == 419 == I["total"].value - I["planned"].value
    assert cost.network_interruptions() == 35 + 7 + 7
    # the paper prints 30.1 % for faulty GPUs, but the count gives 35.3 %
    assert I["Faulty GPU"].value / I["unexpected"].value == pytest.approx(0.353, abs=5e-4)
    # switch/cable 8.4 %, NIC 1.7 % as printed
    assert round(100 * 35 / 419, 1) == 8.4 and round(100 * 7 / 419, 1) == 1.7
    assert "10.7" not in repr(cost.interruption_table())


def test_mtbi_hand():
    # 54 days / 419 interruptions on 16,384 GPUs = 3.09 h
    assert cost.mean_time_between_interruptions(16384) == pytest.approx(54 * u.day / 419)
    assert cost.mean_time_between_interruptions(8192) == pytest.approx(2 * 54 * u.day / 419)


def test_young_hand():
    assert cost.young_checkpoint_interval(60, 3600) == pytest.approx(math.sqrt(2 * 60 * 3600))


def test_interruption_overhead_grows_with_scale():
    o = cost.interruption_overhead(np.array([8, 1024, 16384, 10**6]))
    assert np.all(np.diff(o) > 0) and o[-1] <= 1.0


def test_communication_cost_scales():
    rows = cost.communication_cost("PCIe + 100 GbE")
    assert [n for n, _, _ in rows] == list(cost.SCALES)
    dollars = [ic.dollars_lost for _, _, ic in rows]
    assert dollars == sorted(dollars)


def test_value_of_efficiency_point_hand():
    # 16,384 GPUs x 720 h x $2 = $23,592,960 a month; one point of it = $235,929.60
    assert cost.value_of_efficiency_point(16384, 30 * u.day, 2.0) == pytest.approx(235_929.6)
    assert cost.value_of_efficiency_point(8, 30 * u.day, 0.0) == 0.0
    # ten points are what idle_cost charges for a 10 % share of the time
    assert 10 * cost.value_of_efficiency_point(1000, 10 * u.hour, 2.0) == pytest.approx(
        cost.idle_cost(1000, 0.1, 10 * u.hour, 2.0).dollars_lost)


@pytest.mark.parametrize("call, param", [
    (lambda: cost.value_of_efficiency_point(0), "^n_gpus="),
    (lambda: cost.value_of_efficiency_point(8, 0), "^period_s="),
    (lambda: cost.value_of_efficiency_point(8, 1, -1), "^price_per_gpu_hour="),
    (lambda: cost.idle_cost(0, 0.1), "^n_gpus="),
    (lambda: cost.idle_cost(8, 1.5), "^comm_fraction="),
    (lambda: cost.idle_cost(8, 0.1, 0), "^period_s="),
    (lambda: cost.idle_cost(8, 0.1, 1, -2), "^price_per_gpu_hour="),
    (lambda: cost.mean_time_between_interruptions(0), "^n_gpus="),
    (lambda: cost.young_checkpoint_interval(0, 1), "^checkpoint_s="),
    (lambda: cost.young_checkpoint_interval(1, -1), "^mtbi_s="),
    (lambda: cost.interruption_overhead(8, -1), "^restart_s="),
    (lambda: cost.communication_cost(n_gpus=(12,)), "^n_gpus="),
    # each GPU count is checked itself: 0 is a multiple of tp x pp but no job
    (lambda: cost.communication_cost(n_gpus=(0,)), "^n_gpus=0 is out of range: must be >= 1"),
    (lambda: cost.communication_cost(pp=0), "^pp=0 is out of range: must be >= 1"),
    # tp x pp = 8 x 2 = 16 GPUs per replica; 24 is 1.5 replicas
    (lambda: cost.communication_cost(n_gpus=(24,), pp=2),
     "^n_gpus=24 is out of range: must be a multiple of tp x pp"),
])
def test_bad_input(call, param):
    with pytest.raises(ValueError, match=param):
        call()


# --------------------------------------------------- argument sweep: counts, model, lists
@pytest.mark.parametrize("call, param", [
    (lambda: cost.idle_cost(2.5, 0.1), "^n_gpus=2.5"),
    (lambda: cost.value_of_efficiency_point(np.array([8, 8.5])), "^n_gpus=8.5"),
    (lambda: cost.mean_time_between_interruptions(1.5), "^n_gpus=1.5"),
    (lambda: cost.interruption_overhead(2.5), "^n_gpus=2.5"),
    (lambda: cost.communication_cost(n_gpus=None), "^n_gpus="),
    (lambda: cost.communication_cost(n_gpus=8), "^n_gpus="),
    (lambda: cost.communication_cost(n_gpus=[]), "^n_gpus="),
    (lambda: cost.communication_cost(model="gpt-5"), "^model='gpt-5'"),
    (lambda: cost.communication_cost(tp=0), "^tp=0"),
    (lambda: cost.communication_cost(tp="x"), "^tp='x'"),
    (lambda: cost.communication_cost(pp=None), "^pp=None"),
    (lambda: cost.communication_cost_table(model=5), "^model=5"),
    (lambda: cost.interruption_scale_table(n_gpus=None), "^n_gpus="),
    (lambda: cost.interruption_scale_table(n_gpus=5), "^n_gpus="),
    (lambda: cost.interruption_scale_table(n_gpus=[]), "^n_gpus="),
    (lambda: cost.interruption_scale_table(n_gpus=[8.0]), "^n_gpus="),
])
def test_bad_input_names_the_parameter_sweep(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_network_interruption_interval_by_hand():
    """Llama 3 Table 5: 35 switch/cable + 7 NIC interruptions in 54 days on 16,384 GPUs
    (+ 7 NCCL watchdog timeouts when included); linear in 1 / GPUs."""
    from interlib.units import day
    assert cost.network_interruption_interval(16384) == pytest.approx(54 * day / 42)
    assert cost.network_interruption_interval(16384, include_watchdog=True) == \
        pytest.approx(54 * day / 49)
    assert cost.network_interruption_interval(8192) == pytest.approx(2 * 54 * day / 42)
    # never more frequent than all unexpected interruptions together
    assert cost.network_interruption_interval(1024) > \
        cost.mean_time_between_interruptions(1024)


@pytest.mark.parametrize("call,param", [
    (lambda: cost.network_interruption_interval(0), "^n_gpus=0"),
    (lambda: cost.network_interruption_interval(2.5), "^n_gpus=2.5"),
    (lambda: cost.network_interruption_interval(8, include_watchdog="yes"), "^include_watchdog="),
])
def test_network_interruption_interval_bad_input(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_llama3_checkpoint_burst_by_hand():
    """Llama 3 section 3.3.1: up to 4 GB per GPU; 16,384 GPUs; 2 TB/s sustained, 7 TB/s
    peak storage throughput: 65.5 TB takes 32.8 s sustained, 9.4 s at peak."""
    from interlib.specs import studies as St
    assert St.llama3_checkpoint_seconds("sustained") == pytest.approx(16384 * 4e9 / 2e12)
    assert St.llama3_checkpoint_seconds("peak") == pytest.approx(16384 * 4e9 / 7e12)
    with pytest.raises(ValueError, match="^rate='burst'"):
        St.llama3_checkpoint_seconds("burst")


def test_deepseek_v3_link_ratio():
    """DeepSeek-V3 section 3.2.2: 160 GB/s NVLink is 'roughly 3.2 times' 50 GB/s IB."""
    from interlib.specs import studies as St
    L = St.DEEPSEEK_V3_LINKS
    assert L["NVLink"].value / L["InfiniBand"].value == pytest.approx(3.2)
    assert St.DEEPSEEK_V3_MAX_NODES_PER_TOKEN.value == 4


# ------------------------------------------------------ the chapter's tables, by hand
def test_interruption_table_by_hand():
    # Llama 3 Table 5: 419 unexpected of 466 (47 planned) in 54 days on 16,384 GPUs.
    # Shares computed from the counts: 148 / 419 = 35.3 %, 35 / 419 = 8.35 %; the network
    # rows 35 + 7 + 7 = 49 = 11.7 %; the rest 419 - (148 + 72 + 35 + 7 + 7) = 150 = 35.8 %
    t = cost.interruption_table()
    assert t.columns == ["category", "count", "share of unexpected (computed)", "note"]
    rows = {r[0]: r[1:] for r in t.rows}
    assert rows["Faulty GPU"][:2] == ["148", "35.3 %"]
    assert rows["Network switch/cable"][:2] == ["35", "8.35 %"]
    assert rows["other categories"] == [
        "150", "35.8 %", "the rest of Table 5 (GPU SRAM, software bugs, host maintenance, ...)"]
    assert rows["network-related (switch/cable + NIC + NCCL watchdog)"] == [
        "49", "11.7 %",
        "sum of the three rows above (a watchdog timeout can also have other causes)"]
    assert rows["all unexpected"] == ["419", "100 %",
                                      "plus 47 planned = 466 in 54 days on 16,384 GPUs"]
    assert t.caption.startswith("Source: Llama Team") and t.caption.endswith("Table 5.")


def test_interruption_scale_table_by_hand():
    # MTBI = 54 days x 16,384 / (419 n): 16,384 GPUs -> 54 x 24 / 419 = 3.09 h; Young's
    # interval sqrt(2 x 60 s x 3.09 h) = 1156 s; lost 60/T + (600 + T/2) / MTBI = 15.8 %.
    # 8 GPUs: 2048 x 3.09 h = 264 days
    mtbi = 54 * 86400 * 16384 / (419 * 16384)
    T = (2 * 60 * mtbi) ** 0.5
    lost = 60 / T + (600 + T / 2) / mtbi
    assert (round(mtbi / 3600, 2), round(T), round(100 * lost, 1)) == (3.09, 1156, 15.8)
    t = cost.interruption_scale_table()
    assert t.columns == ["GPUs", "mean time between interruptions",
                         "checkpoint every (Young)", "time lost"]
    assert t.rows[-1] == ["16,384", "3.09 h", "1156 s", "15.8 %"]
    assert t.rows[0][:2] == ["8", "264 days"]
    assert t.caption == ("Assumes interruptions scale with GPU count at the Llama 3 rate; "
                         "restart 600 s and checkpoint write 60 s are reader assumptions.")
    with pytest.raises(ValueError, match="^n_gpus=0 "):
        cost.interruption_scale_table((0,))


def test_interruption_defaults_by_hand():
    # defaults: restart 600 s, checkpoint 60 s (reader assumptions stated in the table)
    mtbi = 54 * 86400 / 419
    T = (2 * 60 * mtbi) ** 0.5
    assert cost.mean_time_between_interruptions(16384) == pytest.approx(mtbi, rel=1e-12)
    assert cost.young_checkpoint_interval(60, mtbi) == pytest.approx(T, rel=1e-12)
    assert cost.interruption_overhead(16384) == pytest.approx(60 / T + (600 + T / 2) / mtbi,
                                                           rel=1e-12)
    assert cost.interruption_overhead(16384, 0.0, 60.0) == pytest.approx(60 / T + T / 2 / mtbi,
                                                                      rel=1e-12)
    assert cost.interruption_overhead(1) < cost.interruption_overhead(16384) <= 1.0
    for call, name in ((lambda: cost.young_checkpoint_interval(0, 1), "checkpoint_s"),
                       (lambda: cost.young_checkpoint_interval(1, 0), "mtbi_s"),
                       (lambda: cost.interruption_overhead(8, -1), "restart_s"),
                       (lambda: cost.mean_time_between_interruptions(0), "n_gpus")):
        with pytest.raises(ValueError, match=f"^{name}="):
            call()


def test_communication_cost_table_by_hand():
    # dollars = GPUs x 720 h x $2 x the share of the step spent waiting; GPU-hours alike
    t = cost.communication_cost_table()
    assert t.columns == ["fabric", "GPUs", "step", "waiting on communication", "efficiency",
                         "GPU-hours lost", "dollars lost"]
    assert [r[:2] for r in t.rows] == [[f, n] for f in ("NVLink + NDR InfiniBand",
                                                         "PCIe + 100 GbE")
                                       for n in ("8", "1,024", "16,384")]
    # Llama 3 70B on one node (TP 8, DP 1, ZeRO 1): 70e9 parameters x (2 B weights + 2 B
    # gradients + 12 B Adam state) / 8 GPUs = 140 GB per GPU before activations > 80 GB of
    # an H100: not priced. From 1,024 GPUs the optimizer state is sharded over DP 128.
    assert [r[2] == "does not fit in HBM" for r in t.rows] == [True, False, False] * 2
    assert all(x == "—" for r in t.rows if r[2].startswith("does not") for x in r[3:])
    assert "Not priced on 8 GPUs" in t.caption and "in 80 GB of HBM" in t.caption
    for r in t.rows:
        if r[2].startswith("does not"):
            continue
        n = int(r[1].replace(",", ""))
        waiting = float(r[3].rstrip(" %")) / 100
        assert float(r[4].rstrip(" %")) == pytest.approx(100 * (1 - waiting), abs=0.06)
        hours = float(r[5].replace(",", ""))
        assert hours == pytest.approx(n * 720 * waiting, rel=0.003)   # 3-figure share
        assert float(r[6].lstrip("$").replace(",", "")) == pytest.approx(2 * hours, abs=1)
    assert t.caption.startswith("30 days of training, TP 8 x DP, MFU 40 %, overlap 80 %, "
                                "$2.00 per GPU-hour (reader assumption). ")
    runs = cost.communication_cost("NVLink + NDR InfiniBand", (8, 16))
    assert [n for n, _, _ in runs] == [8, 16]
    assert [st.layout.n_gpus for _, st, _ in runs] == [8, 16]   # dp = n / (tp pp), tp 8
    assert runs[0][1].dp == 0 < runs[1][1].dp           # one replica: no DP all-reduce
    with pytest.raises(ValueError, match="^n_gpus=12 is out of range: must be a multiple"):
        cost.communication_cost(n_gpus=(12,))


# --------------------------------------- every argument reaches the number it changes
def test_communication_cost_defaults_are_chapter_8s_nvlink_fabric():
    # a reader's bare call works and prices the first of Chapter 8's fabrics at its scales
    assert cost.communication_cost() == cost.communication_cost(
        "NVLink + NDR InfiniBand", (8, 1024, 16384), "llama-3-70b", 8, 1)


def test_one_gpu_waits_on_nothing():
    # TP 1 on one GPU: no TP, PP or DP peer, so no communication and no GPU-hour lost;
    # one GPU and tp=1 are the smallest valid values (the bounds are inclusive)
    [(n, st, ic)] = cost.communication_cost(n_gpus=(1,), tp=1)
    assert n == 1 and st.layout.n_gpus == 1
    assert st.tp == st.pp == st.dp == 0.0 and st.comm_fraction == 0.0
    assert ic.gpu_hours == pytest.approx(720) and ic.gpu_hours_lost == ic.dollars_lost == 0.0


def test_communication_cost_passes_mfu_overlap_period_and_price():
    fab = "NVLink + NDR InfiniBand"
    [(_, base, _)] = cost.communication_cost(fab, (1024,))        # MFU 40 %, overlap 80 %
    [(_, st, ic)] = cost.communication_cost(fab, (1024,), mfu=0.2, overlap=0.0,
                                            period_s=7 * u.day, price_per_gpu_hour=3.5)
    assert st.compute == pytest.approx(2 * base.compute)  # half the MFU: twice the time
    assert st.hidden == 0.0 < base.hidden                 # overlap 0 hides nothing
    # 1,024 GPUs x 168 h x $3.50 x the share of the step spent waiting
    assert ic.gpu_hours == pytest.approx(1024 * 168)
    assert ic.dollars_lost == pytest.approx(1024 * 168 * 3.5 * st.comm_fraction)


def _share(cell):
    return float(cell.rstrip(" %")) / 100


def test_communication_cost_table_model_that_fits_on_one_node():
    # Llama 3 8B on one node (TP 8, DP 1): 8e9 x (2 + 2 + 12) B / 8 GPUs = 16 GB per GPU
    # before activations, well inside an H100's 80 GB: every scale is priced, and the
    # caption has no "Not priced" sentence
    t = cost.communication_cost_table(model="llama-3-8b")
    assert [r[1] for r in t.rows] == ["8", "1,024", "16,384"] * 2
    assert not any(r[2].startswith("does not fit") for r in t.rows)
    assert t.caption == ("30 days of training, TP 8 x DP, MFU 40 %, overlap 80 %, $2.00 per "
                         "GPU-hour (reader assumption).")


def test_communication_cost_table_price_and_period():
    # 7 days = 168 h at $3.00: hours = GPUs x 168 x waiting share, dollars = 3 x hours
    t = cost.communication_cost_table(price_per_gpu_hour=3.0, period_s=7 * u.day)
    priced = [r for r in t.rows if not r[2].startswith("does not")]
    assert len(priced) == 4
    for r in priced:
        n, hours = int(r[1].replace(",", "")), float(r[5].replace(",", ""))
        assert hours == pytest.approx(n * 168 * _share(r[3]), rel=0.003)  # 3-figure share
        assert float(r[6].lstrip("$").replace(",", "")) == pytest.approx(3 * hours, abs=2)
    assert t.caption.startswith("7 days of training, TP 8 x DP, MFU 40 %, overlap 80 %, "
                                "$3.00 per GPU-hour")


def test_communication_cost_table_mfu_and_overlap():
    # the same network time is a smaller share of a step whose compute takes twice as long
    # (MFU 20 %), and a larger one when none of the DP all-reduce hides (overlap 0); every
    # priced row here has 1,024 or more GPUs, so a DP all-reduce to hide
    base, slow, bare = (cost.communication_cost_table(**kw)
                        for kw in ({}, {"mfu": 0.2}, {"overlap": 0.0}))
    for b, s, o in zip(base.rows, slow.rows, bare.rows):
        if b[2].startswith("does not"):
            continue
        assert _share(s[3]) < _share(b[3]) < _share(o[3])
    assert "MFU 20 %, overlap 80 %" in slow.caption and "MFU 40 %, overlap 0 %" in bare.caption


def test_interruption_scale_table_one_gpu():
    # one GPU is a job: MTBI = 54 days x 16,384 / 419 = 2111.5 days; Young's interval
    # sqrt(2 x 60 s x MTBI) = 1.71 days; lost 60 / T + (600 + T / 2) / MTBI = 0.0814 %
    mtbi = 54 * 86400 * 16384 / 419
    T = (2 * 60 * mtbi) ** 0.5
    lost = 60 / T + (600 + T / 2) / mtbi
    assert (round(mtbi / 86400), round(T / 86400, 2), round(100 * lost, 4)) == (
        2112, 1.71, 0.0814)
    assert cost.interruption_scale_table((1,)).rows == [["1", "2112 days", "1.71 days",
                                                         "0.0814 %"]]


def test_interruption_scale_table_checkpoint_time():
    # a 120 s checkpoint on 16,384 GPUs: MTBI 54 days / 419 = 3.09 h; T = sqrt(2 x 120 s x
    # MTBI) = 1635 s; lost 120 / T + (600 + T / 2) / MTBI = 20.1 % (15.8 % at 60 s)
    mtbi = 54 * 86400 / 419
    T = (2 * 120 * mtbi) ** 0.5
    lost = 120 / T + (600 + T / 2) / mtbi
    assert (round(T), round(100 * lost, 1)) == (1635, 20.1)
    t = cost.interruption_scale_table((16384,), checkpoint_s=120.0)
    assert t.rows == [["16,384", "3.09 h", "1635 s", "20.1 %"]]
    assert "checkpoint write 120 s" in t.caption


def test_young_interval_integer_inputs_do_not_wrap():
    # numpy integers would wrap at 2**63 = 9.2e18: 2 x 1e10 s x 1e9 s = 2e19 must not
    assert cost.young_checkpoint_interval(np.array([10**10]), 10**9) == pytest.approx(
        [math.sqrt(2e19)])
