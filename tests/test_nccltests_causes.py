"""The likely causes (interlib.nccltests.causes), read whole: what the log states (each cause
quoting its line), the data errors, and the scores' rule.

Logs are synthetic nccl-tests logs (as in test_nccltests.py: times that give a chosen busbw)
at half the model's busbw, so every regime is below, with NCCL's own INFO/WARN lines added
in NCCL's formats (``via NET/Socket/0``, ``via NET/IB/0`` without ``/GDRDMA``, ``via SHM``,
``NET/IB : Using [0]mlx5_0:1/IB ...``, ``%d coll channels``, ``%s set by environment to
%s.``). Each stated cause's words are its contract with the reader (what it says the log
shows, and the line quoted): compared whole. Scores by hand from the docstrings.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from interlib import collectives
from interlib import nccltests as N
from interlib.nccltests import causes as K

GB = 1e9
SIZES = 2.0 ** np.arange(3, 34)
HEADER = ("#       size         count      type   redop    root     time   algbw   busbw "
          "#wrong     time   algbw   busbw #wrong")


def synthetic_log(busbw, n, wrong=0, oob=0, error=None):
    f = collectives.bus_factor("all_reduce", n)
    out = ["# Collective test starting: all_reduce_perf", "#"]
    out += [f"#  Rank {r:2d} Group  0 Pid  1 on node{r // 8} device {r % 8:2d} [0000:00:00] GPU"
            for r in range(n)]
    head = HEADER if error is None else HEADER.replace("#wrong", " error")
    out.append(head)
    for i, (s, b) in enumerate(zip(SIZES, busbw)):
        t = s * f / b
        a = s / t / GB
        w = (f"{wrong:6d}" if error is None else f"{error:6.0e}") if i == len(SIZES) - 1 \
            else ("     0" if error is None else " 0e+00")
        out.append(f"{int(s):12d} {int(s) // 4:12d}  float  sum  -1  {t * 1e6:9.2f} {a:7.2f} "
                   f"{a * f:7.2f} {w}  {t * 1e6:9.2f} {a:7.2f} {a * f:7.2f} {w}")
    out.append(f"# Out of bounds values : {oob} {'OK' if not oob else 'FAILED'}")
    return out


def _half(system="dgx-h100", g=8, k=2):
    return collectives.predict("all_reduce", SIZES, system, g, k).busbw / 2


P = "node0:1:2 [0] NCCL INFO "
STATED = [P + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0",
          "node0:1:2 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
          P + "Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct",
          P + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:<ip>",
          P + "2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels",
          P + "NCCL_ALGO set by environment to Ring",
          P + "NCCL_P2P_DISABLE set by environment to 0",
          P + "NCCL_IB_DISABLE set by environment to 1"]


def _cite(lines, text):
    n = lines.index(text) + 1
    return f"line {n}: '{text.replace('node0', '<host>')}'"


def test_every_stated_cause_whole_and_first():
    lines = synthetic_log(_half(), 16) + STATED
    cmp_ = N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100")
    stated = [d for d in cmp_.diagnoses if d.stated]
    assert [d.key for d in cmp_.diagnoses[:len(stated)]] == [d.key for d in stated]
    c = {t: _cite(lines, t) for t in STATED}
    assert [(d.key, d.title, d.evidence, d.chapter, d.heading, d.check, d.score)
            for d in stated] == [
        ("socket", "TCP sockets between the nodes, not RDMA",
         f"The log shows NCCL's socket transport ({c[STATED[0]]}); and {c[STATED[1]]}.",
         "chapters/05_infiniband", "RDMA versus the TCP path",
         "ibv_devinfo (the RDMA NICs are there and Active); NCCL_IB_DISABLE and NCCL_NET "
         "unset; the RDMA libraries (libibverbs, the cloud's network plugin) installed where "
         "the test runs", 1.0),
        ("gdr_off", "GPUDirect RDMA off: the NIC reads GPU memory through the host",
         f"The log says so ({c[STATED[0]]}).", "chapters/05_infiniband",
         "From GPU memory to the wire: GPUDirect RDMA, rails and queue pairs",
         "the GPU and its NIC under one PCIe switch (topology map); the peer-memory kernel "
         "module loaded; NCCL_NET_GDR_LEVEL not lowered by hand", 0.95),
        ("shm", "GPUs in a node exchanging through host memory (SHM), not directly",
         f"The log shows the shared-memory transport inside a node ({c[STATED[2]]}).",
         "chapters/02_pcie", "Reading a real server: topology, NUMA, ACS and GPUDirect",
         "peer-to-peer between the GPUs (topology map, ACS off); NCCL_P2P_DISABLE unset",
         0.9),
        ("few_nics", "2 NICs in use where the system has 8",
         f"The log lists them ({c[STATED[3]]}).", "chapters/05_infiniband",
         "From GPU memory to the wire: GPUDirect RDMA, rails and queue pairs",
         "every NIC up at its rate; NCCL_IB_HCA not narrowing the list", 0.85),
        ("few_channels", "Only 2 channels", f"The log says so ({c[STATED[4]]}).",
         "chapters/01_why_connect",
         "How NCCL runs a collective: channels, protocols and trees",
         "NCCL_MAX_NCHANNELS / NCCL_MIN_NCHANNELS not set by hand; the topology NCCL "
         "detected (NCCL_DEBUG_SUBSYS=GRAPH)", 0.8),
        # NCCL_P2P_DISABLE=0 is no change; NCCL_ALGO (any value) and NCCL_IB_DISABLE=1 are
        ("env", "NCCL settings changed by hand",
         f"The log sets NCCL_ALGO=Ring ({c[STATED[5]]}); NCCL_IB_DISABLE=1 ({c[STATED[7]]}).",
         "chapters/01_why_connect",
         "How NCCL runs a collective: channels, protocols and trees",
         "rerun without them (or with each in turn) and compare", 0.75)]


def test_stated_causes_that_need_several_nodes():
    """On one node: no socket, GDR or NIC cause (nothing crossed the network); SHM and the
    channels still count."""
    lines = synthetic_log(_half(g=8, k=1), 8) + STATED
    keys = [d.key for d in N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100").diagnoses
            if d.stated]
    assert keys == ["shm", "few_channels", "env"]


def test_stated_causes_edges():
    base = synthetic_log(_half(), 16)
    one = base + [P + "1 coll channels, 1 p2p channels",
                  P + "Using network Socket"]
    ds = {d.key: d for d in N.compare(N.parse("\n".join(one) + "\n"), "dgx-h100").diagnoses}
    assert ds["few_channels"].title == "Only 1 channel"
    # the network named Socket (no transport line), no ibverbs warning: no "; and"
    assert ds["socket"].evidence == (f"The log shows NCCL's socket transport "
                                     f"({_cite(one, one[-1])}).")
    three = base + [P + "3 coll channels, 3 p2p channels",
                    P + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA",
                    P + "NET/IB : Using " + " ".join(f"[{i}]mlx5_{i}:1/IB" for i in range(8))]
    keys = [d.key for d in N.compare(N.parse("\n".join(three) + "\n"),
                                     "dgx-h100").diagnoses if d.stated]
    assert keys == []            # 3 channels, GDR on, all 8 NICs: nothing stated
    # SHM between GPUs of a PCIe-only node is how such a node works: not a cause
    pcie = synthetic_log(_half("h100-pcie-only", 8, 1), 8) + [STATED[2]]
    keys = [d.key for d in N.compare(N.parse("\n".join(pcie) + "\n"),
                                     "h100-pcie-only").diagnoses]
    assert "shm" not in keys
    # two GPUs in all: few channels is no cause (one or two rings are all there is)
    two = synthetic_log(collectives.predict("all_reduce", SIZES, "dgx-h100", 2, 1).busbw / 2,
                        2) + [STATED[4]]
    keys = [d.key for d in N.compare(N.parse("\n".join(two) + "\n"), "dgx-h100",
                                     gpus_per_node=2).diagnoses]
    assert "few_channels" not in keys


def test_stated_causes_at_their_gpu_counts():
    """SHM is a cause from two GPUs in a node (one GPU per node has no peer inside it); two
    channels are few from three GPUs in all, however they are split into nodes."""
    def keys(g, k, extra):
        busbw = collectives.predict("all_reduce", SIZES, "dgx-h100", g, k).busbw / 2
        lines = synthetic_log(busbw, g * k) + extra
        return [d.key for d in N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100",
                                         gpus_per_node=g, nodes=k).diagnoses if d.stated]
    assert "shm" in keys(2, 1, [STATED[2]])
    assert "shm" not in keys(1, 2, [STATED[2]])
    channels = [STATED[4]]                                    # 2 coll channels
    assert "few_channels" in keys(3, 1, channels)
    assert "few_channels" in keys(2, 2, channels)
    assert "few_channels" in keys(1, 4, channels)
    assert "few_channels" not in keys(2, 1, channels)
    assert "few_channels" not in keys(1, 2, channels)


def test_nothing_below_no_stated_cause():
    """A healthy run (in the band) with the same lines gets no diagnosis: causes explain a
    shortfall."""
    first = N.compare(N.parse("\n".join(synthetic_log(_half() * 2, 16)) + "\n"), "dgx-h100")
    mid = np.sqrt(first.low * first.high)
    lines = synthetic_log(mid, 16) + STATED
    cmp_ = N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100")
    assert {v.status for v in cmp_.verdicts} == {"within"} and cmp_.diagnoses == ()


@pytest.mark.parametrize("kw, what", [
    ({"wrong": 12}, "24 wrong elements in the #wrong columns"),   # 12 out- and 12 in-place
    ({"oob": 3}, "3 out-of-bounds values"),
    ({"error": 0.5}, "a maximum error of 0.5 in the error columns"),
])
def test_data_errors_whole(kw, what):
    lines = synthetic_log(_half(), 16, **kw)
    d = N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100").diagnoses[0]
    assert (d.key, d.title, d.evidence, d.chapter, d.heading, d.check, d.score, d.stated) == (
        "data_errors", "Wrong results: a faulty GPU, link or NIC", f"The log reports {what}.",
        "chapters/08_impact", "Failures at scale",
        "nvidia-smi -q -d ECC,ROW_REMAPPER; dmesg | grep -i xid; ibstat (port errors); rerun "
        "with -c 1 on subsets of the nodes to find the one that corrupts", 1.0, True)


def test_an_error_at_the_limit_is_rounding():
    assert K.ERROR_LIMIT == 1e-2
    lines = synthetic_log(_half(), 16, error=1e-2)
    keys = [d.key for d in N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100").diagnoses]
    assert "data_errors" not in keys
    # with out-of-bounds values too, the error at the limit is not what is reported
    lines = synthetic_log(_half(), 16, error=1e-2, oob=3)
    d = N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100").diagnoses[0]
    assert (d.key, d.evidence) == ("data_errors", "The log reports 3 out-of-bounds values.")


def test_match_scores_by_hand():
    assert K.MATCH_TOLERANCE == 1.5
    assert K._match(3.0, 3.0) == 1.0
    assert K._match(1.0, 1.5) == pytest.approx(0.0, abs=1e-12)
    assert K._match(1.5, 1.0) == pytest.approx(0.0, abs=1e-12)
    assert K._match(1.0, math.sqrt(1.5)) == pytest.approx(0.5, rel=1e-12)
    assert K._match(1.0, 3.0) == 0.0            # beyond the tolerance: 0, not negative
    assert K._match(0.0, 1.0) == 0.0 and K._match(1.0, -1.0) == 0.0
    assert K._match(1.0, 0.0) == 0.0            # a zero prediction: no match, no error
    # the rule is on the ratio alone: values below 1 (bytes/s or a fraction) score alike
    assert K._match(0.5, 0.5) == 1.0
    assert K._match(0.4, 0.4 * math.sqrt(1.5)) == pytest.approx(0.5, rel=1e-12)


def test_ranked_order_and_zero_scores_dropped():
    mk = lambda key, score, stated=False: N.Diagnosis(key, "t", "e", "c", "h", "x", score,  # noqa: E731
                                                      stated)
    ds = [mk("half_nics", 0.9), mk("env", 0.75, True), mk("separate_domains", 0.4),
          mk("zero", 0.0), mk("data_errors", 1.0, True), mk("pcie_p2p", 0.95),
          mk("socket", 1.0, True)]
    assert [d.key for d in K._ranked(ds)] == ["data_errors", "separate_domains", "socket",
                                              "env", "pcie_p2p", "half_nics"]


def test_diagnose_refuses_what_is_not_a_comparison():
    with pytest.raises(ValueError) as e:
        K.diagnose("cmp", "dgx-h100")
    assert str(e.value).startswith("cmp_='cmp' must be a Comparison from "
                                   "interlib.nccltests.compare")


# ------------------------------------------------------------------ the curve's signatures

def _fmt(x):
    return f"{x / GB:.0f} GB/s"


def _plateaus(cmp_):
    return float(np.median(cmp_.measured[-3:])), float(np.median(cmp_.predicted[-3:]))


def _alt(node, cmp_, **kw):
    return float(np.median(collectives.predict("all_reduce", cmp_.sizes[-3:], node,
                                               cmp_.gpus_per_node, cmp_.nodes, **kw).busbw))


def _cmp(busbw, n, system="dgx-h100", **kw):
    return N.compare(N.parse("\n".join(synthetic_log(busbw, n)) + "\n"), system, **kw)


def test_half_nics_whole():
    """At the model of the same node with 4 NICs instead of 8 (ConnectX-7, 400 Gb/s)."""
    from interlib.specs import custom
    half = custom.node("h100-sxm", 8, nics_per_node=4, nic_gbps=400, name="alternative")
    cmp_ = _cmp(collectives.predict("all_reduce", SIZES, half, 8, 2).busbw, 16)
    d = next(d for d in cmp_.diagnoses if d.key == "half_nics")
    plateau, pred = _plateaus(cmp_)
    alt = _alt(half, cmp_)
    assert (d.title, d.evidence, d.chapter, d.heading, d.check, d.stated) == (
        "Half the network bandwidth: one NIC per two GPUs, a NIC down, or GPUDirect RDMA off",
        f"The plateau, {_fmt(plateau)}, is near the model's {_fmt(alt)} with half the NICs "
        f"(full: {_fmt(pred)}).", "chapters/05_infiniband",
        "From GPU memory to the wire: GPUDirect RDMA, rails and queue pairs",
        "ibstat (every port Active at the expected rate); nvidia-smi topo -m (each GPU's NIC "
        "at PIX or PXB); with NCCL_DEBUG=INFO, count the NICs in 'NET/IB : Using' and look "
        "for '/GDRDMA' in the 'via NET/IB' lines", False)
    assert d.score == pytest.approx(K._match(plateau, alt), rel=1e-12) and d.score > 0.9


@pytest.mark.parametrize("nics, half", [(2, 1), (3, 1)])
def test_half_nics_of_a_node_with_few_nics(nics, half):
    """Half of two or three NICs is one (NICs are whole): the alternative of a node of 8
    GPUs with 2 or 3 NICs of 400 Gb/s is the same node with one."""
    from interlib.specs import custom
    mine = custom.node("h100-sxm", 8, nics_per_node=nics, nic_gbps=400, name="mine")
    one = custom.node("h100-sxm", 8, nics_per_node=half, nic_gbps=400, name="one")
    cmp_ = _cmp(collectives.predict("all_reduce", SIZES, one, 8, 2).busbw, 16, mine)
    d = next(d for d in cmp_.diagnoses if d.key == "half_nics")
    plateau, pred = _plateaus(cmp_)
    assert d.evidence == (f"The plateau, {_fmt(plateau)}, is near the model's "
                          f"{_fmt(_alt(one, cmp_))} with half the NICs (full: {_fmt(pred)}).")
    assert d.score > 0.9


def test_pcie_p2p_whole():
    from interlib.specs import custom
    pcie = custom.node("h100-sxm", 8, intra="pcie", name="alternative")
    cmp_ = _cmp(collectives.predict("all_reduce", SIZES, pcie, 8, 1).busbw, 8)
    d = cmp_.diagnoses[0]
    plateau, pred = _plateaus(cmp_)
    assert (d.key, d.title, d.evidence, d.chapter, d.heading, d.check) == (
        "pcie_p2p", "GPUs talking over PCIe: peer-to-peer blocked (ACS, IOMMU) or NVLink "
        "unused", f"The plateau, {_fmt(plateau)}, is near the model's "
        f"{_fmt(_alt(pcie, cmp_))} for the same GPUs over PCIe (NVLink: {_fmt(pred)}).",
        "chapters/02_pcie", "Reading a real server: topology, NUMA, ACS and GPUDirect",
        "nvidia-smi topo -m (NV# between GPUs, not SYS or PHB); nvidia-smi topo -p2p r; with "
        "NCCL_DEBUG=INFO, 'via P2P/IPC' or 'via P2P/CUMEM' rather than 'via SHM'; lspci -vvv "
        "| grep ACSCtl; NCCL_P2P_DISABLE unset")


def test_no_nvls_whole_and_not_when_the_log_shows_nvls():
    cmp_ = _cmp(collectives.predict("all_reduce", SIZES, "dgx-h100", 8, 1, nvls=False).busbw,
                8)
    d = cmp_.diagnoses[0]
    plateau, pred = _plateaus(cmp_)
    alt = _alt("dgx-h100", cmp_, nvls=False)
    assert (d.key, d.title, d.evidence, d.chapter, d.heading, d.check) == (
        "no_nvls", "NVLink SHARP (NVLS) not in use",
        f"The plateau, {_fmt(plateau)}, is near the model's {_fmt(alt)} without NVLS (with "
        f"it: {_fmt(pred)}).", "chapters/04_nvswitch",
        "In-switch reduction: NVLink SHARP (NVLS)",
        "NCCL_NVLS_ENABLE unset; nvidia-smi -q | grep -i -A2 fabric (state Completed); "
        "systemctl status nvidia-fabricmanager (or nvidia-imex on NVL72); with "
        "NCCL_DEBUG=INFO, the 'NVLS multicast support is available' line")
    lines = synthetic_log(collectives.predict("all_reduce", SIZES, "dgx-h100", 8, 1,
                                              nvls=False).busbw, 8)
    lines.append(P + "NVLS multicast support is available on dev 0")
    keys = [x.key for x in N.compare(N.parse("\n".join(lines) + "\n"), "dgx-h100").diagnoses]
    assert "no_nvls" not in keys


def test_slow_everywhere_whole():
    """A third of the model everywhere (a tenth would be PCIe's) matches no fault: the
    catch-all, at score 0.2."""
    cmp_ = _cmp(collectives.predict("all_reduce", SIZES, "dgx-h100", 8, 1).busbw / 3, 8)
    d = next(d for d in cmp_.diagnoses if d.key == "slow_everywhere")
    plateau, pred = _plateaus(cmp_)
    assert (d.title, d.evidence, d.chapter, d.heading, d.check, d.score) == (
        "Below the model with no hardware signature: clocks, other jobs, or a degraded link",
        f"The plateau, {_fmt(plateau)}, is {plateau / pred:.0%} of the model's {_fmt(pred)} "
        "and matches none of the faults above.", "chapters/08_impact",
        "Sharing the fabric: interference from other jobs",
        "nvidia-smi -q -d CLOCK,PERFORMANCE (throttle reasons); nvidia-smi nvlink -s (every "
        "link up at full rate); other jobs on the nodes or the switches", 0.2)
    assert f"{plateau / pred:.0%}" == "33%"


def test_slow_everywhere_whatever_the_data_errors():
    """Wrong elements do not explain a slow curve: a run at a third of the model with
    wrong results gets the data errors first and the catch-all too."""
    lines = synthetic_log(collectives.predict("all_reduce", SIZES, "dgx-h100", 8, 1).busbw
                          / 3, 8, wrong=5)
    keys = [d.key for d in N.compare(N.parse("\n".join(lines) + "\n"),
                                     "dgx-h100").diagnoses]
    assert keys[0] == "data_errors" and "slow_everywhere" in keys


def test_a_signature_must_score_above_0_3_to_stand_alone(monkeypatch):
    """The catch-all is added unless some cause scores above 0.3: at exactly 0.3 (the
    match score given) it is still added."""
    cmp_ = _cmp(collectives.predict("all_reduce", SIZES, "dgx-h100", 8, 1).busbw / 3, 8)
    monkeypatch.setattr(K, "_match", lambda x, y: 0.3)
    monkeypatch.setattr(K, "_alternative", lambda c, s, **ch: 1.0 if "intra" in ch else None)
    ds = {d.key: d.score for d in K.diagnose(cmp_, "dgx-h100")}
    # (the small sizes, a third of the model too, add the floor: ln 3 / ln 8, not counted)
    assert ds == {"pcie_p2p": 0.3, "slow_everywhere": 0.2,
                  "high_floor": pytest.approx(math.log(3) / math.log(8), rel=0.02)}
    monkeypatch.setattr(K, "_match", lambda x, y: 0.31)
    assert {d.key for d in K.diagnose(cmp_, "dgx-h100")} == {"pcie_p2p", "high_floor"}


def test_high_floor_and_mid_sizes_whole():
    from interlib import intervals
    from interlib.display import fmt_bytes
    model = collectives.predict("all_reduce", SIZES, "dgx-h100", 8, 1).busbw
    lo, hi = intervals.REGIMES[0][1], intervals.REGIMES[0][2]
    slow_small = np.where(SIZES < hi, model / 5, model)       # small sizes 5 x slower
    cmp_ = _cmp(slow_small, 8)
    d = next(d for d in cmp_.diagnoses if d.key == "high_floor")
    sel = (SIZES >= lo) & (SIZES < hi)
    ratio = float(np.median(cmp_.predicted[sel] / cmp_.measured[sel]))
    assert ratio == pytest.approx(5, rel=0.02)               # the log's two decimals
    assert (d.title, d.evidence, d.chapter, d.heading, d.check) == (
        "A high small-message floor: a slow network path (TCP sockets instead of RDMA, a "
        "slow plugin) or extra hops",
        f"Below {fmt_bytes(hi, binary=True)} each call takes {ratio:.1f} times the model's "
        "time.", "chapters/05_infiniband", "RDMA versus the TCP path",
        "with NCCL_DEBUG=INFO, 'NET/IB' (RDMA) or the cloud's plugin, not 'NET/Socket', in "
        "the 'Using network' line; ibv_devinfo; the switch hops between the nodes")
    # score: ln(ratio) / ln(4 x FLOOR_FACTOR) = ln 5 / ln 8
    assert d.score == pytest.approx(math.log(ratio) / math.log(8), rel=1e-12)
    # twice the model's time is the edge (FLOOR_FACTOR), counted in: measured exactly half
    # the model below 1 MiB (the comparison's own curves, halved), the score ln 2 / ln 8
    assert K.FLOOR_FACTOR == 2.0
    import dataclasses
    small = cmp_.sizes < hi
    at = dataclasses.replace(cmp_, measured=np.where(small, cmp_.predicted / 2,
                                                     cmp_.measured))
    edge = next(x for x in K.diagnose(at, "dgx-h100") if x.key == "high_floor")
    assert edge.score == pytest.approx(1 / 3, rel=1e-12)
    # ten times the model's time scores 1 (capped: ln 10 / ln 8 > 1)
    ten = next(x for x in _cmp(np.where(SIZES < hi, model / 10, model), 8).diagnoses
               if x.key == "high_floor")
    assert ten.score == 1.0
    # just under twice, no floor
    under = _cmp(np.where(SIZES < hi, model / 1.9, model), 8)
    assert "high_floor" not in [x.key for x in under.diagnoses]
    mid = np.where((SIZES >= intervals.REGIMES[1][1]) & (SIZES < intervals.REGIMES[-2][2]),
                   model / 10, model)
    m = next(d for d in _cmp(mid, 8).diagnoses if d.key == "mid_sizes")
    assert (m.title, m.evidence, m.chapter, m.heading, m.check, m.score) == (
        "Mid sizes only: protocol, channel or buffer settings",
        f"Sizes from {fmt_bytes(intervals.REGIMES[1][1], binary=True)} to "
        f"{fmt_bytes(intervals.REGIMES[-2][2], binary=True)} are below the band while large "
        "ones are not.", "chapters/01_why_connect",
        "How NCCL runs a collective: channels, protocols and trees",
        "env | grep NCCL_ (NCCL_ALGO, NCCL_PROTO, NCCL_BUFFSIZE, NCCL_MIN_NCHANNELS, "
        "NCCL_MAX_NCHANNELS set by hand?); NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING", 0.5)
