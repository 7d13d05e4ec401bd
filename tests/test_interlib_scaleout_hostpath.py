"""Tests for interlib.scaleout (Chapter 5 helpers) and interlib.hostpath (TCP vs RDMA).

Expected values: the hierarchical all-reduce byte accounting of facts.md 2.4 by hand; the
DGX H100 NIC facts (8 x 400 Gb/s = 400 GB/s per direction, 1:1; facts.md 1.7, errata d);
the SuperPOD counts (facts.md 1.7); and structural properties of the host-path budget
(RDMA has no copies and no per-byte CPU time).
"""

import pytest

from interlib import hostpath as H
from interlib import scaleout as S
from interlib import specs
from interlib.units import GB_per_s, GiB, Gbit_per_s, KiB, MiB, ns, us


def test_hierarchical_bytes_by_hand():
    b = S.hierarchical_bytes(8e9, 8, 4)
    assert b.intra == pytest.approx(2 * 7 / 8 * 8e9)
    assert b.inter == pytest.approx(2 * 3 / 4 * 8e9 / 8)
    assert b.flat_ring == pytest.approx(2 * 31 / 32 * 8e9)
    assert b.node_out == pytest.approx(8 * b.inter)


def test_dgx_h100_nics_one_per_gpu():
    s = specs.system("dgx-h100")
    assert s.nics_per_gpu == 1.0
    assert s.node_injection == pytest.approx(8 * 400 * Gbit_per_s)
    assert s.node_injection == pytest.approx(400 * GB_per_s)


def test_one_nic_per_node_makes_nic_phase_eight_times_longer():
    t8 = S.nic_phase_time(GiB, S.with_nics("dgx-h100", "connectx-7", 8), 16)
    t1 = S.nic_phase_time(GiB, S.with_nics("dgx-h100", "connectx-7", 1), 16)
    assert t1 == pytest.approx(8 * t8)
    # 2 (k-1)/k x S through 8 x 50 GB/s
    assert t8 == pytest.approx(2 * 15 / 16 * GiB / (400 * GB_per_s))


def test_with_nics_does_not_touch_catalogue():
    S.with_nics("dgx-h100", "connectx-8", 2)
    assert specs.system("dgx-h100").nics_per_node == 8
    assert specs.system("dgx-h100").nic.name == "ConnectX-7"


def test_multinode_all_reduce_uses_predict():
    from interlib import collectives
    out = S.multinode_all_reduce(64 * MiB, 4)
    assert set(out) == {"ring", "hierarchical", "sharp", "auto"}
    direct = collectives.predict("all_reduce", 64 * MiB, "dgx-h100", 8, 4, "sharp")
    assert out["sharp"].time_s == direct.time_s
    assert out["auto"].time_s <= out["ring"].time_s


def test_superpod_counts():
    p = S.superpod(4)
    assert (p.nodes, p.gpus) == (128, 1024)
    assert p.fabric.switches_per_tier == (32, 16)
    assert S.superpod(1).fabric.switches_per_tier[0] == 8


def test_tables_render():
    assert len(S.ib_generations_table().rows) == len(specs.INFINIBAND)
    assert "400 Gb/s" in repr(S.ib_generations_table())
    assert len(S.topology_table(1024, 64).rows) == 3
    eth = S.ethernet_table()
    n_eth_nics = sum("Ethernet" in n.fabric for n in specs.NICS.values())
    n_eth_switches = sum(s.fabric == "Ethernet" for s in specs.SWITCHES.values())
    assert len(eth.rows) == len(specs.ETHERNET) + n_eth_nics + n_eth_switches
    assert "51.2 Tb/s" in repr(eth)     # Spectrum-4: 64 x 800 Gb/s
    assert "2,048" in repr(S.fabric_table(S.superpod(4).fabric))


def test_rdma_has_no_copies_and_constant_cpu():
    rate = 50 * GB_per_s
    small, big = H.path_budget(4 * KiB, "rdma", rate), H.path_budget(GiB, "rdma", rate)
    assert small.cpu_time == big.cpu_time
    assert not any("copy" in name for name, _, _ in big.stages)
    tcp_small, tcp_big = H.path_budget(4 * KiB, "tcp", rate), H.path_budget(GiB, "tcp", rate)
    assert tcp_big.cpu_time > tcp_small.cpu_time
    # TCP copies every byte twice at copy_bandwidth
    a = H.HostPathAssumptions()
    copies = [t for name, t, _ in tcp_big.stages if "copy" in name]
    assert sum(copies) == pytest.approx(2 * GiB / a.copy_bandwidth)
    assert tcp_big.latency > big.latency


def test_wire_time_is_size_over_rate():
    b = H.path_budget(1e6, "rdma", 50 * GB_per_s)
    wire = dict((n, t) for n, t, _ in b.stages)["wire (serialisation)"]
    assert wire == pytest.approx(1e6 / (50 * GB_per_s))


@pytest.mark.parametrize("call, name", [
    (lambda: S.hierarchical_bytes(-1, 8, 2), "^size_bytes="),
    (lambda: S.hierarchical_bytes(1, 0, 2), "^gpus_per_node="),
    (lambda: S.multinode_all_reduce(1e6, 1), "^nodes="),
    (lambda: S.multinode_all_reduce(1e6, 2, algorithms=("tcp",)), "^algorithms="),
    (lambda: S.with_nics("dgx-h100", "connectx-7", 9), "^nics_per_node="),
    (lambda: S.with_nics("dgx-h100", "cx9"), "^nic=.cx9."),
    (lambda: S.superpod(0), "^scalable_units="),
    (lambda: H.path_budget(0, "tcp", 1e9), "^size_bytes="),
    (lambda: H.path_budget(10, "udp", 1e9), "^path="),
    (lambda: H.path_budget(10, "tcp", 0), "^link_rate="),
    (lambda: H.path_budget(10, "tcp", 1e9, assumptions=3), "^assumptions="),
    (lambda: H.budget_table(10, 1e9, assumptions="x"), "^assumptions="),
    (lambda: H.HostPathAssumptions(syscall=-1), "^syscall="),
    (lambda: H.HostPathAssumptions(adapters=0), "^adapters="),
    (lambda: S.nic_phase_time(1e6, system=5), "^system="),
    (lambda: S.fabric_table(3), "^ft="),
    (lambda: S.fmt_nic("x"), "^system=.x."),
    (lambda: S.fmt_nic(3), "^system="),
    (lambda: specs.ethernet([]), "^gbps="),
    (lambda: specs.ethernet(300), "^gbps="),
    (lambda: S.time_ratios({"a": 1.0}, "b"), "^reference="),
    (lambda: S.time_ratios({}, "a"), "^times="),
    (lambda: S.time_ratios([1.0], "a"), "^times="),
    (lambda: S.time_ratios({"a": 1.0, "b": 0.0}, "a"), r"^times\['b'\]=0.0"),
    (lambda: S.time_ratios({"a": 1.0, "b": [1.0, 2.0]}, "a"), r"^times\['b'\]="),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_rdma_charges_the_end_to_end_adapter_latency_once():
    """facts.md 1.4: HDR adapter latency 0.6 us end to end (both adapters); a switch hop
    100-300 ns (the model takes the middle, 200 ns)."""
    a = H.HostPathAssumptions()
    assert a.adapters == pytest.approx(0.6 * us)
    assert a.switch_hop == pytest.approx(200 * ns)
    rate = 50 * GB_per_s
    b = H.path_budget(4 * KiB, "rdma", rate)
    assert sum("adapter" in name for name, _, _ in b.stages) == 1
    assert b.latency == pytest.approx(a.post + a.adapters + 4 * KiB / rate + a.switch_hop
                                      + a.poll)
    # a one-way verbs message is ~1 us class (facts.md 1.4), not ~2 us
    assert b.latency < 1.5 * us


def test_superpod_matches_reference_architecture():
    """specs.SUPERPOD_SU (facts.md 1.7): 32 nodes per SU under 8 leaves; 4 SUs and 16
    spines make 1,024 GPUs."""
    su = specs.SUPERPOD_SU
    p = S.superpod(int(su["sus_per_pod"].value))
    assert p.nodes == su["sus_per_pod"].value * su["nodes_per_su"].value
    assert p.gpus == 1024
    assert p.fabric.switches_per_tier == (su["sus_per_pod"].value * su["leaves_per_su"].value,
                                          su["spines"].value)
    assert S.superpod(1).fabric.switches_per_tier[0] == su["leaves_per_su"].value


def test_fdr_lane_rate_derived_from_signalling_and_code():
    fdr = specs.infiniband("FDR")
    assert fdr.lane_data.value == pytest.approx(fdr.lane_signalling.value * 64 / 66)
    assert fdr.port_rate(4) == pytest.approx(14.0625e9 * 64 / 66 * 4 / 8)


def test_ib_coding_efficiency():
    """8b/10b keeps 8 of 10 bits, 64b/66b 64 of 66."""
    assert specs.infiniband("SDR").coding_efficiency == pytest.approx(8 / 10)
    assert specs.infiniband("FDR").coding_efficiency == pytest.approx(64 / 66)


def test_time_ratios_by_hand():
    r = S.time_ratios({"slow": 11.2, "fast": 0.7, "ref": 1.4}, "ref")
    assert r == pytest.approx({"slow": 8.0, "fast": 0.5, "ref": 1.0})


def test_time_ratios_reads_predictions():
    """A Prediction counts by its time_s."""
    preds = S.multinode_all_reduce(GiB, 16)
    r = S.time_ratios(preds, "sharp")
    assert r["sharp"] == 1.0
    for alg, p in preds.items():
        assert r[alg] == pytest.approx(p.time_s / preds["sharp"].time_s)


@pytest.mark.parametrize("nodes", [2, 4, 16, 128])
def test_sharp_never_slower_than_hierarchical(nodes):
    """Same NVLink phases; SHARP sends each shard through the NIC once (not 2(k-1)/k
    times) in 2 network steps (not 2(k-1)): it can only be as fast or faster."""
    import numpy as np
    sizes = 2.0 ** np.arange(10, 33)
    p = S.multinode_all_reduce(sizes, nodes, algorithms=("hierarchical", "sharp"))
    assert np.all(p["sharp"].time_s <= p["hierarchical"].time_s * (1 + 1e-12))


# ---------------------------------------------- argument sweep: names and sequences
@pytest.mark.parametrize("call, param", [
    (lambda: S.ib_speedup("XYZ", "EDR"), "^new='XYZ'"),
    (lambda: S.ib_speedup("NDR", None), "^old=None"),
    (lambda: S.node_nic_table(None), "^names=None"),
    (lambda: S.node_nic_table(5), "^names=5"),
    (lambda: S.node_nic_table([]), "^names="),
    (lambda: S.node_nic_table(("dgx-h999",)), "^names='dgx-h999'"),
    (lambda: S.with_nics("dgx-h999"), "^system='dgx-h999'"),
    (lambda: S.with_nics("dgx-h100", None), "^nic=None"),
    (lambda: S.nic_phase_time(1e9, "dgx-h999"), "^system='dgx-h999'"),
    (lambda: S.multinode_all_reduce(1e9, 4, algorithms=None), "^algorithms=None"),
    (lambda: S.multinode_all_reduce(1e9, 4, algorithms=5), "^algorithms=5"),
    (lambda: S.multinode_all_reduce(1e9, 4, algorithms=[]), "^algorithms="),
])
def test_bad_input_sweep_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


# ------------------------------------------------- the chapter 5 and 6 tables, by hand
def test_ib_generations_table_rows_by_hand():
    """IBTA lane rates (facts.md; the roadmap as tabulated by infiniband.jp and Bekman):
    SDR signals 2.5 Gb/s per lane with 8b/10b, so 2 Gb/s of data, 8 Gb/s on a 4x port =
    1 GB/s; FDR 14.0625 Gb/s with 64b/66b = 13.64 Gb/s, 54.5 Gb/s, 6.82 GB/s; NDR 106.25
    Gb/s signalling (PAM4, FEC) carries 100 Gb/s, 400 Gb/s = 50 GB/s a 4x port; XDR twice
    NDR (212.5 Gb/s, 200, 800 Gb/s = 100 GB/s). Three significant figures, per direction."""
    t = S.ib_generations_table()
    assert t.columns == ["generation", "first products", "lane signalling", "encoding",
                         "lane data rate", "4x port (bits/s, per direction)",
                         "4x port (bytes/s, per direction)"]
    assert [r[0] for r in t.rows] == ["SDR", "DDR", "QDR", "FDR", "EDR", "HDR", "NDR", "XDR"]
    rows = {r[0]: r for r in t.rows}
    assert rows["SDR"][2:] == ["2.5 Gb/s", "8b/10b", "2 Gb/s", "8 Gb/s", "1 GB/s"]
    assert rows["FDR"][2:] == ["14.1 Gb/s", "64b/66b", "13.6 Gb/s", "54.5 Gb/s", "6.82 GB/s"]
    assert [rows["NDR"][i] for i in (2, 4, 5, 6)] == ["106 Gb/s", "100 Gb/s", "400 Gb/s",
                                                       "50 GB/s"]
    assert [rows["XDR"][i] for i in (2, 4, 5, 6)] == ["212 Gb/s", "200 Gb/s", "800 Gb/s",
                                                       "100 GB/s"]
    # XDR is dated twice: announced at GTC 2024 (March), shipped with ConnectX-8 in the
    # first GB300 NVL72 racks (early July 2025; issue 39 correction 8, was "2025-08")
    assert "2024-03" in rows["XDR"][1] and "2025-07" in rows["XDR"][1]


def test_ib_generations_table_caption_says_direction_sources_and_dates():
    """The caption states the basis (per direction, bytes of 8 bits, PAM4's 2 bits a
    symbol), names the rate sources, and gives XDR's announced and shipped dates, each
    with its source by short name (the part of the title before its parenthesis)."""
    c = S.ib_generations_table().caption
    assert c.startswith("Per direction. 1 byte = 8 bits; PAM4 carries 2 bits per symbol.")
    assert "Sources: IBTA roadmap" in c and "infiniband.jp and Bekman (lane rates;" in c
    assert "a year is the approximate year of first products); XDR lanes: IEEE 802.3dj." in c
    xdr = specs.INFINIBAND["XDR"]
    ann, ship = xdr.announced, xdr.shipped
    # the two dated events, in order, joined by "; ", the caption ending with the last
    # source's short name in parentheses
    i_ann = c.index("802.3dj. XDR announced 2024-03: ")
    i_ship = c.index("; XDR shipped 2025-07: ")
    assert i_ann < i_ship and c.endswith("(CoreWeave press release).")
    for st in (ann, ship):
        assert st.note in c
        short, paren = st.source.title.split(" (", 1)
        assert f"({short})" in c                      # the source, by its name ...
        assert paren.rstrip(")") not in c             # ... without the parenthesis
    assert "(NVIDIA GTC 2024 press release)" in c     # the whole name, not its first word


def test_ethernet_table_rows_by_hand():
    """IEEE 802.3 port rates 100-800 Gb/s (12.5-100 GB/s); ConnectX-7 runs one 400 GbE
    port, ConnectX-8 two 400 GbE ports (800 Gb/s, 100 GB/s; its firmware notes: no single
    800 GbE port); Spectrum-4 SN5600 64 x 800 Gb/s = 51.2 Tb/s = 6.4 TB/s, Spectrum-X
    Photonics SN6810 128 x 800 Gb/s = 102.4 Tb/s = 12.8 TB/s. Each row's source is named
    without its parenthetical (the full titles are in the catalogue)."""
    t = S.ethernet_table()
    assert t.columns == ["item", "bits/s (per direction)", "bytes/s (per direction)", "kind",
                         "source"]
    rows = {r[0]: r for r in t.rows}
    for gbps, gBps in ((100, "12.5"), (200, "25"), (400, "50"), (800, "100")):
        assert rows[f"{gbps} GbE port"][1:] == [f"{gbps} Gb/s", f"{gBps} GB/s", "vendor peak",
                                                "IEEE 802.3 Ethernet"]
    assert rows["ConnectX-7 NIC on Ethernet: 1 port x 400 Gb/s"][1:3] == ["400 Gb/s",
                                                                          "50 GB/s"]
    cx8 = rows["ConnectX-8 NIC on Ethernet: 2 ports x 400 Gb/s"]
    assert cx8[1:4] == ["800 Gb/s", "100 GB/s", "vendor peak"]
    # the port's source (the firmware notes), not the NIC's XDR rate source
    assert cx8[4] == "NVIDIA ConnectX-8 SuperNIC firmware release notes v40.44.0208"
    assert rows["NVIDIA Spectrum-4 SN5600 switch: 64 ports x 800 Gb/s"][1:3] == ["51.2 Tb/s",
                                                                                 "6.4 TB/s"]
    sn6810 = [r for k, r in rows.items() if k.startswith("NVIDIA Spectrum-X Photonics SN6810")]
    assert len(sn6810) == 1 and sn6810[0][0].endswith("switch: 128 ports x 800 Gb/s")
    assert sn6810[0][1:3] == ["102 Tb/s", "12.8 TB/s"]
    # Spectrum-4's port rate: NVIDIA's SN5000 manual ("SN5600 | 64 | 800GbE"; review F15,
    # it was Bekman's ML Engineering before)
    assert rows["NVIDIA Spectrum-4 SN5600 switch: 64 ports x 800 Gb/s"][4] == \
        "NVIDIA Spectrum SN5000 Ethernet switch systems hardware user manual"
    for r in t.rows:       # a source named in a few words, never cut at its first word
        assert " (" not in r[4] and len(r[4].split()) >= 3
    # and by the beginning of its title (the switches' titles, as every other row's)
    for sw in specs.SWITCHES.values():
        if sw.fabric == "Ethernet":
            cell = next(r[4] for k, r in rows.items() if k.startswith(sw.name + " switch:"))
            assert sw.port_rate.source.title.startswith(cell + " (")


def test_ethernet_table_uses_the_nics_ethernet_port_spec():
    """A NIC row's port rate, kind and source are its Ethernet port's Spec
    (specs.NIC.ethernet_port_spec): ConnectX-8's is its own 400 GbE port figure, ConnectX-7's
    its one port at the NIC's rate."""
    cx7, cx8 = specs.nic("connectx-7"), specs.nic("connectx-8")
    assert cx8.ethernet_port_spec is cx8.ethernet_port_rate
    assert cx7.ethernet_port_spec is cx7.rate
    assert cx7.ethernet_port == cx7.ethernet_port_spec.value == pytest.approx(400 * Gbit_per_s)
    with pytest.raises(ValueError, match="^fabric='InfiniBand'"):
        specs.nic("connectx-6-hdr").ethernet_port_spec


def test_ethernet_table_caption_says_totals_and_the_connectx8_split():
    c = S.ethernet_table().caption
    assert c.startswith("Ethernet for RoCEv2, from interlib.specs;")
    assert "every rate per direction (a NIC or switch row is its total, ports x port rate;" in c
    assert "a NIC's Ethernet ports are the ones its documentation lists" in c
    assert c.endswith("ConnectX-8 has no single 800 GbE port).")


def test_node_nic_table_by_hand():
    """facts.md 1.7: DGX A100 8 x ConnectX-6 HDR 200 Gb/s = 1.6 Tb/s = 200 GB/s; DGX H100
    and DGX B200 8 x ConnectX-7 400 Gb/s = 3.2 Tb/s = 400 GB/s; GB200 NVL72 72 x 400 Gb/s =
    28.8 Tb/s = 3.6 TB/s; all one NIC per GPU, per direction."""
    t = S.node_nic_table()
    assert t.columns == ["system", "GPUs", "compute NICs", "NIC rate (per direction)",
                         "ratio", "node injection (bits/s)", "node injection (bytes/s)"]
    assert [r[1:] for r in t.rows] == [
        ["8", "8 x ConnectX-6 HDR", "200 Gb/s", "1 NIC per GPU", "1.6 Tb/s", "200 GB/s"],
        ["8", "8 x ConnectX-7", "400 Gb/s", "1 NIC per GPU", "3.2 Tb/s", "400 GB/s"],
        ["8", "8 x ConnectX-7", "400 Gb/s", "1 NIC per GPU", "3.2 Tb/s", "400 GB/s"],
        ["72", "72 x ConnectX-7", "400 Gb/s", "1 NIC per GPU", "28.8 Tb/s", "3.6 TB/s"]]
    assert [r[0] for r in t.rows] == [specs.system(n).title for n in
                                      ("dgx-a100", "dgx-h100", "dgx-b200", "gb200-nvl72")]
    assert [r[0] for r in S.node_nic_table(("dgx-h100",)).rows] == ["NVIDIA DGX H100"]
    # what is counted and the direction
    assert t.caption.startswith("Compute-fabric NICs only")
    assert "(storage and management NICs not counted); per direction." in t.caption


def test_fabric_table_superpod_by_hand():
    """facts.md 1.7: 4 SUs of 32 DGX H100 = 128 nodes x 8 NDR ports = 1,024 host ports on
    64-port switches: 32 leaves (32 down, 32 up) and 16 spines = 48 switches, 1,024 host
    cables + 1,024 leaf-spine cables, full bisection 512 x 50 GB/s = 25.6 TB/s, a host to
    host path crosses leaf, spine, leaf (3 switches). At 16 SUs (4,096 ports) a third tier:
    128 leaves, 128 middle, 64 top, 5 switches on the longest path."""
    t = S.fabric_table(S.superpod(4).fabric)
    assert t.columns == ["quantity", "value"]
    assert t.rows == [["hosts (NIC ports)", "1,024"], ["switch radix", "64"], ["tiers", "2"],
                      ["switches per tier (leaf first)", "32 + 16"], ["switches", "48"],
                      ["cables", "2,048"], ["leaf ports down : up", "32 : 32"],
                      ["bisection (per direction)", "25.6 TB/s"],
                      ["bisection / full bisection", "1×"], ["max switch hops", "3"]]
    rows = dict(S.fabric_table(S.superpod(16).fabric).rows)
    assert rows["switches per tier (leaf first)"] == "128 + 128 + 64"
    assert (rows["tiers"], rows["max switch hops"]) == ("3", "5")
    # the caption names the radix and the link rate (one NDR port, 50 GB/s) per direction
    c = t.caption
    assert c.startswith("Fat-tree of 64-port switches, links 50 GB/s per direction")
    assert c.endswith("(topology.fat_tree).")


def test_topology_table_4096_hosts_by_hand():
    """About 4,096 hosts, 64-port switches, 50 GB/s links (one NDR port), by hand:

    * fat-tree, 3 tiers: 4,096 / 32 = 128 leaves, 128 middle, 64 top = 320 switches;
      4,096 cables per level x 3 = 12,288, of which 8,192 between switches; full
      bisection 2,048 x 50 GB/s = 102.4 TB/s; longest path 6 links (up 3, down 3).
    * balanced dragonfly p = 16, a = 32, h = 16 (63 ports used): 8 groups of 32 routers =
      256 routers, 4,096 hosts; 8 x 32 x 31 / 2 = 3,968 local cables; 8 x 32 x 16 = 4,096
      global ports, at most 2,048 cables, spread evenly over the 8 x 7 / 2 = 28 group
      pairs: 73 each (2,048 / 28 = 73.1), 2,044 global; with 4,096 host cables 10,108; 4 x 4 group pairs x 73 = 1,168 cables cross the
      middle = 58.4 TB/s, 0.57 of full; longest path host, local, global, local, host = 5.
    * 3D torus 16 x 16 x 16: 3 x 4,096 = 12,288 cables (all between nodes); cutting one
      dimension in half cuts 2 x 16 x 16 = 512 links (the wrap-around doubles it) = 25.6
      TB/s, a quarter of full; longest path 3 x 8 = 24 links."""
    t = S.topology_table(4096, 64)
    assert t.columns == ["topology", "switch / router radix used", "hosts", "switches",
                         "cables", "of which switch-to-switch", "bisection (per direction)",
                         "bisection / full", "longest path (links, host to host)"]
    assert t.rows == [
        ["fat-tree, 3 tiers", "64 ports", "4,096", "320", "12,288", "8,192", "102 TB/s",
         "1×", "6"],
        ["dragonfly, 8 groups (p=16, a=32, h=16)", "63 ports", "4,096", "256", "10,108",
         "6,012 (2,044 global)", "58.4 TB/s", "0.57×", "5"],
        ["3D torus 16x16x16", "6 neighbour links", "4,096", "0 (direct)", "12,288", "12,288",
         "25.6 TB/s", "0.25×", "24"]]
    c = t.caption
    assert c.startswith("About 4,096 endpoints; switches and routers of at most 64 ports;")
    assert "every link 400 Gb/s per direction" in c
    assert c.endswith("(one NDR 4x port, specs.infiniband).")
    # the defaults are the chapter's: about 4,096 endpoints, 64-port switches
    assert S.topology_table().rows == t.rows


def test_topology_table_says_when_no_dragonfly_reaches_the_hosts():
    """A balanced dragonfly of 8-port routers (p = h = 2, a = 4) has at most a h + 1 = 9
    groups of 4 x 2 hosts = 72 hosts: 100 hosts are out of its reach, and the row says so
    with its other cells empty."""
    t = S.topology_table(100, 8)
    row = t.rows[1]
    assert row[0].startswith("dragonfly: a balanced dragonfly of 8-port routers")
    assert row[0].endswith("has fewer than this many hosts")
    assert row[1:] == [""] * 8
    assert t.rows[2][0] == "3D torus 5x5x4" and t.rows[2][2] == "100"


def test_superpod_default_and_limits():
    """The default is the reference SuperPOD (facts.md 1.7: 4 SUs, 1,024 GPUs); 1..64 SUs
    (64 x 256 = 16,384 GPUs, the largest the docstring allows)."""
    p = S.superpod()
    assert (p.scalable_units, p.nodes, p.gpus) == (4, 128, 1024)
    assert p.fabric.link_rate == pytest.approx(400 * Gbit_per_s)    # NDR port
    assert S.superpod(64).gpus == 64 * 256
    with pytest.raises(ValueError, match="^scalable_units=65 is out of range"):
        S.superpod(65)


def test_with_nics_defaults_and_range():
    """Defaults: a DGX H100 with its ConnectX-7s; nics_per_node 1..gpus_per_node (8)."""
    s = S.with_nics()
    assert s.title == "NVIDIA DGX H100" and s.nic.name == "ConnectX-7"
    assert s.nics_per_node == 8
    assert S.with_nics(nics_per_node=2).node_injection == pytest.approx(2 * 400 * Gbit_per_s)
    for bad in (0, 9):
        with pytest.raises(ValueError,
                           match=f"^nics_per_node={bad} is out of range: must be between 1 "
                                 "and 8"):
            S.with_nics("dgx-h100", "connectx-7", bad)


def test_fmt_nic_by_hand():
    # facts.md 1.7: 8 x ConnectX-7 at 400 Gb/s = 400 GB/s per direction; one NIC: 50 GB/s
    assert S.fmt_nic("dgx-h100") == "8 x ConnectX-7 (400 Gb/s) = 400 GB/s per direction"
    assert S.fmt_nic(S.with_nics("dgx-a100", "connectx-6-hdr", 1)) == \
        "1 x ConnectX-6 HDR (200 Gb/s) = 25 GB/s per direction"


def test_nic_phase_time_defaults_and_node_range():
    """Defaults: DGX H100 (400 GB/s per node), 4 nodes: 2 x 3/4 x S / 400 GB/s; nodes
    2..100,000 (2 nodes: 2 x 1/2 x S)."""
    assert S.nic_phase_time(GiB) == pytest.approx(2 * 3 / 4 * GiB / (400 * GB_per_s))
    assert S.nic_phase_time(GiB, "dgx-h100", 2) == pytest.approx(GiB / (400 * GB_per_s))
    assert S.nic_phase_time(GiB, "dgx-h100", 100_000) == pytest.approx(
        2 * 99_999 / 100_000 * GiB / (400 * GB_per_s))
    for bad in (1, 100_001):
        with pytest.raises(ValueError, match=f"^nodes={bad} is out of range: must be "
                                             "between 2 and 100000"):
            S.nic_phase_time(GiB, "dgx-h100", bad)


def test_multinode_all_reduce_node_range():
    # nodes 2..100,000 (the docstring's range), the message stating it
    with pytest.raises(ValueError, match="^nodes=100001 is out of range: must be between 2 "
                                         "and 100000"):
        S.multinode_all_reduce(1e6, 100_001)


# ------------------------------------------------------- mutation survivors (issue 38)
def test_budget_table_lists_every_stage_of_both_paths_by_hand():
    """4 KiB over 400 Gb/s (50 GB/s) with the default assumptions, by hand: the wire takes
    4096 / 50e9 = 81.92 ns, a copy 4096 / 10e9 = 409.6 ns, one 64 KiB segment of TCP/IP
    processing per end (2 us), HDR adapters end to end 600 ns, one switch hop the middle of
    100-300 ns (200 ns). TCP: 0.5 + 0.4096 + 2 + 0.6 + 0.08192 + 0.2 + 3 + 2 + 0.4096 + 0.5
    = 9.70112 us, CPU-busy all but adapters, wire and switch = 8.8192 us. RDMA: 0.2 + 0.6 +
    0.08192 + 0.2 + 0.1 = 1.18192 us, CPU 0.2 + 0.1 = 0.3 us."""
    t = H.budget_table(4096, 50e9)
    assert t.columns == ["path", "stage", "time", "CPU busy"]
    assert t.rows == [
        ["TCP", "send() system call", "500 ns", "yes"],
        ["TCP", "copy user -> kernel", "410 ns", "yes"],
        ["TCP", "TCP/IP send processing", "2 µs", "yes"],
        ["TCP", "adapters, both ends (end-to-end)", "600 ns", "no"],
        ["TCP", "wire (serialisation)", "81.9 ns", "no"],
        ["TCP", "switch hop", "200 ns", "no"],
        ["TCP", "interrupt + wake-up", "3 µs", "yes"],
        ["TCP", "TCP/IP receive processing", "2 µs", "yes"],
        ["TCP", "copy kernel -> user", "410 ns", "yes"],
        ["TCP", "recv() system call", "500 ns", "yes"],
        ["RDMA", "post work request + doorbell", "200 ns", "yes"],
        ["RDMA", "adapters, both ends (end-to-end)", "600 ns", "no"],
        ["RDMA", "wire (serialisation)", "81.9 ns", "no"],
        ["RDMA", "switch hop", "200 ns", "no"],
        ["RDMA", "poll completion", "100 ns", "yes"],
        ["TCP", "total", "9.7 µs", "CPU 8.82 µs"],
        ["RDMA", "total", "1.18 µs", "CPU 300 ns"],
    ]
    assert t.caption == ("Illustrative host costs (HostPathAssumptions); the adapters (HDR, "
                         "600 ns end to end) and the switch hop (100 ns to 300 ns quoted) "
                         "come from specs.ADAPTER_LATENCY and specs.SWITCH_HOP_LATENCY.")
    # the assumptions passed reach both paths: a 1 us syscall doubles the two syscall rows
    slow = H.budget_table(4096, 50e9, H.HostPathAssumptions(syscall=1e-6))
    assert slow.rows[0][2] == "1 µs" and slow.rows[9][2] == "1 µs"
    assert slow.rows[10] == t.rows[10]


def test_cores_to_saturate_is_cpu_time_times_rate_over_size():
    # RDMA, 4 KiB at 50 GB/s: 0.3 us of CPU per message, 50e9 / 4096 = 12.2 M messages/s
    # -> 0.3e-6 x 50e9 / 4096 = 3.662 cores; TCP: 8.8192e-6 x 50e9 / 4096 = 107.66 cores
    rdma = H.path_budget(4096, "rdma", 50e9)
    tcp = H.path_budget(4096, "tcp", 50e9)
    assert rdma.cores_to_saturate(50e9) == pytest.approx(0.3e-6 * 50e9 / 4096, rel=1e-12)
    assert tcp.cores_to_saturate(50e9) == pytest.approx(8.8192e-6 * 50e9 / 4096, rel=1e-12)
    assert rdma.cores_to_saturate(100e9) == pytest.approx(2 * 3.662109375, rel=1e-9)
    with pytest.raises(ValueError, match="^link_rate=0 "):
        rdma.cores_to_saturate(0)


def test_budget_table_passes_the_assumptions_to_the_rdma_path_too():
    # posting a work request at 1 us instead of 0.2 us: RDMA's first row and its total
    # (1 + 0.6 + 0.08192 + 0.2 + 0.1 = 1.98192 us, CPU 1.1 us) change
    t = H.budget_table(4096, 50e9, H.HostPathAssumptions(post=1e-6))
    assert t.rows[10] == ["RDMA", "post work request + doorbell", "1 µs", "yes"]
    assert t.rows[-1] == ["RDMA", "total", "1.98 µs", "CPU 1.1 µs"]
