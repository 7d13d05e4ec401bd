"""The wiring behind the diagrams, as networkx graphs built from the catalogue and the
topology rules (networkx is imported inside each function, so importing
:mod:`interlib.plots` never needs it).

Every node has a ``kind`` attribute (``"gpu"``, ``"nic"``, ``"switch"``, ``"cpu"``,
``"host"``, ``"leaf"``, ``"spine"``, ...). Graphs whose parts can be joined by several
parallel cables are ``MultiGraph``s, one edge per cable, so ``number_of_edges()`` counts
cables. The tests count switches, cables and hops on these graphs and compare them with
the closed forms of :mod:`interlib.topology`.
"""

from __future__ import annotations

import math

from ... import _validate as v
from ... import topology


def _nx():
    import networkx as nx

    return nx


def pcie_tree_graph(tree) -> "object":
    """The PCIe tree of :class:`interlib.specs.layouts.PCIeTree` ``tree``: CPUs joined by
    their socket link, each switch under its CPU, GPUs and NICs under their switch."""
    from ...specs.layouts import PCIeTree

    v.instance("tree", tree, PCIeTree, "a specs.layouts.PCIeTree")
    nx = _nx()
    g = nx.Graph()
    cpus = int(tree.cpus.value)
    for c in range(cpus):
        g.add_node(("cpu", c), kind="cpu")
    for c in range(cpus - 1):
        g.add_edge(("cpu", c), ("cpu", c + 1), kind="socket")
    for s, (c, gpus, nics) in enumerate(zip(tree.switch_cpu, tree.switch_gpus,
                                            tree.switch_nics)):
        g.add_node(("switch", s), kind="switch")
        g.add_edge(("cpu", c), ("switch", s), kind="pcie")
        for x in gpus:
            g.add_node(("gpu", x), kind="gpu")
            g.add_edge(("switch", s), ("gpu", x), kind="pcie")
        for x in nics:
            g.add_node(("nic", x), kind="nic")
            g.add_edge(("switch", s), ("nic", x), kind="pcie")
    return g


def nvswitch_graph(gpus: int, links_per_chip) -> "object":
    """GPUs wired to NVSwitch chips: every GPU sends ``links_per_chip[i]`` links to chip i
    (a MultiGraph, one edge per NVLink link)."""
    n = v.integer("gpus", gpus, lo=1, hi=576)
    per = [v.integer(f"links_per_chip[{i}]", x, lo=0, hi=64)
           for i, x in enumerate(v.items("links_per_chip", links_per_chip))]
    nx = _nx()
    g = nx.MultiGraph()
    g.add_nodes_from((("gpu", i) for i in range(n)), kind="gpu")
    g.add_nodes_from((("chip", c) for c in range(len(per))), kind="switch")
    for i in range(n):
        for c, k in enumerate(per):
            for _ in range(k):
                g.add_edge(("gpu", i), ("chip", c))
    return g


def k_ary_fat_tree_graph(k: int) -> "object":
    """The three-tier k-ary fat-tree of Al-Fares et al. (SIGCOMM 2008), wired by its rule:
    k pods of k/2 edge and k/2 aggregation switches; each edge switch has k/2 hosts and a
    link to every aggregation switch of its pod; aggregation switch i of every pod links to
    core switches i k/2 .. (i+1) k/2 - 1.

    >>> g = k_ary_fat_tree_graph(4)     # 16 hosts + 20 switches; 16 + 16 + 16 cables
    >>> g.number_of_nodes(), g.number_of_edges()
    (36, 48)
    """
    k = v.integer("k", k, lo=4, hi=64)
    if k % 2:
        raise ValueError(f"k={k!r} must be even")
    nx = _nx()
    h = k // 2
    g = nx.Graph()
    g.add_nodes_from((("core", c) for c in range(h * h)), kind="core")
    for p in range(k):
        for e in range(h):
            g.add_node(("edge", p, e), kind="leaf")
            for j in range(h):
                host = ("host", p, e, j)
                g.add_node(host, kind="host")
                g.add_edge(host, ("edge", p, e))
        for a in range(h):
            g.add_node(("agg", p, a), kind="agg")
            for e in range(h):
                g.add_edge(("edge", p, e), ("agg", p, a))
            for c in range(a * h, (a + 1) * h):
                g.add_edge(("agg", p, a), ("core", c))
    return g


def leaf_spine_graph(hosts: int, radix: int, oversubscription: float = 1.0) -> "object":
    """A two-tier leaf/spine network sized like :func:`interlib.topology.fat_tree`: host i
    on leaf ``i // down``; leaf uplinks dealt round-robin over the spines (a MultiGraph:
    a leaf may have several cables to one spine)."""
    ft = topology.fat_tree(hosts, radix, oversubscription, tiers=2)
    nx = _nx()
    g = nx.MultiGraph()
    leaves, spines = ft.switches_per_tier
    g.add_nodes_from((("spine", s) for s in range(spines)), kind="spine")
    g.add_nodes_from((("leaf", x) for x in range(leaves)), kind="leaf")
    for i in range(ft.hosts):
        g.add_node(("host", i), kind="host")
        g.add_edge(("host", i), ("leaf", i // ft.leaf_down))
    for x in range(leaves):
        for j in range(ft.leaf_up):
            g.add_edge(("leaf", x), ("spine", (x * ft.leaf_up + j) % spines))
    return g


def rail_graph(nodes: int, rails: int, radix: int) -> "object":
    """A rail-optimised leaf/spine: NIC r of every node goes to the leaf of rail r (one leaf
    per rail, so ``nodes`` <= radix/2); each leaf has as many uplinks as nodes
    (non-blocking), dealt round-robin over ``ceil(rails x nodes / radix)`` spines."""
    k = v.integer("radix", radix, lo=4, hi=1024)
    n = v.integer("nodes", nodes, lo=1, hi=k // 2)
    r = v.integer("rails", rails, lo=1, hi=64)
    nx = _nx()
    spines = math.ceil(r * n / k)
    g = nx.MultiGraph()
    g.add_nodes_from((("spine", s) for s in range(spines)), kind="spine")
    for rail in range(r):
        g.add_node(("leaf", rail), kind="leaf", rail=rail)
        for j in range(n):
            g.add_edge(("leaf", rail), ("spine", (rail * n + j) % spines))
    for node in range(n):
        for rail in range(r):
            nic = ("nic", node, rail)
            g.add_node(nic, kind="nic", node=node, rail=rail)
            g.add_edge(nic, ("leaf", rail))
    return g


def torus_graph(dims) -> "object":
    """A torus (k-ary n-cube) of the given dimension sizes: networkx's periodic grid."""
    dims = tuple(topology.torus(dims).dims)  # validates, as topology does
    nx = _nx()
    g = nx.grid_graph(dim=list(dims), periodic=True)
    g = nx.Graph(g)  # a ring of 2 is one link; a ring of 1 has none
    g.remove_edges_from(nx.selfloop_edges(g))
    nx.set_node_attributes(g, "host", "kind")
    return g


def dragonfly_graph(p: int, a: int, h: int, groups: int | None = None) -> "object":
    """A dragonfly with one global link per pair of groups (Kim et al., ISCA 2008): routers
    of a group fully connected; group i's global port q (0-based, router ``q // h``) goes to
    group ``(i + q + 1) mod groups``; ``p`` hosts per router."""
    d = topology.dragonfly(p, a, h, groups)
    nx = _nx()
    g_ = d.groups
    g = nx.Graph()
    for grp in range(g_):
        for r in range(a):
            g.add_node(("router", grp, r), kind="switch")
            for x in range(p):
                g.add_node(("host", grp, r, x), kind="host")
                g.add_edge(("host", grp, r, x), ("router", grp, r))
        for r in range(a):
            for s in range(r + 1, a):
                g.add_edge(("router", grp, r), ("router", grp, s))
    for i in range(g_):
        for j in range(i + 1, g_):
            qi, qj = j - i - 1, (i - j - 1) % g_
            g.add_edge(("router", i, qi // h), ("router", j, qj // h), kind="global")
    return g


def count(g, kind: str) -> int:
    """Nodes of ``kind`` in graph ``g`` (a networkx graph built by this module)."""
    v.instance("kind", kind, str, "a node kind such as 'gpu' or 'switch'")
    if not hasattr(g, "nodes"):
        raise ValueError(f"g={g!r} must be a networkx graph")
    return sum(1 for _, k in g.nodes(data="kind") if k == kind)
