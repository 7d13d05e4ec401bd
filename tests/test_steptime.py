"""Step-time model: hand derivations, placement rules, invariants, bad input."""

import math
import re

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
    (lambda: steptime.layout_traffic(tp=3), r"^tp=3 .*gpus_per_node=8 \(1, 2, 4, 8\)"),
    (lambda: steptime.layout_traffic(tp=6, pp=1), "^tp=6"),
    (lambda: steptime.layout_traffic(oversubscription=17), "^oversubscription="),
    (lambda: steptime.step_time(oversubscription=31), "^oversubscription="),
    (lambda: steptime.layout_traffic(model="gpt-5"), "^model=.gpt-5."),
    (lambda: steptime.layout_traffic(oversubscription=0.5), "^oversubscription="),
    (lambda: steptime.layout_traffic(system="nope"), "^system="),
    (lambda: steptime.compute_time(-1, 1, 1), "^params="),
    (lambda: steptime.compute_time(1, 1, 1, mfu=1.5), "^mfu="),
    (lambda: steptime.compute_time(1, 1, 1, gpu="x"), "^gpu=.x."),
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
    (lambda: steptime.tapered(5, 2.0), "^sys_=5"),
    (lambda: steptime.tapered("dgx-h100", 2.0), "^sys_='dgx-h100'"),
    (lambda: steptime.make_system(name=5), "^name=5"),
    (lambda: steptime.make_system(name=None), "^name=None"),
    (lambda: steptime.compute_time(1e9, 1e6, 2.5), "^n_gpus=2.5"),
    (lambda: steptime.step_time(model=None), "^model=None"),
    (lambda: steptime.scaling_efficiency(model="gpt-5"), "^model='gpt-5'"),
    (lambda: steptime.scaling_efficiency(n_gpus=None), "^n_gpus="),
    (lambda: steptime.scaling_efficiency(n_gpus=[]), "^n_gpus="),
    (lambda: steptime.scaling_efficiency(n_gpus=("x",)), "^n_gpus='x'"),
    (lambda: steptime.scaling_efficiency(n_gpus=(8.5,)), "^n_gpus=8.5"),
    (lambda: steptime.scaling_efficiency(tp=0), "^tp=0"),
    (lambda: steptime.scaling_efficiency(tp="x"), "^tp='x'"),
    (lambda: steptime.scaling_efficiency(pp=None), "^pp=None"),
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


# -------------------------------------- mutation-guided tests (issue 24 item 7), by hand
def test_defaults_are_the_reference_job():
    """Chapter 7 says the defaults of layout_traffic are Chapter 8's reference job
    (capstone.REFERENCE): Llama 3 70B on DGX H100, TP 8 x PP 4 x DP 8 (32 nodes of 8 GPUs),
    one 4,096-token sequence per micro-batch, 16 micro-batches, no taper, ZeRO-1, MFU 0.4,
    overlap 0.8."""
    from interlib import capstone
    R = capstone.REFERENCE
    dp = R["nodes"] * R["gpus_per_node"] // (R["tp"] * R["pp"])
    assert dp == 8
    ref = dict(system="dgx-h100", model=R["model"], tp=R["tp"], pp=R["pp"], dp=dp,
               seq_len=R["seq_len"], micro_batch=1, micro_batches=R["micro_batches"],
               oversubscription=R["oversubscription"], zero=R["zero"])
    assert steptime.layout_traffic() == steptime.layout_traffic(**ref)
    a, b = steptime.step_time(), steptime.step_time(**ref, mfu=R["mfu"], overlap=R["overlap"])
    assert (a.compute, a.bubble, a.tp, a.pp, a.dp, a.hidden, a.step, a.memory) == \
        (b.compute, b.bubble, b.tp, b.pp, b.dp, b.hidden, b.step, b.memory)


def test_step_time_compute_by_hand():
    """6 N D over GPUs x peak x MFU (the 6ND rule): the reference job processes 8 replicas
    x 16 micro-batches x 4,096 tokens = 524,288 tokens a step; Llama 3 70B on 256 H100
    (989 TFLOP/s dense bf16) at MFU 0.5: 6 x 70e9 x 524,288 / (256 x 989e12 x 0.5) =
    1.74 s. On DGX A100s (312 TFLOP/s) the same job takes 989 / 312 times as long."""
    tokens = 8 * 16 * 4096
    assert steptime.layout_traffic().tokens == tokens
    s = steptime.step_time(mfu=0.5)
    assert s.compute == pytest.approx(6 * 70e9 * tokens / (256 * 989e12 * 0.5))
    a = steptime.step_time("dgx-a100", mfu=0.5)
    assert a.compute == pytest.approx(s.compute * 989 / 312)
    # tokens per step: dp x micro_batch x micro_batches x seq_len
    assert steptime.layout_traffic(micro_batch=2, micro_batches=4, dp=2).tokens == \
        2 * 2 * 4 * 4096


def test_compute_time_defaults_and_validation():
    # default H100 SXM at MFU 0.4 (test_compute_time_hand's 132.7 s)
    assert steptime.compute_time(70e9, 1e6, 8) == pytest.approx(132.71, rel=1e-3)
    with pytest.raises(ValueError, match="^tokens=0 "):
        steptime.compute_time(70e9, 0, 8)
    with pytest.raises(ValueError, match="^n_gpus=0 "):
        steptime.compute_time(70e9, 1e6, 0)


def test_degree_one_moves_nothing():
    """tp = pp = dp = 1: one GPU, nothing on any rung, each phase says so."""
    lay = steptime.layout_traffic("dgx-h100", "llama-3-8b", 1, 1, 1)
    assert lay.n_gpus == 1 and lay.nodes == 1
    for p in lay.phases:
        assert (p.rung, p.bytes, p.time_s) == ("none", 0.0, 0.0)
        assert p.collective.startswith("none (") and f"{p.kind.lower()} = 1)" in p.collective
    # 8 GPUs fill one DGX H100: one node, not two
    assert steptime.layout_traffic("dgx-h100", "llama-3-8b", 8, 1, 1).nodes == 1
    with pytest.raises(ValueError, match="^kind='XP'"):
        lay.phase("XP")


def test_tp_all_reduce_count_and_groups_by_hand():
    """4 all-reduces per layer per micro-batch (2 forward, 2 backward; Megatron-LM) over
    the layers of one stage: Llama 3 70B has 80 layers, PP 4 leaves 20 per stage, 16
    micro-batches: 4 x 20 x 16 = 1,280 all-reduces of one activation (4,096 x 8,192 x 2 B
    = 67.1 MB), each over the TP group: 2 GPUs of a node for TP 2, two whole nodes for TP 16."""
    act = 4096 * 8192 * 2
    for tp, g, k in ((2, 2, 1), (8, 8, 1), (16, 8, 2)):
        ph = steptime.layout_traffic("dgx-h100", "llama-3-70b", tp, 4, 1).phase("TP")
        one = collectives.predict("all_reduce", act, "dgx-h100", g, k).time_s
        assert ph.time_s == pytest.approx(1280 * one)
        # read as a person writes it (issue 34 item 4; the pin was "1280 all-reduces of
        # 6.71e+07 B"): 67,108,864 B = 67.1 MB
        assert ph.collective == "1,280 all-reduces of 67.1 MB"


def test_pp_sends_by_hand_on_every_rung():
    """2 sends (activation forward, gradient back) per micro-batch, 16 micro-batches = 32
    sends of one activation, at the achieved rate of the link crossed:
    * across nodes (TP 8 x PP 2 = 2 nodes): the NIC, 50 GB/s x the fitted NET_EFFICIENCY;
    * inside a DGX H100 (TP 2 x PP 4 = 8 GPUs): NVLink 4 at NCCL's 18 x 20.6 GB/s =
      370.8 GB/s (topo.h);
    * inside the PCIe server of Chapter 8: PCIe 5.0 x16 at 51 GB/s, the host-to-device copy
      measured on Azure ND H100 v5.
    Latency per send: the calibrated hop latency of that link (NCCL's ring, Simple)."""
    lat = specs.calibration.HOP_LATENCY
    a70, a8 = 4096 * 8192 * 2, 4096 * 4096 * 2
    net = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 2, 1).phase("PP")
    assert net.rung == "Scale-out NIC"
    assert net.time_s == pytest.approx(32 * (
        a70 / (50e9 * specs.calibration.NET_EFFICIENCY.value)
        + lat[("net", "ring", "Simple")].value))
    assert net.collective == "32 sends of 67.1 MB"  # 67,108,864 B (was "6.71e+07 B")
    nvl = steptime.layout_traffic("dgx-h100", "llama-3-70b", 2, 4, 1).phase("PP")
    assert nvl.rung == "NVLink"
    assert nvl.time_s == pytest.approx(32 * (a70 / (18 * 20.6e9)
                                             + lat[("nvlink", "ring", "Simple")].value))
    pcie = steptime.layout_traffic("PCIe + 100 GbE", "llama-3-8b", 1, 8, 1).phase("PP")
    assert pcie.rung == "PCIe"
    assert pcie.time_s == pytest.approx(32 * (a8 / 51e9 + lat[("pcie", "ring", "Simple")].value))


def test_dp_groups_and_rungs_by_hand():
    """The DP all-reduce moves each GPU's gradient shard, 2 bytes x params / (tp x pp), over
    its replicas, placed TP innermost, then PP, then DP (collectives.predict does the
    timing; here: which GPUs and nodes it gets, and the rung):
    * TP 2 x DP 2 (llama 3 8B): both replicas in one node, NVLink, 2 GPUs;
    * TP 2 x PP 3 x DP 4: one replica (6 GPUs) per node, so 4 nodes of 1 GPU;
    * TP 2 x DP 16: 4 replicas per node, 4 nodes of 4 GPUs;
    * TP 2 x DP 128 = 256 GPUs = 32 nodes: one scalable unit, under the leaves;
    * TP 8 x PP 2 x DP 32 = 512 GPUs = 64 nodes: two units, through the spine."""
    def check(tp, pp, dp, g, k, rung, model="llama-3-8b"):
        params = scaling.model(model).params
        ph = steptime.layout_traffic("dgx-h100", model, tp, pp, dp).phase("DP")
        shard = 2 * params / (tp * pp)
        assert ph.time_s == pytest.approx(collectives.predict("all_reduce", shard, "dgx-h100",
                                                              g, k).time_s)
        assert ph.rung == rung
        # "all-reduce of 4.02 GB over 2 ranks": the shard to 3 significant figures in
        # decimal bytes (was "4.02e+09 B")
        m_ = re.fullmatch(rf"all-reduce of ([\d.]+) ([kMG])B over {dp:,} ranks", ph.collective)
        assert m_, ph.collective
        shown = float(m_[1]) * {"k": 1e3, "M": 1e6, "G": 1e9}[m_[2]]
        assert shown == pytest.approx(shard, rel=5e-3)
    check(2, 1, 2, 2, 1, "NVLink")
    check(2, 3, 4, 1, 4, "Scale-out NIC")
    check(2, 1, 16, 4, 4, "Scale-out NIC")
    check(2, 1, 128, 4, 32, "Scale-out NIC")
    check(8, 2, 32, 1, 32, "Spine", "llama-3-70b")
    check(8, 4, 8, 1, 8, "Scale-out NIC", "llama-3-70b")


def test_dp_uses_sharp_only_when_faster():
    """in_network_reduction: the DP time is the faster of NCCL's default and SHARP, and
    the phase says when SHARP was used; from 2 nodes on (SHARP needs the switches)."""
    ib = steptime.make_system("h100-sxm", 8, "nvswitch", 8, 400.0, "InfiniBand")
    shard = 2 * 70e9 / 8
    for dp in (2, 4, 16):
        ph = steptime.layout_traffic(ib, "llama-3-70b", 8, 1, dp,
                                     in_network_reduction=True).phase("DP")
        t = collectives.predict("all_reduce", shard, ib, 1, dp).time_s
        ts = collectives.predict("all_reduce", shard, ib, 1, dp, "sharp").time_s
        assert ph.time_s == pytest.approx(min(t, ts), rel=1e-12)
        assert ph.collective.endswith(" (SHARP in the switches)") == (ts < t)
    assert ts < t      # at 16 nodes SHARP wins (one pass through the NIC, not 2 (k-1)/k)


def test_zero3_moves_one_and_a_half_times_the_dp_bytes_and_time():
    """ZeRO paper, Section 7.2.2: stage 3 moves 3 Psi against an all-reduce's 2 Psi."""
    z1 = steptime.layout_traffic(zero=1).phase("DP")
    z3 = steptime.layout_traffic(zero=3).phase("DP")
    assert z3.bytes == pytest.approx(1.5 * z1.bytes)
    assert z3.time_s == pytest.approx(1.5 * z1.time_s)
    assert z3.collective == z1.collective + " and weight all-gathers (ZeRO-3)"
    assert steptime.layout_traffic(zero=2).phase("DP") == z1   # stages 0-2 move the same
    assert steptime.layout_traffic(zero=0).phase("DP") == z1
    # step_time passes its stage on
    assert steptime.step_time(zero=3).dp == pytest.approx(1.5 * steptime.step_time().dp)


def test_layout_bytes_with_two_sequences_per_micro_batch():
    m = scaling.model("llama-3-70b")
    lay = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 8, 2048, 2, 8)
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, 2048, 2, 8, tp=8, pp=4,
                                     dp=8)
    assert (lay.phase("TP").bytes, lay.phase("PP").bytes) == (tr.tp, tr.pp)
    # by hand: TP 4 x 20 layers x 8 micro-batches x 2 (7/8) x (2 x 2,048 x 8,192 x 2 B)
    assert tr.tp == pytest.approx(4 * 20 * 8 * 2 * 7 / 8 * 2 * 2048 * 8192 * 2)


@pytest.mark.parametrize("call, message", [
    (lambda: steptime.layout_traffic(pp=0), "^pp=0 is out of range: must be between 1 and "
                                            "1000000"),
    (lambda: steptime.layout_traffic(dp=0), "^dp=0 is out of range"),
    (lambda: steptime.layout_traffic(pp=1_000_001), "^pp=1000001 is out of range"),
    (lambda: steptime.layout_traffic(leaf_nodes=0), "^leaf_nodes=0 is out of range: must be "
                                                    "between 1 and 100000"),
    (lambda: steptime.layout_traffic(leaf_nodes=100_001), "^leaf_nodes=100001 is out of"),
    (lambda: steptime.layout_traffic(zero=-1), "^zero=-1 is out of range: must be between 0 "
                                               "and 3"),
    (lambda: steptime.layout_traffic(zero=4), "^zero=4 is out of range"),
    (lambda: steptime.step_time(overlap=-0.1), "^overlap=-0.1 is out of range"),
    (lambda: steptime.make_system(gpus_per_node=0), "^gpus_per_node=0 is out of range: must "
                                                    "be between 1 and 576"),
    (lambda: steptime.make_system(gpus_per_node=577), "^gpus_per_node=577 is out of range"),
    (lambda: steptime.make_system(nics_per_node=65), "^nics_per_node=65 is out of range: "
                                                     "must be between 1 and 64"),
    (lambda: steptime.make_system(nics_per_node=0), "^nics_per_node=0 is out of range: must "
                                                    "be between 1 and 64"),
    (lambda: steptime.make_system(nic_gbps=1600.5), "^nic_gbps=1600.5 is out of range: must "
                                                    "be >= 10 and <= 1600"),
    (lambda: steptime.make_system(name=5), r"^name=5 must be a string \(the id of the "
                                           r"result\)"),
    (lambda: steptime.tapered(5, 2.0), r"^sys_=5 must be a System \(interlib.specs.System\)"),
    (lambda: steptime.scaling_efficiency(n_gpus=[0]), "^n_gpus=0 "),
    (lambda: steptime.scaling_efficiency(pp=0), "^pp=0 is out of range"),
    (lambda: steptime.scaling_efficiency(pp=1_000_001), "^pp=1000001 is out of range"),
    (lambda: steptime.scaling_efficiency(tp=1_000_001), "^tp=1000001 is out of range"),
    # 24 GPUs are not whole TP 8 x PP 2 replicas of 16 GPUs
    (lambda: steptime.scaling_efficiency(n_gpus=[24], tp=8, pp=2),
     r"^n_gpus=24 .*tp x pp = 16$"),
])
def test_bad_input_states_the_range(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_ranges_include_their_ends():
    """The ends of each documented range are accepted: ZeRO 0, 1 GPU and 1..576 GPUs per
    node, 1..64 NICs, 10..1600 Gb/s; scaling_efficiency on 1 GPU (tp = pp = 1)."""
    assert steptime.layout_traffic("dgx-h100", "llama-3-8b", 8, 1, 1, zero=0).n_gpus == 8
    assert steptime.make_system(gpus_per_node=1, nics_per_node=1).gpus_per_node == 1
    assert steptime.make_system(gpus_per_node=576, nics_per_node=64).gpus_per_node == 576
    assert steptime.make_system(nic_gbps=10).nic.rate.value == pytest.approx(10e9 / 8)
    assert steptime.make_system(nic_gbps=1600).nic.rate.value == pytest.approx(200e9)
    e = steptime.scaling_efficiency(model="llama-3-8b", n_gpus=[1], tp=1)
    assert 0 < e[0] <= 1


def test_make_system_by_hand():
    """The default what-if node is a DGX H100's design (8 H100 SXM on NVSwitch 3, 8 x 400
    Gb/s InfiniBand), id "custom"; the title says GPUs, intra link, NICs and fabric; the NIC
    rate is the reader's (derived), cited to the fabric's standard."""
    s = steptime.make_system()
    assert (s.name, s.gpus_per_node, s.intra, s.nvswitch_gen, s.nics_per_node) == \
        ("custom", 8, "nvswitch", 3, 8)
    assert s.nic.rate.value == pytest.approx(400 * u.Gbit_per_s) and s.fabric == "InfiniBand"
    assert s.title.split(", ") == ["8 x H100 SXM", "NVSwitch", "8 x 400G InfiniBand"]
    assert s.nic.rate.source is specs.sources.IB_ROADMAP
    assert s.nic.rate.note.startswith("reader-chosen")
    e = steptime.make_system("h100-sxm", 4, "pcie", 2, 100.0, "Ethernet", "mine")
    assert (e.name, e.fabric, e.nvswitch_gen) == ("mine", "Ethernet", None)
    assert e.title.split(", ") == ["4 x H100 SXM", "PCIe", "2 x 100G Ethernet"]
    assert e.nic.rate.source is specs.sources.IEEE_8023


def test_pcie_fabric_is_two_100gbe_nics():
    """Chapter 8's commodity fabric: the same 8 H100 on PCIe with two 100 GbE NICs."""
    s = steptime.fabric("PCIe + 100 GbE")
    assert (s.name, s.gpus_per_node, s.intra, s.nics_per_node, s.fabric) == \
        ("h100-pcie-100gbe", 8, "pcie", 2, "Ethernet")
    assert s.nic.rate.value == pytest.approx(100 * u.Gbit_per_s)


def test_tapered_divides_the_nic_rate_and_says_so():
    s = steptime.fabric("NVLink + NDR InfiniBand")
    assert steptime.tapered(s, 1.0) is s
    for ov in (2.0, 7.0):
        t = steptime.tapered(s, ov)
        assert t.nic.rate.value == pytest.approx(s.nic.rate.value / ov)
        assert t.nic.name == f"ConnectX-7 via {ov:g}:1 spine"
        assert t.nic.rate.note.endswith("divided by the spine oversubscription")
        assert t.nic.rate.source is s.nic.rate.source


def test_step_time_memory_is_memory_per_gpu():
    """StepTime.memory is memory_per_gpu of the same design (every argument passed)."""
    args = ("dgx-h100", "llama-3-70b", 4, 2, 16, 2048, 2, 2)
    st = steptime.step_time(*args[:7], zero=args[7])
    assert st.memory == steptime.memory_per_gpu(*args)
    # and each argument matters: by hand, optimizer 12 x 70e9 / (4 x 2) / 16 (ZeRO-2 shards
    # it), activations 34 x 2,048 x 2 x 8,192 x 80 / 4
    assert st.memory.optimizer == pytest.approx(12 * 70e9 / 8 / 16)
    assert st.memory.gradients == pytest.approx(2 * 70e9 / 8 / 16)
    assert st.memory.weights == pytest.approx(2 * 70e9 / 8)
    assert st.memory.activations == pytest.approx(34 * 2048 * 2 * 8192 * 80 / 4)


def test_memory_describe_leads_with_the_total_against_the_hbm():
    from interlib import display
    m = steptime.memory_per_gpu()
    d = m.describe()
    # H100 SXM: 80 GB of HBM3
    assert d.startswith(f"{display.fmt_bytes(m.total)} of 80 GB HBM per GPU (weights ")
    assert d.endswith("; ZeRO-1)")


def test_scaling_efficiency_is_step_time_for_each_count():
    """Weak scaling: each count is step_time with dp = n / (tp pp), every other setting
    as in step_time (its defaults: DGX H100, 4,096 tokens, 1 sequence, 16 micro-batches,
    no taper)."""
    e = steptime.scaling_efficiency(n_gpus=[64, 512])
    for n, x in zip((64, 512), e):
        assert x == steptime.step_time(tp=8, pp=1, dp=n // 8).efficiency
    # a DP group within its leaf switches does not see the spine's taper; at 32 nodes per
    # leaf group, 1,024 GPUs (128 nodes) do
    wide = steptime.scaling_efficiency(n_gpus=[1024], oversubscription=4, leaf_nodes=200)
    flat = steptime.scaling_efficiency(n_gpus=[1024])
    taper = steptime.scaling_efficiency(n_gpus=[1024], oversubscription=4)
    assert wide[0] == flat[0] and taper[0] < flat[0]


def test_breakdown_table_shows_no_sign_on_a_zero_part():
    """Without PP and DP (8 GPUs, TP 8) their rows are 0 s, unsigned; only the overlap row
    is subtracted."""
    t = steptime.breakdown_table(steptime.step_time(tp=8, pp=1, dp=1))
    rows = {r[0]: r for r in t.rows}
    assert not rows["PP sends"][1].startswith("−")
    assert not rows["DP gradient all-reduce"][1].startswith("−")


# ------------------------------- mutation-guided tests (issue 38 item 6), by hand
def test_tp_all_reduce_count_is_shown_to_one_decimal_when_a_stage_holds_part_of_a_layer():
    """layout_traffic spreads the layers evenly over the stages (layers / pp, not rounded):
    Llama 3 70B's 80 layers over PP 3 is 26 2/3 layers a stage, so 4 all-reduces x 80/3
    layers x 16 micro-batches = 5,120 / 3 = 1,706.67 all-reduces, shown "1,706.7" (one
    decimal: a whole count would hide the fraction); with 3 micro-batches the count is
    4 x 80/3 x 3 = 320, a whole number, shown without a decimal."""
    act = 4096 * 8192 * 2   # 67,108,864 B = 67.1 MB
    one = collectives.predict("all_reduce", act, "dgx-h100", 8, 1).time_s
    ph = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 3, 1).phase("TP")
    assert ph.collective == "1,706.7 all-reduces of 67.1 MB"
    assert ph.time_s == pytest.approx(5120 / 3 * one)
    ph = steptime.layout_traffic("dgx-h100", "llama-3-70b", 8, 3, 1,
                                 micro_batches=3).phase("TP")
    assert ph.collective == "320 all-reduces of 67.1 MB"
    assert ph.time_s == pytest.approx(320 * one)


def test_make_system_names_the_first_wrong_argument_in_its_signature_order():
    """make_system checks its arguments in the order of its signature, so with two wrong
    ones the message names the first: gpus_per_node=0 before intra='ether' or
    nic_gbps=5 (the reader fixes them one at a time, left to right)."""
    with pytest.raises(ValueError, match=r"^gpus_per_node=0 is out of range: must be "
                                         r"between 1 and 576"):
        steptime.make_system(gpus_per_node=0, intra="ether")
    with pytest.raises(ValueError, match="^gpus_per_node=0 "):
        steptime.make_system(gpus_per_node=0, nic_gbps=5)


def test_memory_per_gpu_refuses_more_stages_than_layers():
    """A pipeline stage holds at least one layer: Llama 3 70B has 80 layers, Llama 3 8B 32
    (The Llama 3 Herd of Models, arXiv 2407.21783, Table 3). memory_per_gpu took PP 81 and reported 1/81 of the model per
    stage, a share no GPU can hold (layout_traffic and step_time refused it); now it is
    refused with the same range as theirs, and PP = layers is the largest accepted: TP 8 x
    PP 80 holds 2 x 70e9 / 640 = 218.75 MB of bf16 weights per GPU."""
    with pytest.raises(ValueError, match=r"^pp=81 is out of range: must be between 1 and "
                                         r"layers=80"):
        steptime.memory_per_gpu("dgx-h100", "llama-3-70b", 8, 81, 1)
    with pytest.raises(ValueError, match=r"^pp=33 .* layers=32"):
        steptime.memory_per_gpu("dgx-h100", "llama-3-8b", 1, 33, 1)
    assert steptime.memory_per_gpu("dgx-h100", "llama-3-8b", 1, 32, 1).weights > 0
    m = steptime.memory_per_gpu("dgx-h100", "llama-3-70b", 8, 80, 1)
    assert m.weights == pytest.approx(2 * 70e9 / 640)
    # the same refusal as the step it belongs to
    with pytest.raises(ValueError, match=r"^pp=81 is out of range: must be between 1 and "
                                         r"layers=80"):
        steptime.step_time("dgx-h100", "llama-3-70b", 8, 81, 1)


def test_step_time_needs_a_gpu_with_a_dense_bf16_peak():
    """The compute time is 6 N D over the GPU's dense bf16 peak, so step_time takes a system
    whose GPU has one in the catalogue. It looked the GPU up by identity and, for a GPU
    without a peak, failed with StopIteration (a what-if GPU given to specs.custom.node)
    or with a message about a ``gpu`` argument the caller never passed (a catalogue system
    whose GPU has no peak); both are now refused naming the system and the GPUs that
    have a peak. A copy of a catalogue system (deepcopy: equal GPU, another object) times
    as the system does."""
    import copy
    from dataclasses import replace

    from interlib.specs import custom

    with_peak = list(specs.BF16_DENSE_FLOPS)
    what_if = custom.node(replace(specs.GPUS["h100-sxm"], name="H100 what-if"), 8)
    message = (f"system='{what_if.name}' is out of range: its GPU (H100 what-if) has no "
               f"dense bf16 peak in the catalogue, so its compute time cannot be modelled; "
               f"step_time takes a system whose GPU is one of {with_peak} "
               f"(interlib.specs.BF16_DENSE_FLOPS)")
    with pytest.raises(ValueError) as e:
        steptime.step_time(what_if, "llama-3-8b", 8, 1, 2)
    assert str(e.value) == message
    with pytest.raises(ValueError, match=f"^system='{what_if.name}' is out of range"):
        steptime.scaling_efficiency(what_if, "llama-3-8b", n_gpus=[16])
    # every catalogue system: timed when its GPU has a peak, refused by name otherwise
    for name, s in specs.SYSTEMS.items():
        gpu = next(k for k, g in specs.GPUS.items() if g is s.gpu)
        if gpu in with_peak:
            assert 0 < steptime.step_time(name, "llama-3-8b", 1, 1, 2).efficiency <= 1
        else:
            with pytest.raises(ValueError, match=f"^system='{name}' is out of range: its "
                                                 f"GPU .* has no dense bf16 peak"):
                steptime.step_time(name, "llama-3-8b", 1, 1, 2)
    ref = steptime.step_time()
    twin = steptime.step_time(copy.deepcopy(specs.system("dgx-h100")))
    assert (twin.compute, twin.step) == (ref.compute, ref.step)


def test_a_layout_beyond_the_collective_models_node_bound_is_refused_by_its_own_arguments():
    # predict takes at most 100,000 nodes (tests/test_collectives_at_scale.py pins that
    # message); a DGX H100 has 8 GPUs (catalogue), so 800,000 GPUs is the most a layout or a
    # scaling curve can ask for. One more TP or DP group must be refused naming what the
    # reader typed (tp/pp/dp, n_gpus), not the "nodes" they never passed.
    assert collectives.MAX_NODES == 100_000
    assert steptime.layout_traffic("dgx-h100", "llama-3-8b", 8, 1, 100_000).n_gpus == 800_000
    assert 0 < steptime.scaling_efficiency("dgx-h100", "llama-3-8b", [800_000])[0] <= 1
    for tp, dp in ((800_008, 1), (8, 100_001)):
        with pytest.raises(ValueError) as e:
            steptime.layout_traffic("dgx-h100", "llama-3-8b", tp, 1, dp)
        assert str(e.value) == (
            f"tp={tp}, pp=1, dp={dp} is out of range: tp x pp x dp = 800,008 GPUs fill "
            "100,001 nodes of 8, more than the collective model takes (100,000 nodes)")
    with pytest.raises(ValueError) as e:
        steptime.step_time("dgx-h100", "llama-3-8b", 8, 1, 100_001)
    assert str(e.value).startswith("tp=8, pp=1, dp=100001 is out of range")
    with pytest.raises(ValueError) as e:
        steptime.scaling_efficiency("dgx-h100", "llama-3-8b", [8, 800_008])
    assert str(e.value) == ("n_gpus=800008 is out of range: must be at most 800,000 (100,000 "
                            "nodes of 8 GPUs, the most the collective model takes)")
