"""The shape a run is compared in (interlib.nccltests.shape): GPUs per node and nodes, where a
node is one NVLink domain, each rule alone, with every refusal and note read whole.

Systems: an 8-GPU HGX/DGX box (the node is the host and the domain: DGX H100, 8 GPUs) and a
rack-scale NVL72 (the domain is 72 GPUs, a host is a 4-GPU compute tray: NVIDIA's GB200
NVL72 pages, the catalogue's gpus_per_node / gpus_per_server). Runs are small Run objects
holding only what shape() reads (ranks, the Rank lines' hosts); shapes are by hand.
"""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from interlib.nccltests import Run, Shape, shape
from interlib.specs import SYSTEMS

DGX, NVL = SYSTEMS["dgx-h100"], SYSTEMS["gb200-nvl72"]
DGX_T, NVL_T = "NVIDIA DGX H100", "NVIDIA GB200 NVL72 (one rack)"


def test_the_systems_are_what_the_rules_assume():
    assert (DGX.gpus_per_node, DGX.gpus_per_server, DGX.title) == (8, 8, DGX_T)
    assert (NVL.gpus_per_node, NVL.gpus_per_server, NVL.title) == (72, 4, NVL_T)


def run(ranks, nodes=None, per_node=None, rank_lines=None):
    lines = rank_lines if rank_lines is not None else (ranks or 0) if nodes else 0
    return Run("all_reduce", ranks, None, (), None, nodes, per_node, rank_lines=lines)


def refused(r, system, **kw):
    with pytest.raises(ValueError) as e:
        shape(r, system, **kw)
    return str(e.value)


# --------------------------------------------------------------- a log without a rank count

def test_ranks_from_the_hosts_when_the_log_has_no_count():
    assert shape(run(None, nodes=2, per_node=8), DGX) == Shape(8, 2)


def test_no_rank_count_needs_both_numbers():
    msg = ("the log does not say how many ranks ran (no Rank lines, no NCCL 'nranks' line, "
           "and its columns do not pin it): give gpus_per_node= and nodes=")
    assert refused(run(None), DGX) == msg
    assert refused(run(None), DGX, gpus_per_node=8) == msg
    assert refused(run(None), DGX, nodes=2) == msg
    assert refused(run(None, nodes=2), DGX) == msg          # hosts without a per-host count
    assert shape(run(None), DGX, gpus_per_node=4, nodes=3) == Shape(
        4, 3, ("shape as given: the log does not say how many ranks ran",))


# ------------------------------------------------------------------ both numbers given

def test_both_given_must_multiply_to_the_ranks():
    assert shape(run(16), DGX, gpus_per_node=8, nodes=2) == Shape(8, 2)
    assert refused(run(16), DGX, gpus_per_node=4, nodes=2) == (
        "gpus_per_node=4 x nodes=2 = 8 GPUs, but the log ran 16 ranks")


@pytest.mark.parametrize("kw, name", [({"gpus_per_node": 9}, "gpus_per_node"),
                                      ({"gpus_per_node": 0}, "gpus_per_node"),
                                      ({"nodes": 0}, "nodes"), ({"nodes": 100_001}, "nodes")])
def test_out_of_range_numbers_name_the_parameter(kw, name):
    assert refused(run(16), DGX, **kw).startswith(name)
    shape(run(8), DGX, gpus_per_node=8)                      # the domain itself is allowed
    assert shape(run(100_000), DGX, nodes=100_000) == Shape(1, 100_000)


# --------------------------------------------------------------------- one number given

def test_gpus_per_node_with_trusted_hosts_on_a_box():
    """On a box the hosts are the nodes: their count is kept, and must fit."""
    assert shape(run(8, nodes=2, per_node=4), DGX, gpus_per_node=4) == Shape(4, 2)
    assert refused(run(16, nodes=2, per_node=8), DGX, gpus_per_node=4) == (
        "gpus_per_node=4 x nodes=2 (the log's hosts) = 8 GPUs, but the log ran 16 ranks")


def test_gpus_per_node_without_hosts_divides_the_ranks():
    assert shape(run(16), DGX, gpus_per_node=4) == Shape(4, 4)
    assert refused(run(16), DGX, gpus_per_node=3) == (
        "gpus_per_node=3 does not divide the log's 16 ranks: give nodes= too, or another "
        "gpus_per_node=")
    # on a rack the hosts are trays, not nodes: the ranks are divided, the hosts not used
    assert shape(run(16, nodes=4, per_node=4), NVL, gpus_per_node=16) == Shape(16, 1)
    assert shape(run(16, nodes=4, per_node=4), NVL, gpus_per_node=8) == Shape(8, 2)


def test_nodes_given():
    assert shape(run(16), DGX, nodes=2) == Shape(8, 2)
    assert shape(run(16, nodes=4, per_node=4), DGX, nodes=2) == Shape(8, 2)
    for n in (1, 3):   # 16 on one 8-GPU node; 16 not a multiple of 3
        assert refused(run(16), DGX, nodes=n) == (
            f"nodes={n} cannot hold the log's 16 ranks on {DGX_T} (8 GPUs per node): give "
            "gpus_per_node= too, or another nodes=")


# ------------------------------------------------------------------------ neither given

def test_a_box_takes_the_hosts_when_they_add_up():
    assert shape(run(16, nodes=2, per_node=8), DGX) == Shape(8, 2)
    assert shape(run(8, nodes=2, per_node=4), DGX) == Shape(4, 2)
    assert refused(run(16, nodes=1, per_node=16), DGX) == (
        f"the log puts 16 ranks on one host, but {DGX_T} has 8 GPUs per node: give "
        "gpus_per_node= and nodes=")


@pytest.mark.parametrize("r, why", [
    (run(16), "the log has no Rank lines"),
    (run(16, rank_lines=16), "its Rank lines cannot be trusted"),       # hosts not kept
    (run(16, nodes=3, per_node=8), "its Rank lines do not add up"),     # 3 x 8 != 16
])
def test_a_box_without_usable_hosts_fills_nodes_and_says_why(r, why):
    assert shape(r, DGX) == Shape(8, 2, (
        f"{why}, so the host count is not used: 16 ranks over 8 GPUs per node ({DGX_T}) = "
        "2 nodes",))


def test_a_box_fewer_ranks_than_a_node_is_one_node():
    assert shape(run(4), DGX) == Shape(4, 1, (
        f"the log has no Rank lines, so the host count is not used: 4 ranks over 4 GPUs per "
        f"node ({DGX_T}) = 1 node",))
    assert refused(run(12), DGX) == (
        f"the log's 12 ranks do not fill nodes of 8 GPUs ({DGX_T}): give gpus_per_node= and "
        "nodes=")


def test_a_rack_node_is_its_nvlink_domain():
    assert shape(run(8, nodes=2, per_node=4), NVL) == Shape(8, 1, (
        f"a node here is one NVLink domain of {NVL_T}: 8 of its 72 GPUs per node x 1 node; "
        "the Rank lines' 2 hosts are its 4-GPU trays",))
    assert shape(run(144, nodes=36, per_node=4), NVL) == Shape(72, 2, (
        f"a node here is one NVLink domain of {NVL_T}: 72 of its 72 GPUs per node x 2 nodes; "
        "the Rank lines' 36 hosts are its 4-GPU trays",))
    assert shape(run(8, nodes=1, per_node=8), NVL) == Shape(8, 1, (
        f"a node here is one NVLink domain of {NVL_T}: 8 of its 72 GPUs per node x 1 node; "
        "the log's hosts hold 8 ranks each, more than a 4-GPU tray: the log may not come "
        "from this system",))
    assert shape(run(72), NVL) == Shape(72, 1, (
        f"a node here is one NVLink domain of {NVL_T}: 72 of its 72 GPUs per node x 1 node",))


def test_a_rack_run_not_in_whole_domains_lists_the_shapes_that_hold_it():
    head = (f"the log's {{}} ranks are not whole NVLink domains of 72 GPUs ({NVL_T}): they "
            "span at least 2 domains without filling them, and how many GPUs ran in each "
            "domain is not in the log. Give gpus_per_node= and nodes=")
    # 80 = 2 racks of 40 (10 trays of 4) or 20 trays of their own
    assert refused(run(80), NVL) == head.format(80) + (
        "; e.g. gpus_per_node=40 and nodes=2 if they ran as 2 NVLink domains (racks) of 10 "
        "trays of 4 each, or gpus_per_node=4 and nodes=20 if every 4-GPU tray was an NVLink "
        "domain of its own (the trays reached each other over the network only)")
    # 76 = 2 x 38: 38 is no whole number of trays; 19 trays of their own
    assert refused(run(76), NVL) == head.format(76) + (
        "; e.g. gpus_per_node=4 and nodes=19 if every 4-GPU tray was an NVLink domain of "
        "its own (the trays reached each other over the network only)")
    assert refused(run(75), NVL) == head.format(75)
    # 220 > 3 x 72 = 216: at least 4 domains
    assert refused(run(220), NVL).startswith(
        f"the log's 220 ranks are not whole NVLink domains of 72 GPUs ({NVL_T}): they span "
        "at least 4 domains")


def test_a_system_without_a_tray_size_is_a_box():
    """gpus_per_server absent or None: the host is the domain (a box)."""
    for sysm in (SimpleNamespace(gpus_per_node=8, title="box"),
                 SimpleNamespace(gpus_per_node=8, gpus_per_server=None, title="box")):
        assert shape(run(16, nodes=2, per_node=8), sysm) == Shape(8, 2)
        assert shape(run(8, nodes=2, per_node=4), sysm, gpus_per_node=4) == Shape(4, 2)


# ------------------------------------------------------- the rules' edges (mutation, issue 38)

def test_out_of_range_numbers_whole():
    """gpus_per_node runs from 1 to the system's domain (8 on DGX H100), nodes from 1 to
    100,000; the message says the range."""
    assert refused(run(16), DGX, gpus_per_node=9) == (
        "gpus_per_node=9 is out of range: must be between 1 and 8")
    assert refused(run(16), DGX, nodes=100_001) == (
        "nodes=100001 is out of range: must be between 1 and 100000")
    assert shape(run(8), DGX, gpus_per_node=1) == Shape(1, 8)


def test_shapes_are_whole_numbers():
    for s in (shape(run(16), DGX, gpus_per_node=4), shape(run(16), DGX, nodes=2),
              shape(run(16), DGX), shape(run(144, nodes=36, per_node=4), NVL)):
        assert type(s.gpus_per_node) is int and type(s.nodes) is int, s


def test_hosts_without_a_per_host_count_are_not_trusted():
    assert shape(run(16, nodes=2, per_node=None, rank_lines=16), DGX) == Shape(8, 2, (
        f"its Rank lines cannot be trusted, so the host count is not used: 16 ranks over 8 "
        f"GPUs per node ({DGX_T}) = 2 nodes",))
