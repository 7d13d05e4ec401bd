"""Units and the cited catalogue. Expected values come from the sources cited inline
(vendor pages, standards, facts.md) or from arithmetic shown in the comment."""

import math
import re

import pytest

from interlib import specs, units as u
from interlib.specs import Source, Spec


# ------------------------------------------------------------------------- units
def test_bits_are_an_eighth_of_a_byte():
    assert 400 * u.Gbit_per_s == 50 * u.GB_per_s  # STYLE.md rule 2
    assert 8 * u.bit == u.B


def test_binary_prefixes_are_powers_of_two():
    assert u.GiB == 2**30
    assert u.GiB / u.GB == pytest.approx(1.073741824)
    assert u.KiB * 1024 == u.MiB


def test_time_units():
    assert u.us * 1e6 == pytest.approx(1.0)
    assert u.hour == 3600
    assert 1 * u.ms == 1000 * u.us


# ---------------------------------------------------------------------- PCIe
@pytest.mark.parametrize("gen,raw,usable", [
    # facts.md 1.1: raw = GT/s x 16 / 8; usable = raw x 128/130 (Gen 3-5), 236/256 (Gen 6)
    ("3.0", 16.0, 15.75), ("4.0", 32.0, 31.5), ("5.0", 64.0, 63.0), ("6.0", 128.0, 118.0)])
def test_pcie_x16_per_direction(gen, raw, usable):
    g = specs.pcie(gen)
    assert g.raw_per_direction(16) / u.GB_per_s == pytest.approx(raw)
    assert g.usable_per_direction(16) / u.GB_per_s == pytest.approx(usable, abs=0.02)


def test_pcie5_headline_is_both_directions():
    # H100/H200 datasheets: "PCIe Gen5 128 GB/s" = 2 x 64 GB/s raw
    assert specs.pcie("5.0").headline_bidirectional(16) / u.GB_per_s == pytest.approx(128)


def test_pcie_lanes_scale_linearly():
    g = specs.pcie("4.0")
    assert g.raw_per_direction(8) * 2 == pytest.approx(g.raw_per_direction(16))


# --------------------------------------------------------------------- NVLink
@pytest.mark.parametrize("gen,per_dir,bidir", [
    # facts.md 1.2 (NVIDIA NVLink and Hopper pages; scaling book)
    (1, 80, 160), (2, 150, 300), (3, 300, 600), (4, 450, 900), (5, 900, 1800)])
def test_nvlink_per_gpu(gen, per_dir, bidir):
    nv = specs.nvlink(gen)
    assert nv.per_gpu_per_direction / u.GB_per_s == pytest.approx(per_dir)
    assert nv.per_gpu_bidirectional / u.GB_per_s == pytest.approx(bidir)


def test_nvlink5_link_is_100GBps_bidirectional():
    # NVIDIA NVLink page: "18 NVLink 100 gigabyte-per-second (GB/s) connections"
    assert specs.nvlink(5).per_link_bidirectional / u.GB_per_s == pytest.approx(100)


@pytest.mark.parametrize("gen,eff", [(3, 240.0), (4, 370.8), (5, 721.8)])
def test_nccl_effective_nvlink(gen, eff):
    # facts.md 1.2 [D]: links x topo.h constant
    assert specs.nvlink(gen).per_gpu_effective / u.GB_per_s == pytest.approx(eff)


def test_nvlink4_lane_arithmetic():
    # 2 lanes x 100 Gb/s PAM4 per direction = 200 Gb/s = 25 GB/s per link per direction
    nv = specs.nvlink(4)
    assert nv.lanes_per_direction * nv.lane_signalling.value == pytest.approx(nv.per_link.value)


# ----------------------------------------------------------------- InfiniBand
@pytest.mark.parametrize("name,gbps", [("EDR", 100), ("HDR", 200), ("NDR", 400),
                                       ("XDR", 800), ("QDR", 32), ("SDR", 8)])
def test_infiniband_4x_port(name, gbps):
    assert specs.infiniband(name).port_rate(4) / u.Gbit_per_s == pytest.approx(gbps)


def test_ndr_port_is_50GBps_per_direction():
    assert specs.infiniband("NDR").port_rate() == pytest.approx(50 * u.GB_per_s)


def test_ethernet():
    assert specs.ethernet(400).value == pytest.approx(50 * u.GB_per_s)
    assert specs.ethernet(800).direction == "per direction"


# -------------------------------------------------------------------- systems
def test_dgx_h100_scale_out():
    # DGX BasePOD RA: eight single-port ConnectX-7 at 400 Gb/s, one per GPU
    s = specs.system("dgx-h100")
    assert s.gpus_per_node == 8 and s.nics_per_gpu == 1.0
    assert s.node_injection / u.Tbit_per_s == pytest.approx(3.2)
    assert s.node_injection / u.GB_per_s == pytest.approx(400)


def test_dgx_a100_scale_out():
    # NVIDIA maintainer (nccl#812): "8x200Gbit/s IB cards"
    assert specs.system("dgx-a100").node_injection / u.GB_per_s == pytest.approx(200)


def test_nvl72_domain_aggregate_is_130TBps():
    # NVIDIA: "130TB/s of GPU bandwidth in one NVL72" = 72 x 1.8 TB/s (bidirectional)
    s = specs.system("gb200-nvl72")
    agg = s.gpus_per_node * s.gpu.nvlink.per_gpu_bidirectional
    assert agg / u.TB_per_s == pytest.approx(129.6)


def test_hbm():
    assert specs.gpu("h100-sxm").hbm_bandwidth.value == pytest.approx(3.35 * u.TB_per_s)
    assert specs.gpu("h100-sxm").hbm_bandwidth.direction == "read + write"
    assert specs.gpu("b200").hbm_capacity.value == pytest.approx(180 * u.GB)


# -------------------------------------------------------------- catalogue hygiene
def _all_specs():
    out = []

    def walk(obj, path):
        if isinstance(obj, Spec):
            out.append((path, obj))
        elif isinstance(obj, dict):
            for k, val in obj.items():
                walk(val, f"{path}[{k!r}]")
        elif hasattr(obj, "__dataclass_fields__") and not isinstance(obj, type):
            for k in obj.__dataclass_fields__:
                walk(getattr(obj, k), f"{path}.{k}")

    for name in ("PCIE", "NVLINK", "INFINIBAND", "ETHERNET", "GPUS", "NICS", "NVSWITCH",
                 "SYSTEMS", "BF16_DENSE_FLOPS", "LLAMA3_INTERRUPTIONS"):
        walk(getattr(specs, name), name)
    for name in dir(specs.calibration):
        walk(getattr(specs.calibration, name), f"calibration.{name}")
    return out


def test_catalogue_is_large_and_every_spec_is_cited():
    found = _all_specs()
    assert len(found) > 80
    for path, s in found:
        assert s.source.url.strip(), path
        assert s.kind in specs.KINDS, path
        if s.unit.endswith("_per_s") and s.unit not in ("GT_per_s", "TFLOP_per_s"):
            assert s.direction in ("per direction", "bidirectional", "read + write"), path


def test_spec_refuses_a_rate_without_direction():
    src = Source("t", "u")
    with pytest.raises(ValueError, match=r"^Spec\.direction='n/a': a rate"):
        Spec(1.0, "GB_per_s", "vendor peak", src)
    with pytest.raises(ValueError, match=r"^Spec\.kind='guess'"):
        Spec(1.0, "GB", "guess", src)
    with pytest.raises(ValueError, match=r"^Spec\.value=nan"):
        Spec(math.nan, "GB", "measured", src)
    with pytest.raises(ValueError, match=r"^Source\.url must not be empty"):
        Source("title", " ")


def test_spec_in_unit():
    s = specs.nvlink(4).per_link
    assert s.in_unit() == pytest.approx(25)
    assert s.in_unit("Gbit_per_s") == pytest.approx(200)


@pytest.mark.parametrize("call,param", [
    (lambda: specs.system("dgx-h10"), "name='dgx-h10'"),
    (lambda: specs.pcie("7.0"), "gen='7.0'"),
    (lambda: specs.nvlink(6), "gen=6"),
    (lambda: specs.nvlink(4.0), "gen=4.0"),
    (lambda: specs.infiniband("ndr"), "name='ndr'"),
    (lambda: specs.ethernet(300), "gbps=300"),
    (lambda: specs.gpu("h100"), "name='h100'"),
    (lambda: specs.nic("cx7"), "name='cx7'"),
    (lambda: specs.nvswitch(9), "gen=9"),
    (lambda: specs.pcie("5.0").raw_per_direction(0), "lanes=0"),
    (lambda: specs.infiniband("NDR").port_rate(-4), "lanes=-4"),
])
def test_lookups_reject_bad_input_naming_the_parameter(call, param):
    with pytest.raises(ValueError) as e:
        call()
    assert re.match(param, str(e.value)), str(e.value)  # the name= form leads


def test_did_you_mean():
    with pytest.raises(ValueError, match="^name='dgx-h10' .*did you mean 'dgx-h100'"):
        specs.system("dgx-h10")
    with pytest.raises(ValueError, match="^name='ndr' .*did you mean 'NDR'"):
        specs.infiniband("ndr")


def test_every_source_defined_in_the_catalogue_reaches_the_references_table():
    import importlib
    import pkgutil

    listed = {id(s) for s in specs.sources.all_sources()}
    for info in pkgutil.iter_modules(specs.__path__):
        mod = importlib.import_module(f"interlib.specs.{info.name}")
        for name, obj in vars(mod).items():
            if isinstance(obj, specs.Source):
                assert id(obj) in listed, f"interlib.specs.{info.name}.{name}"


def test_source_keys_name_real_bibliography_entries():
    import re
    from pathlib import Path

    bib = Path(__file__).resolve().parent.parent / "book" / "references.bib"
    keys = set(re.findall(r"^@\w+\{([^,]+),", bib.read_text(), re.M))
    srcs = specs.sources.all_sources()
    assert len(srcs) > 30
    for s in srcs:
        assert s.key == "" or s.key in keys, (s.title, s.key)


# ------------------------------------------------- NVLink domain vs physical server
def test_dgx_servers_are_their_own_nvlink_domain():
    for name in ("dgx-a100", "dgx-h100", "hgx-h200", "dgx-b200"):
        s = specs.system(name)
        assert s.gpus_per_server == s.gpus_per_node == s.nvlink_domain == 8
        assert s.servers_per_node == 1


def test_nvl72_is_18_trays_of_4_gpus_with_a_nic_per_gpu():
    # facts.md 1.3 / 1.7: 72-GPU NVLink domain; compute tray = 4 GPUs with 4 x ConnectX-7
    # 400G (Crusoe MLPerf JSON: "for each 4-GPU node: 4x ... ConnectX-7"); 72 x 400G per rack
    s = specs.system("gb200-nvl72")
    assert s.nvlink_domain == 72 and s.gpus_per_server == 4 and s.servers_per_node == 18
    assert s.nics_per_server == 4 and s.nics_per_gpu == 1.0
    assert s.node_injection / u.TB_per_s == pytest.approx(3.6)  # 72 x 50 GB/s
    assert s.network_source is specs.sources.MLPERF_GB200


def test_network_sources_follow_the_fact_sheet():
    # DGX A100's 8 x HDR: NVIDIA maintainer in nccl#812 (facts.md 1.7), not the A100 paper
    a100 = specs.system("dgx-a100")
    assert "nccl/issues/812" in a100.network_source.url
    # HGX H200's NICs are an assumption (the DGX layout), and says so
    h200 = specs.system("hgx-h200")
    assert "assumed" in h200.network_source.title
    assert h200.source is not specs.sources.DGX_BASEPOD
    # where no separate network source is given it defaults to the system's source
    assert specs.system("dgx-h100").network_source is specs.system("dgx-h100").source


def test_system_rejects_a_server_size_that_does_not_divide_the_domain():
    s = specs.system("gb200-nvl72")
    with pytest.raises(ValueError, match="^gpus_per_server=5"):
        specs.System("x", "x", s.gpu, 72, "nvswitch", 4, 72, s.nic, s.source,
                     gpus_per_server=5)
    with pytest.raises(ValueError, match="^gpus_per_server=0"):
        specs.System("x", "x", s.gpu, 72, "nvswitch", 4, 72, s.nic, s.source,
                     gpus_per_server=0)


def test_nvswitch_generations():
    # facts.md 1.3: NVSwitch 1 (DGX-2) 18 ports x 50 GB/s bidirectional, chip count
    # UNCONFIRMED (left out); NVSwitch 2 has 36 ports per a secondary source only
    g1 = specs.nvswitch(1)
    assert g1.ports_per_chip.value == 18 and g1.chips_per_board is None
    assert g1.nvlink_gen == 2 and not g1.in_network_reduction
    g2 = specs.nvswitch(2)
    assert g2.ports_per_chip.value == 36 and g2.ports_per_chip.kind == "secondary"
    assert g2.ports_per_chip.source is not specs.sources.A100_WHITEPAPER
    assert specs.nvswitch(3).chips_per_board.value == 4


@pytest.mark.parametrize("bad", [[], "3", 2.0, None, 0, 5])
def test_nvswitch_lookup_raises_valueerror(bad):
    with pytest.raises(ValueError, match="^gen="):
        specs.nvswitch(bad)


def test_llama3_layout_matches_table_4():
    # Llama 3 paper, Table 4 (as reproduced from Balaji, SC'24): 16,384 GPUs at TP 8, CP 1,
    # PP 16; data parallelism is the rest, 16384 / (8 * 1 * 16) = 128.
    from interlib.specs import studies

    L = studies.LLAMA3_LAYOUT_16K
    assert (L["tp"].value, L["cp"].value, L["pp"].value) == (8, 1, 16)
    assert studies.llama3_dp_16k() == 128
    assert all(s.source is specs.sources.LLAMA3_TABLE4 for s in L.values())


# -------------------------------------------------- argument sweep: derived()'s objects
@pytest.mark.parametrize("kw, param", [
    (dict(note=None), "^note=None"),
    (dict(note=5), "^note=5"),
    (dict(from_=5), "^from_=5"),
    (dict(from_="x"), "^from_='x'"),
])
def test_derived_bad_input_names_the_parameter(kw, param):
    from interlib.specs._base import derived

    args = dict(value=1.0, unit="B", note="n") | kw
    with pytest.raises(ValueError, match=param):
        derived(**args)


# ------------------------------------------- issue 14 (expert review, Chapters 1-4)
def test_nvlink_c2c_is_450_per_direction_900_both():
    # NVIDIA Grace Hopper in-depth blog: "up to 900 GB/s total bandwidth, 450 GB/s per
    # direction"
    c = specs.NVLINK_C2C
    assert c.per_direction.direction == "per direction"
    assert c.per_direction.value == pytest.approx(450 * u.GB_per_s)
    assert c.bidirectional == pytest.approx(900 * u.GB_per_s)
    assert c.per_direction.source is specs.sources.GRACE_HOPPER_BLOG
    # measured GH200 copies (Schieffer et al. 2024): 375 H2D, 297 D2H; the slower one rules
    assert c.copy_efficiency == pytest.approx(297 / 450)
    assert c.measured_h2d.kind == c.measured_d2h.kind == "measured"


def test_gb200_host_link_is_nvlink_c2c_not_pcie():
    # Issue 14, error 3: the GB200 GPU talks to its Grace CPU over NVLink-C2C (MLPerf system
    # description: "accelerator_host_interconnect": "NVLink-C2C"). Issue 28, error 2: NVIDIA
    # quotes 900 GB/s (both directions) for the whole GB200 superchip, one Grace and TWO
    # GPUs; the per-GPU share is unpublished, so a GPU's peak is the even split, 450 / 2 =
    # 225 GB/s per direction, and the basis says the split is unknown. Review R3: the achieved
    # rate is Azure's GB200 measurement of one GPU, the slower direction ("Host to Device
    # 201", "Device to Host 193", ND_GB200_v6_results.md), no longer 225 x GH200's 297/450.
    g = specs.gpu("gb200")
    assert g.host_link == "nvlink-c2c-superchip"
    assert g.host.name == "NVLink-C2C" and g.host.rung == "NVLink-C2C"
    assert g.host.peak == pytest.approx(900 / 2 / 2 * u.GB_per_s)
    assert g.host.achieved == pytest.approx(193 * u.GB_per_s)
    assert "not published" in g.host.basis
    c = specs.NVLINK_C2C_SUPERCHIP
    assert c.gpus == 2 and c.bidirectional == pytest.approx(900 * u.GB_per_s)
    assert "per-GPU" not in c.per_direction.note or "not in our sources" in c.per_direction.note
    # GH200 keeps its own, unshared link
    assert specs.NVLINK_C2C.gpus == 1
    assert specs.NVLINK_C2C.per_gpu_even_split == pytest.approx(450 * u.GB_per_s)
    assert specs.gpu("gb300").host.peak == g.host.peak
    # every PCIe-hosted GPU keeps its x16 usable rate (32 GT/s x 16 / 8 x 128/130 for Gen5)
    h = specs.gpu("h100-sxm").host
    assert h.rung == "PCIe" and h.peak == pytest.approx(32e9 * 16 / 8 * 128 / 130)
    assert h.achieved < h.peak


def test_gb200_ladder_shows_the_c2c_rung_and_no_pcie_rung():
    from interlib import hierarchy
    names = [r.name for r in hierarchy.ladder("gb200-nvl72")]
    assert "NVLink-C2C" in names and "PCIe" not in names
    rung = {r.name: r for r in hierarchy.ladder("gb200-nvl72")}["NVLink-C2C"]
    assert rung.peak == pytest.approx(225 * u.GB_per_s)
    # review R3: Azure ND GB200 v6, nvbandwidth "Device to Host 193" (the slower direction)
    assert rung.effective == pytest.approx(193 * u.GB_per_s)
    assert "PCIe" in [r.name for r in hierarchy.ladder("dgx-h100")]
    assert set(names) <= set(hierarchy.RUNG_NAMES)


def test_bad_host_link_refused():
    g = specs.gpu("h100-sxm")
    with pytest.raises(ValueError, match="^host_link="):
        specs.GPU(g.name, g.arch, g.nvlink_gen, g.pcie_gen, g.hbm, g.hbm_capacity,
                  g.hbm_bandwidth, host_link="cxl")


def test_c2c_measurement_cannot_exceed_line_rate():
    from interlib.specs.links import ChipToChipLink
    c = specs.NVLINK_C2C
    with pytest.raises(ValueError, match="^measured_h2d="):
        ChipToChipLink(c.name, c.per_direction,
                       specs.Spec(500 * u.GB_per_s, "GB_per_s", "measured",
                                  c.measured_h2d.source, "per direction"),
                       c.measured_d2h, c.systems)


def test_reduced_nvlink_export_parts():
    # A800 datasheet: NVLink 400 GB/s vs A100's 600 (both directions added): 2/3 of A100.
    # H800: 400 GB/s bidirectional (DeepSeek's authors) = 200 each way of H100's 450.
    a800, h800 = specs.REDUCED_NVLINK["a800"], specs.REDUCED_NVLINK["h800"]
    assert a800.per_direction == pytest.approx(200 * u.GB_per_s)
    assert a800.share_of_full == pytest.approx(200 / 300)
    assert h800.share_of_full == pytest.approx(200 / 450)
    assert h800.measured.value == pytest.approx(160 * u.GB_per_s)
    assert h800.measured.value < h800.per_direction


def test_link_table_names_model_latency_and_shows_hardware_latency():
    # Issue 14, error 2: tuning.cc's Ring/Simple hwLat (PCI 5.7, NVLink 3.4, NET 14 us) are
    # model step latencies, not link latencies
    from interlib import hierarchy
    t = hierarchy.link_table()
    assert "per-hop latency" not in t.columns
    model_col = t.columns.index("NCCL model step latency (tuning.cc, Ring/Simple)")
    hw_col = t.columns.index("hardware latency (measured or published)")
    rows = {r[0]: r for r in t.rows}
    assert rows["PCIe 5.0 x16"][model_col] == "5.7 µs"
    assert rows["InfiniBand NDR (1 NIC/GPU)"][model_col] == "14 µs"
    # HDR adapters 0.6 us end to end + one switch 100..300 ns (Bekman; WWT)
    lo, hi = hierarchy.hardware_latency("InfiniBand NDR (1 NIC/GPU)")
    assert (lo, hi) == pytest.approx((0.7e-6, 0.9e-6))
    assert hi < 14e-6 / 10  # the wire is a small part of NCCL's network step latency
    assert hierarchy.hardware_latency("NVLink 4") is None
    assert rows["NVLink 4"][hw_col] == "not in our sources"
    with pytest.raises(ValueError, match="^name="):
        hierarchy.hardware_latency("NVLink 9")


# ------------------------------------------------- issue 28: the 2026 edition
def test_status_is_validated():
    src = Source("t", "u")
    assert str(specs.Status("shipped", "2025-08", src)) == "shipped (2025-08)"
    for state, date, note in (("sold", "2025", ""), ("shipped", "2025-13", ""),
                              ("shipped", "Aug 2025", ""), ("announced", None, "")):
        with pytest.raises(ValueError, match=r"^Status\.(state|date)="):
            specs.Status(state, date, src, note)
    assert "not in our sources" in str(specs.Status("shipped", None, src, "a product page"))


def test_new_hardware_carries_a_status_and_a_source():
    new = [specs.gpu("gb300"), specs.gpu("b300"), specs.nic("connectx-8"),
           specs.system("gb300-nvl72"), specs.system("hgx-b300"),
           *(specs.switch(n) for n in ("quantum-x800", "quantum-x-photonics",
                                       "spectrum-x-photonics")),
           *specs.SCALEUP_DOMAINS.values()]
    for x in new:
        assert isinstance(x.status, specs.Status), x
        assert x.status.source.url.strip()
    # co-packaged optics and the next scale-up are announced, not shipped, in our sources
    assert specs.switch("quantum-x-photonics").status.state == "announced"
    assert specs.switch("quantum-x-photonics").optics == "co-packaged"
    assert specs.scaleup_domain("vera-rubin-nvl72").status.state == "announced"
    assert specs.scaleup_domain("ualink-pod").status.date == "2025-04-08"


def test_gb300_and_hgx_b300_have_an_800g_connectx8_per_gpu_behind_gen6():
    for name, gpus in (("gb300-nvl72", 72), ("hgx-b300", 8)):
        s = specs.system(name)
        assert s.gpus_per_node == gpus and s.nics_per_gpu == 1.0
        assert s.nic_bw_per_gpu == pytest.approx(800e9 / 8)   # 100 GB/s per direction
        assert s.gpu.pcie_gen == "6.0" and s.nic_path == "direct-nic"
    assert specs.system("gb200-nvl72").nic_path == "via-grace"
    assert specs.system("dgx-h100").nic_path == "pcie-switch"


def test_quantum_x800_radix_and_capacity():
    q = specs.switch("quantum-x800")
    assert q.radix == 144
    assert q.capacity_per_direction == pytest.approx(144 * 800e9 / 8)  # 115.2 Tb/s


def test_xdr_lane_is_212_5_signalling_and_200_data():
    # IEEE 802.3dj 200G lanes: 106.25 GBd PAM4 = 212.5 Gb/s; 200 x 257/256 x 544/514 = 212.5
    x = specs.infiniband("XDR")
    assert x.lane_signalling.value == pytest.approx(200 * 257 / 256 * 544 / 514 * 1e9 / 8)
    assert x.lane_data.value == pytest.approx(200e9 / 8)
    assert x.coding_efficiency == pytest.approx(16 / 17)
    # NVLink 5's measured 53.125 GB/s per link is two such lanes
    assert 2 * x.lane_signalling.value == pytest.approx(53.125e9)


def test_xdr_first_products_are_dated_announced_and_shipped_apart():
    """Expert read F5.3: XDR was announced at GTC 2024 (March); the first shipment the
    sources date is ConnectX-8's, in the first production GB300 NVL72 racks delivered in
    early July 2025 (CoreWeave, 2025-07-03; issue 39 correction 8: not 2025-08, the Hot Chips
    talk that already called it shipping). The table must not print a bare '2024'."""
    from interlib import scaleout
    x = specs.infiniband("XDR")
    assert (x.announced.state, x.announced.date) == ("announced", "2024-03")
    assert (x.shipped.state, x.shipped.date) == ("shipped", "2025-07")
    assert x.shipped.source is specs.sources.GB300_FIRST_RACKS
    assert x.shipped is specs.nic("connectx-8").status      # one record, not two copies
    assert x.year is None
    rows = {r[0]: r[1] for r in scaleout.ib_generations_table().rows}
    assert rows["XDR"] == "announced 2024-03; shipped 2025-07"
    assert rows["NDR"] == "2022"                            # older rows keep their year
    # the switch: first manual 2024-09 is a document; the first dated deployment is 2025-10
    from interlib.specs import fabric
    assert fabric.XDR_SWITCH_FIRST_MANUAL[0] == "2024-09"
    assert str(specs.switch("quantum-x800").status) == "shipped (2025-10)"
    assert scaleout.figures_2026()["x800_manual"] == "2024-09"


def test_infiniband_gen_rejects_inconsistent_dates():
    from interlib.specs.links import InfiniBandGen
    x = specs.infiniband("XDR")
    src = Source("t", "u")
    with pytest.raises(ValueError, match="^shipped='2023-01' is before announced='2024-03'"):
        InfiniBandGen("X", x.lane_signalling, x.encoding, x.lane_data, None, x.announced,
                      specs.Status("shipped", "2023-01", src))
    with pytest.raises(ValueError, match="^announced="):
        InfiniBandGen("X", x.lane_signalling, x.encoding, x.lane_data, None,
                      specs.Status("shipped", "2024", src))


@pytest.mark.parametrize("gen,payload,expected", [
    # Gen 3-5: 128/130 x P / (P + 16 header + 8 framing/sequence/LCRC)
    ("5.0", 256, 128 / 130 * 256 / 280), ("3.0", 128, 128 / 130 * 128 / 152),
    # Gen 6 FLIT: 236/256 x P / (P + 16 header); framing is per flit
    ("6.0", 256, 236 / 256 * 256 / 272), ("6.0", 512, 236 / 256 * 512 / 528),
])
def test_pcie_payload_share_is_one_basis(gen, payload, expected):
    assert specs.pcie(gen).payload_share(payload) == pytest.approx(expected)


def test_pcie_payload_share_rejects_bad_sizes():
    with pytest.raises(ValueError, match="^payload_bytes=0 "):
        specs.pcie("5.0").payload_share(0)
    with pytest.raises(ValueError, match="^header_bytes=-1 "):
        specs.pcie("5.0").payload_share(256, -1)


def test_scaleup_domains_quote_their_sources():
    g = specs.scaleup_domain("gaudi3-hls3")
    # Intel: 21 x 200 Gb/s = 525 GB/s scale-up, 3 x 200 Gb/s = 75 GB/s scale-out, per direction
    assert g.per_accelerator.value == pytest.approx(525e9)
    assert g.scale_out_per_accelerator.value == pytest.approx(75e9)
    assert g.scale_up_over_scale_out == pytest.approx(7)
    t = specs.scaleup_domain("tpu-v5p-pod")
    # issue 39 correction 2: the pod is 4x4x4 cubes joined by optical circuit switches
    # ("reconfigurable high-speed links", Google); a torus is built per slice
    assert t.per_accelerator.value == pytest.approx(1200e9 / 2)
    assert t.topology == "set of cubes joined by optical circuit switches, a torus per slice"
    # AMD's driver: 32 GT/s x 16 lanes per xGMI link, unidirectional = 64 GB/s; 7 links
    assert specs.scaleup_domain("mi300x-8").per_accelerator.value == pytest.approx(7 * 64e9)
    with pytest.raises(ValueError, match="^name='gaudi3'"):
        specs.scaleup_domain("gaudi3")


def test_scaleup_ladder_table_shows_only_sourced_figures():
    from interlib import hierarchy
    rows = {r[0]: r for r in hierarchy.scaleup_ladder_table().rows}
    tpu = rows["Google Cloud TPU v5p pod"]
    # Google: HBM 2765 GB/s; ICI 1200 GB/s bidirectional -> 600 per direction; DCN 50 Gb/s
    assert tpu[1] == "2.77 TB/s" and tpu[3] == "600 GB/s" and tpu[4] == "6.25 GB/s"
    assert tpu[6] == "96×"                      # 600 / 6.25
    gaudi = rows["Intel Gaudi 3 (HLS-3 box)"]
    # Intel: 3.7 TB/s HBM2e (issue 39); 3,700 / 525 = 7.05
    assert gaudi[1] == "3.7 TB/s" and gaudi[5] == "7.05×" and gaudi[6] == "7×"
    with pytest.raises(ValueError, match="^names="):
        hierarchy.scaleup_ladder_table(("tpu-v6",))


# ------------------------------------------------- issue 28: the independent expert read
def test_vera_rubin_stays_announced_with_its_later_documentation_dated():
    """NVIDIA's Vera-Rubin NVL72 tuning guide (last updated 2026-11-09) and the NCCL 2.32.6
    release (2026-11-09) document the system, but neither states a shipment: the status
    stays 'announced (2026-01)' and the evidence carries its own dates and sources."""
    from interlib.specs import scaleup
    assert str(specs.scaleup_domain("vera-rubin-nvl72").status) == "announced (2026-01)"
    docs = scaleup.VERA_RUBIN_DOCUMENTED
    assert docs["tuning guide"][0] == "2026-11-09"
    assert docs["NCCL 2.32.6"][0] == "2026-11-09"
    assert "docs.nvidia.com" in docs["tuning guide"][1].url
    assert docs["NCCL 2.32.6"][1].url.endswith("v2.32.6-1")
    for date, _src in docs.values():      # each a valid Status date
        specs.Status("announced", date, _src)


def test_tpu_v5p_job_is_smaller_than_the_pod():
    """Google: 8960 chips per pod, 'the largest job that can be scheduled is a 96 cube
    (6144 chip) job' (16 x 16 x 24 chips)."""
    from interlib.specs import scaleup
    job, pod = scaleup.TPU_V5P_LARGEST_JOB, specs.scaleup_domain("tpu-v5p-pod").domain_size
    assert job.value == 16 * 16 * 24 == 96 * 4 ** 3
    assert job.value < pod.value == 8960
    assert job.source is pod.source


def test_cpo_availability_dates_differ_per_switch_and_neither_is_shipped():
    """NVIDIA's co-packaged optics blog (2025-08-18): 'commercial availability for NVIDIA
    Quantum-X InfiniBand switches set for early 2026 and Spectrum-X Ethernet switches in the
    second half of 2026'; no source read dates a volume shipment of either (review F13: the
    Quantum-X Photonics model is documented in NVIDIA's switch manual, rev 1.3)."""
    from interlib.specs import fabric
    given = fabric.CPO_AVAILABILITY_GIVEN
    assert given["quantum-x-photonics"][0] == "early 2026"
    assert given["spectrum-x-photonics"][0] == "second half of 2026"
    for name, (when, src) in given.items():
        assert src.url.startswith("https://developer.nvidia.com/blog/")
        assert f"switches set for {when}" in src.says or f"switches in the {when}" in src.says
        assert specs.switch(name).status.state == "announced"
    assert "no source read" in specs.switch("spectrum-x-photonics").status.note
    q = specs.switch("quantum-x-photonics").status.note
    assert "Q3450-LD" in q and "no dated volume shipment" in q


def test_nccl_gdr_default_limits():
    """paths.cc: netGdrLevel = NCCL_NET_GDR_C2C (default 1) ? PATH_P2C : PATH_PXB; on a
    PCIe-only host no path is P2C, so PXB is the effective limit there."""
    from interlib.specs import links
    assert (links.NET_GDR_LEVEL, links.NET_GDR_LEVEL_C2C) == ("PXB", "P2C")


def test_llama3_dp_group_members_sit_one_replica_apart():
    """TP 8 x CP 1 x PP 16 = 128 GPUs per replica = 16 eight-GPU servers; DP 128 members,
    one per replica, spread over 128 x 16 = 2,048 servers."""
    from interlib.specs import studies as St
    assert St.llama3_replica_servers() == 8 * 1 * 16 // 8
    assert St.llama3_replica_servers(16) == 8
    assert St.llama3_replica_servers(256) == 1      # a replica cannot fill less than a server
    assert St.llama3_dp_16k() * St.llama3_replica_servers() == St.llama3_dp_span_servers()
    with pytest.raises(ValueError, match="^gpus_per_server=0"):
        St.llama3_replica_servers(0)


def test_connectx8_on_ethernet_is_two_400gbe_ports_not_one_800gbe():
    """Expert read F6.1. NVIDIA ConnectX-8 firmware 40.44.0208: 'supports 800Gb/s or XDR IB
    or 2 x 400GbE link speeds. Note: 800GbE link speed is not supported on a single port.'"""
    from interlib import scaleout
    n = specs.nic("connectx-8")
    assert n.rate.value == pytest.approx(800e9 / 8)           # the XDR port
    assert n.ethernet_ports == 2
    assert n.ethernet_port == pytest.approx(400e9 / 8)        # 50 GB/s per 400 GbE port
    assert n.ethernet_port_rate.direction == "per direction"
    assert "not supported on a single port" in n.ethernet_port_rate.source.says
    assert specs.nic("connectx-7").ethernet_port == pytest.approx(400e9 / 8)  # one port
    rows = {r[0]: r for r in scaleout.ethernet_table().rows}
    row = rows["ConnectX-8 NIC on Ethernet: 2 ports x 400 Gb/s"]
    assert row[1] == "800 Gb/s" and row[2] == "100 GB/s"
    assert not any(k.startswith("ConnectX-8") and "1 port x 800" in k for k in rows)
    with pytest.raises(ValueError, match="^fabric='InfiniBand': ConnectX-6 HDR does not"):
        specs.nic("connectx-6-hdr").ethernet_port


def test_nic_ethernet_ports_are_validated():
    from interlib.specs.hardware import NIC
    src = Source("t", "u")
    r400 = Spec(400e9 / 8, "Gbit_per_s", "vendor peak", src, "per direction")
    r800 = Spec(800e9 / 8, "Gbit_per_s", "vendor peak", src, "per direction")
    with pytest.raises(ValueError, match="^ethernet_ports=3 x ethernet_port_rate exceeds"):
        NIC("x", r800, "Ethernet", ethernet_ports=3, ethernet_port_rate=r400)
    with pytest.raises(ValueError, match="^ethernet_ports=2 needs"):
        NIC("x", r800, "Ethernet", ethernet_ports=2)
    with pytest.raises(ValueError, match="^ethernet_port_rate is set but fabric"):
        NIC("x", r800, "InfiniBand", ethernet_ports=2, ethernet_port_rate=r400)
    with pytest.raises(ValueError, match="^ethernet_ports=0 "):
        NIC("x", r800, "Ethernet", ethernet_ports=0)
