"""The capstone: the 256-GPU reference against the DGX H100 SuperPOD scalable unit
(facts.md 1.7: 32 nodes under 8 leaf switches) and bad input."""

import re

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


# ------------------------------------------------------------------ the tables by hand
def _num(text):
    return float(re.sub(r"[^\d.]", "", text))


def test_design_table_of_the_reference_design_by_hand():
    """32 DGX H100 (8 GPUs, 8 x 400G ConnectX-7 each) on 64-port switches, Llama 3 70B,
    TP 8 x PP 4: every row derived here or checked against the table's other rows."""
    d = capstone.design()
    rows = dict(capstone.design_table(d).rows)
    assert rows["GPUs"] == "256 (8 x H100 SXM, NVSwitch, 8 x 400G InfiniBand)"   # 32 x 8
    # dp = 256 / (8 x 4); TP stays inside a server (NVLink), PP and DP cross servers
    assert rows["parallelism"] == ("TP NVLink · PP Scale-out NIC · DP Scale-out NIC "
                                   "(tp = 8, pp = 4, dp = 8)")
    # 70e9 params x 2 B / (TP 8 x PP 4) = 4.375 GB of weights and of gradients; Adam's
    # 12 B/param / 32 / DP 8 (ZeRO-1) = 3.28 GB
    mem = rows["memory per GPU"]
    assert mem.startswith("23.4 GB of 80 GB HBM per GPU (weights 4.38 GB, gradients 4.38 GB, "
                          "optimizer 3.28 GB, ") and mem.endswith("; ZeRO-1): fits")
    # 256 NIC ports; a non-blocking 64-port leaf has 32 down, 32 up: 8 leaves, 8 x 32 / 64
    # = 4 spines; cables 256 to hosts + 8 x 32 leaf-spine
    assert rows["switches"] == "12 switches (8 leaf + 4 spine)"
    assert rows["cables (host + switch)"] == "512 (256 + 256)"
    assert rows["tiers / max switch hops"] == "2 / 3"          # leaf - spine - leaf
    assert rows["leaf oversubscription (achieved)"] == "1:1"
    # half the NICs at 400 Gb/s = 128 x 50 GB/s
    assert rows["bisection, per direction"] == "6.4 TB/s (100 % of full)"
    # the step adds up: compute + bubble + TP + PP + DP - hidden = step (rounded parts)
    ms = {k: (_num(v) * (1000 if v.endswith(" s") else 1)) for k, v in rows.items()
          if k in ("compute per step", "+ pipeline bubble", "− hidden by overlap",
                   "= step time")}
    tp, pp, dp = (_num(x) for x in rows["+ TP / PP / DP communication"].split(" / "))
    assert ms["compute per step"] + ms["+ pipeline bubble"] + tp + pp + dp \
        - ms["− hidden by overlap"] == pytest.approx(ms["= step time"], rel=0.005)
    assert rows["slowest communication"] == "TP over NVLink" and tp > max(pp, dp)
    assert _num(rows["efficiency (compute / step)"]) == pytest.approx(
        100 * ms["compute per step"] / ms["= step time"], rel=0.005)
    # 256 GPUs x 30 days x 24 h = 184,320 GPU-hours; lost = (1 - efficiency) of them
    lost, total = (float(x.replace(",", "")) for x in re.findall(
        r"[\d,]+", rows["GPU-hours not computing (bubble + waiting)"])[:2])
    assert total == 256 * 30 * 24 and rows["GPU-hours not computing (bubble + waiting)"] \
        .endswith(" in 30 days")
    assert lost == pytest.approx(total * (1 - ms["compute per step"] / ms["= step time"]),
                                 rel=0.01)
    # at the assumed $2.00 per GPU-hour; bubble + communication = the whole
    cost = [float(x.replace(",", "")) for x in re.findall(r"\$([\d,.]+)",
                                                          rows["cost of that time"])]
    assert cost[0] == pytest.approx(2.0 * lost, abs=1) and cost[0] == cost[1] + cost[2]
    assert cost[3] == 2.0 and rows["cost of that time"].endswith("/GPU-hour (assumed)")
    assert list(rows)[-2:] == ["mean time between interruptions",
                               "time lost to interruptions + checkpoints"]
    assert len(rows) == 20


def test_design_table_of_a_design_that_does_not_fit():
    # TP 1, PP 1: every GPU holds 70e9 x 2 B = 140 GB of weights > 80 GB of HBM
    d = capstone.design(tp=1, pp=1)
    assert capstone.memory_text(d).endswith("(weights 140 GB, gradients 140 GB, optimizer "
                                            "3.28 GB, activations 91.3 GB; ZeRO-1): does NOT "
                                            "fit")
    rows = capstone.design_table(d).rows
    assert ["step time, efficiency", "none: the design does not fit in the GPUs' memory "
            "(more TP or PP, a higher ZeRO stage, or a GPU with more HBM)"] in rows
    names = [r[0] for r in rows]
    assert "= step time" not in names and "throughput" not in names and len(rows) == 11
    with pytest.raises(ValueError, match="^d='x' must be a Design"):
        capstone.memory_text("x")


def test_switches_text_names_the_tiers():
    from types import SimpleNamespace as T
    assert capstone.switches_text(T(switches_per_tier=(1,), switches=1)) == "1 switch (1 leaf)"
    assert capstone.switches_text(T(switches_per_tier=(64, 64, 32), switches=160)) == \
        "160 switches (64 leaf + 64 spine + 32 core)"
    assert capstone.switches_text(T(switches_per_tier=(2048, 1024, 1024, 512),
                                    switches=4608)) == \
        "4,608 switches (2,048 tier 1 + 1,024 tier 2 + 1,024 tier 3 + 512 tier 4)"


def test_slowest_communication_in_words():
    from types import SimpleNamespace as T
    assert capstone._slowest(T(time_s=0.0, kind="DP", rung="NIC")) == \
        "none (one GPU per replica: nothing to send)"
    assert capstone._slowest(T(time_s=1e-9, kind="DP", rung="Scale-out NIC")) == \
        "DP over Scale-out NIC"


def test_price_table_rows_by_hand():
    """A hand-built price: 10 switches at $1,000-$2,000, 40 optics at $500 flat; 8 GPUs."""
    P = capstone.PriceLine
    p = capstone.NetworkPrice(
        (P("switches", 10, (1000, 2000), "ten"), P("optics", 40, (500, 500), "forty")),
        (("NICs", 8, "no price"), ("copper cables", 0, "none counted")), 8, 400.0)
    t = capstone.price_table(p)
    assert t.rows == [
        ["switches", "10", "$1,000 - $2,000", "$10,000 - $20,000", "ten"],
        ["optics", "40", "$500", "$20,000", "forty"],
        ["= priced network", "", "", "$30,000 - $40,000", "$3,750 - $5,000 per GPU (8 GPUs)"],
        ["NICs", "8", "not priced", "-", "no price"],
        ["copper cables", "-", "not priced", "-", "none counted"]]
    assert "network_price at 400 Gb/s." in repr(t) and "Your own quotes" not in repr(t)
    mine = capstone.NetworkPrice((P("optics", 2, (1.4, 1.6), "two, your quote"),), (), 1, 800.0)
    rows = capstone.price_table(mine).rows
    assert rows[0][2] == "$1 - $2" and rows[0][3] == "$3"   # 2.8 and 3.2 both round to $3
    assert "Your own quotes: optics." in repr(capstone.price_table(mine))


def test_tables_name_their_columns_and_what_computed_them():
    d = capstone.design()
    t = capstone.design_table(d)
    assert t.columns == ["quantity", "value"]
    assert t.caption == "Computed by interlib.capstone.design; price is a reader assumption."
    # 4,096-token sequences x 16 micro-batches x DP 8 per step, over the step time
    rows = dict(t.rows)
    step_s = float(rows["= step time"].split()[0])
    assert rows["throughput"].endswith(" tokens/s")
    assert float(rows["throughput"].split()[0].replace(",", "")) == pytest.approx(
        4096 * 16 * 8 / step_s, rel=0.005)
    p = capstone.price_table(capstone.network_price(d))
    assert p.columns == ["item", "count", "each", "total", "how"]
    assert p.caption.startswith("Computed by interlib.capstone.network_price at 400 Gb/s. ")
    assert p.caption.endswith("get a quote.")    # no 'Your own quotes' without quotes


def test_the_cables_row_says_when_a_nic_takes_two_ports():
    # ConnectX-8 at 800 Gb/s on Ethernet: 2 x 400 GbE ports per NIC (its firmware notes);
    # 32 x 8 NICs -> 512 host cables + 16 leaves x 32 uplinks
    eth = capstone.design(gpu="b300", nic_gbps=800.0, fabric="Ethernet")
    assert dict(capstone.design_table(eth).rows)["cables (host + switch)"] == \
        "1,024 (512 + 512); each NIC on 2 switch ports of 400 Gb/s"
    ib = capstone.design(gpu="b300", nic_gbps=800.0, fabric="InfiniBand")
    assert dict(capstone.design_table(ib).rows)["cables (host + switch)"] == "512 (256 + 256)"
