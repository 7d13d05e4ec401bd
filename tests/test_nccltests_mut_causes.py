"""The tray-shape diagnoses and the hardware alternatives of interlib.nccltests.causes, read
whole and at their edges (issue 38 item 6: what the mutation run of causes.py found
untested).

The inputs are real logs of the corpus (tests/fixtures/nccltests/SOURCES.md): Oracle's two
GB300 trays of one rack (``oci_gb300_2trays_all_reduce_elided.log``), OKE's four GB300 trays
in one IMEX domain, CoreWeave's 20 GB200 NVL72 racks, Google's two A4X Max trays in
distinct NVLink domains (and its JobSet rerun), and Google's A3 Mega run. Each plateau is
the median of the three largest sizes' printed out-of-place busbw, read from the log by
hand; the model's values are ``collectives.predict`` at the shape each sentence names.

The shape rules at their edges (``_one_domain``, ``_separate_domains``): the other shape is
a hypothesis only when its prediction differs from the compared one by more than a tenth
(above ``pred / 0.9`` for one domain, below ``pred * 0.9`` for separate domains: the same
margin the hardware causes use), and only when the plateau matches it strictly better than
the prediction compared (a tie keeps the reader's shape). These take the model's value of
the other shape as given (monkeypatched) to sit exactly on each edge.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from interlib import collectives
from interlib import nccltests as N
from interlib.nccltests import causes as K
from interlib.specs import custom

FIX = Path(__file__).parent / "fixtures" / "nccltests"
GB = 1e9
CH4 = ("chapters/04_nvswitch", "Beyond one box: NVL72 and multi-rack domains")
ONE_TITLE = "These trays look like one NVLink domain: the run did not cross the network"
ONE_CHECK = ("nvidia-smi -q | grep -i -A3 fabric (the same ClusterUUID and CliqueId on every "
             "tray: one NVLink domain); with NCCL_DEBUG=INFO, 'via P2P' or NVLS rather than "
             "'via NET' between the trays")
SEP_TITLE = ("These trays look like different NVLink domains: the run crossed the network")
SEP_CHECK = ("whether the trays share one NVLink domain: nvidia-smi -q | grep -i -A3 fabric "
             "(the same ClusterUUID and CliqueId on every tray, State Completed); where the "
             "scheduler placed them (one rack, one node pool or topology block); nvidia-imex "
             "running")


def run_of(name):
    return N.parse(N.decode((FIX / name).read_bytes()))


def model(cmp_, system, g, k):
    """The model's plateau (median busbw of the run's three largest sizes) at g x k."""
    return float(np.median(collectives.predict(cmp_.collective, cmp_.sizes[-3:], system, g,
                                               k).busbw))


def gbs(x):
    return f"{x / GB:.0f} GB/s"


def score(plateau, alt):
    """The docstring's rule by hand: 1 at equality, 0 a factor 1.5 apart."""
    return max(0.0, 1 - abs(math.log(plateau / alt)) / math.log(1.5))


# ----------------------------------------------------- one NVLink domain, read whole

@pytest.mark.parametrize("name, system, shape, plateau, hosts, g", [
    # two rows, out-of-place busbw 838.38 and 841.63: median 840.0; Rank lines elided, so
    # the host count is not used: 8 ranks fill at least 8 / 4 = 2 trays
    ("oci_gb300_2trays_all_reduce_elided.log", "gb300-nvl72", (4, 2), "840 GB/s",
     "8 ranks fill at least 2 trays of 4 GPUs", 8),
    # 685.07, 694.58, 701.33: median 694.58; 16 Rank lines on 4 hosts
    ("oke_gb300_4x4_imex_all_reduce_two_blocks.md.log", "gb300-nvl72", (4, 4), "695 GB/s",
     "The Rank lines name 4 hosts of 4 GPUs: 4-GPU trays", 16),
    # 346.38, 381.48, 405.74: median 381.48; one Rank line (1439): 1440 ranks, 360 trays;
    # 1440 GPUs are 20 whole racks of 72
    ("coreweave_gb200_nvl72_20racks_all_reduce.log", "gb200-nvl72", (4, 360), "381 GB/s",
     "1440 ranks fill at least 360 trays of 4 GPUs", 72),
])
def test_one_domain_whole(name, system, shape, plateau, hosts, g):
    cmp_ = N.compare(run_of(name), system, *shape)
    d = cmp_.diagnoses[0]
    n = shape[0] * shape[1]
    k = n // g
    alt, pred = model(cmp_, system, g, k), model(cmp_, system, *shape)
    assert gbs(float(np.median(cmp_.measured[-3:]))) == plateau
    nodes = f"{k} node{'s' if k != 1 else ''} of {g}"
    assert (d.key, d.title, d.evidence, d.chapter, d.heading, d.check, d.stated) == (
        "one_domain", ONE_TITLE,
        f"{hosts}. The plateau, {plateau}, is near the model's {gbs(alt)} with them in "
        f"NVLink domains of {g} ({nodes}); as {shape[1]} nodes of {shape[0]} over the "
        f"network: {gbs(pred)}. Compare it as it ran: gpus_per_node={g}, nodes={k}.",
        *CH4, ONE_CHECK, False)
    assert d.score == pytest.approx(score(float(np.median(cmp_.measured[-3:])), alt),
                                    rel=1e-9)


def test_one_domain_plural_and_singular():
    """20 racks are '20 nodes of 72' (the case above); one rack is '1 node of 72'."""
    run = run_of("coreweave_gb200_nvl72_1rack_all_reduce.log")   # 72 ranks
    d = N.compare(run, "gb200-nvl72", 4, 18).diagnoses[0]
    assert d.key == "one_domain"
    assert "with them in NVLink domains of 72 (1 node of 72); as 18 nodes of 4 over the " \
           "network" in d.evidence
    assert d.evidence.endswith("Compare it as it ran: gpus_per_node=72, nodes=1.")


def system(sid):
    from interlib.specs import SYSTEMS

    return SYSTEMS[sid]


# --------------------------------------------------------- the edges, the model's value given

@pytest.fixture
def two_trays():
    """Oracle's two trays compared as two nodes of 4 (the real comparison)."""
    return N.compare(run_of("oci_gb300_2trays_all_reduce_elided.log"), "gb300-nvl72", 4, 2)


def _one(cmp_, monkeypatch, plateau, pred, alt):
    monkeypatch.setattr(K, "_shape_plateau", lambda c, s, g, k: alt)
    return K._one_domain(cmp_, system("gb300-nvl72"), plateau, pred, gbs)


def test_one_domain_needs_the_other_shape_more_than_a_tenth_above(two_trays, monkeypatch):
    pred = 400 * GB
    edge = pred / 0.9                       # the prediction compared is 90 % of the other
    for alt in (pred * 1.05, edge):         # within a tenth: not a different hypothesis
        assert _one(two_trays, monkeypatch, alt, pred, alt) is None
    up = math.nextafter(edge, math.inf)     # just above the edge, the plateau on it: 1.0
    d = _one(two_trays, monkeypatch, up, pred, up)
    assert d.key == "one_domain" and d.score == 1.0


def test_one_domain_needs_a_strictly_better_match(two_trays, monkeypatch):
    # 360 is 6/5 of 300 and 5/6 of 432: equally near both (1 - ln 1.2 / ln 1.5 = 0.55 each)
    pred, alt = 300 * GB, 432 * GB
    assert score(360 * GB, alt) == score(360 * GB, pred) > 0.5
    assert _one(two_trays, monkeypatch, 360 * GB, pred, alt) is None
    assert _one(two_trays, monkeypatch, 361 * GB, pred, alt).key == "one_domain"
    # the other shape far enough above, but the plateau on the prediction compared
    assert _one(two_trays, monkeypatch, pred, pred, 2 * pred) is None


def test_one_domain_only_for_trays_compared_as_separate_nodes(monkeypatch):
    """The docstring's scope: trays compared as separate nodes over the network. Compared
    as one node, or as nodes of more than one tray (OKE's four trays as two nodes of 8),
    the rule says nothing, even with the other shape's model on the plateau."""
    oke = run_of("oke_gb300_4x4_imex_all_reduce_two_blocks.md.log")
    tray = run_of("oci_gb300_1tray_all_reduce_truncated.log")            # 4 ranks
    for cmp_ in (N.compare(oke, "gb300-nvl72", 8, 2), N.compare(tray, "gb300-nvl72", 4, 1)):
        assert _one(cmp_, monkeypatch, 800 * GB, 400 * GB, 800 * GB) is None
    # the same numbers on trays compared as nodes: diagnosed
    assert _one(N.compare(oke, "gb300-nvl72", 4, 4), monkeypatch, 800 * GB, 400 * GB,
                800 * GB).key == "one_domain"


# ------------------------------------------------ separate NVLink domains, read whole

@pytest.mark.parametrize("name, plateau, hosts", [
    # all-gather, out-of-place busbw 355.22, 357.69, 357.13: median 357.13
    ("gcloud_a4xmax_gb300_2x4_all_gather_two_domains.log", "357 GB/s",
     "The Rank lines name 2 hosts of 4 GPUs: 4-GPU trays"),
    # 355.78, 358.73, 360.42: median 358.73; Rank lines elided: 8 ranks, 2 trays
    ("gcloud_a4xmax_gb300_jobset_all_gather_elided.log", "359 GB/s",
     "8 ranks fill at least 2 trays of 4 GPUs"),
])
def test_separate_domains_whole(name, plateau, hosts):
    cmp_ = N.compare(run_of(name), "gb300-nvl72")        # the default: one domain of 8
    d = cmp_.diagnoses[0]
    alt, pred = model(cmp_, "gb300-nvl72", 4, 2), model(cmp_, "gb300-nvl72", 8, 1)
    assert gbs(float(np.median(cmp_.measured[-3:]))) == plateau
    assert (d.key, d.title, d.evidence, d.chapter, d.heading, d.check, d.stated) == (
        "separate_domains", SEP_TITLE,
        f"{hosts}. The plateau, {plateau}, is near the model's {gbs(alt)} with each tray a "
        f"node of its own over the network (2 nodes of 4); as 1 NVLink domain of 8: "
        f"{gbs(pred)}. Compare it as it ran: gpus_per_node=4, nodes=2.", *CH4, SEP_CHECK,
        False)
    assert d.score == pytest.approx(score(float(np.median(cmp_.measured[-3:])), alt),
                                    rel=1e-9)


@pytest.fixture
def two_domains():
    """Google's two A4X Max trays compared as one domain of 8 (the real comparison)."""
    return N.compare(run_of("gcloud_a4xmax_gb300_2x4_all_gather_two_domains.log"),
                     "gb300-nvl72")


def _sep(cmp_, monkeypatch, plateau, pred, alt):
    monkeypatch.setattr(K, "_shape_plateau", lambda c, s, g, k: alt)
    return K._separate_domains(cmp_, system("gb300-nvl72"), plateau, pred, gbs)


def test_separate_domains_needs_the_other_shape_more_than_a_tenth_below(two_domains,
                                                                           monkeypatch):
    pred = 700 * GB
    edge = pred * 0.9
    for alt in (pred * 0.95, edge):
        assert _sep(two_domains, monkeypatch, alt, pred, alt) is None
    down = math.nextafter(edge, 0)
    d = _sep(two_domains, monkeypatch, down, pred, down)
    assert d.key == "separate_domains" and d.score == 1.0


def test_separate_domains_needs_a_strictly_better_match(two_domains, monkeypatch):
    pred, alt = 432 * GB, 300 * GB          # the tie above, mirrored
    assert _sep(two_domains, monkeypatch, 360 * GB, pred, alt) is None
    assert _sep(two_domains, monkeypatch, 359 * GB, pred, alt).key == "separate_domains"
    assert _sep(two_domains, monkeypatch, pred, pred, pred / 2) is None


def test_separate_domains_plural_and_scope(monkeypatch):
    """OKE's four trays compared as two domains of 8, the other shape given on the
    plateau: 'as 2 NVLink domains of 8', each tray a node (4 nodes of 4). Compared as
    nodes of one tray (4 x 4) there is nothing to split."""
    oke = run_of("oke_gb300_4x4_imex_all_reduce_two_blocks.md.log")
    d = _sep(N.compare(oke, "gb300-nvl72", 8, 2), monkeypatch, 300 * GB, 700 * GB, 300 * GB)
    assert d.evidence == (
        "The Rank lines name 4 hosts of 4 GPUs: 4-GPU trays. The plateau, 300 GB/s, is near "
        "the model's 300 GB/s with each tray a node of its own over the network (4 nodes of "
        "4); as 2 NVLink domains of 8: 700 GB/s. Compare it as it ran: gpus_per_node=4, "
        "nodes=4.")
    assert _sep(N.compare(oke, "gb300-nvl72", 4, 4), monkeypatch, 300 * GB, 700 * GB,
                300 * GB) is None


def test_no_tray_diagnosis_on_a_server_of_one_domain():
    """A DGX H100 is one host of 8 GPUs, no trays: Google's A3 Mega run compared as 4 nodes
    of 4 is above the band (its largest sizes), and no tray shape is named."""
    cmp_ = N.compare(run_of("a3mega_h100_2x8_all_reduce.log"), "dgx-h100", 4, 4)
    assert cmp_.verdicts[-1].status == "above"
    assert K._trays(system("dgx-h100")) is None
    assert not {"one_domain", "separate_domains"} & {d.key for d in cmp_.diagnoses}
    # its middle sizes below while the largest are above: the mid-size cause is named
    assert [v.status for v in cmp_.verdicts] == ["below", "below", "above"]
    assert "mid_sizes" in {d.key for d in cmp_.diagnoses}


def test_hosts_said_names_hosts_only_when_there_are_several():
    """One host named by every Rank line says nothing about trays: the rank count then."""
    one = run_of("amd_mi300x_1x8_all_reduce_k8s.log")       # 8 Rank lines on one host
    assert (one.nodes, one.gpus_per_node) == (1, 8)
    assert K._hosts_said(one, 4, 8) == "8 ranks fill at least 2 trays of 4 GPUs"
    oke = run_of("oke_gb300_4x4_imex_all_reduce_two_blocks.md.log")
    assert K._hosts_said(oke, 4, 16) == ("The Rank lines name 4 hosts of 4 GPUs: 4-GPU "
                                         "trays")
    # 18 ranks on trays of 4: at least 5 trays (rounded up)
    assert K._hosts_said(run_of("oci_gb300_2trays_all_reduce_elided.log"), 4, 18) == \
        "18 ranks fill at least 5 trays of 4 GPUs"


# ------------------------------------------- the hardware alternatives: one change only

# Google's A3 Mega as the book's data records it (interlib/data/nccl_measurements.csv, rows
# A3M-*: 8 x 200 Gb/s GPUDirect-TCPXO NICs per VM, NCCL 2.21.5 with the settings of Google's
# installer for it, the "2024-10" profile), as the check command and page build it
A3M = dict(gpu="h100-sxm", gpus_per_node=8, nics_per_node=8, nic_gbps=200,
           fabric="GPUDirect-TCPXO", intra="nvswitch", tcpxo_profile="2024-10",
           nccl_version="2.21.5")
# a reader's nodes with each setting the alternative must keep (the bridge changes the
# model's busbw between two nodes of 8 little, so that case mainly checks the node's intra
# is kept; inside one node of two bridged cards, NVIDIA/nccl#1161's, it is most of it;
# TUNED's NCCL version and buffer change it too)
BRIDGE = dict(gpu="h100-sxm", gpus_per_node=8, nics_per_node=8, nic_gbps=400,
              fabric="InfiniBand", intra="nvlink-bridge")
TUNED = dict(gpu="b200", gpus_per_node=8, nics_per_node=8, nic_gbps=400, fabric="InfiniBand",
             intra="nvswitch", buffsize=16 * 2**20, nccl_version="2.27.3")
# fewer NICs than GPUs: AWS p4d.24xlarge, 8 A100 SXM with four 100 Gb/s EFA adapters (AWS's
# p4d page: 400 Gbps EFA; the catalogue's A100 SXM is the 80 GB part, the run's has 40 GB)
P4D = dict(gpu="a100-sxm-80gb", gpus_per_node=8, nics_per_node=4, nic_gbps=100,
           fabric="EFA", intra="nvswitch")
# catalogue systems, their entries in words: GB300 NVL72 (72 GPUs, one 800 Gb/s
# InfiniBand NIC each), the PCIe-only H100 server (8 GPUs, 8 x 400 Gb/s)
GB300 = dict(gpu="gb300", gpus_per_node=72, nics_per_node=72, nic_gbps=800,
             fabric="InfiniBand", intra="nvswitch")
PCIE = dict(gpu="h100-sxm", gpus_per_node=8, nics_per_node=8, nic_gbps=400,
            fabric="InfiniBand", intra="pcie")


def _node(spec, **change):
    s = dict(spec) | change
    return custom.node(s.pop("gpu"), s.pop("gpus_per_node"), **s)


@pytest.mark.parametrize("what, spec, system, log, shape", [
    ("A3 Mega", A3M, None, "a3mega_h100_2x8_all_reduce.log", ()),
    ("p4d", P4D, None, "aws_efa_p4d_2x8_all_reduce.log", ()),
    ("bridged", BRIDGE, None, "a3mega_h100_2x8_all_reduce.log", ()),
    ("bridged pair", dict(BRIDGE, gpus_per_node=2, nics_per_node=2), None,
     "h100pcie_2gpu_nvlink_bridge_issue1161.log", ()),
    ("tuned", TUNED, None, "a3mega_h100_2x8_all_reduce.log", ()),
    ("gb300-nvl72", GB300, "gb300-nvl72", "oci_gb300_2trays_all_reduce_elided.log", (4, 2)),
    ("h100-pcie-only", PCIE, "h100-pcie-only", "a3mega_h100_2x8_all_reduce.log", ()),
])
def test_an_alternative_changes_the_one_fault_only(what, spec, system, log, shape):
    """Each alternative is the model of the same node with one change: half the NICs, the
    GPUs over PCIe, NVLS off; the node's other settings kept."""
    sys_ = system or _node(spec)
    cmp_ = N.compare(run_of(log), sys_, *shape)

    def expect(nvls=True, **change):
        return float(np.median(collectives.predict(
            "all_reduce", cmp_.sizes[-3:], _node(spec, **change), cmp_.gpus_per_node,
            cmp_.nodes, nvls=nvls).busbw))

    half = spec["nics_per_node"] // 2
    assert K._alternative(cmp_, system_of(sys_), nics_per_node=half) == pytest.approx(
        expect(nics_per_node=half), rel=1e-12)
    assert K._alternative(cmp_, system_of(sys_), nvls=False) == pytest.approx(
        expect(nvls=False), rel=1e-12)
    if spec["gpus_per_node"] > 8:      # 72 GPUs over PCIe: no such node, no hypothesis
        assert K._alternative(cmp_, system_of(sys_), intra="pcie") is None
    elif spec["intra"] == "nvswitch":
        assert K._alternative(cmp_, system_of(sys_), intra="pcie") == pytest.approx(
            expect(intra="pcie"), rel=1e-12)


def system_of(x):
    return system(x) if isinstance(x, str) else x


def test_half_nics_of_a3_mega_keeps_googles_profile():
    """The A3 Mega run (Google's 2024-10 profile: Ring and Tree, Simple, NVLS off) at half
    its speed (every time of the real log doubled): the half-NIC cause quotes the model of
    the same node with 4 NICs, not of a node on the current profile (172 GB/s, which the
    alternative gave before it kept the node's settings)."""
    import dataclasses

    run = run_of("a3mega_h100_2x8_all_reduce.log")
    slow = dataclasses.replace(run, rows=tuple(
        dataclasses.replace(r, time_out_s=2 * r.time_out_s, time_in_s=2 * r.time_in_s)
        for r in run.rows))
    cmp_ = N.compare(slow, _node(A3M, name="your node"))
    d = next(d for d in cmp_.diagnoses if d.key == "half_nics")
    half = model(cmp_, _node(A3M, nics_per_node=4), 8, 2)
    current = model(cmp_, _node(A3M, nics_per_node=4, tcpxo_profile="2025-08",
                                nccl_version=None), 8, 2)
    assert (gbs(half), gbs(current)) == ("154 GB/s", "172 GB/s")
    # 330.58 GB/s, the median of the three largest printed busbw, halved: 165.29
    assert d.evidence == (f"The plateau, 165 GB/s, is near the model's {gbs(half)} with "
                          f"half the NICs (full: {gbs(model(cmp_, _node(A3M), 8, 2))}).")
    assert d.score == pytest.approx(score(float(np.median(cmp_.measured[-3:])), half),
                                    rel=1e-9)


# ------------------------------------ when a hardware cause or a shape is considered at all

@pytest.fixture
def a3mega_on_dgx():
    """Google's A3 Mega run (GPUDirect-TCPXO) compared against a DGX H100 (InfiniBand):
    below the band at its largest sizes (67 % of the model's plateau), two nodes, NVLink,
    no NVLS line in the log."""
    cmp_ = N.compare(run_of("a3mega_h100_2x8_all_reduce.log"), "dgx-h100")
    assert cmp_.verdicts[-1].status == "below" and (cmp_.gpus_per_node, cmp_.nodes) == (8, 2)
    return cmp_


FAULTS = {"half_nics": {"nics_per_node": 4}, "pcie_p2p": {"intra": "pcie"},
          "no_nvls": {"nvls": False}}


@pytest.mark.parametrize("key", FAULTS)
def test_a_hardware_cause_needs_its_alternative_more_than_a_tenth_below(key, a3mega_on_dgx,
                                                                        monkeypatch):
    """The model of the node with the fault must be under 90 % of the prediction compared
    (strictly); the other faults' nodes cannot be built here (None)."""
    pred = float(np.median(a3mega_on_dgx.predicted[-3:]))
    plateau = float(np.median(a3mega_on_dgx.measured[-3:]))

    def keys(value):
        monkeypatch.setattr(K, "_alternative",
                            lambda c, s, **ch: value if ch == FAULTS[key] else None)
        return {d.key: d for d in K.diagnose(a3mega_on_dgx, "dgx-h100")}

    for value in (pred * 0.95, pred * 0.9):
        assert key not in keys(value)
    below = math.nextafter(pred * 0.9, 0)
    d = keys(below)[key]
    assert d.score == pytest.approx(score(plateau, below), rel=1e-12)


def test_no_shape_diagnosis_for_a_run_within_the_band(monkeypatch):
    """Only a run above the band at its largest sizes is asked whether its trays were one
    NVLink domain: CoreWeave's 20 GB200 racks compared as 360 GB300 trays over the network
    are within the band (19 % over the model's plateau), and even with the one-domain model
    on the plateau nothing is said."""
    cmp_ = N.compare(run_of("coreweave_gb200_nvl72_20racks_all_reduce.log"), "gb300-nvl72",
                     4, 360)
    plateau = float(np.median(cmp_.measured[-3:]))
    pred = float(np.median(cmp_.predicted[-3:]))
    assert cmp_.verdicts[-1].status == "within" and plateau / pred > 1 / 0.9
    monkeypatch.setattr(K, "_shape_plateau", lambda c, s, g, k: plateau)
    assert K.diagnose(cmp_, "gb300-nvl72") == []


def test_the_floor_is_measured_below_1_mib_as_its_sentence_says():
    """Google's JobSet run (two A4X Max trays) compared as one domain: 'Below 1 MiB each
    call takes 2.9 times the model's time', the median over the ten sizes 1 KiB to 512 KiB
    (1 MiB itself is the next regime's); its score ln(ratio) / ln 8."""
    cmp_ = N.compare(run_of("gcloud_a4xmax_gb300_jobset_all_gather_elided.log"),
                     "gb300-nvl72")
    below = cmp_.sizes < 2**20
    assert cmp_.sizes[below].tolist() == [2.0**i for i in range(10, 20)]
    ratio = float(np.median(cmp_.predicted[below] / cmp_.measured[below]))
    d = next(d for d in cmp_.diagnoses if d.key == "high_floor")
    assert d.evidence == f"Below 1 MiB each call takes {ratio:.1f} times the model's time."
    assert d.evidence == "Below 1 MiB each call takes 2.9 times the model's time."
    assert d.score == pytest.approx(math.log(ratio) / math.log(8), rel=1e-12)


def _slowed(run, factor):
    import dataclasses

    return dataclasses.replace(run, rows=tuple(
        dataclasses.replace(r, time_out_s=factor * r.time_out_s,
                            time_in_s=factor * r.time_in_s) for r in run.rows))


@pytest.mark.parametrize("log, g, k, slow, asked", [
    # two H100s in one node (NVIDIA/nccl#1161's run, as printed: 31 % of a DGX H100's two
    # GPUs): GPUs that could talk over PCIe instead of NVLink
    ("h100pcie_2gpu_nvlink_bridge_issue1161.log", 2, 1, 1, True),
    # one H100 on each of two nodes (NVIDIA/nccl-tests#232's run, every time tripled to be
    # below the band): no peer inside a node, so no PCIe cause
    ("h100_2x1_tree_4nics_issue232.log", 1, 2, 3, False),
])
def test_the_pcie_cause_needs_two_gpus_in_a_node(log, g, k, slow, asked, monkeypatch):
    cmp_ = N.compare(_slowed(run_of(log), slow), "dgx-h100", g, k)
    assert cmp_.verdicts[-1].status == "below"
    plateau = float(np.median(cmp_.measured[-3:]))
    # the PCIe model given on the plateau: a perfect match whenever the cause is asked
    monkeypatch.setattr(K, "_alternative",
                        lambda c, s, **ch: plateau if ch == {"intra": "pcie"} else None)
    keys = [d.key for d in K.diagnose(cmp_, "dgx-h100")]
    assert ("pcie_p2p" in keys) is asked


def test_pcie_p2p_is_asked_of_cards_paired_by_an_nvlink_bridge():
    """Two H100 PCIe cards joined by an NVLink bridge (NVIDIA/nccl#1161, a real run): a
    node of intra 'pcie' with NVLink inside it all the same. At half its speed (every time
    of the log doubled: 57.8 GB/s, the median of 115.37, 115.86 halved) it sits near the
    model of the same cards over plain PCIe, and that is the cause named; the run as
    printed (115.6 GB/s) is near neither the bridge's model nor plain PCIe's."""
    import dataclasses

    bridged = _node(BRIDGE, gpus_per_node=2, nics_per_node=2)
    plain = _node(BRIDGE, gpus_per_node=2, nics_per_node=2, intra="pcie")
    run = run_of("h100pcie_2gpu_nvlink_bridge_issue1161.log")
    assert "pcie_p2p" not in [d.key for d in N.compare(run, bridged).diagnoses]
    slow = dataclasses.replace(run, rows=tuple(
        dataclasses.replace(r, time_out_s=2 * r.time_out_s, time_in_s=2 * r.time_in_s)
        for r in run.rows))
    cmp_ = N.compare(slow, bridged)
    d = cmp_.diagnoses[0]
    alt = model(cmp_, plain, 2, 1)
    assert (d.key, d.evidence) == (
        "pcie_p2p", f"The plateau, 58 GB/s, is near the model's {gbs(alt)} for the same GPUs "
        f"over PCIe (NVLink: {gbs(model(cmp_, bridged, 2, 1))}).")
    assert d.score == pytest.approx(score(float(np.median(cmp_.measured[-3:])), alt),
                                    rel=1e-9)
    # a PCIe-only node has no NVLink to lose: the same run names no PCIe cause there
    assert "pcie_p2p" not in [x.key for x in N.compare(slow, plain).diagnoses]
