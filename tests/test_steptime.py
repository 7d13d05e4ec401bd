"""Step-time model: hand derivations, placement rules, invariants, bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interlib import collectives, scaling, specs, steptime, transfer, units as u

SETTINGS = settings(max_examples=40, deadline=None)


def test_compute_time_hand():
    # 6 x 70e9 x 1e6 tokens / (8 GPUs x 989e12 FLOP/s x 0.4) = 132.7 s
    t = steptime.compute_time(70e9, 1e6, 8, "h100-sxm", 0.4)
    assert t == pytest.approx(6 * 70e9 * 1e6 / (8 * 989e12 * 0.4))
    assert t == pytest.approx(132.71, rel=1e-3)


def test_dense_bf16_peaks():
    # datasheets: H100 SXM 1,979 sparse -> 989 dense; A100 312; B200 (HGX) 2,250 dense
    assert specs.gpu_flops("h100-sxm").value == 989e12
    assert specs.gpu_flops("a100-sxm-80gb").value == 312e12
    # DGX B200: 72 PFLOPS FP8 (sparse) for 8 GPUs = 4 x dense bf16 per GPU
    assert specs.gpu_flops("b200").value == pytest.approx(72e15 / 8 / 4)


def test_placement_rungs():
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 8)
    assert [p.rung for p in lay.phases] == ["NVLink", "Scale-out NIC", "Scale-out NIC"]
    assert lay.n_gpus == 256 and lay.nodes == 32
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 16, 1, 2)
    assert lay.phase("TP").rung == "Scale-out NIC"
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 2, 4, 1)
    assert lay.phase("PP").rung == "NVLink"
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 1, 64, leaf_nodes=32)
    assert lay.phase("DP").rung == "Spine"
    lay = steptime.layout_traffic("PCIe + 100 GbE", "llama-3-70b", 8, 1, 1)
    assert lay.phase("TP").rung == "PCIe"


def test_layout_bytes_are_parallelism_traffic():
    m = scaling.model("llama-3-70b")
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 16, 4096, 1, 8)
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, 4096, 1, 8, tp=8, pp=4,
                                     dp=16)
    assert (lay.phase("TP").bytes, lay.phase("PP").bytes, lay.phase("DP").bytes) == \
        (tr.tp, tr.pp, tr.dp)


def test_pp_time_hand():
    # PP across nodes: 2 x 16 sends of one activation (4096 x 8192 x 2 B) at 48 GB/s + 14 us
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 1)
    act = 4096 * 8192 * 2
    # the NIC at the share of its line rate the book fits (calibration.NET_EFFICIENCY)
    expect = 32 * (act / (50e9 * specs.calibration.NET_EFFICIENCY.value) + 14e-6)
    assert lay.phase("PP").time_s == pytest.approx(expect)


def test_tp_time_uses_predict():
    lay = steptime.layout_traffic("dgx-h100", "llama-3-8b", 8, 1, 1, 2048, 1, 4)
    one = collectives.predict("all_reduce", 2048 * 4096 * 2, "dgx-h100", 8, 1).time_s
    assert lay.phase("TP").time_s == pytest.approx(4 * 32 * 4 * one)


def test_a_7_to_1_spine_makes_the_dp_all_reduce_7x_slower_less_its_latency():
    """Llama 3 70B, TP 8, DP 128 on DGX H100: the DP all-reduce is a ring over 128 nodes
    across the spine. A 7:1 taper divides each GPU's NIC rate by 7, so the bandwidth and
    fill terms of the ring grow 7x and its latency L does not: t7 / t1 = 7 - 6 L / t1.
    L by hand (tuning.cc, Ring/Simple across nodes, NCCL's x1.4 plateau factor): 1.4 x
    (8.4 us + 2 x 127 steps x 14 us) + 10 us launch = 5.00 ms, 0.67 % of t1 = 0.75 s, so
    the ratio is 6.96 (tolerance: the 5.00 ms is rounded to 3 figures, 0.1 %). A taper at
    half strength (3.5x) fails."""
    a = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 1, 128, oversubscription=1)
    b = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 1, 128, oversubscription=7)
    assert a.phase("DP").rung == b.phase("DP").rung == "Spine"
    t1, t7 = a.phase("DP").time_s, b.phase("DP").time_s
    lat = 1.4 * (8.4e-6 + 2 * 127 * 14e-6) + 10e-6
    assert lat == pytest.approx(5.00e-3, rel=1e-3) and lat < 0.01 * t1
    assert t7 / t1 == pytest.approx(7 - 6 * lat / t1, rel=1e-3)
    assert 7 - 6 * 0.01 < t7 / t1 <= 7


@SETTINGS
@given(ov=st.floats(0, 1), mfu=st.floats(0.05, 1.0), dp=st.sampled_from([1, 2, 8, 64]))
def test_step_time_invariants(ov, mfu, dp):
    s = steptime.step_time("dgx-h100", "llama-3-70b", 8, 2, dp, mfu=mfu, overlap=ov)
    total = s.compute + s.bubble + s.tp + s.pp + s.dp
    assert s.step == pytest.approx(total - s.hidden)
    assert s.compute + s.bubble + s.tp <= s.step * (1 + 1e-12) <= total * (1 + 1e-12)
    assert 0 < s.efficiency <= 1
    s0 = steptime.step_time("dgx-h100", "llama-3-70b", 8, 2, dp, mfu=mfu, overlap=0)
    assert s.step <= s0.step * (1 + 1e-12)


def test_overlap_limits():
    s1 = steptime.step_time(overlap=1.0)
    assert s1.hidden == pytest.approx(min(s1.pp + s1.dp, s1.compute))
    s0 = steptime.step_time(overlap=0.0)
    assert s0.hidden == 0.0


def test_bubble_hand():
    s = steptime.step_time(pp=4, micro_batches=16)
    assert s.bubble == pytest.approx(s.compute * 3 / 16)


def test_fabric_ordering():
    ns = [8, 64, 1024]
    fast = steptime.scaling_efficiency("NVLink + NDR InfiniBand", n_gpus=ns)
    slow = steptime.scaling_efficiency("PCIe + 100 GbE", n_gpus=ns)
    assert np.all(slow < fast)
    assert np.all(np.diff(fast) <= 1e-12)   # weak scaling never gets better with more GPUs


def test_make_system_matches_catalogue():
    mine = steptime.make_system("h100-sxm", 8, "nvswitch", 8, 400, "InfiniBand")
    t1 = collectives.predict("all_reduce", 1e9, mine, 8, 4).time_s
    t2 = collectives.predict("all_reduce", 1e9, "dgx-h100", 8, 4).time_s
    assert t1 == pytest.approx(t2)


@pytest.mark.parametrize("call, param", [
    (lambda: steptime.make_system("h900"), "^gpu="),
    (lambda: steptime.make_system(intra="ether"), "^intra="),
    (lambda: steptime.make_system(nic_gbps=5), "^nic_gbps="),
    (lambda: steptime.make_system(fabric="token ring"), "^fabric="),
    (lambda: steptime.make_system(nics_per_node=0), "^nics_per_node="),
    (lambda: steptime.fabric("carrier pigeon"), "^name="),
    (lambda: steptime.layout_traffic(tp=0), "^tp="),
    (lambda: steptime.layout_traffic(tp=12), "^tp="),
    # a TP group of 3 on 8-GPU nodes would straddle nodes: refused, naming the divisors
    (lambda: steptime.layout_traffic(tp=3), r"tp=3 .*gpus_per_node=8 \(1, 2, 4, 8\)"),
    (lambda: steptime.layout_traffic(tp=6, pp=1), "tp=6"),
    (lambda: steptime.layout_traffic(oversubscription=17), "^oversubscription="),
    (lambda: steptime.step_time(oversubscription=31), "^oversubscription="),
    (lambda: steptime.layout_traffic(model="gpt-5"), "model=.gpt-5."),
    (lambda: steptime.layout_traffic(oversubscription=0.5), "^oversubscription="),
    (lambda: steptime.layout_traffic(system="nope"), "^system="),
    (lambda: steptime.compute_time(-1, 1, 1), "^params="),
    (lambda: steptime.compute_time(1, 1, 1, mfu=1.5), "^mfu="),
    (lambda: steptime.compute_time(1, 1, 1, gpu="x"), "gpu=.x."),
    (lambda: steptime.step_time(overlap=2), "^overlap="),
    (lambda: steptime.scaling_efficiency(n_gpus=[12]), "^n_gpus="),
    (lambda: steptime.tapered(steptime.fabric("PCIe + 100 GbE"), 0.1), "^oversubscription="),
])
def test_bad_input(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_tp_dividing_the_node_stays_on_nvlink():
    for tp in (1, 2, 4, 8):
        lay = steptime.layout_traffic("dgx-h100", "llama-3-8b", tp, 1, 1)
        assert lay.phase("TP").rung == ("none" if tp == 1 else "NVLink")
    assert steptime.layout_traffic("dgx-h100", "llama-3-8b", 16, 1, 1).phase("TP").rung == \
        "Scale-out NIC"


def test_one_oversubscription_range():
    lo, hi = steptime.OVERSUBSCRIPTION_RANGE
    assert steptime.check_oversubscription(hi) == hi
    with pytest.raises(ValueError, match="^oversubscription="):
        steptime.check_oversubscription(hi + 1)
    with pytest.raises(ValueError, match="^oversubscription="):
        steptime.check_oversubscription(lo - 0.5)


def test_custom_systems_are_labelled_hypothetical():
    # a what-if node is derived, not the calibration fit and not a product
    s = steptime.fabric("PCIe + 100 GbE")
    assert s.source is specs.sources.HYPOTHETICAL_NODE
    assert s.source is not specs.sources.THIS_BOOK_FIT
    assert "full x16" in s.source.says


def test_default_leaf_group_is_one_superpod_scalable_unit():
    # facts.md: 32 DGX H100 nodes (256 GPUs) per scalable unit under 8 leaf switches
    assert steptime.DEFAULT_LEAF_NODES == 32
    # 32 nodes x 8 GPUs stay under the leaves; one node more and DP reaches the spine
    assert steptime.layout_traffic("dgx-h100", "llama-3-8b", 8, 1, 32).phase("DP").rung \
        == "Scale-out NIC"
    assert steptime.layout_traffic("dgx-h100", "llama-3-8b", 8, 1, 33).phase("DP").rung \
        == "Spine"


# ------------------------------------------- argument sweep: names, counts, objects
@pytest.mark.parametrize("call, param", [
    (lambda: steptime.tapered(5, 2.0), "sys_=5"),
    (lambda: steptime.tapered("dgx-h100", 2.0), "sys_='dgx-h100'"),
    (lambda: steptime.make_system(name=5), "name=5"),
    (lambda: steptime.make_system(name=None), "name=None"),
    (lambda: steptime.compute_time(1e9, 1e6, 2.5), "n_gpus=2.5"),
    (lambda: steptime.step_time(model=None), "model=None"),
    (lambda: steptime.scaling_efficiency(model="gpt-5"), "model='gpt-5'"),
    (lambda: steptime.scaling_efficiency(n_gpus=None), "^n_gpus="),
    (lambda: steptime.scaling_efficiency(n_gpus=[]), "^n_gpus="),
    (lambda: steptime.scaling_efficiency(n_gpus=("x",)), "n_gpus='x'"),
    (lambda: steptime.scaling_efficiency(n_gpus=(8.5,)), "n_gpus=8.5"),
    (lambda: steptime.scaling_efficiency(tp=0), "tp=0"),
    (lambda: steptime.scaling_efficiency(tp="x"), "tp='x'"),
    (lambda: steptime.scaling_efficiency(pp=None), "pp=None"),
])
def test_bad_input_sweep_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


# ------------------------------------------------------------------ tables, by hand
def test_gpu_compute_table_by_hand():
    # dense bf16 peaks: A100 312 TFLOP/s, H100 SXM 1,979 with 2:4 sparsity = 989 dense
    # (NVIDIA datasheets); B200 2,250 (secondary)
    from interlib import steptime as S
    t = S.gpu_compute_table()
    assert t.columns == ["GPU", "dense bf16 peak, TFLOP/s", "kind", "source", "note"]
    rows = {r[0]: r for r in t.rows}
    assert rows["A100 SXM 80GB"][1:3] == ["312", "vendor peak"]
    assert rows["H100 SXM"][1:3] == ["989", "vendor peak"]
    assert rows["B200"][1] == "2,250"
    assert t.caption == ("Dense = without 2:4 structured sparsity. MFU is measured against "
                         "these peaks.")


def test_breakdown_table_by_hand():
    # the default step: TP 8 inside a DGX H100 (NVLink), PP 4 and DP across nodes over the
    # NICs: 8 x 4 x 8 = 256 GPUs. Rows in order, each part's share of the step; the
    # overlap row is subtracted (a minus sign) and the shares add up to the step's 100 %
    from interlib import display, steptime as S
    st = S.step_time()
    t = S.breakdown_table(st)
    assert t.columns == ["part", "time", "rung", "share of step"]
    assert [r[0] for r in t.rows] == [
        "compute (at the given MFU)", "pipeline bubble", "TP all-reduces", "PP sends",
        "DP gradient all-reduce", "hidden by overlap (subtracted)", "step"]
    assert [r[2] for r in t.rows] == ["—", "—", "NVLink", "Scale-out NIC", "Scale-out NIC",
                                      "—", "—"]
    parts = [st.compute, st.bubble, st.tp, st.pp, st.dp]
    for row, x in zip(t.rows, parts):
        assert row[1] == display.fmt_time(x) and not row[1].startswith("−")
    assert t.rows[5][1] == "−" + display.fmt_time(st.hidden) and st.hidden > 0
    assert sum(parts) - st.hidden == pytest.approx(st.step, rel=1e-12)
    shares = [float(r[3].rstrip(" %")) for r in t.rows[:6]]
    assert shares[5] < 0 and sum(shares) == pytest.approx(100, abs=0.1)
    assert t.rows[6] == ["step", display.fmt_time(st.step), "—", "100 %"]
    assert t.caption == ("256 GPUs; efficiency (compute / step) "
                         f"{display.fmt_pct(st.compute / st.step)}")
