"""The capstone: the 256-GPU reference against the DGX H100 SuperPOD scalable unit
(facts.md 1.7: 32 nodes under 8 leaf switches) and bad input."""

import pytest

from interlib import capstone, steptime, topology, units as u


def test_reference_network():
    d = capstone.design()
    assert d.n_gpus == 256 and d.dp == 8
    assert d.tree.switches_per_tier[0] == 8          # 8 leaves per SU (facts.md 1.7)
    # 256 NIC ports on 64-port switches, non-blocking: 8 leaves x 32 up / 64 = 4 spines
    assert d.tree.switches_per_tier == (8, 4)
    assert d.tree.cables == 256 + 256
    assert d.tree.bisection_per_direction == pytest.approx(128 * 50 * u.GB_per_s)


def test_design_uses_the_same_functions():
    d = capstone.design()
    st = steptime.step_time(steptime.make_system("h100-sxm", 8, "nvswitch", 8, 400.0),
                            "llama-3-70b", 8, 4, 8, leaf_nodes=32)
    assert d.step.step == pytest.approx(st.step)
    assert d.tree == topology.fat_tree(256, 64, 1.0, link_rate=400 * u.Gbit_per_s)


def test_fewer_nics_fewer_switches_slower_dp():
    a = capstone.design(nodes=256)
    b = capstone.design(nodes=256, nics_per_node=4)
    assert b.tree.switches < a.tree.switches and b.tree.cables < a.tree.cables
    assert b.step.dp > a.step.dp


def test_table_has_all_rows():
    t = capstone.design_table(capstone.design())
    assert len(t.rows) >= 15 and "assum" in repr(t)


@pytest.mark.parametrize("kw, param", [
    (dict(nodes=0), "^nodes="),
    (dict(tp=3), "^tp="),
    (dict(nics_per_node=0), "^nics_per_node="),
    (dict(period_days=0), "^period_days="),
    (dict(gpu="h900"), "^gpu="),
    (dict(radix=63), "^radix="),
    (dict(tp=6, pp=1), "^tp="),
    # the network and the step time share one range: no silent clamp at 16:1
    (dict(oversubscription=31), "^oversubscription="),
    (dict(oversubscription=17.0), "^oversubscription="),
    (dict(oversubscription=0.5), "^oversubscription="),
])
def test_bad_input(kw, param):
    with pytest.raises(ValueError, match=param):
        capstone.design(**kw)


def test_tables_refuse_other_objects():
    from interlib import steptime
    with pytest.raises(ValueError, match="^d="):
        capstone.design_table("reference")
    with pytest.raises(ValueError, match="^st="):
        steptime.breakdown_table(None)


def test_step_time_uses_the_oversubscription_the_network_is_sized_at():
    # 2,048 servers cross the spine; the leaf's whole ports give the achieved ratio
    # (64 ports at 7:1 -> 56 down, 8 up = 7:1; at 16:1 -> 60 down, 4 up = 15:1)
    for asked, achieved in ((7.0, 7.0), (16.0, 15.0)):
        d = capstone.design(nodes=2048, oversubscription=asked)
        assert d.tree.oversubscription == achieved
        st = steptime.step_time(d.system, "llama-3-70b", 8, 4, d.dp,
                                oversubscription=achieved, leaf_nodes=d.tree.leaf_down)
        assert d.step.step == pytest.approx(st.step)


def test_fabric_choice_matters_only_through_sharp():
    ib, eth, sharp = (capstone.design(fabric=f)
                      for f in ("InfiniBand", "Ethernet", "InfiniBand + SHARP"))
    # same port rate, no congestion modelled: InfiniBand and Ethernet alike
    assert ib.step.step == eth.step.step
    # SHARP: each GPU sends its DP shard once instead of a ring's 2(k-1)/k of it, so the
    # cross-node DP all-reduce gets faster (8 nodes here: 2 x 7/8 = 1.75x less bandwidth
    # time, a little more with the ring's 2(k-1) latency steps) and nothing else changes
    assert 2 * 7 / 8 <= ib.step.dp / sharp.step.dp < 2.0
    assert (sharp.step.tp, sharp.step.pp, sharp.step.compute) == \
        (ib.step.tp, ib.step.pp, ib.step.compute)
    assert "SHARP" in sharp.step.layout.phase("DP").collective
    # one server: DP stays on NVLink, the switches never see it
    one = capstone.design(nodes=1, tp=1, pp=1, fabric="InfiniBand + SHARP")
    assert one.step.dp == capstone.design(nodes=1, tp=1, pp=1).step.dp


def test_sharp_needs_infiniband():
    eth = steptime.make_system("h100-sxm", 8, "nvswitch", 8, 400.0, "Ethernet")
    with pytest.raises(ValueError, match="^in_network_reduction="):
        steptime.layout_traffic(eth, in_network_reduction=True)
    with pytest.raises(ValueError, match="^in_network_reduction="):
        steptime.layout_traffic(in_network_reduction="yes")
    with pytest.raises(ValueError, match="^fabric="):
        capstone.design(fabric="Ethernet + SHARP")


def test_connectx8_on_ethernet_takes_two_switch_ports_per_nic():
    """ConnectX-8 runs 800 Gb/s on Ethernet as 2 x 400 GbE (its firmware notes: no 800 GbE
    port), so the capstone's Ethernet network at 800 Gb/s is sized on twice the ports at
    400 Gb/s. By hand, 32 servers x 8 NICs, 64-port switches, non-blocking:
    InfiniBand: 256 ports -> 256 / 32 = 8 leaves, 8 x 32 / 64 = 4 spines, 256 + 256 cables;
    Ethernet: 512 ports -> 16 leaves, 16 x 32 / 64 = 8 spines, 512 + 512 cables."""
    ib = capstone.design(gpu="b300", nic_gbps=800.0, fabric="InfiniBand")
    eth = capstone.design(gpu="b300", nic_gbps=800.0, fabric="Ethernet")
    assert (ib.tree.switches, ib.tree.host_cables, ib.tree.switch_cables) == (12, 256, 256)
    assert (eth.tree.switches, eth.tree.host_cables, eth.tree.switch_cables) == (24, 512, 512)
    assert ib.tree.link_rate == 800 * u.Gbit_per_s and eth.tree.link_rate == 400 * u.Gbit_per_s
    assert capstone.ports_per_nic(eth) == 2 and capstone.ports_per_nic(ib) == 1
    # the same bandwidth per server either way: the step does not change
    assert eth.step.step == pytest.approx(ib.step.step, rel=1e-12)
    # a 400 Gb/s NIC on Ethernet is one port, as before
    e4 = capstone.design(nic_gbps=400.0, fabric="Ethernet")
    assert capstone.ports_per_nic(e4) == 1 and e4.tree.host_cables == 256
    with pytest.raises(ValueError, match=r"^nic_gbps="):
        capstone.ethernet_ports(0.0)
