"""Chapters 2-4 models: PCIe, NVLink, tensor parallelism, NVSwitch.

Expected values come from the sources in facts.md (PCI-SIG rates, NVIDIA pages, nccl-tests
docs, the scaling book) or from hand derivation, never from the code's own output.
"""

import dataclasses
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


def test_pcie_copy_efficiency_is_derived_from_the_azure_measurement():
    # invariant: the efficiency is the catalogued Azure ND H100 v5 H2D copy (51 GB/s) over
    # the usable Gen5 x16 rate (64 x 128/130 = 63.0 GB/s), not a second copy of either
    eff = specs.PCIE_HOST_COPY_EFFICIENCY
    assert eff.kind == "derived"
    assert eff.value == pytest.approx(51 / (64 * 128 / 130))


def test_pcie_achieved_gen5_against_independent_measurements():
    # The model's achieved Gen5 x16 rate is calibrated on Azure ND H100 v5 (51 GB/s), so
    # check it against the *other* published host-to-device copies: Azure ND H200 v5
    # 52 GB/s and Bekman's 8 x H200 node 55.43 GB/s (facts.md 1.1 / V11). Stated
    # tolerance: the model may be up to 10 % below a measurement (it is deliberately the
    # lowest, "errs on the slow side") and never above one.
    model = pcie.link_bandwidth("5.0", 16) / u.GB_per_s
    for measured in (52, 55.43):
        assert 0.90 * measured <= model <= measured


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
    with pytest.raises(ValueError, match="^algorithm="):
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
    # defaults come from the catalogue: NVLink 4 (18 links), NVSwitch 3 (64 ports)
    assert nvswitch.switch_chips_needed(8) == 3
    assert nvswitch.switch_chips_needed(72) == math.ceil(72 * 18 / 64)
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


def test_h100_256_headline_is_a_bisection_counted_both_ways():
    # Review R1. NVIDIA's third-generation NVSwitch blog (2022): "up to 256 connected NVIDIA
    # H100 ... and 57.6 TB/s of all-to-all bandwidth. The appliance delivers 9x more
    # bisection bandwidth than was possible with HDR InfiniBand on NVIDIA Ampere". The A100
    # basis, 32 DGX A100 with 8 HDR NICs of 25 GB/s: 16 x 8 x 25 GB/s x 2 directions = 6.4
    # TB/s; 9 x 6.4 = 57.6: a bisection counted in both directions, 28.8 TB/s each way.
    # The reported 2:1 taper (72 of each node's 144 GPU links leave it: 16 x 72 x 25 GB/s =
    # 28.8 TB/s) agrees; 128 x 450 GB/s per direction (the old reading) would be 57.6 each way.
    d = IB.NVLINK_DOMAINS["dgx-h100-nvlink-256"]
    assert d.gpus.value == 256
    assert d.headline.value == pytest.approx(57.6 * u.TB_per_s)
    assert d.headline.value == pytest.approx(9 * 16 * 8 * 25 * u.GB_per_s * 2)
    assert d.headline.direction == "bidirectional"
    assert d.headline.kind == "vendor peak" and d.headline.source is specs.sources.NVSWITCH_BLOG
    assert "9x more bisection bandwidth" in d.headline.source.says
    assert "upgrading-multi-gpu-interconnectivity-with-the-third-generation-nvidia-nvswitch" \
        in d.headline.source.url                                      # review R2
    assert d.fabric == "multi-tier, bisection published" and not d.bisection_known
    assert d.published_bisection is d.headline
    per_direction = nvswitch.domain_bisection("dgx-h100-nvlink-256")
    assert per_direction == pytest.approx(16 * 72 * 25 * u.GB_per_s) == 28.8e12
    assert nvswitch.domain_bisection("dgx-h100-nvlink-256", True) == pytest.approx(57.6e12)
    # the non-blocking formula would double it: the table must not print that
    assert nvswitch.bisection_bandwidth(256, 450 * u.GB_per_s) == pytest.approx(57.6e12)
    row = next(r for r in nvswitch.domain_table().rows if r[0] == d.name)
    assert row[5:7] == ["28.8 TB/s (published)", "57.6 TB/s (published)"]
    assert "bisection, both directions added" in row[7]
    # DGX GH200: NVIDIA repeats 57.6 TB/s without saying how it is counted
    gh = IB.NVLINK_DOMAINS["dgx-gh200-256"]
    assert gh.headline.direction == "not stated" and gh.fabric == "multi-tier, not published"
    assert nvswitch.domain_bisection("dgx-gh200-256") is None


def test_a_published_bisection_must_count_both_directions():
    d = IB.NVLINK_DOMAINS["dgx-h100-nvlink-256"]
    one_way = dataclasses.replace(d.headline, direction="per direction")
    with pytest.raises(ValueError, match="^headline.direction='per direction' must be "
                                         "'bidirectional' for a published bisection"):
        dataclasses.replace(d, headline=one_way)


def test_dgx_h100_page_headline_is_the_aggregate_7_2():
    # Review R8: NVIDIA's DGX H100 page, "7.2TB/s of bidirectional GPU-to-GPU bandwidth" =
    # 8 GPUs x 900 GB/s, the aggregate; the 3.6 TB/s bisection is Hot Chips 34's
    a = IB.DGX_H100_NVLINK_AGGREGATE
    assert a.value == pytest.approx(7.2e12) == 8 * 900e9
    assert a.direction == "bidirectional" and "7.2TB/s" in a.source.says
    assert a.value == pytest.approx(2 * IB.NVLINK_DOMAINS["dgx-h100"].headline.value)


def test_256_gpu_hopper_nvlink_domains_are_marked_not_shipped():
    # Issue 14, error 6. NVIDIA's Hopper in-depth blog: "NVLink Switch System technology is
    # not currently available with H100 systems"; the DGX H100 SuperPOD reference
    # architecture joins nodes with NDR InfiniBand. DGX GH200 (Hopper page: 256 GPUs,
    # 57.6 TB/s) was announced; NVIDIA's NCCL maintainers wrote in May 2024 (nccl#1286) that
    # no multi-level NVLink Switch product was publicly available and that the first
    # multi-node NVLink system would be GB200 NVL72.
    h100 = IB.NVLINK_DOMAINS["dgx-h100-nvlink-256"]
    gh200 = IB.NVLINK_DOMAINS["dgx-gh200-256"]
    assert h100.status == "announced, not shipped"
    assert h100.status_source is specs.sources.HOPPER_INDEPTH
    assert "not currently available" in h100.status_source.says
    assert gh200.status == "announced, not publicly released"
    assert gh200.status_source is specs.sources.NCCL_1286
    assert gh200.gpus.value == 256 and gh200.headline.value == pytest.approx(57.6 * u.TB_per_s)
    assert "GH200" in gh200.name and "H100" in h100.name
    for key in ("dgx-h100", "dgx-b200", "gb200-nvl72"):
        assert IB.NVLINK_DOMAINS[key].status == "shipped"
    status = {r[0]: r[-1] for r in nvswitch.domain_table().rows}
    assert status[h100.name] == "announced, not shipped"
    assert status[IB.NVLINK_DOMAINS["gb200-nvl72"].name] == "shipped"


def test_unshipped_domain_needs_a_status_source():
    d = IB.NVLINK_DOMAINS["dgx-h100-nvlink-256"]
    with pytest.raises(ValueError, match="^status_source="):
        IB.NVLinkDomain(d.name, d.size, 4, d.headline, d.headline_says, d.fabric,
                        status="announced, not shipped")
    with pytest.raises(ValueError, match="^status="):
        IB.NVLinkDomain(d.name, d.size, 4, d.headline, d.headline_says, d.fabric,
                        status="rumoured")


def test_nvl576_headline_is_derived_and_its_bisection_an_assumption():
    # NVIDIA Mission Control/BCM docs say only "up to 576 GPUs in a single NVLink domain";
    # 576 x 1.8 TB/s = 1.04 PB/s is arithmetic (facts.md 1.3 [D])
    d = IB.NVLINK_DOMAINS["gb200-nvl576"]
    assert d.headline.kind == "derived"
    assert d.headline.value == pytest.approx(576 * 1.8 * u.TB_per_s)
    assert "over 1 PB/s" not in d.headline.note
    assert d.fabric == "multi-tier, assumed non-blocking" and not d.bisection_known
    row = next(r for r in nvswitch.domain_table().rows if r[0] == d.name)
    assert all("if non-blocking" in c for c in row[5:7])
    assert row[7].startswith("1.04 PB/s [derived]")


def test_one_tier_domains_have_a_bisection():
    # DGX H100: 3.6 TB/s both directions (Hot Chips 34 via the scaling book); NVL72:
    # 36 x 900 GB/s = 32.4 TB/s per direction (facts.md 1.3 cautions)
    assert nvswitch.domain_bisection("dgx-h100", True) == pytest.approx(3.6 * u.TB_per_s)
    assert nvswitch.domain_bisection("gb200-nvl72") == pytest.approx(32.4 * u.TB_per_s)


def test_domain_gpu_counts_come_from_the_systems():
    for key in ("dgx-h100", "dgx-b200", "gb200-nvl72"):
        assert IB.NVLINK_DOMAINS[key].gpus.value == specs.system(key).gpus_per_node
        assert IB.NVLINK_DOMAINS[key].gpus.source is specs.system(key).source


def test_nvl72_switch_trays():
    # facts.md 1.3: GB200 NVL72 has 9 switch trays x 2 chips = 18 NVLink Switch chips;
    # the HGX/DGX B200 baseboard carries 2 (scaling book)
    f = nvswitch.prose_figures()
    assert (f["nvl72_switch_trays"], f["nvl72_chips_per_tray"], f["nvl72_switch_chips"]) == \
        ("9", "2", "18")
    assert f["b200_board_chips"] == "2"
    assert (f["dgx_h100_headline"], f["nvl72_headline"]) == ("3.6 TB/s", "130 TB/s")


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
    assert nvswitch.nvls_busbw_factor(10**6) == pytest.approx(2, rel=1e-5)
    assert nvswitch.nvls_efficiency("Hopper") == 0.85


def test_ring_vs_nvls_on_dgx_h100_reproduces_its_calibration():
    """Calibration reproduction, not validation: ring ~370 and NVLS ~480 GB/s busbw at 8 GB
    on 8xH100 (nccl-tests#212, rows V9-01/V9-02; Azure V1-24) are the model's own input
    (NCCL's effective NVLink 4, 18 x 20.6 = 370.8 GB/s) and the rows its NVLS pipeline
    constants were fitted to. Tolerances: the ring within 1 % (the fill left at 8 GiB);
    NVLS at most at NCCL's asymptote 14/9 x 0.85 x 370.8 = 490.3 GB/s, which is 2.2 % above
    480, so within 2.2 % of it."""
    p = nvswitch.ring_vs_nvls(8 * u.GiB, "dgx-h100", 8)
    assert p["ring"].busbw / u.GB_per_s == pytest.approx(370, rel=0.01)
    asymptote = 14 / 9 * 0.85 * 370.8
    assert p["nvls"].busbw / u.GB_per_s <= asymptote
    assert p["nvls"].busbw / u.GB_per_s == pytest.approx(480, rel=asymptote / 480 - 1)
    assert p["auto"].algorithm == "nvls"


def test_nvls_measurements_catalogued_and_ring_model_agrees():
    # nccl-tests#212 (H100: ring ~370, NVLS ~480); GTC25 S72583 via nccl#1374 (NVL72 680/850)
    m = IB.NVLS_MEASURED
    assert (m["dgx-h100"].ring.value, m["dgx-h100"].nvls.value) == (370 * u.GB_per_s,
                                                                    480 * u.GB_per_s)
    assert (m["gb200-nvl72"].ring.value, m["gb200-nvl72"].nvls.value) == (680 * u.GB_per_s,
                                                                          850 * u.GB_per_s)
    # H100: calibration reproduction (the ring's 370 is the model's input): 1 %.
    # NVL72 ring (row V9-05) is held out, fed no fit: the model matches this measurement to
    # 3 %, today's miss (0.5 %) plus the precision of a slide that gives 680 to 2 figures.
    for meas, role, tol in ((m["dgx-h100"], "calibration", 0.01),
                            (m["gb200-nvl72"], "holdout", 0.03)):
        assert _row_role(meas.system, meas.gpus, "ring") == role
        p = nvswitch.ring_vs_nvls(8 * u.GiB, meas.system, meas.gpus)
        assert p["ring"].busbw == pytest.approx(meas.ring.value, rel=tol)
        assert p["nvls"].busbw > p["ring"].busbw
    assert "measured" in repr(nvswitch.nvls_validation_table())


def _row_role(system, gpus, algorithm):
    """The role of the published single-node all-reduce row of ``system`` (nccl#1374,
    nccl-tests#212 rows in interlib/data/nccl_measurements.csv)."""
    from interlib import validation

    roles = {m.role for m in validation.load_measurements()
             if m.id.startswith("V9-") and m.system == system and m.nodes == 1
             and m.gpus_per_node == gpus and m.algorithm == algorithm}
    assert len(roles) == 1, roles
    return roles.pop()


# --------------------------------------------------------------- bad input
@pytest.mark.parametrize("call,param", [
    (lambda: pcie.link_bandwidth("7.0"), "^gen="),
    (lambda: pcie.link_bandwidth("5.0", 3), "^lanes="),
    (lambda: pcie.link_bandwidth("5.0", 16, "peak"), "^level="),
    (lambda: pcie.transfer_time(-1), "^size_bytes="),
    (lambda: pcie.effective_bandwidth(0), "^size_bytes="),
    (lambda: pcie.switch_bandwidth_per_device(0), "^devices="),
    (lambda: pcie.switch_bandwidth_per_device(2, traffic="nic"), "^traffic="),
    (lambda: pcie.staged_copy_time(-5), "^size_bytes="),
    (lambda: nvlink.gpu_bandwidth(6), "^gen="),
    (lambda: nvlink.gpu_bandwidth(4, "peak"), "^level="),
    (lambda: nvlink.transfer_time(-1), "^size_bytes="),
    (lambda: nvlink.effective_bandwidth(0), "^size_bytes="),
    (lambda: nvlink.reported_link_rate(3), "^gen="),
    (lambda: nvlink.p2p_vs_staged(1e9, pcie_gen="9.0"), "^pcie_gen='9.0'"),
    (lambda: TP.layer_forward_flops(0, 1, 1), "^batch="),
    (lambda: TP.activation_bytes(1, 1, 1, 3), "^bytes_per_elem="),
    (lambda: TP.peak_flops("tpu"), "^gpu="),
    (lambda: TP.layer_compute_time(1, 1, 1, 1, mfu=1.5), "^mfu="),
    (lambda: TP.layer_comm_time(1, 1, 1, 16), "^tp="),
    (lambda: TP.layer_cost(1, 1, 1, 2, "ethernet"), "^link="),
    (lambda: nvswitch.mesh_links(0), "^n="),
    (lambda: nvswitch.mesh_pair_bandwidth(1), "^n="),
    (lambda: nvswitch.switch_links(8, 9), "^gen="),
    (lambda: nvswitch.switch_chips_needed(8, 0), "^links_per_gpu="),
    (lambda: nvswitch.cut_bandwidth(8, 8, 1e9), "^k="),
    (lambda: nvswitch.cut_bandwidth(8, 4, -1), "^per_gpu="),
    (lambda: nvswitch.bisection_bandwidth(1, 1e9), "^n="),
    (lambda: nvswitch.aggregate_bandwidth(8, 0), "^per_gpu_both_directions="),
    (lambda: nvswitch.nvls_busbw_factor(0), "^n="),
    (lambda: nvswitch.nvls_efficiency("Ampere"), "^arch="),
    (lambda: nvswitch.nvls_factor_table((0, 8)), "^ns=0"),
    (lambda: nvswitch.nvls_validation_table(0), "^size_bytes="),
    (lambda: pcie.box_comparison_table(("dgx-h999",)), "^systems=.dgx-h999."),
    (lambda: TP.compute_table(("tpu-v5",)), "^gpus='tpu-v5'"),
    (lambda: TP.narrowest_width(0), "^max_share=0"),
    (lambda: TP.narrowest_width(1.0), "^max_share=1.0"),
    (lambda: TP.narrowest_width(0.5, tp=1), "^tp=1"),
    (lambda: TP.narrowest_width(0.5, step=0), "^step=0"),
    (lambda: TP.narrowest_width(0.5, step=512, max_width=256), "^max_width=256"),
    (lambda: TP.narrowest_width(0.5, link="ethernet"), "^link="),
    # fractional counts are refused, not truncated
    (lambda: nvswitch.mesh_links(2.5), "^n=2.5"),
    (lambda: nvswitch.mesh_links(np.array([2.0, 2.5])), "^n=2.5"),
    (lambda: nvswitch.mesh_ports_per_gpu(2.5), "^n=2.5"),
    (lambda: nvswitch.switch_links(2.5), "^n=2.5"),
    (lambda: nvswitch.switch_chips_needed(2.5), "^n=2.5"),
    (lambda: nvswitch.cut_bandwidth(8, 2.5, 1e9), "^k=2.5"),
    (lambda: nvswitch.aggregate_bandwidth(2.5, 1e9), "^n=2.5"),
    (lambda: nvswitch.nvls_busbw_factor(2.5), "^n=2.5"),
    (lambda: nvswitch.nvls_speedup(1), "^n=1"),
    (lambda: nvswitch.nvls_speedup(8, "Volta"), "^arch="),
    (lambda: pcie.switch_bandwidth_per_device(2.5), "^devices=2.5"),
    (lambda: pcie.switch_bandwidth_per_device(np.array([1, 2.5])), "^devices=2.5"),
    (lambda: pcie.shared_transfer_time(1e9, 0), "^devices="),
    (lambda: pcie.shared_transfer_time(-1, 2), "^size_bytes="),
    # flags must be True or False
    (lambda: pcie.transfer_time(1e9, achieved="no"), "^achieved='no'"),
    (lambda: pcie.staged_copy_time(1e9, pipelined="x"), "^pipelined='x'"),
    (lambda: nvlink.transfer_time(1e9, achieved=1), "^achieved=1"),
    (lambda: nvswitch.bisection_bandwidth(8, 1e9, both_directions="yes"),
     "^both_directions='yes'"),
    (lambda: nvswitch.domain_bisection("dgx-h100", both_directions=2), "^both_directions="),
    (lambda: nvswitch.domain_bisection("dgx-h10"), "^name="),
    (lambda: TP.activation_bytes(1, 1, 1, True), "^bytes_per_elem=True"),
    (lambda: TP.layer_forward_flops(1, 1, 1, attention_scores="y"), "^attention_scores="),
    # the error names the argument the caller passed
    (lambda: nvswitch.ring_vs_nvls(1e9, "dgx-h100", gpus=100), "^gpus=100"),
    (lambda: nvswitch.ring_vs_nvls(1e9, "dgx-h100", gpus=2.0), "^gpus=2.0"),
])
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_dgx_h100_wiring_caption_is_generated():
    # four chips, 64 ports each, links 5 + 4 + 4 + 5 (BasePOD RA, NVSwitch blog, Hot Chips)
    t = nvswitch.dgx_h100_wiring()
    assert "4 NVSwitch chips" in t.caption and "64 NVLink 4 ports" in t.caption
    assert "5 + 4 + 4 + 5" in t.caption and t.rows[-1][0] == "all 4"


def test_nvls_speedup_levels():
    # bytes: 2(n-1)/n = 1.75 (scaling book); NCCL accounting algbw = B n/(n+1) gives
    # 2(n-1)/(n+1) = 14/9; x Hopper NVLS efficiency 0.85 (tuning.cc) = 1.322; measured on
    # 8 x H100: 480 / 370 = 1.30 (nccl-tests#212). The model at 8 GiB sits within 3 % of
    # the "expected" level.
    r = nvswitch.nvls_speedup(8, "Hopper")
    assert r["bytes"] == pytest.approx(1.75)
    assert r["ideal"] == pytest.approx(14 / 9)
    assert r["expected"] == pytest.approx(14 / 9 * 0.85)
    p = nvswitch.ring_vs_nvls(8 * u.GiB, "dgx-h100", 8)
    # tolerance 3 %: the two 8 GiB times still carry their latency and fill (ring 0.3 %,
    # NVLS 0.4 % below their asymptotes), and "~370" and "~480" are given to 2 figures
    # (+-1.4 % on the ratio; the ratio of the constants, 1.322, is 1.9 % above 480 / 370)
    assert p["ring"].time_s / p["nvls"].time_s == pytest.approx(r["expected"], rel=0.03)
    assert r["expected"] == pytest.approx(480 / 370, rel=0.03)


def test_nvl72_nvls_model_holds_the_rack_in_its_interval():
    # The measured NVLS gain on NVL72 is no larger than on 8 GPUs: in a rack-scale domain
    # NVLS runs at the pace of NCCL's NVLS chunks (a constant fitted to the published
    # points, Appendix A), not of the links. Measured: 850 GB/s busbw with NVLS (NVIDIA GTC25
    # S72583 via NVIDIA/nccl#1374), GPU count assumed 72. Tolerance: 15 %, about three times
    # the model's cross-validated median error at bandwidth-bound sizes (Appendix A). Since
    # issue 37's sharper intervals (80 % at bandwidth-bound sizes: x1.27 wide) this point,
    # 10 % above the model, lies just above its 80 % interval, as one point in five may:
    # the interval is the bandwidth-bound class's, and it does reach within 5 % of it
    meas = IB.NVLS_MEASURED["gb200-nvl72"]
    p = nvswitch.ring_vs_nvls(8 * u.GiB, meas.system, meas.gpus)["nvls"]
    assert p.busbw == pytest.approx(meas.nvls.value, rel=0.15)
    assert p.interval_class[0][0] == "bandwidth-bound"
    assert p.busbw_low <= meas.nvls.value <= p.busbw_high * 1.05
    assert not meas.gpus_stated
    assert "assumed to use all 72 GPUs" in nvswitch.nvls_validation_table().caption


def test_auto_considers_nvls_from_ncclss_own_gpu_count():
    # NCCL's nvls.cc (v2.18-v2.28.3): ncclNvlsInit leaves NVLS off when gpuCount <= 2;
    # above that its cost model chooses. The book's 'auto' uses the same gate, so a 4-GPU
    # tray or partition (GB200, a 4-GPU slice of an H100 node) has NVLS among its candidates
    assert specs.calibration.NVLS_MIN_GPUS.value == 3
    tray = specs.custom.node("gb200", 4, nics_per_gpu=1, nic_gbps=400)
    for system, g in (("dgx-h100", 4), (tray, 4), ("gb200-nvl72", 3)):
        sys_ = system if not isinstance(system, str) else specs.system(system)
        assert ("nvls", "Simple") in collectives._candidates(sys_, "all_reduce", "auto", g, 1)
    for system in ("dgx-h100", "gb200-nvl72"):
        for size in (1 * u.MiB, 8 * u.GiB):
            p = collectives.predict("all_reduce", size, system, 2, 1, "auto")
            assert p.algorithm != "nvls", (system, size)
    # whether NVLS then wins is the cost model's: a large buffer's NVLS busbw is at most
    # 2(n-1)/(n+1) x eta x B (nccl-tests PR #239; eta = 0.85 on Hopper) against a ring's
    # B: 0.85 B at 3 GPUs (ring wins), 1.13 B at 5 (NVLS wins)
    big = 8 * u.GiB
    assert collectives.predict("all_reduce", big, "dgx-h100", 3, 1).algorithm == "ring"
    assert collectives.predict("all_reduce", big, "dgx-h100", 5, 1).algorithm == "nvls"


@pytest.mark.parametrize("link,busbw_gbs", [
    # hand derivation: t_comm = 2 all-reduces x 2(n-1)/n x S / busbw, with busbw from the
    # sources: PCIe 5.0 achieved 51 GB/s (Azure) on a ring (busbw = link rate); NVLS
    # busbw = 2(n-1)/(n+1) x eta x NCCL effective NVLink (tuning.cc, topo.h):
    # H100 14/9 x 0.85 x 370.8, B200 14/9 x 0.74 x 721.8 GB/s
    ("PCIe 5.0 only (H100)", 51.0),
    ("NVLink 4 (H100)", 14 / 9 * 0.85 * 370.8),
    ("NVLink 5 (B200)", 14 / 9 * 0.74 * 721.8),
])
def test_layer_comm_time_and_share_by_hand(link, busbw_gbs):
    # A 4 GiB activation (b = 64, s = 4096, h = 8192, bf16) so that latency and pipeline
    # fill are under 2 % of the time: stated tolerance 2 %.
    b, s, h, tp, mfu = 64, 4096, 8192, 8, 0.4
    size = b * s * h * 2
    comm = 2 * (2 * (tp - 1) / tp) * size / (busbw_gbs * u.GB_per_s)
    assert TP.layer_comm_time(b, s, h, tp, link) == pytest.approx(comm, rel=0.02)
    # compute: 24 b s h^2 / tp at 40 % of the dense BF16 peak (H100 1979/2, B200 from the
    # catalogue's datasheet value)
    peak = {"PCIe 5.0 only (H100)": 1979 / 2 * u.TFLOP_per_s,
            "NVLink 4 (H100)": 1979 / 2 * u.TFLOP_per_s,
            "NVLink 5 (B200)": TP.peak_flops("b200")}[link]
    comp = 24 * b * s * h**2 / tp / (peak * mfu)
    c = TP.layer_cost(b, s, h, tp, link, mfu)
    assert c.compute_s == pytest.approx(comp, rel=1e-3)
    assert c.comm_share == pytest.approx(comm / (comm + comp), rel=0.02)


def test_shared_transfer_time():
    # k devices copying to the host at once share the x16 uplink: each takes
    # alpha + S / (B / k); one device alone takes alpha + S / B
    S = 10 * u.GB
    b = pcie.link_bandwidth("5.0", 16)
    assert pcie.shared_transfer_time(S, 4) == pytest.approx(pcie.LATENCY.value + S / (b / 4))
    assert pcie.shared_transfer_time(S, 1) == pytest.approx(pcie.transfer_time(S))
    assert pcie.shared_transfer_time(S, 4, traffic="peer") == pytest.approx(
        pcie.transfer_time(S))


def test_prose_figures_come_from_the_catalogue():
    # 128b/130b (PCI-SIG); 80 % app-level (nccl#1054); LL128 x0.92 (tuning.cc)
    assert pcie.prose_figures()["pcie_encoding"] == "128b/130b"
    assert pcie.prose_figures()["pcie_payload_share"] == "98.5 %"
    f = nvlink.prose_figures()
    assert (f["nvlink_app_efficiency"], f["ll128_efficiency"]) == ("80 %", "92 %")
    # NVLink-C2C: 450 GB/s each way, 900 both (NVIDIA GH200 blog); 450 / (32 x 16 / 8 x
    # 128/130 GB/s) = 7.1x a PCIe 5.0 x16's usable rate
    assert (f["c2c_per_direction"], f["c2c_headline"], f["c2c_over_pcie5"]) == \
        ("450 GB/s", "900 GB/s", "7.1×")
    # H800: 400 GB/s both directions = 200 each way = 4/9 of H100's 450 (DeepSeek); A800
    # 400 vs A100 600 (NVIDIA datasheets); 20.6 / 25 GB/s per link (topo.h)
    assert (f["h800_per_direction"], f["h800_share"], f["a800_share"]) == \
        ("200 GB/s", "44.4 %", "66.7 %")
    assert f["nccl_link_share"] == "82.4 %" and f["sm_payload"] == "128 bytes"


def test_expert_prose_figures_chapters_2_and_4():
    p = pcie.prose_figures()
    # NCCL src/graph/paths.cc: p2pLevel = PATH_PXB; netGdrLevel = PATH_PXB (x86)
    assert (p["p2p_level"], p["gdr_level"]) == ("PXB", "PXB")
    # a 400 Gb/s NIC (50 GB/s) on a PCIe 5.0 x16 (63.0 GB/s usable): 79.3 %
    assert p["nic_share_of_x16"] == "79.3 %"
    f = nvswitch.prose_figures()
    # GB200 NVL72: 18 trays x 4 GPUs, 4 ConnectX-7 per tray (MLPerf system description);
    # 900 GB/s NVLink 5 per GPU per direction over 50 GB/s of NIC = 18x
    assert (f["nvl72_trays"], f["nvl72_nics_per_tray"], f["nvl72_nvlink_over_nic"]) == \
        ("18", "4", "18×")
    assert (f["hopper256_gpus"], f["hopper256_headline"]) == ("256", "57.6 TB/s")
    assert f["ring_sent_h100"] == "1.75"  # 2 x 7/8


def test_nvlink_gen_validates():
    nv = specs.nvlink(4)
    with pytest.raises(ValueError, match="^lanes_per_direction x lane_signalling = "):
        dataclasses.replace(nv, lanes_per_direction=3)
    with pytest.raises(ValueError, match="^links_per_gpu="):
        dataclasses.replace(nv, links_per_gpu=dataclasses.replace(nv.links_per_gpu,
                                                                  value=18.5))
    with pytest.raises(ValueError, match="^nccl_effective_per_link="):
        dataclasses.replace(nv, nccl_effective_per_link=dataclasses.replace(
            nv.nccl_effective_per_link, value=2 * nv.per_link.value))
    # kinds match sources: "vendor peak" only where NVIDIA is the source; since review R13
    # every generation is: the P100, A100 (NVLink 2 and 3) and H100 whitepapers, the NVLink
    # page (NVLink 5)
    assert [specs.nvlink(g).per_link.kind for g in range(1, 6)] == ["vendor peak"] * 5
    assert [specs.nvlink(g).per_link.source.url.split("/")[2] for g in range(1, 6)] == [
        "images.nvidia.com", "images.nvidia.com", "images.nvidia.com",
        "resources.nvidia.com", "www.nvidia.com"]


def test_tables_are_generated():
    for t in (pcie.generation_table(), pcie.host_copy_table(), nvlink.generation_table(),
              nvlink.p2p_table(), nvswitch.dgx_h100_wiring(), nvswitch.domain_table(),
              pcie.box_comparison_table(), TP.compute_table(), nvswitch.nvls_factor_table()):
        assert t.rows and "|" in repr(t) and "<table" in t._repr_html_()


@pytest.mark.parametrize("link", list(TP.LINKS))
@pytest.mark.parametrize("target", [0.25, 0.5])
def test_narrowest_width_is_where_the_share_crosses_for_good(link, target):
    # invariant: below the target at the returned width and at every wider multiple of
    # the step; at or above it one step narrower (the definition, checked point by point)
    w = TP.narrowest_width(target, 8, link, 4096, 0.4, max_width=32768)
    if w is None:  # PCIe at a quarter: the share stays above it up to max_width
        assert TP.layer_cost(1, 4096, 32768, 8, link, 0.4).comm_share >= target
        return
    assert w % 512 == 0
    for h in range(w, 32768 + 1, 4096):
        assert TP.layer_cost(1, 4096, h, 8, link, 0.4).comm_share < target
    if w > 512:
        assert TP.layer_cost(1, 4096, w - 512, 8, link, 0.4).comm_share >= target


def test_narrowest_width_orders_links_and_targets():
    # a stricter target needs a wider model; the faster GPU (B200) needs a wider model
    # than the H100 to hide the same share (its compute shrinks more than its all-reduce);
    # PCIe needs the widest of all
    w = {link: TP.narrowest_width(0.5, link=link) for link in TP.LINKS}
    assert w["NVLink 4 (H100)"] < w["NVLink 5 (B200)"] < w["PCIe 5.0 only (H100)"]
    assert TP.narrowest_width(0.25) > TP.narrowest_width(0.5)
    # a finer step can only find the crossing earlier or at the same place
    assert TP.narrowest_width(0.25, step=128) <= TP.narrowest_width(0.25, step=512)


def test_tp_prose_figures_match_the_model():
    f = TP.prose_figures()
    assert f["tp_widest_width"] == f"{TP.FIGURE_WIDTHS[1]:,}"
    # the PCIe-only box stays above half the layer across the whole figure (the claim the
    # chapter's Takeaway makes), and NVLink drops below half inside the figure's range
    pcie_share = float(f["tp_pcie_share_widest"].rstrip(" %")) / 100
    assert 0.5 < pcie_share < 1
    for key in ("tp_minority_width_nvlink4", "tp_minority_width_nvlink5"):
        w = int(f[key].replace(",", ""))
        assert TP.FIGURE_WIDTHS[0] < w < TP.FIGURE_WIDTHS[1]


# ------------------------------- argument sweep: lanes, generations, sequences, counts
@pytest.mark.parametrize("call, param", [
    (lambda: pcie.switch_bandwidth_per_device(4, uplink_lanes=3), "^uplink_lanes=3"),
    (lambda: pcie.switch_bandwidth_per_device(4, uplink_lanes=None), "^uplink_lanes=None"),
    (lambda: pcie.switch_bandwidth_per_device(4, device_lanes=True), "^device_lanes=True"),
    (lambda: pcie.shared_transfer_time(1e9, 4, device_lanes="x"), "^device_lanes='x'"),
    (lambda: pcie.link_bandwidth(lanes=True), "^lanes=True"),
    (lambda: pcie.box_comparison_table(None), "^systems=None"),
    (lambda: pcie.box_comparison_table(5), "^systems=5"),
    (lambda: pcie.box_comparison_table([]), "^systems="),
    (lambda: nvlink.p2p_vs_staged(1e9, pcie_gen="7.0"), "^pcie_gen='7.0'"),
    (lambda: nvlink.p2p_vs_staged(1e9, pcie_gen=None), "^pcie_gen=None"),
    (lambda: nvswitch.nvls_factor_table(None), "^ns=None"),
    (lambda: nvswitch.nvls_factor_table(5), "^ns=5"),
    (lambda: nvswitch.nvls_factor_table([]), "^ns="),
    (lambda: nvswitch.nvls_factor_table(("x",)), "^ns='x'"),
    (lambda: TP.layer_forward_flops(2.5, 4096, 8192), "^batch=2.5"),
    (lambda: TP.activation_bytes(1, 4096.5, 8192), "^seq_len=4096.5"),
    (lambda: TP.layer_cost(1, 4096, np.array([8192, 8192.5]), 8), "^hidden=8192.5"),
    (lambda: TP.narrowest_width(0.3, batch=2.5), "^batch=2.5"),
    (lambda: TP.compute_table(None), "^gpus=None"),
    (lambda: TP.compute_table(5), "^gpus=5"),
    (lambda: TP.compute_table([]), "^gpus="),
    (lambda: TP.compute_table(("x",)), "^gpus='x'"),
])
def test_bad_input_sweep_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


# ------------------------------------------------------ NVLink tables and defaults, by hand
def test_nvlink_generation_table_rows_by_hand():
    # NVLink 1 (P100): 4 links x 20 GB/s per direction, 8 lanes x 20 Gb/s; NCCL's effective
    # 18 GB/s per link (topo.h) = 72 GB/s, 90 % of 80. NVLink 4 (H100): 18 x 25 GB/s =
    # 450 GB/s, headline 900; 2 lanes x 100 Gb/s; NCCL 18 x 20.6 = 370.8 GB/s, 82.4 %.
    t = nvlink.generation_table()
    assert t.columns == [
        "generation", "GPU", "links", "per link, per direction", "per link, both directions",
        "per GPU, per direction", "per GPU, both directions (headline)",
        "lanes per direction x lane data rate", "NCCL effective per GPU, per direction",
        "effective / line"]
    assert t.rows[0] == ["NVLink 1", "P100", "4", "20 GB/s", "40 GB/s", "80 GB/s", "160 GB/s",
                         "8 x 20 Gb/s", "72 GB/s", "90 %"]
    assert t.rows[3] == ["NVLink 4", "H100", "18", "25 GB/s", "50 GB/s", "450 GB/s",
                         "900 GB/s", "2 x 100 Gb/s", "371 GB/s", "82.4 %"]
    # the caption names a source for each generation and says what the lane rate is
    # (which source gives which generation: the catalogue's sources of each row; review
    # R13: NVIDIA's architecture whitepapers for NVLink 1-4, no longer secondary sources)
    assert t.caption.startswith("Sources: NVIDIA's P100, A100 and H100 architecture "
                                "whitepapers (NVLink 1-4; the A100 whitepaper also gives "
                                "V100's NVLink 2)")
    assert all(x in t.caption for x in ("NVLink page (NVLink 5)", "Bekman (NVLink 5's lanes)",
                                        "NCCL topo.h (effective per-link bandwidth). The"))
    assert not any(x in t.caption for x in ("scaling book", "NCCL maintainer"))
    assert t.caption.endswith("the wires run slightly faster.")


def test_nvlink_p2p_table_puts_measured_next_to_line_rate():
    # Bekman's H100 node: 376 GB/s per direction measured vs 18 x 25 = 450 GB/s line:
    # 376 / 450 = 83.6 %; no both-directions figure; the source column is the author
    t = nvlink.p2p_table()
    assert t.columns == ["system", "link", "measured, per direction",
                         "line rate, per direction", "measured / line",
                         "measured, both directions", "source"]
    assert ["H100 node", "NVLink 4", "376 GB/s", "450 GB/s", "83.6 %", "—",
            "Stas Bekman"] in t.rows
    assert all(r[-1] and "," not in r[-1] and " (" not in r[-1] for r in t.rows)
    # a user's HGX H100 report gives both directions too: 749 GB/s
    assert ["HGX H100 (user report)", "NVLink 4", "380 GB/s", "450 GB/s", "84.4 %",
            "749 GB/s", "NVIDIA/nccl issue 1264"] in t.rows
    assert t.caption.startswith("Copies between two GPUs")


def test_nvlink_defaults_and_copy_times_by_hand():
    # defaults: NVLink 4, NCCL's effective rate. t = 3.4 us (NCCL NVLink hop, Ring/Simple)
    # + S / 370.8 GB/s; S / t delivered; efficiency 370.8 / 450 = 0.824
    hop, eff = 3.4e-6, 370.8 * u.GB_per_s
    assert nvlink.efficiency() == pytest.approx(370.8 / 450, rel=1e-12)
    assert nvlink.transfer_time(1e9) == pytest.approx(hop + 1e9 / eff, rel=1e-12)
    assert nvlink.transfer_time(1e9, achieved=False) == pytest.approx(hop + 1e9 / 450e9,
                                                                       rel=1e-12)
    assert nvlink.effective_bandwidth(1e9) == pytest.approx(1e9 / (hop + 1e9 / eff),
                                                            rel=1e-12)
    assert nvlink.effective_bandwidth(1e9, 5, False) == pytest.approx(
        1e9 / (hop + 1e9 / 900e9), rel=1e-12)
    with pytest.raises(ValueError, match="^size_bytes=0 "):
        nvlink.effective_bandwidth(0)
    # PCIe 5.0 achieved 51 GB/s (Azure) + 5.7 us (NCCL PCI hop): direct, pipelined through
    # the host (one extra hop), serial (both legs in full)
    p = nvlink.p2p_vs_staged(1e9)
    leg = 5.7e-6 + 1e9 / 51e9
    # NVLink 5 (NCCL 18 x 40.1 = 721.8 GB/s) and PCIe 4.0 (half of 5.0's rates): the
    # generations reach every leg
    p5 = nvlink.p2p_vs_staged(1e9, gen=5, pcie_gen="4.0")
    leg4 = 5.7e-6 + 1e9 / 25.5e9
    assert p5 == {"nvlink": pytest.approx(hop + 1e9 / 721.8e9, rel=1e-12),
                  "pcie_p2p": pytest.approx(leg4, rel=1e-9),
                  "staged": pytest.approx(leg4 + 5.7e-6, rel=1e-9),
                  "staged_serial": pytest.approx(2 * leg4, rel=1e-9)}
    assert p == {"nvlink": pytest.approx(hop + 1e9 / eff, rel=1e-12),
                 "pcie_p2p": pytest.approx(leg, rel=1e-12),
                 "staged": pytest.approx(leg + 5.7e-6, rel=1e-12),
                 "staged_serial": pytest.approx(2 * leg, rel=1e-12)}


# ------------------------------------------------------ PCIe tables and defaults, by hand
def test_pcie_generation_table_by_hand():
    # PCI-SIG: 8/16/32/64 GT/s per lane, 128b/130b (Gen 3-5), FLIT 236/256 (Gen 6, PAM4).
    # x16 per direction: raw = GT/s x 16 / 8; usable = raw x 128/130 (Gen 3: 16 x 0.9846 =
    # 15.75 GB/s) or x 236/256 (Gen 6: 118 GB/s). TLP payload share at 256-B payloads and
    # 16-B headers: 128/130 x 256/(256 + 16 + 8) = 90.0 % (Gen 3-5), 236/256 x 256/272 =
    # 236/272 = 86.8 % (Gen 6); payload = raw x share. Achieved = payload x (Azure's 51 GB/s
    # over Gen 5's payload rate): Gen 5 is the 51 GB/s itself, Gen 3 a quarter of it,
    # 12.75 GB/s; Gen 6 111.06 x 51 / 57.61 = 98.3 GB/s. Headline = 2 x raw.
    t = pcie.generation_table()
    assert t.columns == [
        "generation", "per-lane signalling", "encoding", "raw x16, per direction",
        "after line coding x16, per direction", "TLP payload share (256-B payloads)",
        "TLP payload x16, per direction", "achieved x16, per direction (model)",
        "vendor headline, both directions"]
    assert t.rows == [
        ["PCIe 3.0", "8 GT/s NRZ", "128b/130b", "16 GB/s", "15.8 GB/s", "90 %", "14.4 GB/s",
         "12.8 GB/s", "32 GB/s"],
        ["PCIe 4.0", "16 GT/s NRZ", "128b/130b", "32 GB/s", "31.5 GB/s", "90 %", "28.8 GB/s",
         "25.5 GB/s", "64 GB/s"],
        ["PCIe 5.0", "32 GT/s NRZ", "128b/130b", "64 GB/s", "63 GB/s", "90 %", "57.6 GB/s",
         "51 GB/s", "128 GB/s"],
        ["PCIe 6.0", "64 GT/s PAM4", "FLIT 236/256", "128 GB/s", "118 GB/s", "86.8 %",
         "111 GB/s", "98.3 GB/s", "256 GB/s"]]
    # the caption names the measured system (Azure ND H100 v5) and the Gen 6 GPUs (B300,
    # GB300: pcie_gen "6.0" in the catalogue)
    # the caption names its sources, the two bases, and that Gen 6's achieved figure is
    # an extrapolation (no Gen 6 host-copy measurement in the sources)
    assert t.caption.startswith("Sources: PCI-SIG base specifications (rates, encodings)")
    assert all(x in t.caption for x in ("128b/130b", "236/256", "256-B payloads",
                                        "16-B headers", "Azure ND H100 v5"))
    assert t.caption.endswith("its achieved figure is an extrapolation.")
    # the claims in between: each source with what it gives; why "after line coding" is not
    # one basis; what the TLP columns count and leave out; how achieved is derived and from
    # which measurement; which GPUs attach at Gen 6 (catalogue pcie_gen "6.0") and where
    # that is stated
    for claim in (
            "Lockwood (Gen 6 FLIT layout); Intel (per-TLP overhead).",
            "Gen 3-5 lose only 128b/130b, Gen 6's 236/256 also removes its link layer and FEC.",
            "Gen 3-5 also pay 8 B of framing, sequence number and LCRC per TLP; their DLLPs "
            "are not counted, which flatters them slightly",
            "Achieved = TLP payload x the host-copy efficiency measured on Gen 5 x16 "
            "(Azure ND H100 v5) on the same basis.",
            "Gen 6 GPUs: B300 and GB300 attach at Gen 6 x16 to a ConnectX-8's built-in "
            "switch (Hot Chips 2025); no Gen 6 host-copy measurement is in our sources"):
        assert claim in t.caption, claim
    # at x8 every rate halves and the headings say x8
    t8 = pcie.generation_table(8)
    assert t8.columns[3] == "raw x8, per direction"
    assert t8.rows[2][3:] == ["32 GB/s", "31.5 GB/s", "90 %", "28.8 GB/s", "25.5 GB/s",
                              "64 GB/s"]


def test_pcie_host_copy_table_by_hand():
    # Azure ND H100 v5: 51 GB/s host to device, 52 back (nvbandwidth); PCIe 5.0 x16 usable
    # 64 x 128/130 = 63.0 GB/s; 51 / 63.015 = 80.9 %. Bekman: 55.43 / 63.015 = 88.0 %
    t = pcie.host_copy_table()
    assert t.columns == ["system", "link", "host to device", "device to host",
                         "usable line rate", "H2D / usable", "source"]
    assert t.rows[0] == ["Azure ND H100 v5 (8 x H100 SXM)", "PCIe 5.0 x16", "51 GB/s",
                         "52 GB/s", "63 GB/s", "80.9 %", "Azure AI-benchmarking-guide"]
    assert ["8 x H200 node (Bekman)", "PCIe 5.0 x16", "55.4 GB/s", "55.1 GB/s", "63 GB/s",
            "88 %", "Stas Bekman"] in t.rows
    assert t.caption == ("All figures per direction; nvbandwidth copy-engine copies from "
                         "pinned memory.")


def test_pcie_box_comparison_table_by_hand():
    # DGX H100: 8 GPUs, NVLink 4 through NVSwitch, 18 x 25 = 450 GB/s per GPU per
    # direction; the PCIe-only box: the same 8 GPUs on PCIe 5.0 x16, 63.0 GB/s usable
    t = pcie.box_comparison_table()
    assert t.columns == ["system", "GPUs", "GPU-to-GPU path",
                         "per GPU, per direction (line rate)"]
    assert t.rows == [
        ["8 x H100 PCIe-attached, no NVLink (hypothetical, derived)", "8",
         "PCIe 5.0 x16 only", "63 GB/s"],
        ["NVIDIA DGX H100", "8", "NVLink 4 via NVSwitch", "450 GB/s"]]
    assert t.caption == "The PCIe-only box is hypothetical, derived from the DGX H100 entry."


def test_pcie_defaults_and_copy_times_by_hand():
    # defaults: PCIe 5.0 x16 at the achieved 51 GB/s (Azure) + 5.7 us (NCCL's PCI hop,
    # Ring/Simple); achieved=False: the usable 64 x 128/130 = 63.015 GB/s
    hop, ach, usable = 5.7e-6, 51e9, 64e9 * 128 / 130
    assert pcie.effective_bandwidth(1e9) == pytest.approx(1e9 / (hop + 1e9 / ach), rel=1e-9)
    assert pcie.effective_bandwidth(1e9, "5.0", 16, False) == pytest.approx(
        1e9 / (hop + 1e9 / usable), rel=1e-9)
    # x8 halves the rate: 25.5 GB/s; the staged copy pays both legs in full
    leg8 = hop + 1e9 / 25.5e9
    assert pcie.effective_bandwidth(1e9, "5.0", 8) == pytest.approx(1e9 / leg8, rel=1e-9)
    assert pcie.staged_copy_time(1e9, "5.0", 8) == pytest.approx(2 * leg8, rel=1e-9)
    assert pcie.staged_copy_time(1e9, "4.0", 8, pipelined=True) == pytest.approx(
        2 * hop + 1e9 / 12.75e9, rel=1e-9)


# ------------------------------------------------------ NVSwitch tables and figures, by hand
def test_nvswitch_dgx_h100_wiring_by_hand():
    # Hot Chips 34 via the scaling book: each GPU's 18 NVLink 4 links split 5 + 4 + 4 + 5
    # over 4 NVSwitch 3 chips of 64 ports; 8 GPUs: 40 / 32 / 32 / 40 ports used; 5 links x
    # 8 GPUs x 25 GB/s = 1 TB/s, 4 x 8 x 25 = 800 GB/s; all: 144 of 256 ports, 3.6 TB/s.
    # The published bisection: 4 GPUs x 450 GB/s x 2 directions = 3.6 TB/s too.
    t = nvswitch.dgx_h100_wiring()
    assert t.columns == ["switch chip", "links from each GPU", "GPU ports used",
                         "ports on the chip", "GPU traffic it carries, per direction"]
    assert t.rows == [["NVSwitch 0", "5", "40", "64", "1 TB/s"],
                      ["NVSwitch 1", "4", "32", "64", "800 GB/s"],
                      ["NVSwitch 2", "4", "32", "64", "800 GB/s"],
                      ["NVSwitch 3", "5", "40", "64", "1 TB/s"],
                      ["all 4", "18", "144", "256", "3.6 TB/s"]]
    # the caption names its sources and tells the injection total from the bisection
    assert t.caption.startswith("Sources: NVIDIA DGX BasePOD RA (4 NVSwitch chips)")
    assert "(5 + 4 + 4 + 5 links per GPU)" in t.caption and "both directions added" in t.caption
    assert t.caption.endswith("that happens to have the same value.")
    # the bisection quoted there is the published one: 4 GPUs x 450 GB/s x 2 directions
    assert ("the published bisection, 3.6 TB/s, is a different quantity (half the GPUs "
            "sending across the middle, both directions added)" in t.caption)
    assert nvswitch.links_per_gpu_dgx_h100() == 18


def test_nvswitch_domain_table_by_hand():
    # aggregate = n x per-GPU both directions: 8 x 900 GB/s = 7.2 TB/s (DGX H100),
    # 72 x 1.8 TB/s = 129.6 TB/s (NVL72), 576 x 1.8 = 1,036.8 TB/s; bisection = n/2 x per
    # GPU per direction: 4 x 450 = 1.8 TB/s, 36 x 900 GB/s = 32.4 TB/s, 288 x 900 = 259 TB/s
    # (x2 both directions); the 576-GPU domain is multi-tier, assumed non-blocking (marked)
    t = nvswitch.domain_table()
    assert t.columns == ["domain", "GPUs", "NVLink", "per GPU, per direction",
                         "aggregate, both directions", "bisection, per direction",
                         "bisection, both directions", "headline [kind]", "status"]
    rows = {r[0]: r for r in t.rows}
    assert rows["DGX H100 (8 GPUs)"] == [
        "DGX H100 (8 GPUs)", "8", "NVLink 4", "450 GB/s", "7.2 TB/s", "1.8 TB/s", "3.6 TB/s",
        "3.6 TB/s [secondary]: bisection bandwidth, both directions added", "shipped"]
    assert rows["GB200 NVL72 (72 GPUs)"][1:7] == ["72", "NVLink 5", "900 GB/s", "130 TB/s",
                                                  "32.4 TB/s", "64.8 TB/s"]
    assert rows["GB200 NVLink domain (576 GPUs)"][4:7] == [
        "1.04 PB/s", "259 TB/s (if non-blocking)", "518 TB/s (if non-blocking)"]
    h256 = rows["DGX H100 SuperPOD with NVLink Switch System (256 H100)"]
    # 256 x 900 GB/s aggregate; NVIDIA's bisection 57.6 TB/s both ways, 28.8 each (R1)
    assert h256[4:7] == ["230 TB/s", "28.8 TB/s (published)", "57.6 TB/s (published)"]
    assert t.caption.startswith("Aggregate = GPUs x per-GPU bandwidth (both directions); "
                                "bisection = half the GPUs x per-GPU bandwidth")
    assert t.caption.endswith("Sources in interlib.specs.inside_box.")
    assert "upper bound" in t.caption and "GB200 NVL72)" in t.caption
    # the claims in between: why one tier's bisection is half the GPUs' bandwidth, that a
    # multi-tier one depends on the wiring, what is done without a source, and which
    # domains were sold
    for claim in (
            "which holds for one tier of switches (non-blocking by construction). For domains "
            "whose switches span several tiers the bisection depends on how the tiers are wired",
            "where our sources do not give it, it is not computed, or (marked) computed "
            "assuming a non-blocking fabric, an upper bound. Status: whether the domain was "
            "sold (the 256-GPU Hopper NVLink Switch Systems were announced but not shipped as "
            "products; the first multi-node NVLink product is GB200 NVL72)"):
        assert claim in t.caption, claim


def test_nvswitch_scaleup_table_by_hand():
    # NVIDIA racks: NVLink 5, 18 x 50 GB/s = 900 GB/s per GPU per direction; scale-out per
    # GPU: ConnectX-7 400 Gb/s = 50 GB/s (GB200 NVL72: 18x), ConnectX-8 800 Gb/s = 100 GB/s
    # (GB300 NVL72, HGX B300: 9x). Gaudi 3: 21 x 200 GbE = 525 GB/s scale-up, 3 x 200 GbE
    # = 75 GB/s scale-out: 7x. TPU v5p: 1,200 GB/s bidirectional = 600 each way, DCN 50
    # Gb/s = 6.25 GB/s: 96x; 8,960 chips a pod
    t = nvswitch.scaleup_table()
    assert t.columns == [
        "domain", "vendor", "accelerators", "scale-up link", "topology",
        "scale-up per accelerator, per direction", "scale-out per accelerator, per direction",
        "scale-up ÷ scale-out", "library", "status"]
    rows = {r[0]: r for r in t.rows}
    assert rows["NVIDIA GB200 NVL72 (one rack)"] == [
        "NVIDIA GB200 NVL72 (one rack)", "NVIDIA", "72", "NVLink 5, NVLink Switch",
        "switched", "900 GB/s", "50 GB/s", "18×", "NCCL", "shipped"]
    assert rows["NVIDIA HGX B300"][2:9] == ["8", "NVLink 5, NVLink Switch", "switched",
                                            "900 GB/s", "100 GB/s", "9×", "NCCL"]
    assert rows["NVIDIA HGX B300"][9].startswith("shipped")
    assert rows["NVIDIA GB300 NVL72 (one rack)"][6:8] == ["100 GB/s", "9×"]
    assert rows["Intel Gaudi 3 (HLS-3 box)"][1:9] == [
        "Intel", "8", "21 of 24 integrated 200 GbE RoCE v2 ports (3 to each of the 7 peers)",
        "all-to-all", "525 GB/s", "75 GB/s", "7×",
        "HCCL (Habana Collective Communications Library)"]
    assert rows["Google Cloud TPU v5p pod"][2] == "8,960"
    assert rows["Google Cloud TPU v5p pod"][5:8] == ["600 GB/s", "6.25 GB/s", "96×"]
    assert rows["UALink 200G 1.0 pod (open standard)"][2] == "1,024"
    # issue 39: NVIDIA's Rubin blog gives NVLink 6 at 3.6 TB/s per GPU (both directions):
    # 1.8 TB/s per direction; ConnectX-9 1.6 Tb/s = 200 GB/s per GPU; 1,800 / 200 = 9x
    rubin = rows["NVIDIA Vera Rubin NVL72 (first called NVL144)"]
    assert rubin[5:8] == ["1.8 TB/s", "200 GB/s", "9×"]
    assert rubin[9].startswith("announced")
    assert t.caption.startswith("Accelerators count packages (NVIDIA's GTC 2025 name "
                                "'Vera Rubin NVL144' counted dies).")
    assert t.caption.endswith("Sources in interlib.specs.scaleup and interlib.specs.hardware.")
    assert "all are per direction here" in t.caption
    # how each vendor counts its headline (what "all are per direction here" converts from)
    assert ("Vendors quote scale-up bandwidth with both directions added (NVLink, TPU ICI) or "
            "per direction (Intel's 'unidirectional'); all are per direction here."
            in t.caption)


def test_nvswitch_nvls_tables_by_hand():
    # 2 (n - 1) / (n + 1): 2/3, 6/5, 14/9 = 1.556, 142/73 = 1.945; the ring's is 1
    t = nvswitch.nvls_factor_table()
    assert t.columns == ["GPUs", "busbw / wire rate, NVLS (ideal)", "busbw / wire rate, ring"]
    assert t.rows == [["2", "0.667", "1"], ["4", "1.2", "1"], ["8", "1.56", "1"],
                      ["72", "1.95", "1"]]
    assert t.caption == "nccl-tests PR #239: NVLS algbw = B n / (n + 1)."
    assert nvswitch.nvls_factor_table((3,)).rows == [["3", "1", "1"]]      # 4/4
    # published busbw: DGX H100 ring 370, NVLS 480 GB/s (nccl-tests#212): 1.30x; NVL72
    # 680 and 850 GB/s (GTC 2025 S72583): 1.25x. The model's ring on DGX H100 at 8 GiB
    # reproduces its calibration row (370 GB/s)
    v = nvswitch.nvls_validation_table()
    assert v.columns == ["system", "GPUs", "ring, measured", "ring, model", "NVLS, measured",
                         "NVLS, model", "NVLS / ring, measured", "NVLS / ring, model"]
    rows = {r[0]: r for r in v.rows}
    h = rows["dgx-h100"]
    assert h[:3] == ["dgx-h100", "8", "370 GB/s"] and h[4] == "480 GB/s"
    # calibration reproduction: within 1 %, as in test_interlib_collectives
    assert h[3].endswith(" GB/s") and float(h[3].split()[0]) == pytest.approx(370, rel=0.01)
    assert h[6] == "1.3×" and rows["gb200-nvl72"][6] == "1.25×"
    assert rows["gb200-nvl72"][1:3] == ["72", "680 GB/s"]
    # the model's ratio column is its own NVLS over ring cell (3 significant figures)
    for r in v.rows:
        ring, nvls = (float(r[i].split()[0]) for i in (3, 5))
        assert float(r[7].rstrip("×")) == pytest.approx(nvls / ring, abs=0.01)
    assert v.caption.startswith("busbw (nccl-tests definition) for large all-reduces. "
                                "Sources: nccl-tests#212 (H100), NVIDIA GTC 2025 S72583 via "
                                "NVIDIA/nccl#1374 (NVL72). ")
    # a small buffer is latency-bound: the model's ring busbw falls far below the plateau
    small = {r[0]: r for r in nvswitch.nvls_validation_table(1 << 20).rows}
    assert float(small["dgx-h100"][3].split()[0]) < 370


def test_nvswitch_prose_figures_by_hand():
    f = nvswitch.prose_figures()
    # DGX H100: 8 x 900 GB/s = 7.2 TB/s aggregate, 3.6 TB/s bisection headline; NVL72:
    # 72 x 1.8 TB/s = 130 TB/s over its 36 x 900 GB/s = 32.4 TB/s bisection = 4x;
    # 9 switch trays x 2 NVSwitch chips = 18 chips; B200 boards carry 2 chips; NVLS
    # considered from 3 GPUs (NCCL's gate, nvls.cc: off at 2 GPUs or fewer)
    assert f["dgx_h100_aggregate"] == "7.2 TB/s" and f["dgx_h100_headline"] == "3.6 TB/s"
    assert f["nvl72_bisection"] == "32.4 TB/s"
    assert (f["nvl72_switch_trays"], f["nvl72_chips_per_tray"], f["nvl72_switch_chips"]) \
        == ("9", "2", "18")
    assert f["b200_board_chips"] == "2" and f["nvls_min_gpus"] == "3"
    # NVL72 trays: 4 GPUs and 4 ConnectX-7 (50 GB/s each: 50 GB/s per GPU); DGX H100: 8
    assert (f["nvl72_gpus_per_tray"], f["nvl72_nic"], f["nvl72_nic_per_gpu"],
            f["dgx_h100_gpus"], f["gh200_gpus"]) == ("4", "ConnectX-7", "50 GB/s", "8", "256")
    # beyond GB200: GB300 NVL72 per GPU 800 Gb/s = 100 GB/s; Vera Rubin 72 packages;
    # Gaudi 3 525 / 75 GB/s = 7x in an 8-card box; TPU v5p 8,960 chips at 600 GB/s;
    # UALink 1.0: 1,024 accelerators
    assert (f["gb300_nic_per_gpu"], f["vr_gpus"], f["gaudi3_scaleup"], f["gaudi3_scaleout"],
            f["gaudi3_ratio"], f["gaudi3_box"], f["tpu_pod"], f["tpu_ici"],
            f["ualink_pod"]) == ("100 GB/s", "72", "525 GB/s", "75 GB/s", "7×", "8", "8,960",
                                 "600 GB/s", "1,024")
    for key in ("gb300_status", "vr_status", "ualink_status", "fusion_status"):
        assert f[key].split(" (")[0] in ("shipped", "announced", "supported")
    assert f["vr_status"].startswith("announced") and f["ualink_status"].startswith(
        "announced (2025-04-08")


def test_nvswitch_counting_edges_by_hand():
    # NVLink 4 (default): 18 links of 25 GB/s. Two GPUs in a mesh share all 18 links:
    # 450 GB/s; eight: floor(18 / 7) = 2 links = 50 GB/s. NVLink 1 (P100): 4 x 20 GB/s;
    # NVLink 5: 18 x 50 GB/s
    assert nvswitch.mesh_pair_bandwidth(2) == pytest.approx(450e9)
    assert nvswitch.mesh_pair_bandwidth(8) == pytest.approx(50e9)
    assert nvswitch.mesh_pair_bandwidth(np.array([2, 8])) == pytest.approx([450e9, 50e9])
    assert nvswitch.mesh_pair_bandwidth(2, gen=1) == pytest.approx(80e9)
    assert nvswitch.mesh_pair_bandwidth(2, gen=5) == pytest.approx(900e9)
    # through switches every GPU lands all its links: n x links
    assert nvswitch.switch_links(1) == 18 and nvswitch.switch_links(8, gen=1) == 32
    assert nvswitch.switch_links(8, gen=5) == 144
    # one tier: ceil(n x links / ports); a single GPU needs one 64-port chip; one link
    # per GPU on one-port chips needs a chip per GPU
    assert nvswitch.switch_chips_needed(1) == 1
    assert nvswitch.switch_chips_needed(64, 1, 64) == 1
    assert nvswitch.switch_chips_needed(2, 1, 1) == 2
    for call, param in [
            (lambda: nvswitch.mesh_pair_bandwidth(1), "n=1"),
            (lambda: nvswitch.mesh_pair_bandwidth(8, gen=0), "gen=0"),
            (lambda: nvswitch.mesh_pair_bandwidth(8, gen=6), "gen=6"),
            (lambda: nvswitch.switch_links(0), "n=0"),
            (lambda: nvswitch.switch_links(8, gen=0), "gen=0"),
            (lambda: nvswitch.switch_links(8, gen=6), "gen=6"),
            (lambda: nvswitch.switch_chips_needed(0), "n=0"),
            (lambda: nvswitch.switch_chips_needed(8, 0), "links_per_gpu=0"),
            (lambda: nvswitch.switch_chips_needed(8, 18, 0), "ports_per_chip=0")]:
        with pytest.raises(ValueError, match=f"^{param} "):
            call()


def test_nvswitch_remaining_edges_by_hand(monkeypatch):
    from interlib.specs import system
    # one GPU needs no mesh ports; none is not a count
    assert nvswitch.mesh_ports_per_gpu(1) == 0
    with pytest.raises(ValueError, match="^n=0 "):
        nvswitch.mesh_ports_per_gpu(0)
    # one GPU: 2 x 0 / 2 = 0
    assert nvswitch.nvls_factor_table((1,)).rows == [["1", "0", "1"]]
    # the default system is DGX H100: its ring at 8 GiB reproduces the calibration row
    # (370 GB/s, within 1 %); on 4 of its 8 GPUs a ring sends 2 x 3/4 of the buffer instead
    # of 2 x 7/8 at about the same busbw: (3/4) / (7/8) = 0.857 of the time
    p8 = nvswitch.ring_vs_nvls(8 * 2**30)
    assert p8["ring"].busbw == pytest.approx(370e9, rel=0.01)
    p4 = nvswitch.ring_vs_nvls(8 * 2**30, "dgx-h100", 4)
    assert p4["ring"].time_s / p8["ring"].time_s == pytest.approx(0.75 / 0.875, rel=0.01)
    assert nvswitch.ring_vs_nvls(1e9, gpus=1)["ring"].busbw == 0     # nothing to exchange
    with pytest.raises(ValueError, match="^gpus=0 "):
        nvswitch.ring_vs_nvls(1e9, gpus=0)
    # a 1-byte buffer is allowed in the validation table; half a byte is not
    assert len(nvswitch.nvls_validation_table(1).rows) == 2
    with pytest.raises(ValueError, match="^size_bytes=0.5 "):
        nvswitch.nvls_validation_table(0.5)
    # model ratios are printed to 3 significant figures, like the measured ones
    for r in nvswitch.nvls_validation_table().rows:
        assert len(r[7].rstrip("×").replace(".", "").lstrip("0")) <= 3
    assert nvswitch.nvls_validation_table().caption.endswith(
        "The gb200-nvl72 measurements are assumed to use all 72 GPUs of the domain (the "
        "source does not state the GPU count).")
    # the scale-up table shows the catalogue's status, and "shipped" where it has none
    rows = {r[0]: r for r in nvswitch.scaleup_table().rows}
    assert system("gb200-nvl72").status is None
    assert rows["NVIDIA GB300 NVL72 (one rack)"][9] == str(system("gb300-nvl72").status)
    assert rows["NVIDIA GB300 NVL72 (one rack)"][9] != "shipped"
    # the captions say what the tables need said (not a copy of their text): the direction
    # of every bandwidth, where a bisection is an upper bound, and where the figures come from
    up = nvswitch.scaleup_table().caption
    assert up.startswith("Accelerators count packages") and "all are per direction here" in up
    assert "'Not in our sources'" in up and up.endswith(
        "Sources in interlib.specs.scaleup and interlib.specs.hardware.")
    dom = nvswitch.domain_table().caption
    assert dom.startswith("Aggregate = GPUs x per-GPU bandwidth (both directions)")
    assert "an upper bound" in dom and "first multi-node NVLink product is GB200 NVL72" in dom
    assert dom.endswith("Sources in interlib.specs.inside_box.")
    # the wiring table refuses a split that does not match the chip count
    monkeypatch.setattr(nvswitch, "DGX_H100_LINKS_PER_SWITCH",
                        nvswitch.DGX_H100_LINKS_PER_SWITCH[:3])
    with pytest.raises(ValueError, match="^DGX_H100_LINKS_PER_SWITCH has 3 entries, but "
                                         "NVSWITCH.3..chips_per_board = 4$"):
        nvswitch.dgx_h100_wiring()


# ------------------------------------------------------- mutation survivors (issue 38)
def test_compute_table_lists_dense_bf16_peaks_with_sources():
    # dense BF16: A100 312 TFLOP/s (datasheet's 624 with sparsity / 2), H100 SXM 989
    # (1,979 / 2), B200 2,250 (HGX B200 at 1,000 W) -- tests/catalogue_literals.py
    t = TP.compute_table()
    assert t.columns == ["GPU", "peak dense BF16 (vendor)", "source"]
    assert [r[:2] for r in t.rows] == [["A100 SXM 80GB", "312 TFLOP/s"],
                                       ["H100 SXM", "989 TFLOP/s"], ["B200", "2.25 PFLOP/s"]]
    from interlib.specs.compute import BF16_DENSE_FLOPS
    assert [r[2] for r in t.rows] == [BF16_DENSE_FLOPS[g].source.title
                                      for g in ("a100-sxm-80gb", "h100-sxm", "b200")]
    assert t.caption == ("Dense: without 2:4 structured sparsity, which datasheets often "
                         "quote (doubling the figure).")
    assert [r[0] for r in TP.compute_table(("b200", "h200")).rows] == ["B200", "H200 SXM"]


def test_gpu_name_of_each_link_choice():
    assert [TP.gpu_name(k) for k in TP.LINKS] == ["H100 SXM", "H100 SXM", "B200"]
    with pytest.raises(ValueError, match="^link='NVLink 9' "):
        TP.gpu_name("NVLink 9")
