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
    (lambda: S.with_nics("dgx-h100", "cx9"), "nic=.cx9."),
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
    (lambda: S.fmt_nic("x"), "system=.x."),
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
    (lambda: S.ib_speedup("XYZ", "EDR"), "new='XYZ'"),
    (lambda: S.ib_speedup("NDR", None), "old=None"),
    (lambda: S.node_nic_table(None), "names=None"),
    (lambda: S.node_nic_table(5), "names=5"),
    (lambda: S.node_nic_table([]), "^names="),
    (lambda: S.node_nic_table(("dgx-h999",)), "names='dgx-h999'"),
    (lambda: S.with_nics("dgx-h999"), "system='dgx-h999'"),
    (lambda: S.with_nics("dgx-h100", None), "nic=None"),
    (lambda: S.nic_phase_time(1e9, "dgx-h999"), "system='dgx-h999'"),
    (lambda: S.multinode_all_reduce(1e9, 4, algorithms=None), "algorithms=None"),
    (lambda: S.multinode_all_reduce(1e9, 4, algorithms=5), "algorithms=5"),
    (lambda: S.multinode_all_reduce(1e9, 4, algorithms=[]), "^algorithms="),
])
def test_bad_input_sweep_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()
