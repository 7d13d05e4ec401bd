"""The collective model at scale (issue 15): invariants that hold in reality, the mechanisms
taken from NCCL's source, and the reader's own node.

Expected values come from NCCL's source (constants quoted in the comments), from published
measurements (cited) or from derivations shown here, never from the model's own output.
"""

import ast
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interlib import capstone, collectives as co, specs, steptime
from interlib.specs import calibration as C, custom
from interlib.units import GB_per_s, GiB, KiB, MiB, us

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=40, deadline=None)
NCCL_ALGS = ("ring", "tree", "nvls")


# ------------------------------------------------------------------- invariants
@SETTINGS
@given(system=st.sampled_from(["dgx-h100", "dgx-a100", "dgx-b200", "gb200-nvl72"]),
       exp=st.integers(20, 34), k=st.integers(2, 63))
def test_adding_nodes_never_speeds_up_a_fixed_size_all_reduce(system, exp, k):
    # one more node adds work and hops: the time never falls, so algbw never grows; a
    # ring's busbw (its per-link rate) never grows either
    g = specs.system(system).gpus_per_node
    for alg in ("fastest", "ring", "tree") + (("nvls",) if system != "dgx-a100" else ()):
        a = co.predict("all_reduce", 2.0**exp, system, g, k, alg)
        b = co.predict("all_reduce", 2.0**exp, system, g, k + 1, alg)
        assert b.time_s >= a.time_s * (1 - 1e-9), (alg, k)
    ra = co.predict("all_reduce", 2.0**exp, system, g, k, "ring")
    rb = co.predict("all_reduce", 2.0**exp, system, g, k + 1, "ring")
    assert rb.busbw <= ra.busbw * (1 + 1e-9)


@pytest.mark.parametrize("system, g", [
    (s, g) for s in ("dgx-h100", "hgx-h200", "dgx-b200", "gb200-nvl72")
    for g in (5, 6, 8, 72) if g <= specs.system(s).gpus_per_node])
def test_nvls_busbw_stays_below_what_the_switch_can_reduce(system, g):
    # each GPU sends its buffer into the switch once and takes the result plus its 1/g
    # share back: algbw <= eta x B x g/(g+1), i.e. busbw <= 2(g-1)/(g+1) x eta x B
    # (nccl-tests PR #239; eta: NCCL's NVLS efficiency, B: NCCL's effective NVLink rate)
    s = specs.system(system)
    eta = C.NVLS_EFFICIENCY[s.gpu.arch].value
    bound = 2 * (g - 1) / (g + 1) * eta * s.gpu.nvlink.per_gpu_effective
    r = co.predict("all_reduce", 16 * GiB, system, g, 1, "nvls")
    assert r.busbw <= bound * (1 + 1e-9)
    assert r.busbw <= 2 * eta * s.gpu.nvlink.per_gpu_effective


def test_nvls_busbw_does_not_grow_from_8_gpus_to_a_whole_rack():
    # measured: 8 x B200 838.0 GB/s (Bekman, 8 GiB) and one NVL72 rack 834.57 GB/s
    # (CoreWeave, 8 GiB): NVLS busbw is flat from 8 to 72 GPUs, while the link bound
    # 2(g-1)/(g+1) would grow it by 2(71)/73 / (2 x 7/9) = 1.25x
    b8 = co.predict("all_reduce", 8 * GiB, "dgx-b200", 8, 1, "nvls").busbw
    b72 = co.predict("all_reduce", 8 * GiB, "gb200-nvl72", 72, 1, "nvls").busbw
    assert b72 <= 1.05 * b8


@SETTINGS
@given(system=st.sampled_from(list(specs.SYSTEMS)), g=st.integers(1, 8),
       k=st.integers(1, 64), exp=st.integers(10, 34))
def test_fastest_is_never_slower_than_any_forced_algorithm(system, g, k, exp):
    s = specs.system(system)
    g = min(g, s.gpus_per_node)
    best = co.predict("all_reduce", 2.0**exp, system, g, k, "fastest").time_s
    for alg in NCCL_ALGS:
        try:
            forced = co.predict("all_reduce", 2.0**exp, system, g, k, alg).time_s
        except ValueError:
            continue  # not available on this system
        if alg == "nvls" and g < C.NVLS_MIN_GPUS.value:
            continue  # NCCL's nvls.cc leaves NVLS off at 2 GPUs or fewer
        assert best <= forced * (1 + 1e-12), alg


def test_auto_is_what_nccl_picks_not_always_the_fastest():
    # NVIDIA/nccl#1801 (NCCL 2.27.3, GB200, three NVL4 partitions on different racks,
    # NVLS disabled): NCCL's default is ring, yet forcing tree is ~20 % faster at 16 GiB.
    # The model's auto follows NCCL's own estimate; 'fastest' is the best forced choice.
    part = custom.node("gb200", 4, nics_per_gpu=1, nic_gbps=400, nccl_version="2.27.3")
    # the run set NCCL_NVLS_ENABLE=0 (NCCL's own gate would admit NVLS on 4-GPU trays)
    auto = co.predict("all_reduce", 16 * GiB, part, 4, 3, nvls=False)
    fast = co.predict("all_reduce", 16 * GiB, part, 4, 3, "fastest", nvls=False)
    assert auto.algorithm == "ring" and fast.algorithm == "tree"
    assert 1.1 < auto.time_s / fast.time_s < 1.4


def test_auto_uses_nvls_tree_across_racks():
    # NCCL's estimate for NVLSTree (links at full rate) beats its tree (capped at 24 GB/s
    # per channel on Blackwell from 3 nodes, tuning.cc) on twenty NVL72 racks
    r = co.predict("all_reduce", 16 * GiB, "gb200-nvl72", 72, 20)
    assert r.algorithm == "nvls_tree"


# NCCL's names (tuning.cc, v2.29.7): NVLSTree is disabled on one node ("Disable NVLS Tree on
# a single node"), and NVLS across nodes needs CollNet ("a == NCCL_ALGO_NVLS &&
# comm->nNodes > 1" is disabled when collnetEnable == 0). So across nodes the model's
# in-switch all-reduce is NVLSTree, and a prediction must say so.
def test_multi_node_nvls_is_labelled_nvls_tree_and_one_node_nvls():
    # 8 GiB on 16 DGX H100: NVLSTree, as the GTC24 talk quoted in NVIDIA/nccl#1649 reports
    many = co.predict("all_reduce", 8 * GiB, "dgx-h100", 8, 16)
    one = co.predict("all_reduce", 8 * GiB, "dgx-h100", 8, 1)
    assert (many.algorithm, one.algorithm) == ("nvls_tree", "nvls")
    assert co.NCCL_NAMES[many.algorithm] == "NVLSTree" and co.NCCL_NAMES[one.algorithm] == "NVLS"
    sizes = 2.0 ** np.arange(10, 35)
    for k in (2, 4, 64):
        got = set(co.predict("all_reduce", sizes, "dgx-b200", 8, k).algorithm)
        assert "nvls" not in got and "nvls_tree" in got, k
        assert "nvls" not in set(co.nccl_estimate("all_reduce", sizes, "dgx-b200", 8, k).algorithm)


def test_nvls_asked_for_across_nodes_is_timed_and_labelled_as_nvls_tree():
    for sysid, k in (("dgx-h100", 2), ("dgx-b200", 4), ("gb200-nvl72", 3)):
        asked = co.predict("all_reduce", GiB, sysid, None, k, "nvls")
        tree = co.predict("all_reduce", GiB, sysid, None, k, "nvls_tree")
        assert asked.algorithm == tree.algorithm == "nvls_tree"
        assert asked.time_s == tree.time_s
        est = co.nccl_estimate("all_reduce", GiB, sysid, None, k, "nvls")
        assert est.algorithm == "nvls_tree"


def test_nvls_on_one_gpu_per_node_is_refused_with_a_message():
    # NCCL's ncclNvlsInit (nvls.cc) leaves NVLS off with gpuCount <= 2 (v2.18-v2.28.3) or
    # < 2 (from v2.28.7): with one GPU per node never, whatever NCCL_ALGO asks for.
    for alg, k in (("nvls_tree", 2), ("nvls_tree", 4), ("nvls", 4)):
        with pytest.raises(ValueError, match=f"^algorithm='{alg}' is not available: "
                                             "NVLS(Tree)? needs 2 or more GPUs per node") as e:
            co.predict("all_reduce", GiB, "dgx-h100", 1, k, alg)
        # ... and says where NCCL decides it, NCCL's function by its own name
        assert "NVLS off" in str(e.value) and str(e.value).endswith("(ncclNvlsInit, nvls.cc, "
                                                                   "every version)")
    # one GPU alone exchanges nothing, whatever the algorithm
    assert co.predict("all_reduce", GiB, "dgx-h100", 1, 1, "nvls").busbw == 0
    # two GPUs per node may be forced (v2.28.7 allows it; 'auto' needs 3, NVLS_MIN_GPUS)
    assert co.predict("all_reduce", GiB, "dgx-h100", 2, 4, "nvls_tree").algorithm == "nvls_tree"


def test_nvls_tree_on_one_node_is_refused_with_a_message():
    with pytest.raises(ValueError, match="^algorithm='nvls_tree' is not available: NVLSTree"):
        co.predict("all_reduce", GiB, "dgx-h100", 8, 1, "nvls_tree")
    with pytest.raises(ValueError, match="^algorithm='nvls_tree' is not available with nvls=False"):
        co.predict("all_reduce", GiB, "dgx-h100", 8, 2, "nvls_tree", nvls=False)
    with pytest.raises(ValueError, match="^algorithm='nvls_tree' is not available: dgx-a100 has no NVSwitch"):
        co.predict("all_reduce", GiB, "dgx-a100", 8, 2, "nvls_tree")


# Which algorithm each collective may use, and why not (collective_model.choice): the
# model's own scope, stated in predict's docstring and NCCL's rules (tuning.cc, nvls.cc).
_WHY = {
    "tree": "'tree' is modelled for all_reduce only (NCCL uses ring for the rest)",
    "hierarchical": "'hierarchical' is modelled for all_reduce only (NCCL uses ring for "
                    "the rest)",
    "rhd": "'rhd' is defined for all_reduce, all_gather and reduce_scatter",
    "direct": "'direct' (pairwise exchange) is the all_to_all algorithm",
    "a2a": "all_to_all uses algorithm 'direct' (or 'auto')",
    "sharp_coll": "SHARP in-network reduction is modelled for all_reduce only",
    "sharp_one": "SHARP reduces in the network switches: it needs nodes >= 2",
    "nvls_coll": "NVLS (NVLink SHARP) is modelled for all_reduce only",
    "nvls_tree_coll": "NVLSTree (NVLink SHARP) is modelled for all_reduce only",
    "nvls_tree_one": "NVLSTree joins NVLS domains across nodes and NCCL disables it on a "
                     "single node (tuning.cc): use 'nvls' within a node",
    "tree_two": "'tree' is not modelled for 2 GPUs or fewer in one node (use 'ring')",
}


def _expected(coll, alg, k):
    """The reason ``alg`` cannot run ``coll`` on k DGX H100 nodes (None: it can), by the
    rules above, written out case by case."""
    if coll == "all_to_all":
        return None if alg == "direct" else \
            {"tree": _WHY["tree"], "hierarchical": _WHY["hierarchical"], "rhd": _WHY["rhd"],
             "sharp": _WHY["sharp_coll"], "nvls": _WHY["nvls_coll"],
             "nvls_tree": _WHY["nvls_tree_coll"]}.get(alg, _WHY["a2a"])
    if alg == "direct":
        return _WHY["direct"]
    if alg in ("nvls", "nvls_tree") and coll != "all_reduce":
        return _WHY[alg + "_coll"]
    if alg == "sharp" and coll != "all_reduce":
        return _WHY["sharp_coll"]
    if alg in ("tree", "hierarchical") and coll != "all_reduce":
        return _WHY[alg]
    if alg == "rhd" and coll not in ("all_reduce", "all_gather", "reduce_scatter"):
        return _WHY["rhd"]
    if k == 1 and alg == "nvls_tree":
        return _WHY["nvls_tree_one"]
    if k == 1 and alg == "sharp":
        return _WHY["sharp_one"]
    return None


@pytest.mark.parametrize("k", [1, 2])
def test_which_algorithm_may_run_which_collective_and_the_reason_if_not(k):
    """Every named algorithm with every collective on k DGX H100 nodes: it runs, under its
    own name (an 'nvls' across nodes is NVLSTree), with Simple for the algorithms that have
    one protocol (NVLS, NVLSTree, SHARP and the book's rhd, hierarchical and direct: no LL
    or LL128 kernels), or it is refused with its reason."""
    named = [a for a in co.ALGORITHMS if a not in ("auto", "fastest")]
    for coll in co.COLLECTIVES:
        for alg in named:
            why = _expected(coll, alg, k)
            if why is None:
                r = co.predict(coll, [4 * KiB, 1 * GiB], "dgx-h100", 8, k, alg)
                label = "nvls_tree" if alg == "nvls" and k > 1 else alg
                assert set(r.algorithm) == {label}, (coll, alg)
                if alg not in ("ring", "tree"):
                    assert set(r.protocol) == {"Simple"}, (coll, alg)
            else:
                with pytest.raises(ValueError) as e:
                    co.predict(coll, GiB, "dgx-h100", 8, k, alg)
                assert str(e.value) == f"algorithm={alg!r} is not available: {why}", (coll, alg)
    # auto: all-to-all is the pairwise exchange, the other non-all-reduce collectives a ring
    assert set(co.predict("all_to_all", [4 * KiB, GiB], "dgx-h100", 8, k).algorithm) == {"direct"}
    assert set(co.predict("all_gather", [4 * KiB, GiB], "dgx-h100", 8, k).algorithm) == {"ring"}


def test_no_nvls_without_nvswitch_3_and_no_tree_on_two_gpus_of_one_node():
    """NVLS needs NVSwitch 3 or later (in-switch reduction): an A100 node and a PCIe node of
    H100s refuse it. A tree of 2 GPUs in one node is not modelled: forced, it is refused;
    auto never picks it there, while 1 GPU on each of 2 nodes and 3 GPUs in one node may."""
    for node in ("dgx-a100", "h100-pcie-only", custom.node("h100-sxm", 4, intra="pcie")):
        name = node if isinstance(node, str) else node.name
        with pytest.raises(ValueError, match=rf"^algorithm='nvls' is not available: "
                                             rf"{re.escape(name)} has no NVSwitch with "
                                             "in-switch reduction"):
            co.predict("all_reduce", GiB, node, 4, 1, "nvls")
        with pytest.raises(ValueError, match=rf"^system=.* has no NVLS rate: {re.escape(name)} "
                                             "has no NVSwitch"):
            co.nvls_rate(node)
        assert "nvls" not in set(co.predict("all_reduce", [4 * KiB, GiB], node, 4, 1).algorithm), name
    sizes = 2.0 ** np.arange(10, 34)
    for g in (1, 2):
        with pytest.raises(ValueError) as e:
            co.predict("all_reduce", GiB, "dgx-h100", g, 1, "tree")
        assert str(e.value) == "algorithm='tree' is not available: " + _WHY["tree_two"]
        # (on the PCIe node, a 2-GPU tree would otherwise time faster at 8-64 KiB)
        for node in ("dgx-h100", "h100-pcie-only"):
            for alg in ("fastest", "auto"):
                got = set(co.predict("all_reduce", sizes, node, g, 1, alg).algorithm)
                assert "tree" not in got, (node, g, alg)
    assert co.predict("all_reduce", GiB, "dgx-h100", 1, 2, "tree").algorithm == "tree"
    assert co.predict("all_reduce", GiB, "dgx-h100", 3, 1, "tree").algorithm == "tree"


def test_ll128_only_over_nvlink():
    """tuning.cc enables LL128 by default only where the intra-node path is NVLink
    ('pEnable &= (graphs[a]->typeIntra <= PATH_NVB)'): a ring or tree on PCIe nodes
    chooses between LL and Simple, on an NVSwitch node LL128 is among its choices."""
    sizes = 2.0 ** np.arange(10, 34)
    for node in ("h100-pcie-only", custom.node("h100-sxm", 4, intra="pcie")):
        for alg in ("ring", "tree", "fastest", "auto"):
            got = set(co.predict("all_reduce", sizes, node, 4, 1, alg).protocol)
            assert "LL128" not in got and got <= {"LL", "Simple"}, (alg, got)
    assert "LL128" in set(co.predict("all_reduce", sizes, "dgx-h100", 8, 1, "ring").protocol)


@pytest.mark.parametrize("kwargs, msg", [
    (dict(nvls="yes"), r"^nvls='yes'"),
    (dict(system=42), r"^system=42 must be a catalogue id \(interlib.specs.SYSTEMS\), a "
                      r"specs.System or a node from interlib.specs.custom.node\(\)$"),
    (dict(nodes=100_001), r"^nodes=100001 is out of range: must be between 1 and 100000$"),
    (dict(nvls=False, algorithm="nvls"),
     r"^algorithm='nvls' is not available with nvls=False \(NCCL_NVLS_ENABLE=0\): choose "
     r"another algorithm or nvls=True$"),
])
def test_predict_and_nccl_estimate_refuse_with_the_parameter_named(kwargs, msg):
    args = dict(collective="all_reduce", size_bytes=MiB, system="dgx-h100",
                gpus_per_node=8, nodes=2) | kwargs
    for f in (co.predict, co.nccl_estimate):
        with pytest.raises(ValueError, match=msg):
            f(**args)
    # the largest node count is accepted
    assert co.predict("all_reduce", MiB, "dgx-h100", 8, 100_000).n == 800_000


def test_integer_sizes_are_timed_as_floats():
    """A size given as a Python or numpy integer is the same size: one GPU costs exactly the
    launch overhead (nothing to exchange), not a time truncated to a whole second."""
    one = co.predict("all_reduce", 1024, "dgx-h100", 1, 1).time_s
    assert one == C.LAUNCH_OVERHEAD.value > 0
    ints = co.predict("all_reduce", np.array([1024, 2**30]), "dgx-h100", 8, 2)
    floats = co.predict("all_reduce", np.array([1024.0, 2.0**30]), "dgx-h100", 8, 2)
    assert ints.time_s.tolist() == floats.time_s.tolist()
    assert co.predict("all_reduce", np.array([1024]), "dgx-h100", 1, 1).time_s.tolist() == [one]


# ------------------------------------------------------------- NCCL's mechanisms
def test_nvls_tree_halves_its_chunk_from_four_nodes():
    # NCCL v2.26.2 enqueue.cc: NVLSTree maxChunkSize = nNodes >= 4 ? 65536 : chunkSize
    # (128 KiB); in a rack-scale domain NVLS runs at chunk pace, so its rate halves
    two = co.nvls_rate("gb200-nvl72", 72, 2)
    four = co.nvls_rate("gb200-nvl72", 72, 4)
    assert four == pytest.approx(two * (64 * KiB) / (128 * KiB))


def test_nvls_channels_by_release_and_shape():
    # nvls.cc: NCCL_NVLS_NCHANNELS default 16 for every GPU before 2.25.1 (v2.18.1-1 line
    # 231); from 2.25.1 NVLS_NCHANNELS_SM90 16 / NVLS_NCHANNELS_SM100 32 (lines 144-145);
    # from 2.27.3 NVLS_NCHANNELS_SM100_NVL 24 inside one NVLink domain (line 149, review
    # R7); from 2.30.3 the multi-node SM100 rule (lines 166-185)
    from interlib.specs import nccl_tuning as T
    from interlib.collective_model.links import nvls_channels

    bw = "Blackwell"
    assert T.nvls_channels("Hopper", 1, 8, 50, "2.20.3") == 16
    assert T.nvls_channels(bw, 1, 72, 50, "2.24.3") == 16
    assert T.nvls_channels(bw, 1, 72, 50, "2.26.2") == 32
    assert T.nvls_channels(bw, 1, 72, 50, "2.27.3") == 24     # one NVL72 rack
    assert T.nvls_channels(bw, 2, 72, 50, "2.27.3") == 32     # two racks
    assert T.nvls_channels(bw, 1, 8, 50, "2.30.7") == 24      # one DGX B200
    assert T.nvls_channels(bw, 2, 8, 50, "2.30.7") == 32      # 2 nodes, NIC >= 48 GB/s
    assert T.nvls_channels(bw, 4, 8, 50, "2.30.7") == 24      # NIC 48-96 GB/s
    assert T.nvls_channels(bw, 4, 8, 100, "2.30.7") == 24     # NIC >= 96, <= 8 per node
    assert T.nvls_channels(bw, 4, 72, 100, "2.30.7") == 32    # NIC >= 96, > 8 per node
    assert T.nvls_channels(bw, 4, 8, 25, "2.30.7") == 32      # slower NICs keep 32
    assert T.nvls_channels(bw, 4, 8, 50, "2.29.7") == 32
    assert T.nvls_channels("Hopper", 4, 8, 50, "2.30.7") == 16
    # the catalogue's nodes: a GB300 NVL72 rack (800G CX8: 100 GB/s) on two racks at
    # 2.28.7 (32) and one (24); the default-release constants of the catalogue
    gb300 = specs.system("gb300-nvl72")
    assert [nvls_channels(gb300, 72, k, "2.28.7") for k in (1, 2)] == [24, 32]
    assert C.NVLS_CHANNELS["Blackwell, one NVLink domain"].value == 24
    assert C.NVLS_CHANNELS["Blackwell"].value == 32 and C.NVLS_CHANNELS["Hopper"].value == 16


def test_one_racks_nvls_pace_keeps_32_ctas_in_every_release():
    # NCCL gives one Blackwell NVLink domain 24 NVLS CTAs from 2.27.3 (32 before), but the
    # book's pace in a rack (channels x chunk / chunk time) keeps 2.26.2's 32: taking 24
    # made the rack-scale runs' cross-validated error worse (links.nvls_algbw says by how
    # much), so the rate is the same whatever the release
    old = custom.node("gb200", 72, nics_per_gpu=1, nic_gbps=400, nccl_version="2.26.2")
    new = custom.node("gb200", 72, nics_per_gpu=1, nic_gbps=400, nccl_version="2.27.3")
    assert co.nvls_rate(new) == co.nvls_rate(old) == pytest.approx(
        32 * 128 * KiB / C.NVLS_CHUNK_TIME_RACK.value)
    assert C.NVLS_TREE_CHUNK_MANY_NODES.value == 64 * KiB
    assert C.NVLS_CHUNK.value == 128 * KiB


def test_nvls_rate_on_an_hgx_baseboard_is_link_bound():
    # 8 x H100: eta x B x g/(g+1) = 0.85 x (18 x 20.6 GB/s) x 8/9 = 280.1 GB/s
    assert co.nvls_rate("dgx-h100") == pytest.approx(0.85 * 18 * 20.6e9 * 8 / 9)


def test_double_binary_tree_node_traffic():
    # two nodes: each is root of one tree and leaf of the other (S/2 + S/2 = S); three:
    # one root with two children (S) plus a leaf (S/2); from four up each node is interior
    # in one tree (3/2 x S/2 each way) and a leaf in the other (S/2): 2S
    assert [co._tree_node_traffic(k) for k in (2, 3, 4, 100)] == [1.0, 1.5, 2.0, 2.0]


def test_tree_beats_ring_across_three_partitions_as_measured():
    # NVIDIA/nccl#1801: tree/ring = 234.43/196.72 = 1.19 (NVL4 x 3) and 485.68/393.66 =
    # 1.23 (NVL8 x 3) at 16 GiB. Derivation: both NIC-bound; ring node traffic
    # 2(n-1)/n S at the full NIC rate vs tree 1.5 S at NCCL's tree efficiency 0.92
    for g, measured in ((4, 234.43 / 196.72), (8, 485.68 / 393.66)):
        part = custom.node("gb200", g, nics_per_gpu=1, nic_gbps=400, nccl_version="2.27.3")
        ring = co.predict("all_reduce", 16 * GiB, part, g, 3, "ring").busbw
        tree = co.predict("all_reduce", 16 * GiB, part, g, 3, "tree").busbw
        n = 3 * g
        assert tree / ring == pytest.approx(2 * (n - 1) / n / 1.5 * 0.92, rel=0.02)
        assert tree / ring == pytest.approx(measured, rel=0.1)


def test_nvls_tree_crosses_the_network_through_at_most_32_heads():
    # NCCL_MAX_NVLS_ARITY 32 (include/device.h)
    assert C.NVLS_MAX_HEADS.value == 32


def test_efa_adds_the_plugins_latency_to_each_network_step():
    # aws-ofi-nccl reports 35 us for p5en/p6-b200; NCCL adds it to every inter-node step
    # (twice for Simple). Ring on 2 nodes: 2(k-1) = 2 network steps of LL
    ib = custom.node("b200", 8, nic_gbps=400, fabric="InfiniBand")
    efa = custom.node("b200", 8, nic_gbps=400, fabric="EFA")
    t_ib = co.predict("all_reduce", 1 * KiB, ib, 8, 2, "ring")
    t_efa = co.predict("all_reduce", 1 * KiB, efa, 8, 2, "ring")
    assert t_ib.protocol == t_efa.protocol == "LL"
    assert t_efa.time_s - t_ib.time_s == pytest.approx(2 * 35 * us)


@pytest.mark.parametrize("size, ranks, expected", [
    # read by hand off aws-ofi-nccl's P6 all-reduce polygons (nccl_ofi_regions.cpp): at 32
    # ranks Tree/LL below 393216 B, Tree/LL128 up to 18350080 B, Ring/LL128 up to
    # 133693440 B, NVLSTree/Simple up to 435159040 B, then Ring/Simple
    (64 * KiB, 32, ("tree", "LL")), (1 * MiB, 32, ("tree", "LL128")),
    (32 * MiB, 32, ("ring", "LL128")), (256 * MiB, 32, ("nvls_tree", "Simple")),
    (1 * GiB, 32, ("ring", "Simple")),
    # at 64 ranks the NVLSTree region reaches 1072693248 B and Ring/LL128 starts at
    # 50855936 B (so 32 MiB is still Tree/LL128)
    (512 * MiB, 64, ("nvls_tree", "Simple")), (32 * MiB, 64, ("tree", "LL128")),
])
def test_aws_region_tuner_choice(size, ranks, expected):
    assert co.aws_tuner_choice(size, ranks) == expected


def test_aws_tuner_decides_from_three_nodes_on_p6_only():
    # 'Skip when two nodes or lesser ... fallback to NCCL's internal tunings'
    efa = custom.node("b200", 8, nic_gbps=400, fabric="EFA")
    ib = custom.node("b200", 8, nic_gbps=400, fabric="InfiniBand")
    size = 32 * MiB  # Ring/LL128 in the P6 table at 32 ranks
    r4 = co.predict("all_reduce", size, efa, 8, 4)
    assert (r4.algorithm, r4.protocol) == ("ring", "LL128")
    assert co.predict("all_reduce", size, ib, 8, 4).algorithm != "ring" or \
        co.predict("all_reduce", size, ib, 8, 4).protocol != "LL128"
    r2 = co.predict("all_reduce", size, efa, 8, 2)
    assert (r2.algorithm, r2.protocol) == (co.predict("all_reduce", size, ib, 8, 2).algorithm,
                                           co.predict("all_reduce", size, ib, 8, 2).protocol)


def test_aws_tuner_decides_exactly_where_aws_ofi_nccl_says_and_nowhere_else():
    """aws-ofi-nccl's tuner (nccl_ofi_regions.cpp) acts for all-reduce on its P6 platform
    (B200, 8 GPUs per node, EFA) from three nodes ('Skip when two nodes or lesser'): there
    predict's auto is the region's pair wherever a region covers the size, and it changes
    NCCL's own choice at some sizes; everywhere else auto is NCCL's own choice."""
    from interlib.collective_model.fabrics import aws_tuned

    efa = custom.node("b200", 8, nic_gbps=400, fabric="EFA")
    ib = custom.node("b200", 8, nic_gbps=400, fabric="InfiniBand")
    efa_h100 = custom.node("h100-sxm", 8, nic_gbps=400, fabric="EFA")
    assert C.AWS_TUNER_MIN_NODES.value == 3
    assert aws_tuned(efa, "all_reduce", 8, 3) and aws_tuned(efa, "all_reduce", 8, 64)
    for args in ((efa, "all_reduce", 8, 2), (efa, "all_reduce", 4, 3),
                 (efa, "all_gather", 8, 3), (ib, "all_reduce", 8, 3),
                 (efa_h100, "all_reduce", 8, 3)):
        assert not aws_tuned(*args), args[1:]
    sizes = 2.0 ** np.arange(10, 34)

    def pairs(r):
        return list(zip(r.algorithm.tolist(), r.protocol.tolist()))

    for node, k, tuned in ((efa, 3, True), (efa, 4, True), (efa, 2, False), (ib, 4, False)):
        auto = pairs(co.predict("all_reduce", sizes, node, 8, k))
        nccl = pairs(co.nccl_estimate("all_reduce", sizes, node, 8, k))
        if not tuned:
            assert auto == nccl, (node.nic.fabric, k)
            continue
        region = [co.aws_tuner_choice(s, 8 * k) for s in sizes]
        assert all(a == r for a, r in zip(auto, region) if r is not None), k
        assert any(a != e for a, e in zip(auto, nccl)), k


def test_buffsize_scale_by_hand():
    """A ring's or tree's Simple window grows with NCCL_BUFFSIZE over NCCL's default 4 MiB:
    Google's TCPXO profile sets 8 MiB (scale 2) across nodes only (one node never uses the
    plugin); a node's own buffsize wins over the profile (16 MiB: 4); LL, LL128 and NVLS
    are not scaled (NVLS cuts its chunks from NCCL_NVLS_CHUNKSIZE)."""
    from interlib.collective_model.fabrics import buffsize_scale

    assert C.NCCL_DEFAULT_BUFFSIZE.value == 4 * MiB
    assert C.FABRIC_BUFFSIZE["GPUDirect-TCPXO"].value == 8 * MiB
    tcpxo = custom.node("h100-sxm", 8, nic_gbps=200, fabric="GPUDirect-TCPXO")
    own = custom.node("h100-sxm", 8, nic_gbps=200, fabric="GPUDirect-TCPXO",
                      buffsize=16 * 2**20)
    ib = custom.node("h100-sxm", 8, nic_gbps=200)
    assert [buffsize_scale(tcpxo, a, "Simple", 2) for a in ("ring", "tree")] == [2.0, 2.0]
    assert buffsize_scale(tcpxo, "ring", "Simple", 1) == 1.0
    assert buffsize_scale(own, "ring", "Simple", 2) == buffsize_scale(own, "tree", "Simple", 1) == 4.0
    assert buffsize_scale(ib, "ring", "Simple", 4) == 1.0
    for a, p in (("ring", "LL"), ("tree", "LL128"), ("nvls_tree", "Simple")):
        assert buffsize_scale(tcpxo, a, p, 2) == 1.0, (a, p)


def test_fabric_kind_and_the_plugin_latency_of_each():
    """The four network kinds the model knows (a NIC sold for IB and Ethernet counts as
    InfiniBand); the plugin latency is what the plugin reports (EFA: aws-ofi-nccl's 35 us
    on p6-b200), plus in the book's view (the default) TCPXO's calibrated per-step latency,
    which Google's plugin does not report (it reports 0)."""
    from interlib.collective_model.fabrics import fabric_kind, plugin_latency

    kinds = {f: custom.node("h100-sxm", 8, fabric=f)
             for f in ("InfiniBand", "Ethernet", "EFA", "GPUDirect-TCPXO")}
    for f, node in kinds.items():
        assert fabric_kind(node) == f
    assert fabric_kind(specs.system("dgx-h100")) == "InfiniBand"   # "InfiniBand or Ethernet"
    assert plugin_latency(kinds["EFA"]) == plugin_latency(kinds["EFA"], True) == pytest.approx(35 * us)
    assert plugin_latency(kinds["InfiniBand"]) == plugin_latency(kinds["Ethernet"]) == 0.0
    assert plugin_latency(kinds["GPUDirect-TCPXO"], True) == 0.0
    assert plugin_latency(kinds["GPUDirect-TCPXO"]) == C.TCPXO_STEP_LATENCY.value > 0


def test_an_efa_step_of_the_rdma_protocol_takes_aws_tuner_latency_not_the_reported_one():
    """aws-ofi-nccl runs its RDMA protocol where a node has more EFA devices than GPUs
    (nccl_ofi_net.c:980-985 @ v1.8.1-aws: p5's 32 ports for 8 GPUs) and SENDRECV otherwise
    (p4d: 4 for 8). The plugin reports 75 us to NCCL on both (platform-aws.c @ v1.8.1-aws);
    its own P5 tuner model states 20 us per step, 'different from the network plugin's
    param for net latency by design', plus 3 us of completion for Simple
    (nccl_ofi_tuner.h:24,30 @ v1.8.1-aws; nccl_ofi_model.cpp:15 @ v1.16.0). NCCL flushes a
    Simple GPUDirect receive on A100 always and on Hopper before 2.19.1 (paths.cc:403,411 @
    v2.18.5-1; :405,413 @ v2.19.1-1), which costs one more step latency."""
    from interlib.collective_model.fabrics import aws_rdma_platform, flushes, step_latency

    p5 = custom.node("h100-sxm", 8, nics_per_node=32, nic_gbps=100, fabric="EFA")
    p5en = custom.node("h200", 8, nics_per_node=16, nic_gbps=200, fabric="EFA")
    p4d = custom.node("a100-sxm-80gb", 8, nics_per_node=4, nic_gbps=100, fabric="EFA")
    p6 = custom.node("b200", 8, nics_per_node=8, nic_gbps=400, fabric="EFA")
    ib = custom.node("h100-sxm", 8, nics_per_node=32, nic_gbps=100)
    assert [aws_rdma_platform(n) for n in (p5, p5en, p4d, p6, ib)] == \
        ["p5/p5e", "p5en", None, None, None]
    # NCCL's flush (paths.cc): A100 always; Hopper only before 2.19.1
    assert flushes(p4d, "2.20.3") and flushes(p5, "2.18.5")
    assert not flushes(p5, "2.19.1") and not flushes(p5, "2.20.3") and not flushes(p5, None)
    # the model asks with the run's release as the tuner reads it (the newest read release
    # not newer than the stated one): the same answer as the stated release, for every
    # release either side of 2.19.1 (2.19.0 and 2.18.9 were never tagged; 2.19.2 neither)
    from interlib.collective_model import tuner as _tuner
    for stated in ("2.9.9", "2.18.5", "2.18.6", "2.18.9", "2.19.1", "2.19.2", "2.20.3", None):
        node = custom.node("h100-sxm", 8, nics_per_node=32, nic_gbps=100, fabric="EFA",
                           **({} if stated is None else {"nccl_version": stated}))
        assert flushes(p5, _tuner.version_of(node)) == flushes(p5, stated), stated
    # the book's time: 20 us (LL, LL128), 20 + 3 (Simple), + 20 more where NCCL flushes
    assert step_latency(p5, "LL", version="2.20.3") == pytest.approx(20 * us)
    assert step_latency(p5, "LL128", version="2.20.3") == pytest.approx(20 * us)
    assert step_latency(p5, "Simple", version="2.20.3") == pytest.approx(23 * us)
    assert step_latency(p5, "Simple", version="2.18.5") == pytest.approx(43 * us)
    assert step_latency(p5en, "LL", version="2.26.2") == pytest.approx(18 * us)
    # NCCL's own estimate keeps what the plugin reports, twice for Simple (tuning.cc)
    assert step_latency(p5, "LL", nccl_view=True) == pytest.approx(75 * us)
    assert step_latency(p5, "Simple", nccl_view=True) == pytest.approx(150 * us)
    # p4d (SENDRECV): no tuner statement, the reported 75 us; its A100 flushes
    assert step_latency(p4d, "LL", version="2.20.3") == pytest.approx(75 * us)
    assert step_latency(p4d, "Simple", version="2.20.3") == pytest.approx(150 * us)
    # p6-b200 (35 us reported, no tuner model row): the reported latency, no flush
    assert step_latency(p6, "Simple", version="2.27.7") == pytest.approx(35 * us)
    # two p5 nodes, tree/LL (2 network steps): the book's time is 2 x (75 - 20) us below
    # what it would be at the reported latency, NCCL's estimate is unchanged (tuning.cc @
    # v2.20.3-1: 6.8 + 2 x (7 x 0.6 + (5.0 + 75)) = 175.2 us)
    from interlib.collective_model import algorithms, tuner

    S = np.array([8.0])
    assert tuner.latency(p5, "all_reduce", "tree", "LL", 8, 2, "2.20.3") == \
        pytest.approx(175.2 * us)
    p5_220 = custom.node("h100-sxm", 8, nics_per_node=32, nic_gbps=100, fabric="EFA",
                             nccl_version="2.20.3")
    book = algorithms.time(p5_220, "all_reduce", "tree", "LL", S, 8, 2)[0]
    nccl = algorithms.time(p5_220, "all_reduce", "tree", "LL", S, 8, 2, nccl_view=True)[0]
    assert nccl == pytest.approx(175.2 * us + 8 / tuner.algbw(
        p5_220, "all_reduce", "tree", "LL", S, 8, 2, "2.20.3")[0])
    from interlib.collective_model.calibrated import cal

    # 8 bytes: the bandwidth terms are nanoseconds; the book adds its launch overhead
    assert book - nccl == pytest.approx(cal("LAUNCH_OVERHEAD") - 2 * (75 - 20) * us, abs=1 * us)


def test_tcpxo_is_its_own_fabric_without_ll_and_with_a_per_step_latency():
    # Google's profile: NCCL_PROTO=Simple,LL128; the plugin reports latency 0 to NCCL, so
    # the calibrated step latency is added to the time but not to NCCL's choice
    from interlib import validation as V

    assert V.fabric_kind("Ethernet (GPUDirect-TCPXO)") == "GPUDirect-TCPXO"
    assert C.NET_PLUGIN_LATENCY["GPUDirect-TCPXO"].value == 0.0
    assert C.TCPXO_STEP_LATENCY.kind == "calibrated"
    tcpxo = custom.node("h100-sxm", 8, nic_gbps=200, fabric="GPUDirect-TCPXO")
    roce = custom.node("h100-sxm", 8, nic_gbps=200, fabric="Ethernet")
    sizes = 2.0 ** np.arange(10, 34)
    r = co.predict("all_reduce", sizes, tcpxo, 8, 2)
    assert "LL" not in set(r.protocol)
    # LL128 tree on 2 nodes: 2 log2(2) = 2 network steps, each + the step latency
    t_x = co.predict("all_reduce", 1 * MiB, tcpxo, 8, 2, "tree")
    t_r = co.predict("all_reduce", 1 * MiB, roce, 8, 2, "tree")
    if t_x.protocol == t_r.protocol == "LL128":
        assert t_x.time_s - t_r.time_s == pytest.approx(2 * C.TCPXO_STEP_LATENCY.value)
    # one node never touches the network
    one_x = co.predict("all_reduce", 1 * MiB, tcpxo, 8, 1)
    one_r = co.predict("all_reduce", 1 * MiB, roce, 8, 1)
    assert one_x.time_s == pytest.approx(one_r.time_s)


def test_tcpxo_2024_profile_keeps_nccl_to_ring_and_tree_with_simple():
    # Google's release notes (Oct/Nov 2024, NCCL 2.21.5): NCCL_ALGO=Ring,Tree,
    # NCCL_PROTO=Simple, NCCL_NVLS_ENABLE=0. The current profile allows LL128 and NVLSTree.
    sizes = 2.0 ** np.arange(10, 34)
    old = custom.node("h100-sxm", 8, nic_gbps=200, fabric="GPUDirect-TCPXO",
                      tcpxo_profile="2024-10")
    new = custom.node("h100-sxm", 8, nic_gbps=200, fabric="GPUDirect-TCPXO")
    assert new.tcpxo_profile == C.TCPXO_DEFAULT_PROFILE == "2025-08"
    for fn in ("auto", "fastest"):
        r = co.predict("all_reduce", sizes, old, 8, 2, fn)
        assert set(r.algorithm) <= {"ring", "tree"} and set(r.protocol) == {"Simple"}
    r_new = co.predict("all_reduce", sizes, new, 8, 2)
    assert "nvls_tree" in set(r_new.algorithm) and "LL" not in set(r_new.protocol)
    # on one node the network profile binds nothing: NVLS stays available
    assert co.predict("all_reduce", 1 * GiB, old, 8, 1).algorithm == "nvls"


def test_an_unpublished_tuner_is_assumed_to_pick_the_fastest_allowed_pair():
    # Google's tuner config is not published: across nodes, auto == the fastest pair the
    # profile allows (an invariant of that assumption), never slower than a forced one
    sizes = 2.0 ** np.arange(12, 34)
    for prof in C.TCPXO_PROFILES:
        n = custom.node("h100-sxm", 8, nic_gbps=200, fabric="GPUDirect-TCPXO",
                        tcpxo_profile=prof)
        auto = co.predict("all_reduce", sizes, n, 8, 4)
        for alg in C.TCPXO_PROFILES[prof]["algorithms"]:
            forced = co.predict("all_reduce", sizes, n, 8, 4, alg)
            assert np.all(auto.time_s <= forced.time_s * (1 + 1e-12))


def test_tcpxo_profile_is_validated():
    with pytest.raises(ValueError, match="^tcpxo_profile='2023'"):
        custom.node("h100-sxm", 8, fabric="GPUDirect-TCPXO", tcpxo_profile="2023")
    with pytest.raises(ValueError, match="^tcpxo_profile='2024-10' is only for"):
        custom.node("h100-sxm", 8, fabric="InfiniBand", tcpxo_profile="2024-10")


def test_a_node_whose_nic_speaks_another_fabric_is_refused():
    # the models read the NIC's fabric (one rule, interlib.specs.custom.Node): a node built
    # by hand whose fabric and NIC disagree is refused, not modelled under either
    from dataclasses import replace

    ib = custom.node("h100-sxm", 8, nic_gbps=400, fabric="InfiniBand")
    assert ib.nic.fabric == ib.fabric == "InfiniBand"
    with pytest.raises(ValueError, match="^fabric='EFA' is out of range: must be the NIC's "
                                         "fabric, 'InfiniBand'$"):
        replace(ib, fabric="EFA")


def test_a_tcpxo_row_gets_the_profile_of_its_installer_nccl():
    from interlib import validation as V

    rows = [r for r in V.load_measurements() if V.fabric_kind(r.fabric) == "GPUDirect-TCPXO"]
    assert rows
    for r in rows:
        want = "2024-10" if r.nccl_version == "2.21.5" else C.TCPXO_DEFAULT_PROFILE
        assert V.node_for(r).tcpxo_profile == want
    assert C.TCPXO_PROFILE_BY_NCCL == {"2.21.5": "2024-10"}


def test_ring_fill_on_one_node_is_unchanged_by_the_per_stage_rule():
    # on one node every ring stage is NVLink and ranks == 8 == PIPELINE_CHUNKS, so the
    # round-2 fill reduces to the calibrated one: (steps - 1) x min(W, S/8) / (B x eff)
    sys_ = specs.SYSTEMS["dgx-h100"]
    S = 64 * MiB
    r = co.predict("all_reduce", S, sys_, 8, 1, "ring")
    assert r.protocol == "Simple"
    b = sys_.gpu.nvlink.per_gpu_effective
    steps = 14
    t = (C.LAUNCH_OVERHEAD.value + C.BASE_LATENCY[("ring", "Simple")].value
         + steps * C.HOP_LATENCY[("nvlink", "ring", "Simple")].value
         + (steps - 1) * min(C.PIPELINE_WINDOW.value, S / 8) / b + 1.75 * S / b)
    assert r.time_s == pytest.approx(t, rel=1e-9)


def test_custom_node_matches_the_catalogue_where_they_agree():
    mine = custom.node("h100-sxm", 8, nics_per_gpu=1, nic_gbps=400)
    for size in (1 * MiB, 8 * GiB):
        for k in (1, 4):
            a = co.predict("all_reduce", size, mine, 8, k).busbw
            b = co.predict("all_reduce", size, "dgx-h100", 8, k).busbw
            assert a == pytest.approx(b)
    rack = custom.node("gb200", 72)
    assert rack.servers_per_node == 18 and rack.nvswitch_gen == 4
    assert co.nvls_rate(rack) == pytest.approx(co.nvls_rate("gb200-nvl72"))


def test_nics_per_node_or_per_gpu():
    assert custom.node("h100-sxm", 8, nics_per_node=2).nics_per_node == 2
    assert custom.node("h100-sxm", 8, nics_per_gpu=4).nics_per_node == 32
    assert custom.node("h100-sxm", 8, nics_per_gpu=0.25).nics_per_node == 2


def test_nvlink_bridge_pairs_beat_pcie_only_for_two_gpus():
    # a bridge gives a pair 12 NVLink links (600 GB/s both directions, A100 PCIe and H100
    # NVL briefs); beyond a pair the ring still crosses PCIe
    br = custom.node("h100-sxm", 4, intra="nvlink-bridge", nic_gbps=200)
    pc = custom.node("h100-sxm", 4, intra="pcie", nic_gbps=200)
    two = [co.predict("all_reduce", 1 * GiB, n, 2).busbw for n in (br, pc)]
    three = [co.predict("all_reduce", 1 * GiB, n, 3).busbw for n in (br, pc)]
    four = [co.predict("all_reduce", 1 * GiB, n, 4).busbw for n in (br, pc)]
    assert two[0] > 3 * two[1]
    assert three[0] == pytest.approx(three[1])
    assert four[0] == pytest.approx(four[1])
    assert br.bridge_effective == pytest.approx(12 * 20.6e9)


def test_intra_of_names_what_node_was_given_and_a_catalogue_systems_fabric():
    """intra_of inverts node()'s ``intra`` (each of INTRA round-trips), names a catalogue
    system by its own field (DGX H100: NVSwitch; the PCIe-only H100 server: PCIe) and
    refuses what is not a system."""
    for intra, n in (("nvswitch", 8), ("pcie", 4), ("nvlink-bridge", 4)):
        assert custom.intra_of(custom.node("h100-sxm", n, intra=intra)) == intra
    assert custom.intra_of(specs.system("dgx-h100")) == "nvswitch"
    assert custom.intra_of(specs.system("h100-pcie-only")) == "pcie"
    with pytest.raises(ValueError, match="^system='dgx-h100' must be an interlib.specs.System$"):
        custom.intra_of("dgx-h100")


def test_the_nics_in_use_are_those_of_the_gpus_taking_part_at_line_rate_for_nccl():
    """links(): the node's network bandwidth counts the NICs of the GPUs in use (at most
    the node's), each at its line rate in NCCL's own view and at the fitted share
    NET_EFFICIENCY in the book's (the default). By hand, 400 Gb/s = 50 GB/s per NIC:
    DGX H100, 8 GPUs: 8 NICs = 400 GB/s; two NICs per GPU, 4 of 8 GPUs: 8 NICs = 400 GB/s,
    all 8: 16 = 800 GB/s; one NIC per two GPUs, 4 of 8 GPUs: 2 NICs = 100 GB/s."""
    from interlib.collective_model.links import links

    h100 = specs.system("dgx-h100")
    assert links(h100, 8, 2, nccl_view=True) == (pytest.approx(370.8 * GB_per_s),
                                                  pytest.approx(400 * GB_per_s), "nvlink")
    assert links(h100, 8, 2)[1] == pytest.approx(400 * GB_per_s * C.NET_EFFICIENCY.value)
    assert C.NET_EFFICIENCY.value < 1
    two = custom.node("h100-sxm", 8, nics_per_gpu=2)
    half = custom.node("h100-sxm", 8, nics_per_gpu=0.5)
    for node, g, want in ((two, 4, 400), (two, 8, 800), (half, 4, 100), (half, 8, 200)):
        assert links(node, g, 2, nccl_view=True)[1] == pytest.approx(want * GB_per_s), (g, want)


def test_steptime_and_capstone_accept_a_custom_node():
    node = custom.node("h100-sxm", 8, nics_per_gpu=1, nic_gbps=200, fabric="Ethernet")
    st_ = steptime.step_time(node, "llama-3-70b", 8, 4, 4)
    assert st_.step > 0
    d = capstone.design(nodes=16, node=node, tp=8, pp=4)
    assert d.system is node and d.n_gpus == 128


@pytest.mark.parametrize("kwargs, param", [
    (dict(gpu="h900"), "^gpu="),
    (dict(gpus_per_node=0), "^gpus_per_node="),
    (dict(gpus_per_node=73, gpu="gb200"), "^gpus_per_node="),
    (dict(gpus_per_node=16), "^gpus_per_node="),            # H100 NVSwitch stops at 8
    (dict(gpus_per_node=70, gpu="gb200"), "^gpus_per_node="),  # trays of 4
    (dict(gpus_per_node=3, intra="nvlink-bridge"), "^gpus_per_node="),
    (dict(gpus_per_node=12, intra="pcie"), "^gpus_per_node="),
    (dict(intra="infinity fabric"), "^intra="),
    (dict(fabric="token ring"), "^fabric="),
    (dict(nic_gbps=5), "^nic_gbps="),
    (dict(nic_gbps=3200), "^nic_gbps="),
    (dict(nics_per_node=0), "^nics_per_node="),
    (dict(nics_per_node=33), "^nics_per_node="),
    (dict(nics_per_gpu=0.1), "^nics_per_gpu="),
    (dict(nics_per_gpu=0.3), "^nics_per_gpu="),             # 8 x 0.3 is not whole
    (dict(nics_per_gpu=1, nics_per_node=8), "^nics_per_node="),
    (dict(name=3), "^name="),
])
def test_custom_node_refuses_what_cannot_be_built(kwargs, param):
    with pytest.raises(ValueError, match=param):
        custom.node(**kwargs)


# ----------------------------------------------------------------- no circles
def _imports(path):
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" if mod else a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_links_never_imports_inside_box():
    assert not any("inside_box" in m for m in _imports(ROOT / "interlib/specs/links.py"))


@pytest.mark.parametrize("model", ["collectives", "scaling", "steptime", "hierarchy",
                                   "scaleout", "capstone"])
def test_a_model_never_imports_a_book_appendix(model):
    mods = _imports(ROOT / "interlib" / f"{model}.py")
    assert not any(m.endswith(("errata", "_errata_claims", "validation")) for m in mods), mods


# NCCL v2.29's NVLSTree correction on Blackwell with an x86 host (tuning.cc):
# bw *= treeCorrectionFactor[Simple][log2(size / 64)] below 1 GiB
def test_nvls_tree_correction_on_x86_blackwell_below_one_gib(monkeypatch):
    def nvls(sysid, k, size):
        return co.predict("all_reduce", size, sysid, None, k, "nvls")

    before = {s: nvls("dgx-b200", 4, s) for s in (256 * MiB, GiB)}
    gb = nvls("gb200-nvl72", 4, 256 * MiB).time_s
    assert C.host_cpu(specs.system("dgx-b200")) == "Intel"
    assert C.host_cpu(specs.system("gb200-nvl72")) == "Arm"
    monkeypatch.setattr(C, "host_cpu", lambda s: "Arm")  # as if a B200 sat on an Arm host
    after = {s: nvls("dgx-b200", 4, s) for s in (256 * MiB, GiB)}
    # 256 MiB: log2(2^28 / 64) = 22, factor .9 in NCCL's Simple row: only the bandwidth
    # term is stretched, so the call takes longer, by at most 1 / .9
    assert before[256 * MiB].time_s > after[256 * MiB].time_s
    assert before[256 * MiB].time_s <= after[256 * MiB].time_s / 0.9 * (1 + 1e-12)
    # from 1 GiB (logSize 24) NCCL applies nothing
    assert before[GiB].time_s == after[GiB].time_s
    # GB200 sits on Grace (Arm): never corrected
    assert nvls("gb200-nvl72", 4, 256 * MiB).time_s == gb
    # one node runs NVLS, not NVLSTree: never corrected
    monkeypatch.undo()
    one = nvls("dgx-b200", 1, 256 * MiB).time_s
    monkeypatch.setattr(C, "host_cpu", lambda s: "Arm")
    assert nvls("dgx-b200", 1, 256 * MiB).time_s == one


def test_nvls_tree_correction_keeps_time_growing_with_size():
    sizes = 2.0 ** np.arange(10, 35)
    t = [co.predict("all_reduce", s, "dgx-b200", None, 4, "nvls").time_s for s in sizes]
    assert all(b >= a for a, b in zip(t, t[1:]))


def test_nvls_tree_correction_is_ncclss_simple_row():
    # NCCL v2.29.2 tuning.cc treeCorrectionFactor[NCCL_PROTO_SIMPLE], 24 entries
    assert C.NVLS_TREE_CORRECTION_BLACKWELL_X86 == (
        .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8,
        .9, .9, .9)
    assert C.NVLS_TREE_CORRECTION_SOURCE.value == len(C.NVLS_TREE_CORRECTION_BLACKWELL_X86)


# ------------------------------------------------------------ NCCL's own estimate
def test_nccl_estimate_of_a_tiny_message_is_tuning_cc_latency():
    # tuning.cc by hand (NCCL's constants, not this code): one DGX H100, 8 B. Ring LL:
    # baseLat 6.6 + 2 (n - 1) = 14 steps x NVLink LL 0.6 = 15.0 us; tree LL: 6.8 + 2 x 7 x
    # 0.6 = 15.2 us; NVLS: 25 us. NCCL picks ring LL at 15.0 us (the bytes add ~0).
    e = co.nccl_estimate("all_reduce", 8, "dgx-h100", 8, 1)
    assert (e.algorithm, e.protocol) == ("ring", "LL")
    assert e.time_s == pytest.approx(15.0e-6, rel=1e-3)
    # 2 x 64 GB200 over RoCE, NVLS off: tree LL, 6.8 + 2 x (63 x 0.6 + log2(2) x 5.0)
    # = 92.4 us (the net's tree LL latency 5.0; RoCE's plugin reports none)
    node = custom.node("gb200", 64, nics_per_node=128, nic_gbps=400,
                             fabric="Ethernet", intra="nvswitch")
    e = co.nccl_estimate("all_reduce", 8, node, 64, 2, nvls=False)
    assert (e.algorithm, e.protocol) == ("tree", "LL")
    assert e.time_s == pytest.approx(92.4e-6, rel=1e-3)


@pytest.mark.parametrize("system,g,k", [("dgx-h100", 8, 1), ("dgx-h100", 8, 4),
                                        ("dgx-b200", 8, 2), ("gb200-nvl72", 72, 2)])
def test_nccl_estimate_picks_what_auto_picks(system, g, k):
    # "auto" is NCCL's choice by its own estimate (no vendor tuner on these nodes)
    sizes = np.array([2.0**e for e in range(3, 35, 2)])
    e = co.nccl_estimate("all_reduce", sizes, system, g, k)
    p = co.predict("all_reduce", sizes, system, g, k)
    assert list(e.algorithm) == list(p.algorithm) and list(e.protocol) == list(p.protocol)


@pytest.mark.parametrize("system,g,k", [("dgx-h100", 8, 1), ("dgx-a100", 8, 4),
                                        ("gb200-nvl72", 72, 3)])
def test_a_ring_is_never_slower_in_nccls_estimate_than_in_the_book(system, g, k):
    # for a ring the book keeps NCCL's latencies and bandwidth and adds the launch cost and
    # the pipeline fill, so NCCL's estimate (its best protocol) can only be quicker
    sizes = np.array([2.0**e for e in range(3, 35, 2)])
    e = co.nccl_estimate("all_reduce", sizes, system, g, k, "ring")
    p = co.predict("all_reduce", sizes, system, g, k, "ring")
    assert np.all(e.time_s < p.time_s)
    assert np.all(p.time_s - e.time_s >= C.LAUNCH_OVERHEAD.value * (1 - 1e-9))


@pytest.mark.parametrize("kwargs,name", [({"collective": "allreduce"}, "^collective="),
                                         ({"size_bytes": 0}, "^size_bytes="),
                                         ({"nvls": "no"}, "^nvls="),
                                         ({"nodes": 0}, "^nodes="),
                                         ({"algorithm": "fastest"}, "^algorithm="),
                                         ({"algorithm": "nvls", "nvls": False},
                                          "^algorithm='nvls' is not available with nvls=False")])
def test_nccl_estimate_rejects_bad_input(kwargs, name):
    args = {"collective": "all_reduce", "size_bytes": 1024, "system": "dgx-h100",
            "nodes": 1, **kwargs}
    with pytest.raises(ValueError, match=name):
        co.nccl_estimate(**args)


# ------------------------------------------------------------ NCCL_BUFFSIZE
def test_buffsize_scales_a_ring_and_tree_window_but_not_nvls():
    # enqueue.cc: a ring's or tree's Simple chunk is buffSizes[SIMPLE] / NCCL_STEPS, so 4x the
    # buffer is 4x the pipeline window; NVLS and NVLSTree take NCCL_NVLS_CHUNKSIZE instead
    base = custom.node("gb200", 64, nics_per_node=128, fabric="Ethernet")
    big = custom.node("gb200", 64, nics_per_node=128, fabric="Ethernet", buffsize=16 * 2**20)
    S = 4 * GiB  # large enough that the window, not size / chunks, sets the fill
    for alg in ("ring", "tree"):
        t0 = co._time(base, "all_reduce", alg, "Simple", np.array([S]), 64, 2)[0]
        t1 = co._time(big, "all_reduce", alg, "Simple", np.array([S]), 64, 2)[0]
        assert t1 > t0, alg
    for alg, proto in (("nvls_tree", "Simple"), ("ring", "LL128"), ("tree", "LL")):
        t0 = co._time(base, "all_reduce", alg, proto, np.array([S]), 64, 2)[0]
        t1 = co._time(big, "all_reduce", alg, proto, np.array([S]), 64, 2)[0]
        assert t1 == t0, (alg, proto)


@pytest.mark.parametrize("value", [0, 1024, 2 * 2**30, 4.5 * MiB, "16M"])
def test_custom_node_rejects_a_bad_buffsize(value):
    with pytest.raises(ValueError, match="^buffsize="):
        custom.node("gb200", 64, buffsize=value)


def test_gb300_is_in_the_catalogue_as_its_source_says():
    # NVIDIA's Blackwell Ultra blog (the catalogue's source since issue 39; Lockwood's B300
    # page said the same): '288 GB of HBM3E per GPU' in 8 stacks, 8 TB/s, NVLink 5, PCIe
    # Gen 6; a Grace host whose NVLink-C2C two GPUs share (the superchip, as GB200)
    g = specs.GPUS["gb300"]
    assert (g.arch, g.nvlink_gen, g.pcie_gen, g.host_link) == ("Blackwell", 5, "6.0",
                                                               "nvlink-c2c-superchip")
    assert g.hbm_capacity.value == 288e9 and g.hbm_bandwidth.value == 8e12
    src = g.hbm_capacity.source
    assert "Blackwell Ultra" in src.title and "288 GB of HBM3E per GPU" in src.says
    assert "8 TB/s per GPU" in g.hbm_bandwidth.source.says


def test_nvls_rate_and_one_rank_estimate_refuse_with_a_message():
    # A100's NVSwitch 2 has no in-switch reduction: a message, not a KeyError; and NCCL's
    # tuning model times nothing for one rank, so its estimate is refused there (it used
    # to return 0 s and an infinite algbw)
    with pytest.raises(ValueError, match="^system='dgx-a100' has no NVLS rate: .*NVSwitch 3"):
        co.nvls_rate("dgx-a100")
    with pytest.raises(ValueError, match="^gpus_per_node x nodes = 1: NCCL's estimate needs "
                                         "2 ranks or more"):
        co.nccl_estimate("all_reduce", GiB, "dgx-h100", 1, 1)
    assert co.predict("all_reduce", GiB, "dgx-h100", 1, 1).time_s > 0


# ------------------------------------------------ each algorithm's time, term by term
# The formulas in each function's docstring of interlib.collective_model.algorithms (NCCL's
# tuning.cc latencies and bandwidths, plus the book's launch overhead and pipeline fill),
# evaluated by hand on chosen nodes. Each case is picked so that the term under test binds:
# 35 us of EFA plugin latency per network step (aws-ofi-nccl; in NCCL's view twice for
# Simple, tuning.cc's flush latency; in the book's view once on these H100 nodes, whose
# release is not stated: NCCL flushes a Hopper receive only before 2.19.1, paths.cc)
# counts the network steps; one NIC per GPU at 400 Gb/s gives 50 GB/s per GPU (x NET_EFFICIENCY in the
# book's view, line rate in NCCL's). Exact up to floating point.
_S = np.array([100.0, 4 * KiB, 1 * MiB, 64 * MiB, 128 * MiB, 4 * GiB])
_EFA = 35 * us


def _efa(nccl_view=False, proto="Simple"):
    """The EFA latency of one network step: twice for Simple in NCCL's view (tuning.cc),
    once in the book's on Hopper (no flush: paths.cc, NCCL >= 2.19.1)."""
    return _EFA * (2 if (nccl_view and proto == "Simple") else 1)
_B = 370.8 * GB_per_s                       # NCCL's effective NVLink 4, 18 x 20.6 GB/s


def _fill(steps, bw, parts=1, scale=1.0):
    """Run.fill's docstring: (steps - 1) x min(window, S / max(chunks, parts)) / bw."""
    return (steps - 1) * np.minimum(C.PIPELINE_WINDOW.value * scale,
                                    _S / max(C.PIPELINE_CHUNKS.value, parts)) / bw


def _hop(kind, alg, proto="Simple"):
    return C.HOP_LATENCY[(kind, alg, proto)].value


def _base(alg, proto="Simple"):
    return C.BASE_LATENCY[(alg, proto)].value


def _time(node, coll, alg, proto, g, k, nccl_view=False):
    from interlib.collective_model.algorithms import time

    return time(node, coll, alg, proto, _S, g, k, nccl_view)


def _close(got, want):
    np.testing.assert_allclose(got, np.broadcast_to(want, _S.shape), rtol=1e-12, atol=0)


def test_one_rank_costs_the_launch_overhead_alone_as_floats():
    from interlib.collective_model.algorithms import time

    t = time(specs.system("dgx-h100"), "all_reduce", "ring", "Simple", _S, 1, 1)
    assert t.dtype == np.float64 and t.tolist() == [C.LAUNCH_OVERHEAD.value] * _S.size
    assert time(specs.system("dgx-h100"), "all_reduce", "ring", "Simple", _S, 1, 1,
                True).tolist() == [0.0] * _S.size


def test_rhd_time_is_the_textbook_cost_with_one_ring_hop_as_alpha():
    """rhd = t0 + alpha_beta('rhd') with alpha one Ring/Simple hop (a network hop across
    nodes, with the plugin's latency twice: Simple) and bandwidth B in one node, each GPU's
    share of the NICs across nodes. 8 GPUs: 2 lg 8 = 6 hops, 2 x 7/8 S / B. 2 x 8 GPUs:
    8 network hops, 2 x 15/16 S / min(B, 50 GB/s x eff). All-gather on 2 x 6 GPUs (12,
    not a power of two): ceil(lg 12) = 4 hops, 11/12 S / (50 GB/s x eff). A TCPXO node:
    NCCL's view leaves out the step latency its plugin does not report."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    efa = custom.node("h100-sxm", 8, fabric="EFA")
    _close(_time(efa, "all_reduce", "rhd", "Simple", 8, 1), t0 + 6 * _hop("nvlink", "ring")
           + 2 * 7 / 8 * _S / _B)
    for view, t_0, nic in ((False, t0, 50 * GB_per_s * ne), (True, 0.0, 50 * GB_per_s)):
        a = _hop("net", "ring") + _efa(view)
        _close(_time(efa, "all_reduce", "rhd", "Simple", 8, 2, view),
               t_0 + 8 * a + 2 * 15 / 16 * _S / nic)
        _close(_time(efa, "all_gather", "rhd", "Simple", 6, 2, view),
               t_0 + 4 * a + 11 / 12 * _S / nic)
    tcpxo = custom.node("h100-sxm", 8, fabric="GPUDirect-TCPXO")
    for view, step in ((False, C.TCPXO_STEP_LATENCY.value), (True, 0.0)):
        _close(_time(tcpxo, "all_reduce", "rhd", "Simple", 8, 2, view),
               (0.0 if view else t0) + 8 * (_hop("net", "ring") + step)
               + 2 * 15 / 16 * _S / (50 * GB_per_s * (1.0 if view else ne)))


def test_direct_all_to_all_time_by_hand():
    """Pairwise exchange: (g-1)/n of the data over NVLink at B and (n-g)/n over the NICs at
    50 GB/s per GPU, at once; one Ring/Simple base and NVLink hop, plus one network hop
    (EFA: + 35 us in the book's view, 2 x 35 us in NCCL's) across nodes; the fill crosses
    n - 1 stages at B."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    efa = custom.node("h100-sxm", 8, fabric="EFA")
    lat = _base("ring") + _hop("nvlink", "ring")
    _close(_time(efa, "all_to_all", "direct", "Simple", 8, 1),
           t0 + lat + _fill(7, _B) + 7 / 8 * _S / _B)
    net = _hop("net", "ring") + _efa()
    _close(_time(efa, "all_to_all", "direct", "Simple", 8, 2),
           t0 + lat + net + _fill(15, _B)
           + np.maximum(7 / 16 * _S / _B, 8 / 16 * _S / (50 * GB_per_s * ne)))
    _close(_time(efa, "all_to_all", "direct", "Simple", 8, 2, True),
           lat + _hop("net", "ring") + _efa(True) + np.maximum(7 / 16 * _S / _B, 8 / 16 * _S / (50 * GB_per_s)))


def _share(size, threads, threshold, channels):
    """enqueue.cc's channel rule, by hand: a call gets size / (threads x threshold)
    channels, at least one and at most all of them (the model takes the quotient whole)."""
    return np.clip(size / (threads * threshold), 1, channels) / channels


# tuning.cc v2.30.7-1 literals used below (tests/test_nccl_tuning.py pins each to its line)
_LL_MAX_HOPPER_1 = 141.0      # llMaxBws, Hopper row, 1 node
_LL_MAX_INTEL_2 = 39.0        # llMaxBws, Volta/Intel row, 2 nodes (an Intel host)
_RING_LL128_HOPPER = 36.7     # perChMaxRingLL128Bws, Hopper
_TREE_HOPPER = (38.7, 41.4, 36.0)          # perChMaxTreeBws, Hopper
_TREE_LL128_HOPPER = (36.7, 36.7, 29.0)    # perChMaxTreeLL128Bws, Hopper
_NVLS_TREE_HOPPER = (0.0, 57.7, 45.5)      # perChMaxNVLSTreeBws, Hopper
# (threads, bytes per thread) of each protocol: device.h NCCL_*_MAX_NTHREADS and comm.h
# NCCL_*_THREAD_THRESHOLD
_NT = {"LL": (512, 8), "LL128": (640, 8), "Simple": (512, 64)}


def test_ring_time_by_hand_across_two_nodes_for_each_protocol():
    """All-gather on 2 x 8 H100 (EFA, Intel host): n - 1 = 15 steps, one across nodes;
    latency base + 14 intra steps, each at least NCCL's network post overhead (1 us, x 3
    for Simple: tuning.cc) + 1 network hop (+ EFA's 35 us, once in the book's view); no x 1.4
    (all-reduce only). Bus bandwidth min(B, N), N = 8 x 50 GB/s x NET_EFFICIENCY: LL
    min(llMaxBw Intel 2 nodes 39, x 0.5), LL128 min(x 0.92, 8 channels x 36.7), as algbw
    x 16 / 15, at the share of the 8 channels the size gets (a ring's LL threshold x 16
    ranks). The first chunk crosses the 14 NVLink stages at the bus rate x B / min(B, N)
    and the network stage at the bus rate, a chunk at most S / 16. One node: 7 steps of
    NVLink, LL min(141, B / 2), 16 channels."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    efa = custom.node("h100-sxm", 8, fabric="EFA")
    n_book = 400 * GB_per_s * ne
    raw = min(_B, n_book)
    for p in C.PROTOCOLS:
        bus = {"LL": min(_LL_MAX_INTEL_2 * GB_per_s, 0.5 * raw),
               "LL128": min(0.92 * raw, 8 * _RING_LL128_HOPPER * GB_per_s),
               "Simple": raw}[p]
        nt, thr = _NT[p]
        alg = bus * 16 / 15 * _share(_S, nt, thr * (16 if p == "LL" else 1), 8)
        intra = max(_hop("nvlink", "ring", p), (3e-6 if p == "Simple" else 1e-6))
        lat = _base("ring", p) + 14 * intra + _hop("net", "ring", p) + _efa()
        b = alg * 15 / 16
        _close(_time(efa, "all_gather", "ring", p, 8, 2),
               t0 + lat + _fill(14, b * _B / raw, 16) + _fill(2, b, 16) + _S / alg)
        bus1 = {"LL": min(_LL_MAX_HOPPER_1 * GB_per_s, 0.5 * _B),
                "LL128": min(0.92 * _B, 16 * _RING_LL128_HOPPER * GB_per_s), "Simple": _B}[p]
        alg1 = bus1 * 8 / 7 * _share(_S, nt, thr * (8 if p == "LL" else 1), 16)
        one = _base("ring", p) + 7 * _hop("nvlink", "ring", p)
        _close(_time(efa, "all_gather", "ring", p, 8, 1),
               t0 + one + _fill(7, alg1 * 7 / 8, 8) + _S / alg1)
    # 4 nodes, 32 ranks, Simple: a chunk is at most S / 32 (more slices than PIPELINE_CHUNKS)
    assert C.PIPELINE_CHUNKS.value < 32
    alg = raw * 32 / 31 * _share(_S, 512, 64, 8)
    lat = _base("ring") + 28 * 3.4e-6 + 3 * (_hop("net", "ring") + _efa())
    assert _hop("nvlink", "ring") == pytest.approx(3.4e-6)
    _close(_time(efa, "all_gather", "ring", "Simple", 8, 4),
           t0 + lat + _fill(28, alg * 31 / 32 * _B / raw, 32) + _fill(4, alg * 31 / 32, 32)
           + _S / alg)
    # all-reduce across nodes: x 1.4 once a channel's share of a rank reaches 64 bytes
    # (tuning.cc: nBytes / (nChannels x nRanks) >= 64): 8 channels x 16 ranks x 64 = 8 KiB
    t_small = _time(efa, "all_reduce", "ring", "Simple", 8, 2)
    lat_ar = _base("ring") + 28 * 3.4e-6 + 2 * (_hop("net", "ring") + _efa())
    alg = raw * 16 / 30 * _share(_S, 512, 64, 8)
    b = alg * 30 / 16
    want = t0 + np.where(_S >= 8 * KiB, 1.4, 1.0) * lat_ar + _fill(28, b * _B / raw, 16) \
        + _fill(3, b, 16) + _S / alg
    _close(t_small, want)


def _tree_alg(p, link, channels, caps, ll128_caps, ll_max, k, share=None):
    """tuning.cc's tree algbw by hand: busBw = min(0.92 link, channels x cap) (LL: / 3.8 up
    to llMaxBw; LL128: x 7/9 on one node, x 120/128 across, up to channels x LL128 cap),
    / 2, x treeCorrectionFactor[p][log2(S / 64)] (below 23), x the channel share."""
    idx = min(k, 3) - 1
    bus = min(0.92 * link, channels * caps[idx] * GB_per_s)
    if p == "LL":
        bus = min(bus / 3.8, ll_max * GB_per_s)
    elif p == "LL128":
        bus = min(bus * (7 / 9 if k == 1 else 120 / 128), channels * ll128_caps[idx] * GB_per_s)
    corr = C.TREE_CORRECTION[p]
    f = np.array([corr[i] if i < 23 else 1.0
                  for i in (int(math.floor(math.log2(max(s // 64, 0.5)))) for s in _S)])
    nt, thr = _NT[p]
    sh = _share(_S, nt, thr, channels) if share is None else share
    return bus / 2 * f * sh


def test_tree_time_by_hand_in_one_node_and_across_two():
    """NCCL's tree: latency base + 2 ((g - 1) NVLink hops + log2 k network hops), algbw by
    tuning.cc's formula (_tree_alg) on 16 channels in one node, 8 (one per NIC) across two;
    the book adds the launch overhead, the fill over 2 (g - 1 + log2 k) stages at the bus
    rate (2 x algbw), NICs at NET_EFFICIENCY, and the channel share of the size. Two H100
    nodes: the link is min(B, 2 N / traffic(2) = 2 N), and the per-channel cap 8 x 41.4
    GB/s binds. NCCL's view: line-rate NICs, all channels, no launch or fill."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    efa = custom.node("h100-sxm", 8, fabric="EFA")
    n_book = 400 * GB_per_s * ne
    for p in C.PROTOCOLS:
        lat1 = _base("tree", p) + 2 * 7 * _hop("nvlink", "tree", p)
        alg1 = _tree_alg(p, _B, 16, _TREE_HOPPER, _TREE_LL128_HOPPER, _LL_MAX_HOPPER_1, 1)
        _close(_time(efa, "all_reduce", "tree", p, 8, 1),
               t0 + lat1 + _fill(14, 2 * alg1) + _S / alg1)
        nccl1 = _tree_alg(p, _B, 16, _TREE_HOPPER, _TREE_LL128_HOPPER, _LL_MAX_HOPPER_1, 1,
                          share=1.0)
        _close(_time(efa, "all_reduce", "tree", p, 8, 1, True), lat1 + _S / nccl1)
        lat2 = _base("tree", p) + 2 * (7 * _hop("nvlink", "tree", p) + _hop("net", "tree", p)
                                       + _efa())
        alg2 = _tree_alg(p, min(_B, 2 * n_book), 8, _TREE_HOPPER, _TREE_LL128_HOPPER,
                         _LL_MAX_INTEL_2, 2)
        _close(_time(efa, "all_reduce", "tree", p, 8, 2),
               t0 + lat2 + _fill(16, 2 * alg2) + _S / alg2)
        nccl2 = _tree_alg(p, min(_B, 800 * GB_per_s), 8, _TREE_HOPPER, _TREE_LL128_HOPPER,
                          _LL_MAX_INTEL_2, 2, share=1.0)
        nccl_lat2 = lat2 + 2 * (_efa(True, p) - _efa())  # NCCL's: the flush latency too
        _close(_time(efa, "all_reduce", "tree", p, 8, 2, True), nccl_lat2 + _S / nccl2)
    # the cap binds on two nodes: 8 x 41.4 = 331.2 GB/s under 0.92 x 370.8 = 341.1
    assert 8 * 41.4 < 0.92 * 370.8


def test_three_nodes_send_one_and_a_half_times_the_data_through_a_tree():
    """On three nodes the double binary tree sends 1.5 S per node (tree_node_traffic): the
    book's tree link is min(B, 2 N / 1.5); NCCL's estimate takes min(B, N) (bwInter). On
    GB200 trays of 4 (4 x 400G, NCCL 2.27.3, Blackwell caps twice Hopper's: 4 x 72 GB/s)
    the NICs bind: tree / ring busbw = (0.92 x 4/3 N / 2) / (N x 12/22) = 1.124; measured
    1.19 (NVIDIA/nccl#1801)."""
    part = custom.node("gb200", 4, nics_per_gpu=1, nic_gbps=400, nccl_version="2.27.3")
    ring = co.predict("all_reduce", 16 * GiB, part, 4, 3, "ring").busbw
    tree = co.predict("all_reduce", 16 * GiB, part, 4, 3, "tree").busbw
    assert tree / ring == pytest.approx(0.92 * 4 / 3 / 2 / (12 / 22), rel=0.02)
    e_ring = co.nccl_estimate("all_reduce", 16 * GiB, part, 4, 3, "ring").busbw
    e_tree = co.nccl_estimate("all_reduce", 16 * GiB, part, 4, 3, "tree").busbw
    assert e_tree / e_ring == pytest.approx(0.92 / 2 / (12 / 22), rel=0.02)


def test_nccl_view_of_a_tree_doubles_the_network_on_two_nodes_only():
    """search.cc raises a two-node tree's bwIntra to twice bwInter: on a node whose NICs
    bind (8 x 100 Gb/s = 100 GB/s), NCCL's tree link is min(B, 2 x 100) = 200 GB/s on two
    nodes and min(B, 100) = 100 GB/s from three up, under the per-channel cap (8 channels x
    41.4 GB/s on 2 nodes, 36 GB/s on 3+), which does not bind here; log2i(k) network steps
    (an integer: one on three nodes)."""
    slow = custom.node("h100-sxm", 8, nic_gbps=100)
    for k, link, steps in ((1, _B, 0), (2, 200 * GB_per_s, 1), (3, 100 * GB_per_s, 1),
                           (4, 100 * GB_per_s, 2)):
        ch = 16 if k == 1 else 8
        alg = _tree_alg("Simple", link, ch, _TREE_HOPPER, _TREE_LL128_HOPPER, 39.0, k,
                        share=1.0)
        lat = _base("tree") + 2 * (7 * _hop("nvlink", "tree") + steps * _hop("net", "tree"))
        _close(_time(slow, "all_reduce", "tree", "Simple", 8, k, True), lat + _S / alg)


def test_hierarchical_and_sharp_times_by_hand():
    """hierarchical: a ring reduce-scatter/all-gather of g slices in the node (2 (g-1)
    NVLink hops, 2 (g-1)/g S / B) and a ring all-reduce of the shards across nodes
    (2 (k-1) network hops, 2 (k-1)/k S / N); the phases pipeline: t0 + both latencies +
    both fills + the slower phase. sharp: the same node phase, and S / N across nodes in
    2 network steps (up to the switch and back). N = g NICs x 50 GB/s x eff. With one GPU
    per node there is no node phase: the network ring's slope alone, 2 (k-1)/k / N."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    efa = custom.node("h100-sxm", 8, fabric="EFA")
    ring8 = _base("ring") + 14 * _hop("nvlink", "ring")
    _close(_time(efa, "all_reduce", "hierarchical", "Simple", 8, 1),
           t0 + ring8 + _fill(14, _B, 8) + 14 / 8 * _S / _B)
    _close(_time(efa, "all_reduce", "hierarchical", "Simple", 2, 1),
           t0 + _base("ring") + 2 * _hop("nvlink", "ring") + _fill(2, _B, 2) + _S / _B)
    net = _hop("net", "ring") + _efa()
    n2 = 2 * 50 * GB_per_s * ne
    _close(_time(efa, "all_reduce", "hierarchical", "Simple", 2, 4),
           t0 + _base("ring") + 2 * _hop("nvlink", "ring") + 6 * net + _fill(2, _B, 2)
           + _fill(7, n2) + np.maximum(_S / _B, 2 * 3 / 4 * _S / n2))
    n8 = 8 * 50 * GB_per_s * ne
    tree_net = _hop("net", "tree") + _efa()
    _close(_time(efa, "all_reduce", "sharp", "Simple", 8, 2),
           t0 + ring8 + 2 * tree_net + _fill(14, _B, 8) + _fill(3, n8)
           + np.maximum(14 / 8 * _S / _B, _S / n8))
    from interlib.collective_model.algorithms import time

    big = np.array([4.0, 8.0]) * GiB
    for k in (2, 4):
        t = time(efa, "all_reduce", "hierarchical", "Simple", big, 1, k)
        # compared as rates (bytes/s): a slope of ~1e-11 s/B is below approx's default
        # absolute tolerance (1e-12)
        rate = 4 * GiB / (t[1] - t[0])
        assert rate == pytest.approx(50 * GB_per_s * ne * k / (2 * (k - 1)), rel=1e-9, abs=0)


def test_one_gpu_per_node_has_no_node_phase_and_no_node_fill():
    """hierarchical on one GPU per node (4 nodes): no NVLink hop, no node phase and no
    pipeline fill inside the node (a ring of one GPU has no stage to fill: the fill is
    never negative), so t0 + the ring's base latency + 6 network hops + the network ring's
    fill (7 stages) + 2 x 3/4 S / N, N = one NIC at 50 GB/s x eff."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    efa = custom.node("h100-sxm", 8, fabric="EFA")
    net = _hop("net", "ring") + _efa()
    n1 = 50 * GB_per_s * ne
    _close(_time(efa, "all_reduce", "hierarchical", "Simple", 1, 4),
           t0 + _base("ring") + 6 * net + _fill(7, n1) + 2 * 3 / 4 * _S / n1)


def test_sharp_on_blackwell_runs_at_the_one_node_tree_plateau():
    """CollNetChain on B200 (book's view): across nodes at most 2 S / (8 channels x 70 GB/s,
    tuning.cc's one-node Blackwell tree cap), measured flat from 2 to 64 nodes; NCCL's view
    and Hopper nodes leave it out. Large sizes, so the slope is the binding rate: B200 (IB,
    no plugin latency) max(2 x 7/8 / 721.8 GB/s, 1 / (400 GB/s x eff), 2 / 560 GB/s)."""
    from interlib.collective_model.algorithms import time

    assert C.PER_CHANNEL_TREE_BW["Blackwell"][0].value == 70 * GB_per_s
    big = np.array([4.0, 8.0]) * GiB
    b200 = specs.system("dgx-b200")
    ne = C.NET_EFFICIENCY.value
    bb = b200.gpu.nvlink.per_gpu_effective

    def rate(node, k, view=False):
        """Bytes per second of buffer at the margin (a slope of ~1e-12 s/B would be within
        pytest.approx's default absolute tolerance, so rates are compared)."""
        t = time(node, "all_reduce", "sharp", "Simple", big, 8, k, view)
        return 4 * GiB / (t[1] - t[0])

    for k in (2, 4, 64):
        assert rate(b200, k) == pytest.approx(560 * GB_per_s / 2, rel=1e-9, abs=0)
        assert rate(b200, k, True) == pytest.approx(
            min(bb / 1.75, 400 * GB_per_s), rel=1e-9, abs=0)
        assert rate(specs.system("dgx-h100"), k) == pytest.approx(
            min(_B / 1.75, 400 * GB_per_s * ne), rel=1e-9, abs=0)


def test_nvls_tree_time_by_hand():
    """NVLSTree on H100 (EFA): NVLS in the node (algbw b = 0.85 x B x 8/9, one NVLS hop,
    a pipeline 2 x 8 chunks deep at b x 9/8, a chunk at most S/8) and a double binary tree
    across nodes through the 8 heads' NICs (N): traffic(k) S / N (S, 1.5 S, 2 S for 2, 3, 4
    nodes) in 2 ceil(log2 k) network steps (+ 35 us each; 2 x 35 in NCCL's view); the slower phase sets the
    pace. NCCL's view (tuning.cc): busBw = the NVLS graph's 8 channels (one per head GPU:
    search.cc maxChannels = min(NCCL_MAX_NVLS_ARITY, GPUs)) x min(per-channel NVLS rate,
    NIC rate, perChMaxNVLSTreeBw). The book's view also runs no faster than that last cap:
    busbw <= 8 heads x perChMaxNVLSTreeBw (57.7 GB/s on 2 nodes, 45.5 from 3: tuning.cc)."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    efa = custom.node("h100-sxm", 8, fabric="EFA")
    b = 0.85 * _B * 8 / 9
    d = C.NVLS_PIPELINE_STEPS_PER_GPU.value
    n8 = 400 * GB_per_s * ne
    for k, traffic, steps in ((2, 1.0, 2), (3, 1.5, 4), (4, 2.0, 4)):
        lat = _hop("nvlink", "nvls") + steps * (_hop("net", "nvls_tree") + _efa())
        cap_alg = 8 * _NVLS_TREE_HOPPER[min(k, 3) - 1] * GB_per_s * (8 * k) / (2 * (8 * k - 1))
        _close(_time(efa, "all_reduce", "nvls_tree", "Simple", 8, k),
               np.maximum(t0 + lat + _fill(d * 8, b * 9 / 8, 8) + _fill(steps + 1, n8)
                          + np.maximum(_S / b, traffic * _S / n8), _S / cap_alg))
        # NCCL's view (tuning.cc from 2.28.3): busBw = min(B x 0.85 x 7/8 x 2, 2 or 1 x
        # the heads' NICs at line rate, 8 channels x perChMaxNVLSTreeBw), algbw = busBw x
        # n / (2 (n - 1)); intraLat 25 + 2 log2i(k) x (20.9 + 2 x 35) us
        n = 8 * k
        bus = min(_B * 0.85 * 7 / 8 * 2, (2 if k == 2 else 1) * 400 * GB_per_s,
                  8 * _NVLS_TREE_HOPPER[min(k, 3) - 1] * GB_per_s)
        nccl_lat = 25e-6 + 2 * int(math.log2(k)) * (20.9e-6 + _efa(True))
        _close(_time(efa, "all_reduce", "nvls_tree", "Simple", 8, k, True),
               nccl_lat + _S / (bus * n / (2 * (n - 1))))


def test_nvls_tree_heads_cross_the_network_through_all_their_nics():
    """Each head GPU crosses the network through its own NICs: one NIC per two GPUs (4 NICs
    for 8 GPUs) gives the tree those 4 NICs, 200 GB/s x eff, not more; two NICs per GPU
    (16) give 800 GB/s. In NCCL's view on 3 nodes the NVLS graph's 8 channels (one per
    head GPU, not per NIC) x perChMaxNVLSTreeBw 45.5 = 364 GB/s is then the bound. The
    book's view is held to the same ceiling on two nodes: 4 heads x 57.7 GB/s with 4 NICs
    (one head per GPU with a NIC), 8 x 57.7 with 16."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    b = 0.85 * _B * 8 / 9
    d = C.NVLS_PIPELINE_STEPS_PER_GPU.value
    half = custom.node("h100-sxm", 8, nics_per_gpu=0.5)
    n4 = 4 * 50 * GB_per_s * ne
    lat = _hop("nvlink", "nvls") + 2 * _hop("net", "nvls_tree")
    to_alg = 16 / (2 * 15)  # busbw -> algbw on 16 GPUs
    _close(_time(half, "all_reduce", "nvls_tree", "Simple", 8, 2),
           np.maximum(t0 + lat + _fill(d * 8, b * 9 / 8, 8) + _fill(3, n4)
                      + np.maximum(_S / b, _S / n4), _S / (4 * 57.7 * GB_per_s * to_alg)))
    two = custom.node("h100-sxm", 8, nics_per_gpu=2)
    n16 = 16 * 50 * GB_per_s
    # NCCL's view on 3 nodes: the 16 NICs (800 GB/s) and B x 0.85 x 7/8 x 2 = 552 GB/s
    # against 8 channels x 45.5 GB/s = 364 GB/s: the cap binds; log2i(3) = 1 step up, 1 down
    lat3 = 25e-6 + 2 * 20.9e-6
    bus = min(_B * 0.85 * 7 / 8 * 2, n16, 8 * 45.5 * GB_per_s)
    assert bus == 8 * 45.5 * GB_per_s
    _close(_time(two, "all_reduce", "nvls_tree", "Simple", 8, 3, True),
           lat3 + _S / (bus * 24 / 46))
    _close(_time(two, "all_reduce", "nvls_tree", "Simple", 8, 2),
           np.maximum(t0 + lat + _fill(d * 8, b * 9 / 8, 8) + _fill(3, n16 * ne)
                      + np.maximum(_S / b, _S / (n16 * ne)), _S / (8 * 57.7 * GB_per_s * to_alg)))


def test_nvls_tree_crosses_the_network_through_32_heads_in_a_rack():
    """GB200 NVL72 on two racks: at most 32 head GPUs per domain, each with its own NIC, so
    the tree crosses the network at 32 x 50 GB/s x eff, not 72 x: the network fill is
    2 x min(window, S / 16) over that rate (the NVLS phase binds the bandwidth term)."""
    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    rack = specs.system("gb200-nvl72")
    b = co.nvls_rate("gb200-nvl72", 72, 2)
    heads = 32 * 50 * GB_per_s * ne
    n72 = 72 * 50 * GB_per_s * ne
    d = C.NVLS_PIPELINE_STEPS_PER_GPU.value
    lat = _hop("nvlink", "nvls") + 2 * _hop("net", "nvls_tree")
    _close(_time(rack, "all_reduce", "nvls_tree", "Simple", 72, 2),
           t0 + lat + _fill(d * 72, b * 73 / 72, 72) + _fill(3, heads)
           + np.maximum(_S / b, _S / heads))
    assert heads < n72
    # two NICs per GPU: the 32 heads' 64 NICs
    two = custom.node("gb200", 72, nics_per_gpu=2)
    _close(_time(two, "all_reduce", "nvls_tree", "Simple", 72, 2),
           t0 + lat + _fill(d * 72, b * 73 / 72, 72) + _fill(3, 2 * heads)
           + np.maximum(_S / b, _S / (2 * heads)))


def test_nvls_tree_on_b200_takes_ncclS_x86_correction_in_the_books_view_only():
    """NCCL v2.29's NVLSTree correction on Blackwell with an x86 host (B200): below 1 GiB
    the bandwidth term is divided by the factor of log2(S / 64); hierarchical and SHARP do
    not take it. At 4 GiB, beyond the table, nothing changes: compare with the formula of
    test_nvls_tree_time_by_hand on a B200 node."""
    from interlib.collective_model.algorithms import time

    t0, ne = C.LAUNCH_OVERHEAD.value, C.NET_EFFICIENCY.value
    b200 = specs.system("dgx-b200")
    bb = b200.gpu.nvlink.per_gpu_effective
    b = 0.74 * bb * 8 / 9
    assert C.NVLS_EFFICIENCY["Blackwell"].value == 0.74
    corr = C.NVLS_TREE_CORRECTION_BLACKWELL_X86
    n8 = 400 * GB_per_s * ne
    d = C.NVLS_PIPELINE_STEPS_PER_GPU.value
    lat = _hop("nvlink", "nvls") + 2 * _hop("net", "nvls_tree")
    f = np.array([corr[i] if i < len(corr) else 1.0
                  for i in (int(math.floor(math.log2(max(s / 64, 1)))) for s in _S)])
    assert f[-1] == 1.0 and f[0] == corr[0] and f[2] == corr[14]
    _close(_time(b200, "all_reduce", "nvls_tree", "Simple", 8, 2),
           t0 + lat + _fill(d * 8, b * 9 / 8, 8) + _fill(3, n8)
           + np.maximum(_S / b, _S / n8) / f)
    # hierarchical on the same B200 nodes is not corrected
    ring8 = _base("ring") + 14 * _hop("nvlink", "ring")
    _close(time(b200, "all_reduce", "hierarchical", "Simple", _S, 8, 2),
           t0 + ring8 + 2 * _hop("net", "ring") + _fill(14, bb, 8) + _fill(3, n8)
           + np.maximum(14 / 8 * _S / bb, _S / n8))


# ------------------------------------------- NVLSTree's per-channel ceiling (issue 37)
def test_two_node_nvls_tree_plateau_is_nccls_per_channel_ceiling():
    # tuning.cc perChMaxNVLSTreeBws, Hopper {0.0, 57.7, 45.5} (v2.28.3-1 line 196), one
    # channel per head GPU (8 on a DGX H100 with 8 NICs): 8 x 57.7 = 461.6 GB/s of busbw on
    # two nodes, under the ~520 the links alone give; the published two-node plateaus are
    # 430-487 GB/s (NVIDIA/nccl-tests#309 469 at 16 GiB on NCCL 2.26.2)
    from interlib.collective_model import algorithms as A

    p = co.predict("all_reduce", 16 * GiB, "dgx-h100", 8, 2, "nvls_tree")
    assert p.busbw == pytest.approx(8 * 57.7e9, rel=1e-9)
    assert A.nvls_tree_cap(specs.system("dgx-h100"), 8, 2, "2.18.5") == pytest.approx(461.6e9)
    # three nodes and more: the N4 column, 8 x 45.5 = 364 GB/s
    assert A.nvls_tree_cap(specs.system("dgx-h100"), 8, 4, "2.30.7") == pytest.approx(364e9)
    # NCCL's own estimate applies its cap through tuner.algbw, not twice
    e = co.nccl_estimate("all_reduce", 16 * GiB, "dgx-h100", 8, 2, "nvls_tree")
    assert e.busbw <= 8 * 57.7e9 * (1 + 1e-9)


def test_nvls_tree_ceiling_follows_the_release_on_blackwell():
    # Blackwell's 3+-node column: 43.1 from v2.28.3, 43.8 from v2.28.9, 80.0 from v2.30.3
    # (tuning.cc at each tag); a release before 2.28.3 takes 2.28.3's
    from interlib.collective_model import algorithms as A

    b200 = specs.system("dgx-b200")
    got = [A.nvls_tree_cap(b200, 8, 4, v) / 1e9 for v in ("2.26.2", "2.28.3", "2.29.7", "2.30.7")]
    assert got == pytest.approx([8 * 43.1, 8 * 43.1, 8 * 43.8, 8 * 80.0])
    assert A.nvls_tree_cap(b200, 8, 2, "2.30.7") == pytest.approx(8 * 96.0e9)
    # no NVLS on Ampere: no row, no cap
    assert A.nvls_tree_cap(specs.system("dgx-a100"), 8, 2, "2.30.7") is None


def test_nvlstree_on_four_b200_nodes_is_capped_by_the_runs_release():
    """NCCL's per-channel NVLSTree ceiling at 3+ nodes on Blackwell (tuning.cc
    perChMaxNVLSTreeBws, read at each tag in tests/test_nccl_tuning.py: 43.1 GB/s at
    v2.28.3-1, 43.8 at v2.28.9-1) times 8 head GPUs is the busbw of 4 x 8 B200 at 16 GiB in
    the book's view, by the release the run states: 8 x 43.1 = 344.8, 8 x 43.8 = 350.4 GB/s.
    From 2.30.3 (80 per channel, 640 GB/s) the network, not the cap, sets the pace."""
    from interlib.collective_model.algorithms import time

    b200, S, n = specs.system("dgx-b200"), np.array([16 * GiB]), 32
    busbw = {v: float(S[0] / time(b200, "all_reduce", "nvls_tree", "Simple", S, 8, 4,
                                  False, v)[0] * 2 * (n - 1) / n)
             for v in ("2.28.3", "2.28.9", "2.30.3")}
    assert busbw["2.28.3"] == pytest.approx(8 * 43.1 * GB_per_s, rel=1e-12)
    assert busbw["2.28.9"] == pytest.approx(8 * 43.8 * GB_per_s, rel=1e-12)
    assert busbw["2.30.3"] > 8 * 43.8 * GB_per_s



def test_nvls_asked_for_across_nodes_is_nvlstree():
    """algorithms.nvls's docstring: across nodes it is NVLSTree, the same time to the last
    bit (NCCL's NVLS across nodes needs CollNet, which the model does not cover)."""
    from interlib.collective_model.algorithms import time

    S = 2.0 ** np.arange(10, 35, 4)
    for name, g in (("dgx-h100", 8), ("dgx-b200", 8), ("gb200-nvl72", 72)):
        node = specs.system(name)
        for k in (2, 4):
            assert time(node, "all_reduce", "nvls", "Simple", S, g, k).tolist() == \
                time(node, "all_reduce", "nvls_tree", "Simple", S, g, k).tolist(), (name, k)
