"""Between the boxes: InfiniBand generations, NICs per node, multi-node all-reduce,
and the DGX SuperPOD as a worked fat-tree (Chapter 5; Chapter 6 reuses the NIC tables).

Nothing here changes :func:`interlib.collectives.predict`; these are helpers around it
(systems with a different NIC or NIC count, and the textbook byte accounting of the
hierarchical all-reduce, facts.md 2.4).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from . import collectives, topology
from .collective_model.choice import system_of
from .display import Table, fmt_bits, fmt_bytes, fmt_rate, fmt_ratio
from .specs import (ETHERNET, INFINIBAND, NICS, SUPERPOD_SU, SWITCHES, SYSTEMS, System,
                    nic as _nic, switch, system as _system)
from .units import bit

ALLREDUCE_ALGORITHMS = ("ring", "hierarchical", "sharp", "auto")


def ib_generations_table() -> Table:
    """InfiniBand SDR -> XDR from the catalogue: lane signalling, encoding, lane data
    rate, and the 4x port rate in Gb/s and GB/s, per direction."""
    rows = []
    for name, gen in INFINIBAND.items():
        port = gen.port_rate(4)
        rows.append([name, gen.first_products, fmt_bits(gen.lane_signalling.value / bit),
                     gen.encoding, fmt_bits(gen.lane_data.value / bit),
                     fmt_bits(port / bit), fmt_rate(port)])
    dated = [f"{gen.name} {st.state} {st.date}: {st.note} "
             f"({st.source.title.split(' (')[0]})"
             for gen in INFINIBAND.values() for st in (gen.announced, gen.shipped)
             if st is not None]
    return Table(["generation", "first products", "lane signalling",
                  "encoding", "lane data rate", "4x port (bits/s, per direction)",
                  "4x port (bytes/s, per direction)"], rows,
                 "Per direction. 1 byte = 8 bits; PAM4 carries 2 bits per symbol. Sources: "
                 "IBTA roadmap as tabulated by infiniband.jp and Bekman (lane rates; "
                 "a year is the approximate year of first products); XDR lanes: IEEE "
                 "802.3dj. " + "; ".join(dated) + ".")


def ib_speedup(new: str, old: str) -> float:
    """How many times faster a 4x ``new`` InfiniBand port is than a 4x ``old`` one, per
    direction (port data rates, ``specs.INFINIBAND``).

    >>> ib_speedup("NDR", "EDR")
    4.0
    """
    from .specs import infiniband

    v.choice("new", new, INFINIBAND)
    v.choice("old", old, INFINIBAND)
    return infiniband(new).port_rate(4) / infiniband(old).port_rate(4)


def meta_clusters_text() -> str:
    """Meta's two H100 training clusters and the Llama 3 run, as a sentence from the
    catalogue (``specs.META_CLUSTERS_24K``, ``specs.LLAMA3_GPUS``) with the sources.

    >>> print(meta_clusters_text())  # doctest: +ELLIPSIS
    Meta: 2 clusters of 24,576 H100 GPUs each (one RoCE, one InfiniBand), 400 Gb/s endpoints ...
    """
    from .specs import LLAMA3_GPUS, META_CLUSTERS_24K as M

    return (f"Meta: {M['clusters'].value:g} clusters of {M['gpus_per_cluster'].value:,.0f} "
            f"H100 GPUs each (one RoCE, one InfiniBand), "
            f"{fmt_bits(M['endpoint_rate'].value / bit)} endpoints "
            f"({M['clusters'].source.title.split(' (')[0]}); the Llama 3 405B snapshot "
            f"ran on {LLAMA3_GPUS.value:,.0f} H100 GPUs "
            f"({LLAMA3_GPUS.source.title.split(', arXiv')[0]})")


def ethernet_table() -> Table:
    """Chapter 6's spec table, from the catalogue: Ethernet port speeds
    (``specs.ETHERNET``), the NICs that speak Ethernet (``specs.NICS``) and the Ethernet
    switches (``specs.SWITCHES``), in bits/s and bytes/s per direction, with the kind
    of figure and its source."""
    rows = []
    for gbps, sp in ETHERNET.items():
        rows.append([f"{gbps} GbE port", fmt_bits(sp.value / bit), fmt_rate(sp.value),
                     sp.kind, sp.source.title.split(" (")[0]])
    for n in NICS.values():
        if "Ethernet" in n.fabric:
            port = n.ethernet_port_spec
            ports = "1 port" if n.ethernet_ports == 1 else f"{n.ethernet_ports} ports"
            rows.append([f"{n.name} NIC on Ethernet: {ports} x "
                         f"{fmt_bits(port.value / bit)}", fmt_bits(n.ethernet_rate / bit),
                         fmt_rate(n.ethernet_rate), port.kind,
                         port.source.title.split(" (")[0]])
    for sw in SWITCHES.values():
        if sw.fabric == "Ethernet":
            cap = sw.capacity_per_direction
            rows.append([f"{sw.name} switch: {sw.ports.value:g} ports x "
                         f"{fmt_bits(sw.port_rate.value / bit)}", fmt_bits(cap / bit),
                         fmt_rate(cap), sw.port_rate.kind,
                         sw.port_rate.source.title.split(" (")[0]])
    return Table(["item", "bits/s (per direction)", "bytes/s (per direction)", "kind",
                  "source"], rows,
                 "Ethernet for RoCEv2, from interlib.specs; every rate per direction "
                 "(a NIC or switch row is its total, ports x port rate; a NIC's Ethernet "
                 "ports are the ones its documentation lists, e.g. ConnectX-8 has no "
                 "single 800 GbE port).")


def node_nic_table(names=("dgx-a100", "dgx-h100", "dgx-b200", "gb200-nvl72")) -> Table:
    """Scale-out NICs per node from the catalogue: count, model, GPU:NIC ratio and the
    node's injection bandwidth in bits/s and bytes/s per direction."""
    rows = []
    for n in v.items("names", names):
        s = _system(v.choice("names", n, SYSTEMS))
        rows.append([s.title, str(s.gpus_per_node), f"{s.nics_per_node} x {s.nic.name}",
                     fmt_bits(s.nic.rate.value / bit),
                     f"{s.nics_per_gpu:g} NIC per GPU",
                     fmt_bits(s.node_injection / bit), fmt_rate(s.node_injection)])
    return Table(["system", "GPUs", "compute NICs", "NIC rate (per direction)", "ratio",
                  "node injection (bits/s)", "node injection (bytes/s)"], rows,
                 "Compute-fabric NICs only (storage and management NICs not counted); "
                 "per direction.")


def with_nics(system="dgx-h100", nic: str = "connectx-7", nics_per_node: int | None = None
              ) -> System:
    """A copy of ``system`` with a different scale-out NIC model and/or NIC count, for
    what-if questions ("one NIC per node instead of eight").

    Args:
        system: Catalogue id or :class:`~interlib.specs.System`.
        nic: NIC catalogue id (``"connectx-6-hdr"``, ``"connectx-7"``, ``"connectx-8"``).
        nics_per_node: Compute NICs per node, 1..gpus_per_node (default unchanged).
    """
    s = system_of(system)
    n = s.nics_per_node if nics_per_node is None else v.integer(
        "nics_per_node", nics_per_node, lo=1, hi=s.gpus_per_node)
    return dataclasses.replace(s, nic=_nic(v.choice("nic", nic, NICS)), nics_per_node=n)


def multinode_all_reduce(size_bytes, nodes: int, system="dgx-h100",
                         algorithms=ALLREDUCE_ALGORITHMS) -> dict:
    """All-reduce predictions for each algorithm (``collectives.predict``, all GPUs of
    each node): ``{algorithm: Prediction}``. ``"auto"`` is NCCL's choice among ring,
    tree and NVLS; ``"sharp"`` is in-network reduction in the InfiniBand switches.

    Args:
        size_bytes: Per-GPU buffer, bytes (scalar or array, >= 1).
        nodes: Nodes, 2..100,000.
        system: Catalogue id or System (e.g. from :func:`with_nics`).
        algorithms: Subset of ``("ring", "hierarchical", "sharp", "auto")``.
    """
    k = v.integer("nodes", nodes, lo=2, hi=100_000)
    algorithms = v.items("algorithms", algorithms)
    for a in algorithms:
        v.choice("algorithms", a, ALLREDUCE_ALGORITHMS)
    return {a: collectives.predict("all_reduce", size_bytes, system, None, k, a)
            for a in algorithms}


def time_ratios(times, reference: str) -> dict:
    """Each time in ``times`` divided by ``times[reference]``: how many times longer (> 1)
    or shorter (< 1) than the reference each one takes (Chapter 5 compares the all-reduce
    algorithms with SHARP, and an article's estimate with the model's).

    Args:
        times: Mapping ``{name: seconds}``; a value may also be a
            :class:`~interlib.collectives.Prediction` (its ``time_s``). Each time is a
            single number > 0.
        reference: A key of ``times``.

    Returns:
        ``{name: times[name] / times[reference]}`` (the reference maps to 1.0).

    >>> time_ratios({"a": 3.0, "b": 1.5}, "b")
    {'a': 2.0, 'b': 1.0}
    """
    if not hasattr(times, "items") or not times:
        raise ValueError(f"times={times!r} must be a non-empty mapping of name -> seconds")
    v.choice("reference", reference, list(times))
    secs = {}
    for name, t in times.items():
        t = getattr(t, "time_s", t)
        if np.ndim(t):
            raise ValueError(f"times[{name!r}]={t!r} must be a single number")
        secs[name] = float(v.positive(f"times[{name!r}]", t))
    ref = secs[reference]
    return {name: t / ref for name, t in secs.items()}


@dataclass(frozen=True)
class HierarchicalBytes:
    """Per-GPU bytes of a hierarchical all-reduce (facts.md 2.4), each direction.

    Attributes:
        intra: Bytes each GPU sends over NVLink: reduce-scatter + all-gather,
            ``2 (g-1)/g x S``.
        inter: Bytes each GPU sends over its NIC share: ring all-reduce of its ``S/g``
            shard across k nodes, ``2 (k-1)/k x S/g``.
        flat_ring: Bytes each GPU sends in a flat ring over all n = g k GPUs,
            ``2 (n-1)/n x S``.
        node_out: Bytes leaving each node, ``g x inter`` = ``2 (k-1)/k x S``.
    """

    intra: float
    inter: float
    flat_ring: float
    node_out: float


def hierarchical_bytes(size_bytes, gpus_per_node: int, nodes: int) -> HierarchicalBytes:
    """The byte accounting of the hierarchical all-reduce (Chapter 5).

    1. reduce-scatter inside the node over NVLink: each GPU ends with a 1/g shard;
    2. all-reduce of that shard across the k nodes over the NICs;
    3. all-gather inside the node.

    Args:
        size_bytes: Per-GPU buffer S, bytes (>= 0).
        gpus_per_node: g, 1..576.
        nodes: k, 1..100,000.

    >>> b = hierarchical_bytes(8e9, 8, 4)
    >>> b.intra / 1e9, b.inter / 1e9
    (14.0, 1.5)
    """
    v.non_negative("size_bytes", size_bytes)
    g = v.integer("gpus_per_node", gpus_per_node, lo=1, hi=576)
    k = v.integer("nodes", nodes, lo=1, hi=100_000)
    S = np.asarray(size_bytes, dtype=float)
    if S.ndim == 0:
        S = float(S)
    n = g * k
    return HierarchicalBytes(2 * (g - 1) / g * S, 2 * (k - 1) / k * S / g,
                             2 * (n - 1) / n * S, 2 * (k - 1) / k * S)


def nic_phase_time(size_bytes, system="dgx-h100", nodes: int = 4):
    """Line-rate time of the inter-node phase of a hierarchical all-reduce: each GPU's
    shard goes through ``nics_per_node / gpus_per_node`` of the node's NICs, so the node
    sends ``2 (k-1)/k x S`` through ``nics_per_node`` NICs: ``t = 2 (k-1)/k x S /
    (nics_per_node x NIC rate)``. With one NIC per GPU every shard has its own NIC; with
    one NIC per node all eight shards queue for it.

    Args:
        size_bytes: Per-GPU buffer, bytes (>= 0).
        system: Catalogue id or System.
        nodes: k >= 2.
    """
    s = system_of(system)
    k = v.integer("nodes", nodes, lo=2, hi=100_000)
    b = hierarchical_bytes(size_bytes, s.gpus_per_node, k)
    return b.node_out / s.node_injection


@dataclass(frozen=True)
class SuperPOD:
    """A DGX H100 SuperPOD built from scalable units (SUs).

    Attributes:
        scalable_units: SUs.
        nodes: DGX nodes; gpus: GPUs (one NDR port each).
        fabric: The compute fat-tree (:class:`~interlib.topology.FatTree`).
    """

    scalable_units: int
    nodes: int
    gpus: int
    fabric: topology.FatTree


def superpod(scalable_units: int = 4) -> SuperPOD:
    """Size the compute fabric of a DGX H100 SuperPOD: ``scalable_units x 32`` nodes,
    8 GPUs and 8 NDR ports per node, 64-port Quantum-2 switches, full bisection
    (facts.md 1.7: 8 leaves per SU; 4 SUs and 16 spines make 1,024 GPUs).

    Args:
        scalable_units: 1..64 (beyond 8 SUs a third tier appears).
    """
    su = v.integer("scalable_units", scalable_units, lo=1, hi=64)
    node = _system("dgx-h100")
    nodes = su * int(SUPERPOD_SU["nodes_per_su"].value)
    gpus = nodes * node.gpus_per_node
    sw = switch("quantum-2")
    ft = topology.fat_tree(nodes * node.nics_per_node, int(sw.ports.value), 1.0,
                           sw.port_rate.value)
    return SuperPOD(su, nodes, gpus, ft)


def fabric_table(ft: topology.FatTree) -> Table:
    """One fat-tree's counts as a two-column table."""
    if not isinstance(ft, topology.FatTree):
        raise ValueError(f"ft={ft!r} must be a topology.FatTree")
    rows = [["hosts (NIC ports)", f"{ft.hosts:,}"], ["switch radix", str(ft.radix)],
            ["tiers", str(ft.tiers)],
            ["switches per tier (leaf first)", " + ".join(f"{x:,}" for x in
                                                          ft.switches_per_tier)],
            ["switches", f"{ft.switches:,}"], ["cables", f"{ft.cables:,}"],
            ["leaf ports down : up", f"{ft.leaf_down} : {ft.leaf_up}"],
            ["bisection (per direction)", fmt_rate(ft.bisection_per_direction)],
            ["bisection / full bisection", fmt_ratio(ft.bisection_ratio)],
            ["max switch hops", str(ft.max_hops)]]
    return Table(["quantity", "value"], rows,
                 f"Fat-tree of {ft.radix}-port switches, links {fmt_rate(ft.link_rate)} "
                 "per direction (topology.fat_tree).")


def topology_table(hosts: int = 4096, radix: int = 64) -> Table:
    """Fat-tree, balanced dragonfly and 3D torus for about ``hosts`` endpoints
    (:func:`interlib.topology.compare`): every switch or router has at most ``radix``
    ports (the row says how many each uses), every link the default NDR port rate.
    Path length is counted the same way for all three: links crossed on the longest
    host-to-host path."""
    c = topology.compare(hosts, radix)
    ft, df, tor = c["fat-tree"], c["dragonfly"], c["3D torus"]
    rows = [[f"fat-tree, {ft.tiers} tiers", f"{ft.radix} ports", f"{ft.hosts:,}",
             f"{ft.switches:,}", f"{ft.cables:,}", f"{ft.switch_cables:,}",
             fmt_rate(ft.bisection_per_direction), fmt_ratio(ft.bisection_ratio),
             str(ft.max_links)]]
    if df is not None:
        rows.append([f"dragonfly, {df.groups} groups (p={df.p}, a={df.a}, h={df.h})",
                     f"{df.radix} ports", f"{df.hosts:,}", f"{df.switches:,}",
                     f"{df.cables:,}",
                     f"{df.local_cables + df.global_cables:,} ({df.global_cables:,} global)",
                     fmt_rate(df.bisection_per_direction), fmt_ratio(df.bisection_ratio),
                     str(df.max_links)])
    else:
        rows.append([f"dragonfly: a balanced dragonfly of {radix}-port routers has fewer "
                     "than this many hosts", "", "", "", "", "", "", "", ""])
    d = "x".join(str(x) for x in tor.dims)
    rows.append([f"3D torus {d}", f"{tor.links_per_node} neighbour links",
                 f"{tor.hosts:,}", "0 (direct)", f"{tor.cables:,}", f"{tor.cables:,}",
                 fmt_rate(tor.bisection_per_direction), fmt_ratio(tor.bisection_ratio),
                 str(tor.max_links)])
    return Table(["topology", "switch / router radix used", "hosts", "switches",
                  "cables", "of which switch-to-switch", "bisection (per direction)",
                  "bisection / full", "longest path (links, host to host)"], rows,
                 f"About {hosts:,} endpoints; switches and routers of at most {radix} "
                 f"ports; every link {fmt_bits(ft.link_rate / bit)} per direction "
                 "(one NDR 4x port, specs.infiniband).")


def fmt_nic(system) -> str:
    """``'8 x ConnectX-7 (400 Gb/s) = 400 GB/s per direction'`` for a catalogue id or a
    :class:`~interlib.specs.System`."""
    system = system_of(system)
    return (f"{system.nics_per_node} x {system.nic.name} "
            f"({fmt_bits(system.nic.rate.value / bit)}) = "
            f"{fmt_rate(system.node_injection)} per direction")


__all__ = ["meta_clusters_text", "ib_speedup", "ethernet_table", "ib_generations_table", "node_nic_table", "with_nics", "multinode_all_reduce", "time_ratios",
           "hierarchical_bytes", "nic_phase_time", "superpod", "SuperPOD", "fabric_table",
           "topology_table", "fmt_nic", "HierarchicalBytes", "fmt_bytes"]


def figures_2026() -> dict:
    """Chapter 5's figures for XDR, Quantum-X800 and SHARP's latest generation (issue 28),
    as display strings for the prose.

    >>> figures_2026()["x800_ports"]
    '144'
    """
    from .specs import NCCL_FEATURES, switch
    from .specs.fabric import XDR_SWITCH_FIRST_MANUAL

    xdr, q2, x800 = INFINIBAND["XDR"], switch("quantum-2"), switch("quantum-x800")
    cpo = switch("quantum-x-photonics")
    two = {k: topology.max_hosts(s.radix, 2) for k, s in (("q2", q2), ("x800", x800))}
    three = {k: topology.max_hosts(s.radix, 3) for k, s in (("q2", q2), ("x800", x800))}
    return {
        "xdr_signalling": fmt_bits(xdr.lane_signalling.value / bit, digits=4),
        "xdr_lane_data": fmt_bits(xdr.lane_data.value / bit),
        "xdr_coding": f"{xdr.coding_efficiency:.3f}",
        "xdr_announced": str(xdr.announced),
        "x800_ports": f"{x800.radix}", "q2_ports": f"{q2.radix}",
        "x800_capacity": fmt_bits(x800.capacity_per_direction / bit),
        "x800_status": str(x800.status), "x800_manual": XDR_SWITCH_FIRST_MANUAL[0],
        "two_tier_q2": f"{two['q2']:,}", "two_tier_x800": f"{two['x800']:,}",
        "three_tier_q2": f"{three['q2']:,}", "three_tier_x800": f"{three['x800']:,}",
        "two_tier_gain": fmt_ratio(two["x800"] / two["q2"], 3),
        "cpo_status": str(cpo.status),
        "nvls_sharp_ag_rs": NCCL_FEATURES["NVLS + IB SHARP for AllGather / ReduceScatter"]
        .note.split(";")[0],
    }
