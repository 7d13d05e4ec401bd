"""The rows issue 25 added to ``interlib/data/nccl_measurements.csv``, checked against their
sources (``interlib/data/SOURCES.md`` states the inclusion rule and how each table was read).

Expected values are read from the published tables by hand and quoted in comments with
where they come from; nothing here is computed by the model under test.
"""

import re

import numpy as np
import pytest

from interlib import collectives, validation as V
from interlib.units import GB_per_s

ROWS = V.load_measurements()
BY_ID = {r.id: r for r in ROWS}

# series added for issue 25 -> (source repository, the table's size rule)
SERIES = {
    # Together AI, use3a-ss B200 report of 2026-05-02 (16 GiB points)
    "TUSR": "togethercomputer/together-nccl-tests", "TUST": "togethercomputer/together-nccl-tests",
    "TUSV": "togethercomputer/together-nccl-tests", "TUSA": "togethercomputer/together-nccl-tests",
    "TUSC": "togethercomputer/together-nccl-tests", "TUSGR": "togethercomputer/together-nccl-tests",
    "TUSGA": "togethercomputer/together-nccl-tests",
    # Together AI, slinky B200 report of 2026-05-12
    "TSLR": "togethercomputer/together-nccl-tests", "TSLT": "togethercomputer/together-nccl-tests",
    "TSLC": "togethercomputer/together-nccl-tests", "TSLD": "togethercomputer/together-nccl-tests",
    "TSLGR": "togethercomputer/together-nccl-tests",
    # Together AI, slinky B200 report of 2026-07-11 (4 nodes, 'Tuned' column, 8 GiB)
    **{s: "togethercomputer/together-nccl-tests"
       for s in ("TSJR", "TSJA", "TSJC", "TSJGR", "TSJGA", "TSJSR", "TSJSA")},
    # Together AI, one H100 node
    "TH1R": "togethercomputer/together-nccl-tests", "TH1GR": "togethercomputer/together-nccl-tests",
    "TH1SR": "togethercomputer/together-nccl-tests",
    # AWS awsome-distributed-training
    "AWP4": "aws-samples/awsome-distributed-training",
    "AWP5": "aws-samples/awsome-distributed-training",
    "AWK5": "aws-samples/awsome-distributed-training",
    # Azure AI-benchmarking-guide, ND H200 v5
    "AZH": "Azure/AI-benchmarking-guide",
    # Oracle oci-gpu-quickstarts, B300 quick start
    **{s: "oracle-quickstart/oci-gpu-quickstarts" for s in ("OB3R", "OB3R2", "OB3A", "OB3A2")},
    # Oracle oci-gpu-quickstarts, GB200 quick start, all-to-all across trays and racks
    **{s: "oracle-quickstart/oci-gpu-quickstarts" for s in ("OQA8", "OQA64", "OQA128", "OQA192")},
    # Oracle oci-gpu-quickstarts, GB300 quick start, all-to-all from one tray to two racks
    **{s: "oracle-quickstart/oci-gpu-quickstarts" for s in ("OGA4", "OGA8", "OGA64", "OGA128")},
    # Google Cloud cluster-toolkit, A3 Mega GKE blueprint: two-node all_gather over TCPXO
    # (issue 37 item 5)
    "A3MG": "GoogleCloudPlatform/cluster-toolkit",
}
# series added for issue 37 (two-node and mid-size runs): an issue thread each, cited by its
# URL (SOURCES.md rule 1)
ISSUE_SERIES = {"N309": "https://github.com/NVIDIA/nccl-tests/issues/309",
                "N309V": "https://github.com/NVIDIA/nccl-tests/issues/309"}
NEW = [r for r in ROWS if r.series in SERIES]
GiB = 2**30


def test_every_series_is_present_with_the_counts_sources_md_states():
    # SOURCES.md's table: 46 (TUS*), 42 (TSL*), 7 (TSJ*), 44 (TH1*), 15 + 17 (AWP4, AWP5),
    # 15 (AWK5), 12 (AZH), 5 (OB3*), 8 (OQA*), 8 (OGA*), 13 (A3MG)
    count = {}
    for r in NEW:
        count[r.series] = count.get(r.series, 0) + 1
    assert set(count) == set(SERIES)
    group = lambda pre: sum(n for s, n in count.items() if s.startswith(pre))  # noqa: E731
    assert group("TUS") == 46 and group("TSL") == 42 and group("TH1") == 44
    assert group("TSJ") == 7 and group("OB3") == 5 and group("OQA") == 8
    assert group("OGA") == 8
    assert (count["AWP4"], count["AWP5"], count["AWK5"], count["AZH"]) == (15, 17, 15, 12)
    assert count["A3MG"] == 13


def test_ids_are_numbered_from_01_without_gaps():
    for s in SERIES:
        nums = sorted(int(r.id.split("-")[1]) for r in NEW if r.series == s)
        assert nums == list(range(1, len(nums) + 1)), s


def test_new_rows_are_holdout_and_cite_a_commit_pinned_file_of_their_repository():
    pinned = re.compile(r"^https://github\.com/([^/]+/[^/]+)/blob/([0-9a-f]{40})/\S+$")
    for r in NEW:
        assert r.role == "holdout", r.id
        m = pinned.match(r.url)
        assert m, (r.id, r.url)
        assert m.group(1) == SERIES[r.series], r.id
        # one source string per published table, so cross-validation can group by it
        assert len({q.source for q in NEW if q.series == r.series}) == 1


def test_one_url_per_source():
    # a source string names one table, at one commit-pinned file (a file may hold several
    # tables: the AWS README has the p4de and the p5 runs)
    by_source = {}
    for r in NEW:
        by_source.setdefault(r.source, set()).add(r.url)
    multi = {s: u for s, u in by_source.items() if len(u) > 1}
    # only the one-node H100 source spans files: one log file per collective
    assert set(multi) == {BY_ID["TH1R-01"].source}, multi


def test_hardware_fields_match_the_sources():
    for r in NEW:
        if r.series.startswith(("TUS", "TSL", "TSJ")):
            # both reports: "NVIDIA B200, 8 per node", NDR 400 Gb/s InfiniBand; use3a-ss lists
            # 8 HCAs; slinky: "8 compute rails/node" (its 2026-07-11 report), although the May
            # report's NCCL_IB_HCA lists "12 IB HCAs" (storage and management ports among them)
            assert (r.gpu, r.gpus_per_node, r.nic_gbps, r.fabric) == ("b200", 8, 400, "InfiniBand")
            assert r.nics_per_node == 8, r.id
            assert r.nccl_version == {"TUS": "2.29.7", "TSL": "2.28.9", "TSJ": "2.30.7"}[r.series[:3]]
        elif r.series.startswith("TH1"):
            # log header: nccl-library=22602; devices 'NVIDIA H100 80GB HBM3' x 8 on one host
            assert (r.gpu, r.gpus_per_node, r.nodes, r.nccl_version) == ("h100-sxm", 8, 1, "2.26.2")
        elif r.series == "AWP4":
            # p4de.24xlarge: 8 x A100 80GB, 4 x 100 Gb/s EFA
            assert (r.gpu, r.nodes, r.nics_per_node, r.nic_gbps) == ("a100-sxm-80gb", 2, 4, 100)
        elif r.series in ("AWP5", "AWK5"):
            # p5.48xlarge: 8 x H100, 32 EFA interfaces (vpc.amazonaws.com/efa: 32) x 100 Gb/s
            assert (r.gpu, r.nodes, r.nics_per_node, r.nic_gbps) == ("h100-sxm", 2, 32, 100)
            assert r.fabric.startswith("EFA")
            assert r.nccl_version == ("2.18.5" if r.series == "AWK5" else "2.20.3")
        elif r.series.startswith("OB3"):
            # BM.GPU.B300.8: 8 x 'NVIDIA B300 SXM6 AC', "8 x 2 x 400 Gb/s = 6.4 Tb/s" RoCE;
            # logs: NCCL 2.28.9 (issue 39 item 7: an HGX B300, not GB300 GPUs on a DGX B200)
            assert (r.gpu, r.system) == ("b300", "hgx-b300"), r.id
            assert (r.gpus_per_node, r.nics_per_node, r.nic_gbps) == (8, 16, 400)
            assert r.fabric.startswith("Ethernet") and r.nccl_version == "2.28.9"
        elif r.series.startswith("OQA"):
            # GB200 trays of 4 GPUs, 4 x 400 Gb/s InfiniBand each; 16 trays per NVLink domain
            trays = {"OQA8": 2, "OQA64": 16, "OQA128": 32, "OQA192": 48}[r.series]
            assert r.total_gpus == 4 * trays, r.id
            assert r.nics_per_node == r.gpus_per_node and r.nic_gbps == 400, r.id
            assert (r.gpu, r.collective, r.nccl_version) == ("gb200", "all_to_all", "2.27.3")
        elif r.series.startswith("OGA"):
            # BM.GPU.GB300.4: 4 GPUs and 8 x 400 Gb/s RoCE per host; logs: NCCL 2.28.7, and the
            # rank lists: 4, 8, 64 (ranks 0-63) and 128 (ranks 0-127)
            assert r.total_gpus == {"OGA4": 4, "OGA8": 8, "OGA64": 64, "OGA128": 128}[r.series]
            assert r.nics_per_node == 2 * r.gpus_per_node and r.nic_gbps == 400, r.id
            assert (r.gpu, r.nccl_version) == ("gb300", "2.28.7") and r.fabric.startswith("Ethernet")
            assert r.system == "gb300-nvl72", r.id
        elif r.series == "A3MG":
            # a3-megagpu-8g: 8 x H100, 8 x 200 Gb/s GPUDirect-TCPXO; 16 ranks (busbw/algbw
            # 15/16); NCCL 2.28.7 from the v1.0.15 installer's release notes (assumed)
            assert (r.gpu, r.gpus_per_node, r.nodes, r.nics_per_node, r.nic_gbps) == \
                ("h100-sxm", 8, 2, 8, 200)
            assert r.fabric == "Ethernet (GPUDirect-TCPXO)" and r.nccl_version == "2.28.7"
            assert (r.collective, r.algorithm) == ("all_gather", "auto")
        elif r.series == "AZH":
            # page: 'NVIDIA H200 141GB', NCCL 2.20.5
            assert (r.gpu, r.gpus_per_node, r.nodes, r.nccl_version) == ("h200", 8, 1, "2.20.5")


def test_node_counts_are_the_tables():
    nodes = lambda s: sorted(r.nodes for r in NEW if r.series == s)  # noqa: E731
    # use3a-ss re-run tables: 1, 2, 4, 8, 16, 32, 46 nodes (Tree, NVLSTree, CollNet from 2)
    assert nodes("TUSR") == nodes("TUSA") == nodes("TUSGR") == [1, 2, 4, 8, 16, 32, 46]
    assert nodes("TUST") == nodes("TUSV") == nodes("TUSC") == [2, 4, 8, 16, 32, 46]
    # slinky: 1-64 nodes; CollnetChain from 2; CollnetDirect table 2, 4, 16, 32, 64 x 3 sizes
    assert nodes("TSLR") == nodes("TSLT") == nodes("TSLGR") == [1, 2, 4, 8, 16, 32, 64]
    assert nodes("TSLC") == [2, 4, 8, 16, 32, 64]
    assert nodes("TSLD") == sorted([2, 4, 16, 32, 64] * 3)


def test_sizes_follow_the_selection_rule():
    for r in NEW:
        s = r.size_bytes
        if r.series.startswith("TUS"):
            assert s == 16 * GiB, r.id  # "Peak busBW @ 16G"
        elif r.series == "TSLD":
            assert s in (8 * GiB, 16 * GiB, 32 * GiB), r.id
        elif r.series.startswith("TSL"):
            assert s == 32 * GiB, r.id
        elif r.series.startswith("TSJ"):
            assert s == 8 * GiB and r.nodes == 4, r.id  # "peak busBW at 8 GiB (GB/s), 4 nodes"
        elif r.series.startswith(("OB3", "OQA", "OGA")):
            # pages that print only their largest sizes ("truncated"): taken whole
            assert s >= 4 * GiB, r.id
        else:
            # full sweeps: 8 B x 4^k, plus the sweep's largest size
            largest = max(q.size_bytes for q in NEW if q.series == r.series)
            e = np.log2(s)
            assert e == int(e) and ((int(e) - 3) % 2 == 0 or s == largest), r.id


def test_busbw_is_in_gb_per_s_and_physically_plausible():
    for r in NEW:
        gbps = r.busbw / GB_per_s
        # nothing here beats a B200's NVLink 5 (900 GB/s per direction) in busbw terms
        assert 0 < gbps < 900, r.id


@pytest.mark.parametrize("rid, size, time_us, printed_busbw", [
    # together-nccl-tests @6698e53c benchmarks/H100/results/20260305_220043/all_reduce_ring.out:
    # "8589934592 2147483648 float sum -1 40838.9 210.34 368.09"
    ("TH1R-16", 8589934592, 40838.9, 368.09),
    # same file: "2097152 524288 float sum -1 42.06 49.86 87.26"
    ("TH1R-10", 2097152, 42.06, 87.26),
    # all_gather_ring.out: "536870912 16777216 float none -1 1399.34 383.66 335.70"
    ("TH1GR-12", 536870912, 1399.34, 335.70),
    # reduce_scatter_ring.out: "8589934592 268435456 float sum -1 20695.6 415.06 363.18"
    ("TH1SR-14", 8589934592, 20695.6, 363.18),
    # awsome-distributed-training @88c2e71b micro-benchmarks/nccl-tests/README.md, p4de:
    # "0: 2147483648 536870912 float sum -1 51406 41.78 78.33"
    ("AWP4-15", 2147483648, 51406, 78.33),
    # same README, p5: "0: 17179869184 4294967296 float sum -1 66132 259.78 487.09"
    ("AWP5-17", 17179869184, 66132, 487.09),
    # @0900f63c 4.validation_scripts/0.nccl-tests/README.md, EKS p5 log:
    # "2147483648 536870912 float sum -1 9197.5 233.49 437.79"
    ("AWK5-15", 2147483648, 9197.5, 437.79),
    # oci-gpu-quickstarts @2a523ef9 nvidia/B300/README-B300.md, 'All-to-All - 2 Nodes':
    # "8589934592 134217728 float none -1 44498 193.04 180.98"
    ("OB3A2-01", 8589934592, 44498, 180.98),
    # oci-gpu-quickstarts @2a523ef9 nvidia/GB200/README-GB200.md, '32 Hosts 2 Racks':
    # "8589934592 2147483648 float none -1 95018 90.40 89.70"
    ("OQA128-02", 8589934592, 95018, 89.70),
    # @2a523ef9 nvidia/GB300/README-GB300.md, '32 Hosts 2 Racks':
    # "17179869184 33554432 float none -1 357610 48.04 47.67"
    ("OGA128-02", 17179869184, 357610, 47.67),
    # cluster-toolkit @2ee5a53e examples/gke-a3-megagpu/README.md (all_gather, 16 ranks):
    # "8589934592 134217728 float none -1 42668.7 201.32 188.73"
    ("A3MG-13", 8589934592, 42668.7, 188.73),
    # same table: "2097152 32768 float none -1 136.34 15.38 14.42"
    ("A3MG-07", 2097152, 136.34, 14.42),
])
def test_time_column_rows_match_the_printed_busbw(rid, size, time_us, printed_busbw):
    r = BY_ID[rid]
    assert r.size_bytes == size
    n = r.total_gpus
    factor = 2 * (n - 1) / n if r.collective == "all_reduce" else (n - 1) / n
    # the row is the time column undone with nccl-tests' bus factor ...
    assert r.busbw == pytest.approx(size / (time_us * 1e-6) * factor, rel=1e-5)
    # ... and agrees with the table's own (rounded) busbw column to its last digit
    assert r.busbw / GB_per_s == pytest.approx(printed_busbw, abs=0.006)


@pytest.mark.parametrize("rid, nodes, algorithm, busbw", [
    # use3a-ss 2026-05-02 report @0492bede, "Re-run Results", all_reduce @ 16G:
    # "| 4n (32) | 334.8 | 334.7 | 288.9 | 190.7 | **543.8** | CollNet SHARP |"
    ("TUSR-03", 4, "ring", 334.8), ("TUSA-03", 4, "auto", 334.7), ("TUSV-02", 4, "nvls_tree", 288.9),
    ("TUST-02", 4, "tree", 190.7), ("TUSC-02", 4, "sharp", 543.8),
    # all_gather @ 16G: "| 46n (368) | 293.3 | 292.1 | **385.1** | CollNet SHARP |"
    ("TUSGR-07", 46, "ring", 293.3), ("TUSGA-07", 46, "auto", 292.1),
    # slinky 2026-05-12 report @6fd65d19, all_reduce @ 32 GiB:
    # "| 64n (512) | 389.81 | 195.90 | 389.72 | 534.53 | **545.77** | ..."
    ("TSLR-07", 64, "ring", 389.81), ("TSLT-07", 64, "tree", 195.90),
    ("TSLC-06", 64, "sharp", 534.53),
    # CollnetDirect table: "| 4n | 550.55 | 578.27 | 605.90 |" -> the 32 GiB cell
    ("TSLD-06", 4, "sharp", 605.90),
    # slinky 2026-07-11 report @5fa38e7b, 'Tuned' column:
    # "| all_reduce | collnet_sharp | 320.0 | 546.4 | **554.4** | 1.73x |"
    ("TSJC-01", 4, "sharp", 554.4),
    # "| all_reduce | nvls | 163.8 | 301.8 | **350.8** | 2.14x |"
    ("TSJA-01", 4, "auto", 350.8),
    # Azure ND H200 v5 @7f20e5fa: "| 8G | 479.98 |"
    ("AZH-12", 1, "nvls", 479.98),
])
def test_summary_table_rows_are_read_as_printed(rid, nodes, algorithm, busbw):
    r = BY_ID[rid]
    assert (r.nodes, r.algorithm) == (nodes, algorithm)
    assert r.busbw / GB_per_s == pytest.approx(busbw, abs=1e-9)


def test_nvls_marker_only_where_the_source_disabled_nvls():
    # validation.nvls_disabled reads "NCCL_NVLS_ENABLE=0" from the note: the use3a-ss script
    # sets it for ring, tree and collnet_sharp, and NVLS_ENABLE=1 for nvls and nvls_tree
    for r in NEW:
        if r.series in ("TUSR", "TUST", "TUSC", "TUSGR", "TH1R", "TH1GR", "TH1SR", "TSLC",
                        "TSLD", "TSJR", "TSJC", "TSJGR", "TSJSR"):
            assert V.nvls_disabled(r), r.id
        if r.series in ("TUSA", "TUSV", "TUSGA", "AWP4", "AWP5", "AWK5", "AZH", "TSJA", "TSJGA",
                        "TSJSA"):
            assert not V.nvls_disabled(r), r.id


def test_only_the_p5_sweep_and_the_gb300_page_state_a_buffer_size():
    # the p5 README sweep is the commit's nccl-tests.sbatch (NCCL_BUFFSIZE=8388608); Oracle's
    # GB300 page runs all its tests with NCCL_BUFFSIZE=16777216; no other new source states one
    for r in NEW:
        want = {"AWP5": 8388608}.get(r.series, 16777216 if r.series.startswith("OGA") else None)
        assert V.stated_buffsize(r) == want, r.id


def test_the_model_can_evaluate_every_new_row():
    # the inclusion rule admits only rows validation.evaluate can predict
    res = V.evaluate(NEW)
    assert len(res) == len(NEW)
    assert all(np.isfinite(p.predicted) and p.predicted > 0 for p in res)


def test_ring_all_reduce_busbw_does_not_grow_with_nodes_beyond_two():
    # an invariant of the published data, with a source for it: a ring crosses each node
    # boundary with 2(n-1)/n x S per channel whatever n, so its busbw cannot rise past the
    # 2-node value as nodes are added (1 % for run-to-run noise; slinky's ring is flat within
    # 0.5 %, use3a-ss's falls). Not asserted for all-gather: slinky's ring all-gather rose
    # 3.1 % from 2 to 16 nodes (TSLGR-02 371.44 -> TSLGR-05 382.83 GB/s).
    for s in ("TUSR", "TSLR"):
        rs = sorted((r for r in NEW if r.series == s and r.nodes >= 2), key=lambda r: r.nodes)
        two = rs[0].busbw
        assert all(r.busbw <= 1.01 * two for r in rs), s


def test_bus_factor_matches_nccl_tests_for_the_new_collectives():
    # nccl-tests' factors (awsome-distributed-training README table @88c2e71b):
    # AllReduce 2(n-1)/n, AllGather and ReduceScatter (n-1)/n
    for coll, f in (("all_reduce", 2 * 7 / 8), ("all_gather", 7 / 8), ("reduce_scatter", 7 / 8)):
        assert collectives.bus_factor(coll, 8) == pytest.approx(f)


# ------------------------------------------------ issue 39 item 7: GPUs on their systems
def test_every_rows_gpu_is_its_systems_gpu():
    # a row names the catalogue system closest to what ran and the GPU that ran: the two
    # agree (before issue 39, 72 GB300 rows sat on gb200-nvl72 and 5 HGX B300 rows were GB300
    # GPUs on a DGX B200); where the run's NICs differ from the system's, the model builds
    # the node from the row (validation.node_for)
    from interlib.specs import GPUS, SYSTEMS
    for r in ROWS:
        assert GPUS[r.gpu] is SYSTEMS[r.system].gpu, (r.id, r.gpu, r.system)


def test_gb300_and_b300_rows_by_series():
    # Oracle's GB300 quick start (OG*, OGA*: BM.GPU.GB300.4 trays of a GB300 NVL72 rack) and
    # its B300 quick start (OB3*: BM.GPU.B300.8, 'NVIDIA B300 SXM6 AC'): 72 + 5 rows
    gb300 = [r for r in ROWS if r.gpu == "gb300"]
    b300 = [r for r in ROWS if r.gpu == "b300"]
    assert len(gb300) == 72 and {r.system for r in gb300} == {"gb300-nvl72"}
    assert {r.series[:2] for r in gb300} == {"OG"}
    assert len(b300) == 5 and {r.system for r in b300} == {"hgx-b300"}
    assert {r.series for r in b300} == {"OB3R", "OB3R2", "OB3A", "OB3A2"}
    # no note still says the catalogue lacks them
    assert not [r.id for r in ROWS if "the catalogue has no" in r.note]


def test_relabelled_rows_are_predicted_as_before_the_relabel():
    # the relabel changes names, not hardware: the node the model builds from each row has the
    # row's GPU count, NICs and NVLink rate (Blackwell's 18 x 40.1 GB/s)
    for r in ROWS:
        if r.gpu in ("gb300", "b300"):
            node = V.node_for(r)
            assert node.gpus_per_node >= r.gpus_per_node and node.nics_per_node * \
                r.gpus_per_node / node.gpus_per_node == pytest.approx(r.nics_per_node)
            assert node.gpu.nvlink.per_gpu_effective == pytest.approx(18 * 40.1 * GB_per_s)


# --------------------------------------- issue 37 item 5: two-node runs from issue threads
ISSUE_ROWS = [r for r in ROWS if r.series in ISSUE_SERIES]


def test_issue_series_cite_their_thread_and_state_their_hardware():
    # nccl-tests#309: "Dell HGX XE9680 with 8xH100 and 8x CX-7 IB 400Gbps", "NCCL 2.26.2";
    # 2 bare-metal nodes (bm-h100-01/02) and 4 virtual machines (pt01, pt02, spt01, spt02)
    assert len(ISSUE_ROWS) == 34
    for r in ISSUE_ROWS:
        assert r.url == ISSUE_SERIES[r.series] and r.role == "holdout", r.id
        assert (r.gpu, r.system, r.gpus_per_node, r.nics_per_node, r.nic_gbps, r.fabric,
                r.nccl_version, r.collective, r.algorithm) == (
            "h100-sxm", "dgx-h100", 8, 8, 400, "InfiniBand", "2.26.2", "all_reduce", "auto")
        assert r.nodes == {"N309": 2, "N309V": 4}[r.series]
        assert V.gpus_per_thread(r) == 1  # -g 1 under mpirun


@pytest.mark.parametrize("rid, size, time_us, printed_busbw", [
    # nccl-tests#309, 2 nodes: "2097152 524288 float sum -1 76.24 27.51 51.58"
    ("N309-10", 2097152, 76.24, 51.58),
    # "33554432 8388608 float sum -1 267.9 125.23 234.81"
    ("N309-12", 33554432, 267.9, 234.81),
    # "17179869184 4294967296 float sum -1 68652 250.24 469.21"
    ("N309-17", 17179869184, 68652, 469.21),
    # 4 nodes: "8388608 2097152 float sum -1 217.3 38.60 74.78"
    ("N309V-11", 8388608, 217.3, 74.78),
    # "17179869184 4294967296 float sum -1 90986 188.82 365.84"
    ("N309V-17", 17179869184, 90986, 365.84),
])
def test_issue_rows_are_the_time_column_undone(rid, size, time_us, printed_busbw):
    r = BY_ID[rid]
    n = r.total_gpus
    assert r.size_bytes == size
    assert r.busbw == pytest.approx(size / (time_us * 1e-6) * 2 * (n - 1) / n, rel=1e-3)
    assert r.busbw / GB_per_s == pytest.approx(printed_busbw, rel=5e-3)


def test_issue_rows_follow_the_selection_rule():
    for s in ISSUE_SERIES:
        sizes = sorted(r.size_bytes for r in ISSUE_ROWS if r.series == s)
        assert sizes == [8 * 4**k for k in range(16)] + [16 * GiB], s
