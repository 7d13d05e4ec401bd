"""Tests for interlib.topology: fat-tree, dragonfly and torus counts.

Expected values come from the papers' closed forms (Al-Fares et al. SIGCOMM 2008:
k^3/4 hosts and 5k^2/4 switches; Kim et al. ISCA 2008: a p (a h + 1) hosts), from the DGX
H100 SuperPOD reference design as described in facts.md section 1.7 (8 leaves per
256-GPU scalable unit, 16 spines for 4 SUs, 64-port NDR switches), and from hand counts.
"""

import math

import pytest
from hypothesis import given, settings, strategies as st

from interlib import topology as T
from interlib.units import GB_per_s, Gbit_per_s


@pytest.mark.parametrize("k", [4, 8, 16, 24, 48, 64])
def test_k_ary_fat_tree_matches_al_fares(k):
    ft = T.k_ary_fat_tree(k)
    assert ft.hosts == k**3 // 4
    assert ft.switches == 5 * k**2 // 4
    assert ft.switches_per_tier == (k**2 // 2, k**2 // 2, k**2 // 4)
    # every host link and every switch-to-switch link: hosts + 2 x hosts (edge-agg, agg-core)
    assert ft.cables == 3 * ft.hosts
    assert ft.bisection_ratio == 1.0
    assert ft.max_hops == 5


def test_superpod_four_scalable_units():
    # 4 SUs x 32 nodes x 8 GPUs, one NDR port per GPU, 64-port switches:
    # 8 leaves per SU (32 in all) and 16 spines (facts.md 1.7, scaling book / NVIDIA RA).
    ft = T.fat_tree(4 * 32 * 8, 64)
    assert ft.tiers == 2
    assert ft.switches_per_tier == (32, 16)
    assert ft.host_cables == 1024 and ft.switch_cables == 1024
    # full bisection: 512 links x 400 Gb/s per direction
    assert ft.bisection_per_direction == pytest.approx(512 * 400 * Gbit_per_s)
    one_su = T.fat_tree(256, 64)
    assert one_su.switches_per_tier[0] == 8


def test_single_switch_and_leaf_spine_limits():
    assert T.fat_tree(64, 64).tiers == 1
    assert T.fat_tree(65, 64).tiers == 2
    assert T.fat_tree(64 * 32, 64).tiers == 2      # k^2/2 = 2048 hosts in two tiers
    assert T.fat_tree(64 * 32 + 1, 64).tiers == 3
    assert T.max_hosts(64, 3) == 64**3 // 4


def test_oversubscription_taper():
    # 3:1 on a 64-port leaf: 48 down, 16 up; bisection is a third of full
    ft = T.fat_tree(48 * 16, 64, oversubscription=3)
    assert (ft.leaf_down, ft.leaf_up) == (48, 16)
    assert ft.oversubscription == 3.0
    assert ft.bisection_ratio == pytest.approx(1 / 3)
    # fewer switches than the non-blocking build for the same hosts
    assert ft.switches < T.fat_tree(48 * 16, 64).switches


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 200_000), st.sampled_from([8, 16, 32, 48, 64, 128]),
       st.sampled_from([1.0, 2.0, 3.0, 7.0]))
def test_fat_tree_invariants(hosts, radix, r):
    if hosts > T.max_hosts(radix, 5, r):
        with pytest.raises(ValueError, match="^hosts="):
            T.fat_tree(hosts, radix, r)
        return
    ft = T.fat_tree(hosts, radix, r)
    assert ft.hosts <= ft.max_hosts
    assert ft.cables == ft.hosts + ft.switch_cables
    assert ft.switches == sum(ft.switches_per_tier)
    # enough leaf ports for every host, enough top ports for every link below
    assert ft.switches_per_tier[0] * max(ft.leaf_down, 1) >= hosts or ft.tiers == 1
    assert 0 < ft.bisection_ratio <= 1.0 + 1e-12 or hosts == 1
    assert ft.max_hops == 2 * ft.tiers - 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 50_000), st.sampled_from([16, 32, 64]))
def test_more_hosts_never_fewer_switches(hosts, radix):
    assert T.fat_tree(hosts + 1, radix).switches >= T.fat_tree(hosts, radix).switches


def test_dragonfly_counts():
    d = T.dragonfly(4, 8, 4)
    assert d.groups == 8 * 4 + 1
    assert d.hosts == 8 * 4 * 33
    assert d.radix == 4 + 7 + 4
    assert d.local_cables == 33 * 8 * 7 // 2
    assert d.global_cables == 33 * 32 // 2       # one link per pair of groups
    assert d.bisection_links == 16 * 17
    b = T.balanced_dragonfly(64)
    assert b.a == 2 * b.p == 2 * b.h
    assert b.radix <= 64


def test_torus_counts():
    t = T.torus((8, 8, 8))
    assert t.hosts == 512 and t.switches == 0
    assert t.cables == 3 * 512            # 6 links per node, each shared by two nodes
    assert t.bisection_links == 2 * 512 // 8
    assert t.max_hops == 12
    assert t.mean_hops == pytest.approx(3 * 16 / 8)   # ring of 8: mean distance 2
    assert T.torus((2, 2)).cables == 4
    c = T.cube_torus(1000)
    assert c.hosts >= 1000 and c.dims == (10, 10, 10)


def test_link_rate_units():
    ft = T.fat_tree(16, 8, link_rate=100 * GB_per_s)
    assert ft.full_bisection_per_direction == pytest.approx(8 * 100 * GB_per_s)
    assert T.fat_tree(16, 8).link_rate == pytest.approx(50 * GB_per_s)   # NDR 400 Gb/s


@pytest.mark.parametrize("call, name", [
    (lambda: T.fat_tree(0, 64), "^hosts="),
    (lambda: T.fat_tree(10, 63), "^radix="),
    (lambda: T.fat_tree(10, 64, 0.5), "^oversubscription="),
    (lambda: T.fat_tree(10, 64, link_rate=-1), "^link_rate="),
    (lambda: T.fat_tree(5000, 64, tiers=2), "^hosts="),
    (lambda: T.k_ary_fat_tree(5), "^k="),
    (lambda: T.dragonfly(0, 4, 2), "^p="),
    (lambda: T.dragonfly(2, 4, 2, groups=100), "^groups="),
    (lambda: T.torus((8, 0)), r"^dims\[1\]=0"),
    (lambda: T.cube_torus(0), "^hosts="),
    (lambda: T.max_hosts(64, 9), "^tiers="),
    (lambda: T.fat_tree_counts(1.5), "^hosts="),
    (lambda: T.fat_tree_counts([16, 17.5]), "^hosts="),
    (lambda: T.dragonfly(4, 8, 4, spread_global=1), "^spread_global="),
    (lambda: T.dragonfly_for(0, 64), "^hosts="),
    (lambda: T.compare(4096, 63), "^radix="),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 60_000), min_size=1, max_size=20),
       st.sampled_from([16, 32, 64, 128]), st.sampled_from([1.0, 3.0]))
def test_vectorised_counts_match_fat_tree(hosts, radix, r):
    tiers, sw, cab = T.fat_tree_counts(hosts, radix, r)
    for h, t, s, c in zip(hosts, tiers, sw, cab):
        ft = T.fat_tree(h, radix, r)
        assert (ft.tiers, ft.switches, ft.cables) == (t, s, c)


def test_vectorised_counts_by_hand_with_the_default_non_blocking_tree():
    """fat_tree_counts' defaults (64 ports, 1:1) on hand counts, as integer arrays (its
    docstring's contract; the Chapter 5 plot sums them). Two tiers: 2048 hosts on 64 leaves
    of 32 down and 32 up ports, 2048 uplinks onto 2048 / 64 = 32 spines: 96 switches, 2048
    host + 2048 leaf-spine cables. Three tiers: Al-Fares' k-ary fat-tree, k = 64: k^3/4 =
    65,536 hosts, 5k^2/4 = 5,120 switches, 3 x 65,536 cables. One switch holds 64 hosts."""
    tiers, sw, cab = T.fat_tree_counts([64, 2048, 65536])
    assert tiers.tolist() == [1, 2, 3]
    assert sw.tolist() == [1, 96, 5120]
    assert cab.tolist() == [64, 4096, 3 * 65536]
    for a in (tiers, sw, cab):
        assert a.dtype.kind == "i", a.dtype


def test_vectorised_counts_refuse_hosts_beyond_five_tiers_and_take_the_last_that_fits():
    """Five tiers of 64-port switches at 1:1 hold 64 x 32 x 32^3 = 67,108,864 hosts
    (max_hosts: radix x down x (radix/2)^(tiers-2)); one more is refused with a message that
    names the parameter, the count and that cap; zero or negative hosts are refused."""
    cap = 64 * 32 * 32**3
    assert T.fat_tree_counts(cap)[0].tolist() == [5]
    with pytest.raises(ValueError, match=f"^hosts={cap + 1} is out of range: at most {cap} in 5 "):
        T.fat_tree_counts([16, cap + 1])
    for bad in (0, -3, [16, 0]):
        with pytest.raises(ValueError, match="^hosts="):
            T.fat_tree_counts(bad)


def test_dragonfly_for_by_hand():
    """Balanced dragonfly of 64-port routers (Kim et al. 2008: a = 2p = 2h):
    p = h = floor(65/4) = 16, a = 32, 63 ports used; 4096 hosts need ceil(4096/512) = 8
    groups; every group's a h = 512 global ports spread over the 7 other groups:
    floor(512/7) = 73 links per pair, 28 pairs."""
    d = T.dragonfly_for(4096, 64)
    assert (d.p, d.a, d.h, d.radix, d.groups) == (16, 32, 16, 63, 8)
    assert d.switches == 8 * 32 and d.hosts == 4096
    assert d.links_per_group_pair == 73
    assert d.global_cables == 28 * 73
    assert d.local_cables == 8 * 32 * 31 // 2
    assert d.bisection_links == 4 * 4 * 73
    assert d.max_links == 5 and d.max_hops == 3
    assert T.dragonfly_for(10**6, 16) is None      # radix 16: at most 8*4*33 hosts
    # with a h + 1 groups spreading changes nothing: one link per pair
    assert T.dragonfly(4, 8, 4, spread_global=True) == T.dragonfly(4, 8, 4)


def test_compare_uses_one_radix_and_comparable_paths():
    c = T.compare(4096, 64)
    assert set(c) == set(T.TOPOLOGIES)
    assert c["fat-tree"].radix == 64 and c["dragonfly"].radix <= 64
    # links host to host: up and down the fat-tree's tiers; the torus diameter
    assert c["fat-tree"].max_links == 2 * c["fat-tree"].tiers
    assert c["3D torus"].max_links == sum(d // 2 for d in c["3D torus"].dims)
    assert c["3D torus"].switches == 0


# ------------------------------------------------- Meta's RoCE cluster (Llama 3, 3.3.1)
def test_meta_pod_layout_adds_up():
    """Llama 3 section 3.3.1: 16 GPUs per rack, 192 racks per 3,072-GPU pod, eight pods
    make the 24K-GPU cluster (24,576 in Meta's blog); the taper sits above the pods."""
    from interlib.specs import studies as St
    assert St.META_RACK_GPUS.value * St.META_POD_RACKS.value == St.META_POD_GPUS.value == 3072
    assert St.META_PODS.value * St.META_POD_GPUS.value == St.META_CLUSTER_GPUS.value
    assert St.meta_pod_servers() == 3072 // 8
    assert St.meta_pod_servers(16) == 192
    for spec in (St.META_POD_GPUS, St.META_PODS, St.META_AGG_OVERSUBSCRIPTION,
                 St.META_FLOWS_PER_GPU_PAIR):
        assert "3.3.1" in spec.source.title, spec
        assert spec.source.key == "llama3"
    assert St.META_EECMP_ALLREDUCE_GAIN.source.key == "gangidi2024"


def test_meta_pod_is_a_non_blocking_fat_tree_far_larger_than_a_superpod_su():
    """A 3,072-GPU pod of 64-port switches is two tiers deep at 1:1, and is 12 times the
    256-GPU scalable unit under which Chapter 7's default puts the taper."""
    from interlib.specs import studies as St
    pod = T.fat_tree(int(St.META_POD_GPUS.value), 64)
    assert pod.bisection_ratio == pytest.approx(1.0)
    assert St.META_POD_GPUS.value / 256 == 12


@pytest.mark.parametrize("g", [0, 2.5, 10**6])
def test_meta_pod_servers_bad_input(g):
    from interlib.specs import studies as St
    with pytest.raises(ValueError, match="^gpus_per_server="):
        St.meta_pod_servers(g)


def test_llama3_dp_group_spans_more_than_one_meta_pod():
    """TP 8 x PP 16 x DP 128 on 8-GPU servers: a DP group touches all 2,048 servers, more
    than the 384 servers of one non-blocking pod, so it crosses the 1:7 aggregation layer
    whether the taper sits above 32-server leaf groups or above Meta's pods."""
    from interlib.specs import studies as St
    assert St.llama3_dp_span_servers() == 16384 // 8
    assert St.llama3_dp_span_servers() > St.meta_pod_servers() > 32
    assert St.llama3_dp_span_servers(16) == 128 * 8
    with pytest.raises(ValueError, match="^gpus_per_server=0"):
        St.llama3_dp_span_servers(0)


# ------------------------------------------------- every field of small builds, by hand
def test_fat_tree_every_field_by_hand():
    R = 50e9   # one NDR 4x port, 400 Gb/s
    # one 64-port switch for 10 hosts: 10 cables, 5 links across the middle
    assert T.fat_tree(10, 64) == T.FatTree(10, 64, 1, (1,), 1, 10, 0, 10, 10, 0, 1.0, 5,
                                           5 * R, 5 * R, 1, 64, R)
    # 1,000 hosts, 3:1 leaves of 48 down + 16 up: ceil(1000 / 48) = 21 leaves, 336
    # uplinks, ceil(336 / 64) = 6 spines; 336 / 2 = 168 links across the middle of
    # 500 wanted; at most 64 x 48 = 3,072 hosts on two tiers
    assert T.fat_tree(1000, 64, 3.0) == T.FatTree(
        1000, 64, 2, (21, 6), 27, 1000, 336, 1336, 48, 16, 3.0, 168, 168 * R, 500 * R, 3,
        3072, R)
    # 3,000 hosts of 32-port switches: two tiers hold 32 x 16 = 512, three 8,192;
    # 188 leaves (3,008 uplinks), 188 middle switches, ceil(3008 / 32) = 94 at the top
    ft = T.fat_tree(3000, 32)
    assert (ft.tiers, ft.switches_per_tier, ft.switches, ft.switch_cables, ft.cables) == \
        (3, (188, 188, 94), 470, 6016, 9016)
    assert (ft.bisection_links, ft.max_hops, ft.max_links, ft.max_hosts) == \
        (1500, 5, 6, 8192)
    # forcing a fourth tier adds a tier of 94 more switches: ceil(3008 / 16) = 188 in the
    # third and ceil(3008 / 32) = 94 on top
    assert T.fat_tree(3000, 32, tiers=4).switches_per_tier == (188, 188, 188, 94)
    assert T.fat_tree(10, 64, link_rate=1e9).bisection_per_direction == 5e9


def test_dragonfly_every_field_by_hand():
    R = 50e9
    # p = 4, a = 8, h = 4: 33 groups of 8 routers of 4 + 7 + 4 = 15 ports; 1,056 hosts;
    # local links 33 x 8 x 7 / 2 = 924; global 33 x 8 x 4 / 2 = 528; 16 x 17 group
    # pairs across the middle, one link each
    assert T.dragonfly(4, 8, 4) == T.Dragonfly(4, 8, 4, 33, 15, 1056, 264, 924, 528, 2508,
                                               272, 272 * R, 528 * R, 3, R, 1)
    # 9 groups: 36 pairs; one link each, or every port used: 32 // 8 = 4 per pair
    one = T.dragonfly(4, 8, 4, groups=9)
    spread = T.dragonfly(4, 8, 4, groups=9, spread_global=True)
    assert (one.global_cables, one.bisection_links, one.links_per_group_pair) == (36, 20, 1)
    assert (spread.global_cables, spread.bisection_links, spread.links_per_group_pair) == \
        (144, 80, 4)
    assert (spread.hosts, spread.local_cables) == (288, 252)
    assert T.dragonfly(4, 8, 4).max_links == 5 and T.dragonfly(1, 1, 1).max_links == 3
    # the largest balanced dragonfly of 64-port routers: p = h = 16, a = 32, 513 groups
    b = T.balanced_dragonfly(64)
    assert (b.p, b.a, b.h, b.groups, b.hosts) == (16, 32, 16, 513, 262_656)
    assert T.dragonfly_for(10_000_000, 64) is None
    assert T.dragonfly_for(1, 64).groups == 2


def test_torus_every_field_by_hand():
    R = 50e9
    # 2 x 3 x 1: 6 nodes; size 2 gives 1 link per line (3 lines), size 3 a ring of 3
    # (2 lines: 6 links), size 1 none: 9 cables, 1 + 2 neighbour links per node; halving
    # the 3-ring cuts 2 links on each of its 2 lines: 4; diameter 1 + 1; mean hops
    # 1 x 1 / 2 + 1 x 2 / 3
    assert T.torus((2, 3, 1)) == T.Torus((2, 3, 1), 6, 0, 3, 9, 4, 4 * R, 3 * R, 2,
                                         0.5 + 2 / 3, R)
    assert T.torus((2, 2)).bisection_links == 2          # size 2: one link per line
    assert T.torus((1,)).bisection_links == 0 and T.torus((1,)).cables == 0
    five = T.torus(5)                                     # a scalar is one dimension
    assert (five.dims, five.cables, five.bisection_links, five.max_hops) == ((5,), 5, 2, 2)
    assert five.mean_hops == pytest.approx(2 * 3 / 5) and five.max_links == 2
    # the most cube-like 3D torus: 10^3 for 1,000; 900 fits 10 x 10 x 9; 1 is 1 x 1 x 1
    assert T.cube_torus(1000).dims == (10, 10, 10)
    assert T.cube_torus(900).dims == (10, 10, 9)
    assert T.cube_torus(1).dims == (1, 1, 1)
