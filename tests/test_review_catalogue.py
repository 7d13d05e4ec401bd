"""The expert review's catalogue findings (issue 39 item 4; /work/notes/review/ch1-4.md R1-R14
and ch5-8.md F1-F17), each pinned against the words of its primary source or a hand
derivation, never against the code's own output. (R1, R2 and R8 are in
test_interlib_inside_box.py; F1 and F6 in test_facts_2026_2.py; F13 in
test_interlib_specs.py.)
"""

import pytest

from interlib import hierarchy, hostpath, specs, units as u
from interlib.specs import fabric, outlook, scaleup
from interlib.specs import sources as S


# ------------------------------------------------ R3: GB200's host link, measured
def test_gb200_host_copy_is_azures_measurement_of_one_gpu():
    """Azure AI-benchmarking-guide, ND_GB200_v6_results.md @ 2a370be, 'NV Bandwidth':
    'Host to Device 201', 'Device to Host 193' GB/s. The achieved rate is the slower
    direction (the PCIe rule); the peak stays the even split of NVIDIA's 900 GB/s, 225 GB/s
    per direction per GPU. The old figure, 225 x GH200's 297/450 = 148.5 GB/s, was 23 % low."""
    c = specs.NVLINK_C2C_SUPERCHIP
    assert (c.measured_h2d.value, c.measured_d2h.value) == (201e9, 193e9)
    assert c.measured_h2d.kind == c.measured_d2h.kind == "measured"
    assert c.measured_h2d.source is S.AZURE_GB200_BENCH
    assert "'Host to Device 201'" in S.AZURE_GB200_BENCH.says
    assert "'Device to Host 193'" in S.AZURE_GB200_BENCH.says
    for g in ("gb200", "gb300"):
        h = specs.gpu(g).host
        assert h.peak == pytest.approx(900e9 / 2 / 2)
        assert h.achieved == pytest.approx(193e9)
        assert h.achieved <= h.peak
        assert "193 GB/s" in h.basis and "Azure ND GB200 v6" in h.basis
    assert "GB300 assumed the same" in specs.gpu("gb300").host.basis
    # 193 of the even 225: 86 %, the reviewer's 86-89 % range
    assert c.copy_efficiency == pytest.approx(193 / 225)
    # GH200 keeps its own one-GPU link and its own measurement (Schieffer et al.)
    assert specs.NVLINK_C2C.copy_efficiency == pytest.approx(297 / 450)
    # the ladder and Chapter 7's table print the measured rate
    rung = {r.name: r for r in hierarchy.ladder("gb200-nvl72")}["NVLink-C2C"]
    assert rung.effective == pytest.approx(193e9)


def test_a_superchip_measurement_is_one_gpus():
    import dataclasses

    with pytest.raises(ValueError, match="^measured_per_gpu="):
        dataclasses.replace(specs.NVLINK_C2C_SUPERCHIP, measured_per_gpu="yes")


# ---------------------------------------------------- R4, F3: AMD MI355X from AMD's figure
def test_amd_mi355x_from_amds_figure():
    """AMD's 'Peak Infinity Fabric Link Bandwidth' 153.6 GB/s for MI350X/MI355X counts both
    directions (its 128 GB/s for MI300X is twice the driver's unidirectional 64): 76.8 GB/s
    per link per direction, 7 links: 537.6 GB/s per GPU per direction, 1,075.2 both ways;
    memory 8 TB/s (MI355X) and 6 TB/s (MI325X)."""
    link = scaleup.XGMI_LINK_MI350
    assert link.value == pytest.approx(153.6e9 / 2) == 76.8e9
    assert link.direction == "per direction" and link.kind == "secondary"
    assert link.value == pytest.approx(38.4e9 * 16 / 8)            # 38.4 GT/s x16
    assert 2 * scaleup.XGMI_LINK.value == pytest.approx(128e9)    # MI300X: AMD's 128
    d = specs.scaleup_domain("mi355x-8")
    assert d.per_accelerator.value == pytest.approx(537.6e9)
    assert d.per_accelerator.value == pytest.approx(1.2 * 448e9)  # 20 % above the old 448
    assert d.memory_bandwidth.value == pytest.approx(8e12)
    assert d.memory_bandwidth.direction == "read + write"
    assert "153.6 GB/s" in S.AMD_MI350_SPECS.says and "not retrieved" in S.AMD_MI350_SPECS.says
    mi325 = specs.scaleup_domain("mi325x-8")
    assert mi325.per_accelerator.value == pytest.approx(448e9)
    assert mi325.memory_bandwidth.value == pytest.approx(6e12)
    # memory over scale-up, as the scale-up table prints it: 8,000 / 537.6 = 14.9
    assert d.memory_bandwidth.value / d.per_accelerator.value == pytest.approx(14.88, rel=1e-3)


# ------------------------------------------------------------- R10, F16: Vera Rubin
def test_vera_rubin_stays_announced_and_gets_nvidias_hbm4_figure():
    vr = specs.scaleup_domain("vera-rubin-nvl72")
    # no NVIDIA newsroom text of a production or shipment read: the status says so
    assert str(vr.status) == "announced (2026-01)"
    assert "Computex 2026" in vr.status.note and "no NVIDIA newsroom text" in vr.status.note
    # NVIDIA's Rubin blog: "Up to 288 GB of HBM4 per GPU", "Aggregate bandwidth of up to 22
    # TB/s"
    assert vr.memory_bandwidth.value == pytest.approx(22e12)
    assert vr.memory_bandwidth.kind == "vendor peak" and vr.memory_bandwidth.source is \
        S.VERA_RUBIN
    assert "Aggregate bandwidth of up to 22 TB/s" in S.VERA_RUBIN.says
    # memory over scale-up: 22 / 1.8 = 12.2 (per direction NVLink 6)
    assert vr.memory_bandwidth.value / vr.per_accelerator.value == pytest.approx(22 / 1.8)


# ------------------------------------------------------------------- R11: H200 P2P
def test_h200_p2p_is_the_write_copy_engine_test():
    """Bekman, network/README.md @ 744d01e l.87-88: 'device_to_device_memcpy_write_ce #
    396.40 GB/s per pair', 'device_to_device_bidirectional_memcpy_write_ce # 783.73 GB/s per
    pair, total'."""
    from interlib.specs.inside_box import P2P

    h = P2P["h200"]
    assert h.per_direction.value == pytest.approx(396.4e9)
    assert "device_to_device_memcpy_write_ce" in h.per_direction.note
    assert "read_ce" not in h.per_direction.note
    assert "device_to_device_bidirectional_memcpy_write_ce" in h.bidirectional.note


# --------------------------------------------------- R12, F14: InfiniBand latency figures
def test_ib_latency_figures_say_where_they_come_from():
    ad, hop = specs.ADAPTER_LATENCY, specs.SWITCH_HOP_LATENCY
    # NVIDIA's ConnectX-6 manual: "sub-600ns latency" (HDR); the value is unchanged
    assert ad["HDR"].value == pytest.approx(0.6e-6)
    assert ad["HDR"].source is S.CX6_USER_MANUAL and "sub-600ns latency" in \
        S.CX6_USER_MANUAL.says
    assert S.CX6_USER_MANUAL.url.startswith("https://docs.nvidia.com/")
    # EDR and the switch hop have no vendor datasheet here: community figures, and say so
    assert ad["EDR"].kind == "secondary" and "community figure" in ad["EDR"].note
    for end in ("low", "high"):
        assert hop[end].kind == "secondary" and "community figure" in hop[end].note
    assert "community figure" in S.BEKMAN_IB_LATENCY.title
    assert "community figure" in S.WWT_SWITCH_LATENCY.title
    text = hostpath.cited_latencies()
    assert "HDR 600 ns (NVIDIA ConnectX-6 adapter card user manual)" in text
    assert "EDR 500 ns (Stas Bekman, a community figure)" in text
    assert "100 ns to 300 ns (World Wide Technology, a community figure)" in text
    assert "a community figure" in hierarchy.link_table().caption
    # the hardware latency the book quotes is unchanged: 600 ns + 100..300 ns
    assert hierarchy.hardware_latency("InfiniBand NDR (1 NIC/GPU)") == pytest.approx(
        (0.7e-6, 0.9e-6))


# ------------------------------------------------- R13: NVLink from NVIDIA's whitepapers
@pytest.mark.parametrize("gen,links,per_link_gbs,lanes,lane_gbit,bidir_gpu_gbs,src", [
    # P100: 4 links, "up to 40 GB/sec of bidirectional bandwidth" each, "differential pair
    # running at up to 20 Gb/sec", "Eight ... form a Sub-Link ... in one direction": 160
    (1, 4, 20, 8, 20, 160, "P100_WHITEPAPER"),
    # A100 whitepaper on V100: "6 in V100", "25 GB/second bandwidth in each direction",
    # twice A100's pairs (8): 300 GB/sec
    (2, 6, 25, 8, 25, 300, "A100_WHITEPAPER"),
    # A100: "50 Gbit/sec per signal pair", "twelve" links, 25 GB/s each way: 600 GB/sec
    (3, 12, 25, 4, 50, 600, "A100_WHITEPAPER"),
    # H100: "18 fourth-generation NVLink links to provide 900 GB/sec total bandwidth", "two
    # high-speed differential pairs in each direction" for 25 GB/s: 100 Gb/s per pair
    (4, 18, 25, 2, 100, 900, "H100_WHITEPAPER"),
])
def test_nvlink_generations_from_nvidias_whitepapers(gen, links, per_link_gbs, lanes,
                                                     lane_gbit, bidir_gpu_gbs, src):
    nv = specs.nvlink(gen)
    source = getattr(S, src)
    assert nv.links_per_gpu.value == links and nv.links_per_gpu.source is source
    assert nv.per_link.value == pytest.approx(per_link_gbs * u.GB_per_s)
    assert nv.per_link.kind == "vendor peak" and nv.per_link.source is source
    assert nv.lanes_per_direction == lanes
    assert nv.lane_signalling.value == pytest.approx(lane_gbit * u.Gbit_per_s)
    assert nv.lane_signalling.source is source
    assert nv.per_gpu_bidirectional == pytest.approx(bidir_gpu_gbs * u.GB_per_s)
    assert f"{bidir_gpu_gbs} GB/sec" in source.says


# ----------------------------------------------------------- R14: DeepSeek MPFT kinds
def test_deepseek_mpft_figures_are_design_figures_not_measurements():
    kinds = {k: sp.kind for k, sp in outlook.DEEPSEEK_MPFT.items()}
    assert kinds == {"planes": "secondary", "switch ports": "secondary", "gpus": "derived",
                     "cx8 planes": "secondary"}
    # the derived one shows its arithmetic: 8 planes x 64^2/2 hosts of a two-layer tree
    g = outlook.DEEPSEEK_MPFT["gpus"]
    assert g.value == 8 * 64 ** 2 // 2 and "8 planes x the 2,048" in g.note


# ----------------------------------------------------------------- F4: the PCIe rung
def test_pcie_rung_label_matches_its_numbers():
    """Ch 7's ladder printed 63 GB/s next to 'TLP payload rate (256-B payloads)'. 63.0 GB/s
    is 32 GT/s x 16 x 128/130 / 8, after line coding; the 256-B TLP payload rate is 0.9 of
    64 GB/s = 57.6 GB/s (256 / (256 + 16 + 8) x 128/130). The row now says which is which."""
    row = next(r for r in hierarchy.ladder_table("H100").rows if r[0] == "PCIe")
    assert row[1] == "63 GB/s" and 32e9 * 16 * 128 / 130 / 8 == pytest.approx(63.015e9, 1e-4)
    basis = row[5]
    assert basis.startswith("peak: PCIe 5.0 x16 after 128b/130b, before TLP headers")
    assert "TLP payload rate (57.6 GB/s with 256-B payloads)" in basis
    assert 64e9 * 128 / 130 * 256 / (256 + 16 + 8) == pytest.approx(57.6e9, rel=1e-3)
    # the achieved rate is the measured Azure copy (51 GB/s), on that basis
    assert row[2] == "51 GB/s"


# ---------------------------------------------------------------- F9: Gaudi 3's memory
def test_gaudi3_ladder_misses_only_its_host_link():
    assert hierarchy.ladder_gaps("Gaudi 3") == {"PCIe": "Host link"}
    hbm = {r.name: r for r in hierarchy.ladder("Gaudi 3")}["HBM"]
    assert hbm.peak == pytest.approx(3.7e12)                   # Intel: 3.7 TB/s


# ------------------------------------------------- F15: NVIDIA's own documents, not copies
def test_superpod_spectrum4_and_cpo_cite_nvidias_documents():
    su = fabric.SUPERPOD_SU
    assert {k: sp.value for k, sp in su.items()} == {
        "nodes_per_su": 32, "leaves_per_su": 8, "sus_per_pod": 4, "spines": 16}
    assert all(sp.kind == "vendor peak" and sp.source is S.SUPERPOD_RA for sp in su.values())
    assert S.SUPERPOD_RA.url.startswith("https://docs.nvidia.com/dgx-superpod/")
    assert "SUs of 32 DGX H100 systems each" in S.SUPERPOD_RA.says
    assert "Leaf 32, Spine 16" in S.SUPERPOD_RA.says
    # 4 SUs x 32 nodes x 8 GPUs = 1,024 GPUs; 32 leaves x 32 uplinks / 64 ports = 16 spines
    assert 4 * 32 * 8 == 1024 and 32 * 32 // 64 == su["spines"].value
    sn = specs.switch("spectrum-4")
    assert (sn.radix, sn.port_rate.value) == (64, 100e9) and sn.ports.kind == "vendor peak"
    assert "'SN5600 | 64 | 800GbE (100Gbps/lane)'" in S.SPECTRUM4.says
    for name, ports in (("quantum-x-photonics", 144), ("spectrum-x-photonics", 128)):
        sw = specs.switch(name)
        assert sw.radix == ports and sw.ports.source is S.CPO_AVAILABILITY
        assert sw.ports.kind == "vendor peak"
    assert "supporting 144 ports at 800 Gb/s each" in S.CPO_AVAILABILITY.says
    assert "128 ports at 800 Gb/s" in S.CPO_AVAILABILITY.says


# --------------------------------------------------------------- F17: ConnectX-8 Ethernet
def test_connectx8_single_port_800gbe_statement_is_dated():
    cx8 = specs.nic("connectx-8")
    note = cx8.ethernet_port_rate.note
    assert "as of the initial firmware 40.44.0208" in note
    assert "neither repeat nor lift it" in note
    assert cx8.ethernet_ports == 2 and cx8.ethernet_port == pytest.approx(50e9)
