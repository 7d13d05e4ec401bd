"""Tests for interlib.packets (header overhead) and interlib.reliability (drops at scale).

Header sizes are the standards' (IEEE 802.3: MAC 14 + FCS 4, preamble/SFD 8 + IFG 12;
RFC 791 IPv4 20; RFC 768 UDP 8; IBTA: BTH 12, ICRC 4, LRH 8, VCRC 2). Drop statistics are
checked against closed forms: no drops -> no slowdown; one GPU -> E[max] = m p; P(some
drop) = 1 - (1-p)^(m n); the exact and Monte-Carlo maxima agree.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interlib import packets as P
from interlib import reliability as R
from interlib.units import GB_per_s, us


def test_rocev2_header_stack_by_hand():
    r = P.packet_layout(4096)
    assert r.frame == 4096 + 14 + 20 + 8 + 12 + 4 + 4
    assert r.wire == r.frame + 8 + 12
    assert r.efficiency == pytest.approx(4096 / 4178)
    assert P.packet_layout(4096, ipv6=True).wire == 4178 + 20
    assert P.packet_layout(4096, reth=True).wire == 4178 + 16
    assert P.packet_layout(1000, wire_framing=False).wire == 1062


def test_native_ib_header_stack_by_hand():
    ib = P.packet_layout(4096, "infiniband")
    assert ib.wire == 4096 + 8 + 12 + 4 + 2


def test_roce_needs_ethernet_mtu_above_payload():
    # IP packet = IPv4 + UDP + BTH + payload + ICRC; must fit the Ethernet MTU
    r = P.packet_layout(4096)
    ip_packet = r.frame - 14 - 4
    assert ip_packet == 4140 > 4096


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 8999))
def test_efficiency_monotone_and_below_one(p):
    assert P.payload_efficiency(p) < P.payload_efficiency(p + 1) < 1
    assert P.payload_efficiency(p, "infiniband") > P.payload_efficiency(p, "rocev2")


def test_goodput_loss_by_hand():
    """RoCEv2/IPv4 costs 82 wire bytes per packet (14 + 20 + 8 + 12 + 4 + 4 + 20): on 400 GbE
    a 1024-byte MTU keeps 1024/1106 of 50 GB/s, a 4096-byte one 4096/4178."""
    link = 50 * GB_per_s
    expected = link * (4096 / 4178 - 1024 / 1106)
    assert P.goodput_loss(link, 1024) == pytest.approx(expected)
    assert P.goodput_loss(link, 4096, 1024) == pytest.approx(-expected)
    assert P.goodput_loss(link, 4096) == 0.0


def test_goodput_scales_link_rate():
    assert P.goodput(50 * GB_per_s, 4096) == pytest.approx(50 * GB_per_s * 4096 / 4178)
    assert len(P.header_table().rows) == len(P.IB_MTUS)


def test_no_drops_no_slowdown():
    s = R.step_time_with_drops(16384, 0.0, 10**6, 0.1, 1e-3)
    assert s.mean_slowdown == 1.0 and s.p99_slowdown == 1.0
    assert s.mc_mean_step == pytest.approx(0.1, rel=1e-12)
    assert s.p_step_hit == 0.0


def test_zero_penalty_no_slowdown():
    s = R.step_time_with_drops(1024, 1e-4, 10**5, 0.1, 0.0)
    assert s.mean_slowdown == 1.0


@pytest.mark.parametrize("m, p", [(1000, 1e-3), (10**5, 1e-6), (50, 0.2)])
def test_one_gpu_expected_max_is_binomial_mean(m, p):
    assert R.expected_max_drops(1, p, m) == pytest.approx(m * p, rel=1e-9)


def test_two_gpus_bernoulli_max_by_hand():
    # one packet each: max is 1 unless both survive -> E = 1 - (1-p)^2
    p = 0.3
    assert R.expected_max_drops(2, p, 1) == pytest.approx(1 - (1 - p) ** 2)


def test_probability_some_gpu_hit():
    s = R.step_time_with_drops(1000, 1e-7, 10**5, 0.1, 1e-3)
    assert s.p_step_hit == pytest.approx(1 - (1 - 1e-7) ** (10**5 * 1000))


@pytest.mark.parametrize("n", [1, 8, 64])
def test_inversion_sampler_matches_per_gpu_draws(n):
    m, p = 20_000, 1e-4
    a = R.sample_max_drops(n, p, m, 20_000, seed=1)
    b = R.sample_max_drops(n, p, m, 20_000 if n < 64 else 5000, seed=2, per_gpu=True)
    exact = R.expected_max_drops(n, p, m)
    assert a.mean() == pytest.approx(exact, abs=0.05)
    assert b.mean() == pytest.approx(exact, abs=0.08)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5000), st.floats(1e-9, 1e-3))
def test_more_gpus_never_faster(n, p):
    m = 10_000
    assert R.expected_max_drops(n + 1, p, m) >= R.expected_max_drops(n, p, m) - 1e-9
    assert R.max_drop_quantile(n, p, m) <= R.max_drop_quantile(n * 4, p, m)


def test_retransmit_timeout_formula():
    assert R.retransmit_timeout(0) == pytest.approx(4.096 * us)
    assert R.retransmit_timeout(10) == pytest.approx(4.096 * us * 1024)


def test_packets_for():
    assert R.packets_for(4096, 4096) == 1 and R.packets_for(4097, 4096) == 2
    assert list(R.packets_for(np.array([0, 8192]), 4096)) == [0, 2]


@pytest.mark.parametrize("call, name", [
    (lambda: P.packet_layout(-1), "^payload="),
    (lambda: P.packet_layout(100, "ethernet"), "^transport="),
    (lambda: P.payload_efficiency(0), "^payload="),
    (lambda: P.goodput(0, 4096), "^link_rate="),
    (lambda: P.goodput_loss(0, 1024), "^link_rate="),
    (lambda: P.goodput_loss(1e9, 1024, 0), "^reference="),
    (lambda: P.goodput_loss(1e9, 1024, 10_000), "^reference="),
    (lambda: P.goodput_loss(1e9, 1024, [4096, 2048]), "^reference="),
    (lambda: P.goodput_loss(1e9, 0), "^payload="),
    (lambda: R.expected_max_drops(0, 1e-3, 10), "^n_gpus="),
    (lambda: R.expected_max_drops(2, 1.0, 10), "^drop_rate="),
    (lambda: R.expected_max_drops(2, 1e-3, 0), "^packets="),
    (lambda: R.step_time_with_drops(2, 1e-3, 10, 0.0, 1.0), "^base_s="),
    (lambda: R.step_time_with_drops(2, 1e-3, 10, 1.0, -1.0), "^penalty_s="),
    (lambda: R.sample_max_drops(10**6, 1e-3, 10, 100, per_gpu=True), "^samples="),
    (lambda: R.retransmit_timeout(40), "^exponent="),
    (lambda: R.max_drop_quantile(4, 1e-3, 10, 1.0), "^q="),
    (lambda: R.packets_for(-1), "^size_bytes="),
    (lambda: R.expected_max_drops(1.5, 1e-3, 10), "^n_gpus="),
    (lambda: R.expected_max_drops([2, 2.5], 1e-3, 10), "^n_gpus="),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_header_sizes_are_the_standards_values():
    """IEEE 802.3 (MAC 6+6+2, FCS 4, preamble+SFD 8 + IPG 12), RFC 791 (IPv4 20),
    RFC 8200 (IPv6 40), RFC 768 (UDP 8), IBTA (BTH 12, ICRC 4, LRH 8, VCRC 2, GRH 40,
    RETH 16); each catalogue entry carries a source."""
    from interlib import specs
    expected = {"ethernet_mac": 6 + 6 + 2, "ethernet_fcs": 4, "ethernet_preamble_ifg": 8 + 12,
                "ipv4": 20, "ipv6": 40, "udp": 8, "ib_bth": 12, "ib_icrc": 4, "ib_lrh": 8,
                "ib_vcrc": 2, "ib_grh": 40, "ib_reth": 16}
    assert P.HEADERS == expected
    for name, spec in specs.PACKET_HEADERS.items():
        assert spec.unit == "B" and spec.source.url.startswith("https://"), name
    assert "14" in P.header_table().caption and "RFC 768" in P.header_table().caption


def test_gpus_for_hit_probability_by_hand():
    """1 - (1-p)^(mN) > 1/2  <=>  N > ln 2 / (m (-ln(1-p))); with p = 1e-9 and
    m = 244,141 packets (1 GB in 4 KiB packets): ln 2 / (2.44141e-4) = 2839.1 -> 2840."""
    import math
    m = R.packets_for(1e9, 4096)
    n = R.gpus_for_hit_probability(1e-9, m)
    assert n == math.floor(math.log(2) / (m * 1e-9)) + 1
    assert R.step_time_with_drops(n, 1e-9, m, 1.0, 0.0).p_step_hit > 0.5
    assert R.step_time_with_drops(n - 1, 1e-9, m, 1.0, 0.0).p_step_hit <= 0.5
    with pytest.raises(ValueError, match="^target="):
        R.gpus_for_hit_probability(1e-9, m, 1.0)
    with pytest.raises(ValueError, match="^drop_rate="):
        R.gpus_for_hit_probability(0.0, m)


# ------------------------------------------------- argument sweep: flags, whole payloads
@pytest.mark.parametrize("call, param", [
    (lambda: P.packet_layout(4096, ipv6="yes"), "^ipv6='yes'"),
    (lambda: P.packet_layout(4096, reth=None), "^reth=None"),
    (lambda: P.packet_layout(4096, wire_framing=2), "^wire_framing=2"),
    (lambda: P.payload_efficiency(4096, ipv6=None), "^ipv6=None"),
    (lambda: P.payload_efficiency(2.5), "^payload=2.5"),
    (lambda: P.goodput(5e10, np.array([1024, 1024.5])), "^payload=1024.5"),
    (lambda: P.goodput_loss(5e10, 1024, reference=2.5), "^reference=2.5"),
    (lambda: P.header_table(None), "^payloads=None"),
    (lambda: P.header_table(5), "^payloads=5"),
    (lambda: P.header_table([]), "^payloads="),
    (lambda: P.header_table(("x",)), "^payloads='x'"),
    (lambda: R.sample_max_drops(8, 1e-6, 1000, 10, per_gpu="yes"), "^per_gpu='yes'"),
    (lambda: R.sample_max_drops(8, 1e-6, 1000, 10, per_gpu=None), "^per_gpu=None"),
])
def test_bad_input_sweep_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


@pytest.mark.parametrize("gen,data", [("HDR", 50), ("NDR", 100)])
def test_hdr_ndr_lane_coding_is_257b_transcoding_plus_rs544(gen, data):
    """HDR/NDR lane signalling = data x 257/256 (transcoding) x 544/514 (RS FEC) exactly,
    so only 16/17 of the signalled bits carry data; plain 64b/66b would leave 64/66."""
    from interlib import specs
    g = specs.infiniband(gen)
    assert g.lane_signalling.value == pytest.approx(data * 1e9 / 8 * 257 / 256 * 544 / 514)
    assert g.coding_efficiency == pytest.approx(16 / 17)
    assert g.coding_efficiency != pytest.approx(64 / 66, rel=1e-3)
    assert "256b/257b" in g.encoding and "RS(544,514)" in g.encoding


# ------------------------------------------------------- mutation survivors (issue 38)
def test_header_table_by_hand():
    """RoCEv2 (IPv4): MAC 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 = 62 B a frame,
    + 20 B preamble/SFD/gap on the wire = 82 B per packet; native InfiniBand: LRH 8 + BTH 12
    + ICRC 4 + VCRC 2 = 26 B (IEEE 802.3, RFC 791, RFC 768, IBTA). Efficiency = payload /
    (payload + overhead), e.g. 256 / 338 = 75.74 %, 4096 / 4122 = 99.37 %."""
    t = P.header_table()
    assert t.columns == ["RDMA MTU (payload)", "RoCEv2 overhead", "RoCEv2 wire bytes",
                         "RoCEv2 efficiency", "IB overhead", "IB efficiency"]
    assert t.rows == [
        ["256 B", "82 B", "338 B", "75.74 %", "26 B", "90.78 %"],
        ["512 B", "82 B", "594 B", "86.20 %", "26 B", "95.17 %"],
        ["1024 B", "82 B", "1106 B", "92.59 %", "26 B", "97.52 %"],
        ["2048 B", "82 B", "2130 B", "96.15 %", "26 B", "98.75 %"],
        ["4096 B", "82 B", "4178 B", "98.04 %", "26 B", "99.37 %"],
    ]
    assert t.caption == (
        "RoCEv2: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4, plus 20 B "
        "preamble/gap on the wire. InfiniBand: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 "
        "(specs.PACKET_HEADERS; sources: IEEE 802.3 Ethernet; InfiniBand Trade Association; "
        "RFC 768; RFC 791).")
    one = P.header_table([9000])
    assert one.rows == [["9000 B", "82 B", "9082 B", f"{100 * 9000 / 9082:.2f} %", "26 B",
                         f"{100 * 9000 / 9026:.2f} %"]]
    for bad in (9001, -1, 2.5):
        with pytest.raises(ValueError, match=f"^payloads={bad!r} "):
            P.header_table([4096, bad])


def test_layout_table_lists_a_rocev2_packet_by_hand():
    t = P.layout_table()
    assert t.columns == ["field", "bytes"]
    assert t.rows == [["Ethernet MAC", "14 B"], ["IPv4", "20 B"], ["UDP", "8 B"],
                      ["IB BTH", "12 B"], ["payload", "4096 B"], ["IB ICRC", "4 B"],
                      ["Ethernet FCS", "4 B"], ["preamble + SFD + inter-frame gap", "20 B"],
                      ["total on the wire", "4178 B"]]
    assert t.caption == "A RoCEv2 packet carrying 4096 B of RDMA payload (IPv4, no RETH)."
    small = P.layout_table(256)
    assert small.rows[4] == ["payload", "256 B"] and small.rows[-1] == ["total on the wire",
                                                                       "338 B"]
    assert "256 B of RDMA payload" in small.caption


def test_drop_stats_slowdowns_by_hand():
    # one GPU, one packet, drops with probability 1/2, 1 s lost per drop, 2 s drop-free:
    # E[max drops] = 0.5 -> 2.5 s (x1.25); the 99th percentile has the drop -> 3 s (x1.5)
    s = R.step_time_with_drops(1, 0.5, 1, 2.0, 1.0, samples=4000)
    assert (s.mean_step, s.p99_step, s.base_s) == (2.5, 3.0, 2.0)
    assert (s.mean_slowdown, s.p99_slowdown) == (1.25, 1.5)
    assert s.mc_mean_slowdown == s.mc_mean_step / 2.0
    assert s.mc_mean_slowdown == pytest.approx(1.25, abs=0.02)       # 4,000 coin flips
    assert s.mc_p99_slowdown == s.mc_p99_step / 2.0 == 1.5
    assert s.p_step_hit == 0.5 and s.samples == 4000


def test_drop_step_setup_is_1_gb_over_400_gbe():
    # 1 GB in 4,096-byte payloads: ceil(1e9 / 4096) = 244,141 packets; 1e9 B / 50e9 B/s
    assert R.drop_step_setup() == (244141, 0.02)


def test_figures_2026_quote_the_catalogue_entries():
    # NCCL release tags (RAS 2.24.3, ncclCommShrink 2.27.3, IB port failover 2.29.7 on
    # 2026-02-27, off by default); Quantum-X Photonics: 144 ports, announced 2025-03-18
    assert R.figures_2026() == {
        "ras_release": "NCCL 2.24.3", "shrink_release": "NCCL 2.27.3",
        "failover_release": "NCCL 2.29.7", "failover_date": "2026-02-27",
        "failover_default": "off", "cpo_ib_status": "announced (2025-03-18)",
        "cpo_eth_status": "announced (2025-03-18)", "cpo_ib_ports": "144"}


def test_packets_for_default_payload_types_and_range():
    # 4,096-byte payloads by default: 4,096 B is one packet, 4,097 B two
    assert R.packets_for(4096) == 1 and R.packets_for(4097) == 2
    assert isinstance(R.packets_for(4097), int)
    a = R.packets_for(np.array([1.0, 8193.0]))
    assert a.dtype.kind == "i" and a.tolist() == [1, 3]
    assert R.packets_for(10, 1) == 10 and R.packets_for(9001, 9000) == 2
    for bad in (0, 9001):
        with pytest.raises(ValueError, match=f"^payload={bad} "):
            R.packets_for(4096, bad)


def test_header_table_accepts_an_empty_payload():
    # a packet of headers only: all 82 (RoCEv2) or 26 (IB) bytes are overhead, 0 % payload
    assert P.header_table([0]).rows == [["0 B", "82 B", "82 B", "0.00 %", "26 B", "0.00 %"]]
