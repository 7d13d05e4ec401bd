"""Chapters 2-4 models: PCIe, NVLink, tensor parallelism, NVSwitch.

Expected values come from the sources in facts.md (PCI-SIG rates, NVIDIA pages, nccl-tests
docs, the scaling book) or from hand derivation, never from the code's own output.
"""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from interlib import collectives, nvlink, nvswitch, pcie, specs, tensor_parallel as TP
from interlib import units as u
from interlib.specs import inside_box as IB


# ------------------------------------------------------------------------ PCIe
@pytest.mark.parametrize("gen,raw,usable,headline", [
    ("3.0", 16.0, 15.75, 32), ("4.0", 32.0, 31.5, 64), ("5.0", 64.0, 63.0, 128),
    ("6.0", 128.0, 118.0, 256)])
def test_pcie_levels_x16(gen, raw, usable, headline):
    # facts.md 1.1: raw = GT/s x 16 / 8; usable after 128b/130b (Gen 6: 236/256 FLIT,
    # Lockwood "~118 GB/s"); vendor headline = raw counted both ways
    assert pcie.link_bandwidth(gen, 16, "raw") / u.GB_per_s == pytest.approx(raw)
    assert pcie.link_bandwidth(gen, 16, "usable") / u.GB_per_s == pytest.approx(usable,
                                                                                 rel=2e-3)
    assert pcie.link_bandwidth(gen, 16, "headline") / u.GB_per_s == pytest.approx(headline)


def test_pcie_achieved_gen5_matches_azure_measurement():
    # Azure ND H100 v5 nvbandwidth H2D: 51 GB/s on Gen5 x16
    assert pcie.link_bandwidth("5.0", 16) / u.GB_per_s == pytest.approx(51, rel=1e-3)


def test_measured_host_copies_are_catalogued_and_below_usable():
    vals = {k: (m.h2d.value / u.GB_per_s, m.d2h.value / u.GB_per_s)
            for k, m in IB.HOST_COPIES.items()}
    assert vals == {"azure-nd-h100-v5": (51, 52), "azure-nd-h200-v5": (52, 52),
                    "bekman-h200": (55.43, 55.06)}
    for m in IB.HOST_COPIES.values():
        assert m.h2d.kind == "measured" and m.h2d.direction == "per direction"
        assert 0.8 < m.h2d.value / pcie.link_bandwidth("5.0", 16, "usable") < 0.9


def test_pcie_70b_weights_gen4_vs_gen5():
    # 70e9 x 2 B = 140 GB; Gen5 achieved 51 GB/s -> ~2.75 s; Gen4 twice as long
    t5 = pcie.transfer_time(140 * u.GB, "5.0")
    t4 = pcie.transfer_time(140 * u.GB, "4.0")
    assert t5 == pytest.approx(140 / 51.0, rel=2e-3)
    assert t4 / t5 == pytest.approx(2.0, rel=1e-3)


def test_pcie_small_copy_is_latency_bound():
    assert pcie.transfer_time(1.0, "5.0") == pytest.approx(pcie.LATENCY.value, rel=1e-4)
    assert pcie.effective_bandwidth(1e3, "5.0") < 0.01 * pcie.link_bandwidth("5.0")


@given(st.integers(1, 64))
def test_shared_uplink_conserves_bandwidth(k):
    per = pcie.switch_bandwidth_per_device(k, "5.0", "host")
    assert per * k <= pcie.link_bandwidth("5.0") * (1 + 1e-12)
    assert per == pytest.approx(pcie.link_bandwidth("5.0") / k)
    assert pcie.switch_bandwidth_per_device(k, "5.0", "peer") == pcie.link_bandwidth("5.0")


def test_staged_copy_is_two_legs():
    leg = pcie.transfer_time(1 * u.GB, "5.0")
    assert pcie.staged_copy_time(1 * u.GB, "5.0") == pytest.approx(2 * leg)
    assert pcie.staged_copy_time(1 * u.GB, "5.0", pipelined=True) == pytest.approx(
        leg + pcie.LATENCY.value)


def test_pcie_only_system_is_hypothetical_and_slower():
    s = specs.system("h100-pcie-only")
    assert "hypothetical" in s.title and s.intra == "pcie" and s.nvswitch_gen is None
    # facts.md 4a: ring all-reduce of 140 GB bf16 gradients on PCIe Gen5 ~4.5-4.9 s
    t = collectives.predict("all_reduce", 140 * u.GB, "h100-pcie-only", 8, 1, "ring").time_s
    assert 4.5 < t < 5.0
    with pytest.raises(ValueError, match="algorithm"):
        collectives.predict("all_reduce", 1e9, "h100-pcie-only", 8, 1, "nvls")


# ---------------------------------------------------------------------- NVLink
@pytest.mark.parametrize("gen,line,headline", [(1, 80, 160), (2, 150, 300), (3, 300, 600),
                                               (4, 450, 900), (5, 900, 1800)])
def test_nvlink_per_gpu(gen, line, headline):
    # facts.md 1.2 (NVIDIA NVLink / Hopper pages)
    assert nvlink.gpu_bandwidth(gen, "line") / u.GB_per_s == pytest.approx(line)
    assert nvlink.gpu_bandwidth(gen, "headline") / u.GB_per_s == pytest.approx(headline)


@pytest.mark.parametrize("gen,eff", [(3, 240), (4, 370.8), (5, 721.8)])
def test_nvlink_effective_is_about_80_percent(gen, eff):
    # NCCL topo.h x links; maintainer: "app-level bandwidth is 80% of the peak"
    assert nvlink.gpu_bandwidth(gen, "effective") / u.GB_per_s == pytest.approx(eff)
    assert 0.78 < nvlink.efficiency(gen) < 0.85


def test_measured_p2p_is_between_effective_and_line():
    for m in IB.P2P.values():
        line = nvlink.gpu_bandwidth(m.nvlink_gen, "line")
        assert 0.8 * line < m.per_direction.value < line
        if m.bidirectional is not None:
            assert m.bidirectional.direction == "bidirectional"
            assert m.bidirectional.value < 2 * line


def test_nvidia_smi_reports_signalling_rate():
    # 26.5625 / 25 = 53.125 / 50 = 1.0625 (= 1 / 0.9412, Bekman)
    assert nvlink.reported_link_rate(4) / specs.nvlink(4).per_link.value == pytest.approx(
        1.0625)
    assert nvlink.reported_link_rate(5) / specs.nvlink(5).per_link.value == pytest.approx(
        1.0625)


def test_p2p_vs_staged_ordering():
    t = nvlink.p2p_vs_staged(1 * u.GB, 4, "5.0")
    assert t["nvlink"] < t["pcie_p2p"] <= t["staged"] < t["staged_serial"]
    # large copies: NVLink 4 effective / PCIe 5 achieved = 370.8 / 51
    assert t["pcie_p2p"] / t["nvlink"] == pytest.approx(370.8 / 51, rel=0.02)


# ------------------------------------------------------------ tensor parallelism
def test_layer_flops_and_bytes():
    # 24 b s h^2 and b s h x 2 bytes, by hand
    assert TP.layer_forward_flops(1, 4096, 8192) == pytest.approx(24 * 4096 * 8192**2)
    assert TP.layer_forward_flops(1, 4096, 8192, attention_scores=True) == pytest.approx(
        24 * 4096 * 8192**2 + 4 * 4096**2 * 8192)
    assert TP.activation_bytes(2, 4096, 8192) == 2 * 4096 * 8192 * 2


def test_layer_compute_time_uses_dense_peak_and_mfu():
    # H100 dense BF16 = 1,979 / 2 TFLOP/s (datasheet, sparsity halved)
    assert TP.peak_flops("h100-sxm") == pytest.approx(1979 / 2 * u.TFLOP_per_s, rel=1e-3)
    t = TP.layer_compute_time(1, 4096, 8192, 8, "h100-sxm", 0.5)
    assert t == pytest.approx(24 * 4096 * 8192**2 / 8 / (989e12 * 0.5))


def test_tp_comm_share_ordering_and_limits():
    shares = {link: TP.layer_cost(1, 4096, 8192, 8, link).comm_share for link in TP.LINKS}
    assert shares["PCIe 5.0 only (H100)"] > shares["NVLink 4 (H100)"]
    assert TP.layer_cost(1, 4096, 8192, 1).comm_share == 0.0
    h = np.array([2048, 4096, 8192, 16384])
    s = TP.layer_cost(1, 4096, h, 8, "NVLink 4 (H100)").comm_share
    assert np.all(np.diff(s) < 0)  # compute ~h^2, bytes ~h: wider models hide comms


# ---------------------------------------------------------------------- NVSwitch
@given(st.integers(2, 1000))
def test_mesh_links_count_pairs(n):
    assert nvswitch.mesh_links(n) == math.comb(n, 2)
    assert nvswitch.mesh_ports_per_gpu(n) == n - 1


def test_mesh_pair_bandwidth():
    # 18 links among 7 peers: 2 each x 25 GB/s; beyond 19 GPUs an H100 cannot reach all
    assert nvswitch.mesh_pair_bandwidth(8, 4) == pytest.approx(50 * u.GB_per_s)
    assert nvswitch.mesh_pair_bandwidth(19, 4) == pytest.approx(25 * u.GB_per_s)
    assert nvswitch.mesh_pair_bandwidth(20, 4) == 0


def test_dgx_h100_wiring_uses_all_18_links():
    assert nvswitch.links_per_gpu_dgx_h100() == specs.nvlink(4).links_per_gpu.value == 18
    assert nvswitch.switch_chips_needed(8, 18, 64) == 3  # 144 ports fit in 3 chips of 64
    assert nvswitch.switch_links(8, 4) == 144


def test_dgx_h100_bisection_vs_aggregate():
    # facts.md 1.3 / 4j: bisection 3.6 TB/s counts both directions; aggregate 7.2 TB/s
    per = specs.nvlink(4).per_gpu_per_direction
    assert nvswitch.bisection_bandwidth(8, per) / u.TB_per_s == pytest.approx(1.8)
    assert nvswitch.bisection_bandwidth(8, per, True) / u.TB_per_s == pytest.approx(3.6)
    assert nvswitch.aggregate_bandwidth(8, 2 * per) / u.TB_per_s == pytest.approx(7.2)


def test_nvl72_130_is_aggregate_not_bisection():
    # facts.md 1.3 cautions: 72 x 1.8 = 129.6 TB/s aggregate; bisection 36 x 900 GB/s
    nv = specs.nvlink(5)
    assert nvswitch.aggregate_bandwidth(72, nv.per_gpu_bidirectional) / u.TB_per_s == \
        pytest.approx(129.6)
    assert nvswitch.bisection_bandwidth(72, nv.per_gpu_per_direction) / u.TB_per_s == \
        pytest.approx(32.4)
    assert IB.NVLINK_DOMAINS["gb200-nvl72"].headline.value / u.TB_per_s == pytest.approx(130)


def test_h100_256_all_to_all_is_a_bisection():
    # NVIDIA: 57.6 TB/s for 256 H100 = 128 x 450 GB/s
    assert nvswitch.bisection_bandwidth(256, specs.nvlink(4).per_gpu_per_direction) == \
        pytest.approx(IB.NVLINK_DOMAINS["h100-nvlink-256"].headline.value)


@given(st.integers(2, 576), st.data())
def test_cut_is_symmetric_and_peaks_at_the_middle(n, data):
    k = data.draw(st.integers(1, n - 1))
    per = 450 * u.GB_per_s
    assert nvswitch.cut_bandwidth(n, k, per) == nvswitch.cut_bandwidth(n, n - k, per)
    assert nvswitch.cut_bandwidth(n, k, per) <= nvswitch.bisection_bandwidth(n, per)


def test_nvls_factor():
    # nccl-tests PR #239: busbw = 2(n-1)/(n+1) x wire; 1.556 at n = 8
    assert nvswitch.nvls_busbw_factor(8) == pytest.approx(14 / 9)
    assert nvswitch.nvls_busbw_factor(3) == pytest.approx(1.0)
    assert nvswitch.nvls_busbw_factor(1e6) == pytest.approx(2, rel=1e-5)
    assert nvswitch.nvls_efficiency("Hopper") == 0.85


def test_ring_vs_nvls_on_dgx_h100_matches_measurements():
    # measured: ring ~370 GB/s, NVLS ~480 GB/s busbw at 8 GB (nccl-tests#212, Azure)
    p = nvswitch.ring_vs_nvls(8 * u.GiB, "dgx-h100", 8)
    assert p["ring"].busbw / u.GB_per_s == pytest.approx(370, rel=0.03)
    assert p["nvls"].busbw / u.GB_per_s == pytest.approx(480, rel=0.03)
    assert p["auto"].algorithm == "nvls"


def test_nvls_measurements_catalogued_and_ring_model_agrees():
    # nccl-tests#212 (H100: ring ~370, NVLS ~480); GTC25 S72583 via nccl#1374 (NVL72 680/850)
    m = IB.NVLS_MEASURED
    assert (m["dgx-h100"].ring.value, m["dgx-h100"].nvls.value) == (370 * u.GB_per_s,
                                                                    480 * u.GB_per_s)
    assert (m["gb200-nvl72"].ring.value, m["gb200-nvl72"].nvls.value) == (680 * u.GB_per_s,
                                                                          850 * u.GB_per_s)
    for meas in m.values():
        p = nvswitch.ring_vs_nvls(8 * u.GiB, meas.system, meas.gpus)
        assert p["ring"].busbw == pytest.approx(meas.ring.value, rel=0.03)
        assert p["nvls"].busbw > p["ring"].busbw
    assert "measured" in repr(nvswitch.nvls_validation_table())


# --------------------------------------------------------------- bad input
@pytest.mark.parametrize("call,param", [
    (lambda: pcie.link_bandwidth("7.0"), "gen"),
    (lambda: pcie.link_bandwidth("5.0", 3), "lanes"),
    (lambda: pcie.link_bandwidth("5.0", 16, "peak"), "level"),
    (lambda: pcie.transfer_time(-1), "size_bytes"),
    (lambda: pcie.effective_bandwidth(0), "size_bytes"),
    (lambda: pcie.switch_bandwidth_per_device(0), "devices"),
    (lambda: pcie.switch_bandwidth_per_device(2, traffic="nic"), "traffic"),
    (lambda: pcie.staged_copy_time(-5), "size_bytes"),
    (lambda: nvlink.gpu_bandwidth(6), "gen"),
    (lambda: nvlink.gpu_bandwidth(4, "peak"), "level"),
    (lambda: nvlink.transfer_time(-1), "size_bytes"),
    (lambda: nvlink.effective_bandwidth(0), "size_bytes"),
    (lambda: nvlink.reported_link_rate(3), "gen"),
    (lambda: nvlink.p2p_vs_staged(1e9, pcie_gen="9.0"), "gen"),
    (lambda: TP.layer_forward_flops(0, 1, 1), "batch"),
    (lambda: TP.activation_bytes(1, 1, 1, 3), "bytes_per_elem"),
    (lambda: TP.peak_flops("tpu"), "gpu"),
    (lambda: TP.layer_compute_time(1, 1, 1, 1, mfu=1.5), "mfu"),
    (lambda: TP.layer_comm_time(1, 1, 1, 16), "tp"),
    (lambda: TP.layer_cost(1, 1, 1, 2, "ethernet"), "link"),
    (lambda: nvswitch.mesh_links(0), "n"),
    (lambda: nvswitch.mesh_pair_bandwidth(1), "n"),
    (lambda: nvswitch.switch_links(8, 9), "gen"),
    (lambda: nvswitch.switch_chips_needed(8, 0), "links_per_gpu"),
    (lambda: nvswitch.cut_bandwidth(8, 8, 1e9), "k"),
    (lambda: nvswitch.cut_bandwidth(8, 4, -1), "per_gpu"),
    (lambda: nvswitch.bisection_bandwidth(1, 1e9), "n"),
    (lambda: nvswitch.aggregate_bandwidth(8, 0), "per_gpu_both_directions"),
    (lambda: nvswitch.nvls_busbw_factor(0), "n"),
    (lambda: nvswitch.nvls_efficiency("Ampere"), "arch"),
    (lambda: nvswitch.nvls_factor_table((0, 8)), "n"),
    (lambda: nvswitch.nvls_validation_table(0), "size_bytes"),
    (lambda: pcie.box_comparison_table(("dgx-h999",)), "name"),
    (lambda: TP.compute_table(("tpu-v5",)), "gpu"),
])
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_tables_are_generated():
    for t in (pcie.generation_table(), pcie.host_copy_table(), nvlink.generation_table(),
              nvlink.p2p_table(), nvswitch.dgx_h100_wiring(), nvswitch.domain_table(),
              pcie.box_comparison_table(), TP.compute_table(), nvswitch.nvls_factor_table()):
        assert t.rows and "|" in repr(t) and "<table" in t._repr_html_()
