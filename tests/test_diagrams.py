"""Drawn diagrams (interlib.plots.diagrams) and the wiring graphs behind them.

Expected counts come from the sources (cited inline) or from hand derivation, never from
the diagram's own output. The hypothesis tests count switches, cables and hops on the
networkx graphs and compare them with interlib.topology's closed forms.
"""

from __future__ import annotations

import ast
import base64
import json
import math
from pathlib import Path

import networkx as nx  # a hard dependency (pyproject.toml): missing, the import fails
import pytest
from hypothesis import given, settings, strategies as st
from matplotlib.figure import Figure

from interlib import specs, topology
from interlib.plots import diagrams as D
from interlib.plots.diagrams import graphs

ROOT = Path(__file__).resolve().parent.parent


def _texts(fig) -> str:
    return "\n".join(t.get_text() for ax in fig.axes for t in ax.texts)


def _ok(fig):
    assert isinstance(fig, Figure)
    assert len(fig.interlib_alt) >= 15
    return fig


# ------------------------------------------------------------ every accepted entry
def test_every_function_draws_every_entry_it_accepts():
    for n in range(2, D.overview.RING_MAX_GPUS + 1):
        _ok(D.ring_all_reduce_steps(n))
    for name in specs.layouts.PCIE_TREES:
        _ok(D.pcie_tree(name))
    _ok(D.nvlink_generations())
    for name in D.inside_box._WIRING:
        _ok(D.nvswitch_wiring(name))
    _ok(D.nvl72_rack("gb200-nvl72"))
    for k in D.fabric.FAT_TREE_K:
        _ok(D.fat_tree(k))
    from interlib.packets import IB_MTUS
    for mtu in IB_MTUS:
        for ipv6 in (False, True):
            _ok(D.packet_layers(mtu, ipv6))
    for name in specs.SYSTEMS:
        _ok(D.bandwidth_ladder(name))
        if specs.system(name).nics_per_node <= 16:
            _ok(D.rail_optimised(name))
        else:
            with pytest.raises(ValueError, match="^system="):
                D.rail_optimised(name)
    _ok(D.capstone_layout())
    _ok(D.capstone_layout(nodes=16, pp=2))


@pytest.mark.parametrize("call, param", [
    (lambda: D.ring_all_reduce_steps(1), "^n="),
    (lambda: D.ring_all_reduce_steps(7), "^n="),
    (lambda: D.ring_all_reduce_steps(4.0), "^n="),
    (lambda: D.pcie_tree("dgx-a100"), "^system="),
    (lambda: D.nvswitch_wiring("gb200-nvl72"), "^system="),
    (lambda: D.nvl72_rack("dgx-h100"), "^system="),
    (lambda: D.fat_tree(5), "^k="),
    (lambda: D.fat_tree(8), "^k="),
    (lambda: D.rail_optimised(nodes=0), "^nodes="),
    (lambda: D.rail_optimised(nodes=33), "^nodes="),
    (lambda: D.rail_optimised("dgx-x"), "^name="),
    (lambda: D.rail_optimised(switch="nope"), "^name="),
    (lambda: D.packet_layers(-1), "^payload="),
    (lambda: D.packet_layers(4096, "yes"), "^ipv6="),
    (lambda: D.bandwidth_ladder("nope"), "^system_name="),
    (lambda: D.bandwidth_ladder("dgx-h100", 0.5), "^oversubscription="),
    (lambda: D.capstone_layout(nodes=0), "^nodes="),
    (lambda: D.capstone_layout(nodes=65), "^nodes="),
    (lambda: D.capstone_layout(pp=3), ", pp=3: tp x pp must divide"),
    (lambda: graphs.k_ary_fat_tree_graph(5), "^k="),
    (lambda: graphs.rail_graph(40, 8, 64), "^nodes="),
    (lambda: graphs.nvswitch_graph(0, [1]), "^gpus="),
    (lambda: graphs.nvswitch_graph(8, []), "^links_per_chip="),
    (lambda: graphs.pcie_tree_graph("dgx-h100"), "^tree="),
    (lambda: graphs.leaf_spine_graph(10, 7), "^radix="),
    (lambda: graphs.torus_graph((0, 2)), r"dims\[0\]="),
    (lambda: graphs.dragonfly_graph(1, 2, 1, 9), "^groups="),
    (lambda: graphs.count(None, "gpu"), "^g="),
])
def test_bad_arguments_name_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


# ------------------------------------------------------------ counts vs the sources
def test_ring_steps_follow_the_algorithm():
    # Ring all-reduce (Patarasuk & Yuan 2009; facts.md 2.2): N-1 reduce-scatter and N-1
    # all-gather steps; each step every GPU sends one chunk; at the end every GPU holds
    # every chunk summed over all N GPUs.
    for n in (2, 4, 6):
        c = D.ring_all_reduce_steps(n).interlib_counts
        assert c["rows"] == 2 * (n - 1) + 1
        assert c["outlines"] == n * 2 * (n - 1)
        assert c["cells"] == n * n * (2 * (n - 1) + 1)
        assert c["complete_at_end"] == n * n


def test_dgx_h100_pcie_tree_matches_the_user_guide():
    # DGX H100 user guide, Table 6: eight compute ConnectX-7s, GPUs 0-3 on network
    # module/CPU 0 and GPUs 4-7 on CPU 1, one NIC per GPU; BasePOD RA: dual Xeon 8480C.
    fig = D.pcie_tree("dgx-h100")
    c = fig.interlib_counts
    assert (c["cpus"], c["gpus"], c["nics"], c["switches"]) == (2, 8, 8, 8)
    assert c["pcie_links"] == 8 + 8 + 8          # 8 switch uplinks + 8 GPU + 8 NIC links
    tree = specs.layouts.pcie_tree("dgx-h100")
    under_cpu0 = {g for s, cpu in enumerate(tree.switch_cpu) if cpu == 0
                  for g in tree.switch_gpus[s]}
    assert under_cpu0 == {0, 1, 2, 3}
    text = _texts(fig)
    assert "PCIe 5.0 x16" in text and "ConnectX-7, 400 Gb/s" in text
    assert "63 GB/s" in text                      # 32 GT/s x 16 x 128/130 / 8 = 63.0 GB/s


def test_nvlink_links_per_generation_match_the_sources():
    # facts.md 1.2: P100 4, V100 6, A100 12, H100 18, B200 18 links per GPU.
    fig = D.nvlink_generations()
    assert fig.interlib_counts["links"] == {1: 4, 2: 6, 3: 12, 4: 18, 5: 18}
    drawn = sum(1 for line in fig.axes[0].lines if len(line.get_xdata()) == 2)
    assert drawn == 4 + 6 + 12 + 18 + 18
    text = _texts(fig)
    assert "18 × 25 GB/s = 450 GB/s" in text and "18 × 50 GB/s = 900 GB/s" in text


def test_dgx_h100_nvswitch_wiring_is_5_4_4_5():
    # Hot Chips 34 via the scaling book: 5 + 4 + 4 + 5 links to four NVSwitch 3 chips of
    # 64 ports; 8 GPUs x 18 links = 144 links; chip 0 uses 8 x 5 = 40 of 64 ports.
    fig = D.nvswitch_wiring("dgx-h100")
    c = fig.interlib_counts
    assert c["per_chip"] == (5, 4, 4, 5)
    assert (c["gpus"], c["chips"], c["links"]) == (8, 4, 144)
    text = _texts(fig)
    assert "40/64 ports" in text and "32/64 ports" in text


def test_nvl72_rack_counts():
    # NVIDIA GB200 NVL72: 72 GPUs in 18 compute trays of 4; 9 NVLink Switch trays of 2
    # chips (scaling book); 144 ports per tray -> 72 per chip = one per GPU; each GPU's 18
    # NVLink 5 links go one to each of the 18 chips.
    c = D.nvl72_rack().interlib_counts
    assert (c["gpus"], c["compute_trays"], c["switch_trays"], c["chips"]) == (72, 18, 9, 18)
    assert c["drawn_links"] == 18


def test_fat_tree_counts_are_al_fares():
    # Al-Fares et al. 2008: k^3/4 hosts, 5k^2/4 switches; cables: hosts + 2 x k^3/4.
    for k in (4, 6):
        c = D.fat_tree(k).interlib_counts
        assert c["hosts"] == k ** 3 // 4
        assert c["switches"] == 5 * k * k // 4
        assert (c["core"], c["agg"], c["edge"]) == (k * k // 4, k * k // 2, k * k // 2)
        assert c["cables"] == 3 * k ** 3 // 4


def test_rail_optimised_scalable_unit():
    # DGX H100 SuperPOD RA (scaling book): 32 nodes per SU under 8 leaf switches, 64-port
    # NDR switches; 32 x 8 = 256 NIC cables, 256 leaf uplinks over 256 / 64 = 4 spines.
    c = D.rail_optimised().interlib_counts
    assert (c["nodes"], c["leaves"], c["host_cables"]) == (32, 8, 256)
    assert c["spines"] == 4 and c["cables"] == 512
    su = topology.fat_tree(256, 64)
    assert su.switches_per_tier == (c["leaves"], c["spines"]) and su.cables == c["cables"]


def test_packet_layers_to_the_byte():
    # RoCEv2: MAC 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 + preamble/IFG 20 = 82 B
    # (IEEE 802.3, RFC 791/768, IBTA); IPv6 header 40 (RFC 8200) adds 20. Native IB:
    # LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 B.
    fig = D.packet_layers(4096)
    c = fig.interlib_counts
    assert (c["rocev2_overhead"], c["ib_overhead"]) == (82, 26)
    assert (c["rocev2_layers"], c["ib_layers"]) == (7, 4)
    assert D.packet_layers(4096, True).interlib_counts["rocev2_overhead"] == 102
    text = _texts(fig)
    for part in ("Ethernet MAC 14 B", "IPv4 20 B", "UDP 8 B", "IB BTH 12 B", "IB LRH 8 B"):
        assert part in text
    assert "4,178 B" in text                       # 4096 + 82


def test_bandwidth_ladder_rungs():
    fig = D.bandwidth_ladder("dgx-h100")
    assert fig.interlib_counts["names"] == ("HBM", "NVLink", "PCIe", "Scale-out NIC",
                                            "Spine")
    text = _texts(fig)
    assert "3.35 TB/s peak" in text                # H100 SXM datasheet
    assert "450 GB/s peak" in text                 # 18 x 25 GB/s per direction
    assert "50 GB/s peak" in text                  # 400 Gb/s ConnectX-7 per GPU
    # a PCIe-only box has no NVLink rung
    assert "NVLink" not in D.bandwidth_ladder("h100-pcie-only").interlib_counts["names"]


def test_capstone_layout_counts():
    # Reference design: 32 DGX H100 nodes, TP 8 x PP 4 x DP 8 = 256 GPUs; 256 NDR ports on
    # 64-port switches: 256 / 32 = 8 leaves, 8 x 32 / 64 = 4 spines.
    c = D.capstone_layout().interlib_counts
    assert (c["nodes"], c["gpus"], c["stages"], c["replicas"]) == (32, 256, 4, 8)
    assert c["switches"] == (8, 4)
    c = D.capstone_layout(nodes=16, pp=2).interlib_counts    # 128 GPUs: TP 8 x PP 2 x DP 8
    assert (c["gpus"], c["stages"], c["replicas"], c["switches"]) == (128, 2, 8, (4, 2))


def test_diagrams_follow_the_catalogue(monkeypatch):
    """A changed fact redraws the picture: a hypothetical 6+4+4+4 split."""
    from interlib.specs import Spec

    src = specs.sources.NVSWITCH_HOTCHIPS
    split = tuple(Spec(n, "count", "secondary", src) for n in (6, 4, 4, 4))
    monkeypatch.setitem(D.inside_box._WIRING, "dgx-h100", split)
    fig = D.nvswitch_wiring("dgx-h100")
    assert fig.interlib_counts["per_chip"] == (6, 4, 4, 4)
    assert "48/64 ports" in _texts(fig)


# ---------------------------------------- graphs vs topology's closed forms (hypothesis)
def _host_diameter(g) -> int:
    """Longest shortest path, in links, between two hosts."""
    hosts = [n for n, k in g.nodes(data="kind") if k == "host"]
    best = 0
    for h in hosts:
        dist = nx.single_source_shortest_path_length(g, h)
        best = max(best, max(dist[x] for x in hosts))
    return best


@settings(max_examples=4, deadline=None)
@given(st.sampled_from([4, 6, 8, 10]))
def test_k_ary_fat_tree_graph_matches_closed_form(k):
    ft = topology.k_ary_fat_tree(k)
    g = graphs.k_ary_fat_tree_graph(k)
    assert graphs.count(g, "host") == ft.hosts
    switches = g.number_of_nodes() - ft.hosts
    assert switches == ft.switches
    assert (graphs.count(g, "leaf"), graphs.count(g, "agg"), graphs.count(g, "core")) == \
        ft.switches_per_tier
    assert g.number_of_edges() == ft.cables
    # hops: host-to-host links on the longest path = 2 x tiers; switches on it = links - 1
    host = next(n for n, kind in g.nodes(data="kind") if kind == "host")
    dist = nx.single_source_shortest_path_length(g, host)
    far = max(d for n, d in dist.items() if g.nodes[n]["kind"] == "host")
    assert far == ft.max_links and far - 1 == ft.max_hops
    assert max(dict(g.degree()).values()) <= k          # no switch exceeds its radix


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 32).map(lambda x: 2 * x), st.sampled_from([1.0, 2.0, 3.0]),
       st.floats(0, 1))
def test_leaf_spine_graph_matches_closed_form(radix, over, frac):
    cap = topology.max_hosts(radix, 2, over)
    one = topology.max_hosts(radix, 1, over)
    hosts = one + 1 + int(frac * (cap - one - 1))           # needs two tiers
    ft = topology.fat_tree(hosts, radix, over)
    assert ft.tiers == 2
    g = graphs.leaf_spine_graph(hosts, radix, over)
    assert graphs.count(g, "host") == hosts
    assert (graphs.count(g, "leaf"), graphs.count(g, "spine")) == ft.switches_per_tier
    assert g.number_of_edges() == ft.cables
    assert max(d for n, d in g.degree() if g.nodes[n]["kind"] != "host") <= radix
    assert _host_diameter(g) - 1 == ft.max_hops


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3))
def test_torus_graph_matches_closed_form(dims):
    t = topology.torus(dims)
    g = graphs.torus_graph(dims)
    assert g.number_of_nodes() == t.hosts
    assert g.number_of_edges() == t.cables
    if t.hosts > 1:
        lengths = dict(nx.all_pairs_shortest_path_length(g))
        assert max(max(d.values()) for d in lengths.values()) == t.max_hops
        mean = sum(sum(d.values()) for d in lengths.values()) / t.hosts ** 2
        assert math.isclose(mean, t.mean_hops, rel_tol=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.data())
def test_dragonfly_graph_matches_closed_form(p, a, h, data):
    groups = data.draw(st.integers(2, a * h + 1))
    d = topology.dragonfly(p, a, h, groups)
    g = graphs.dragonfly_graph(p, a, h, groups)
    assert graphs.count(g, "host") == d.hosts
    assert graphs.count(g, "switch") == d.switches
    assert g.number_of_edges() == d.cables
    routers = [n for n, k in g.nodes(data="kind") if k == "switch"]
    assert max(g.degree(r) for r in routers) <= d.radix
    assert _host_diameter(g) == d.max_links
    assert nx.diameter(g.subgraph(routers)) <= d.max_hops


# ------------------------------------------------ the chapters' cells stay in step
def _diagram_cells():
    for nb in sorted((ROOT / "chapters").glob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code" and "diagrams." in src and "import" in src:
                yield nb.name, cell, src


def test_every_chapter_has_a_diagram_with_current_alt_text():
    seen = set()
    for name, cell, src in _diagram_cells():
        seen.add(name[:2])
        assert "remove-input" in cell["metadata"].get("tags", []), name
        call = next(n for n in ast.walk(ast.parse(src))
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and getattr(n.func.value, "id", "") == "diagrams")
        fn = getattr(D, call.func.attr)
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        image = cell["metadata"]["mystnb"]["image"]
        fig = fn(*args, **kwargs)
        assert image["alt"] == fig.interlib_alt, (name, call.func.attr)
        # the stored PNG has two pixels per CSS pixel: the page shows it at half its width
        png = next(o["data"]["image/png"] for o in cell["outputs"]
                   if "image/png" in o.get("data", {}))
        png_width = int.from_bytes(base64.b64decode(png)[16:20], "big")  # PNG IHDR width
        assert abs(int(image["width"].removesuffix("px")) * 2 - png_width) <= 2, name
    assert seen >= {f"0{i}" for i in range(1, 9)}, sorted(seen)
