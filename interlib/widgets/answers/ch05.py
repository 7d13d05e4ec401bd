"""Answers to Chapter 5's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from ... import collectives, display as D, flowcontrol, hierarchy, specs, topology
from ...plots import ch05 as P
from ...units import MiB
from . import control, default, ratio

_ALGS = ("ring", "hierarchical", "sharp")


def _times(size_mib, nodes=16, nic="connectx-7", nics=8) -> dict:
    _, preds = P.allreduce_at(size_mib, nodes, nic, nics)
    return {a: float(preds[a].time_s) for a in _ALGS}


def _nvlink_phase(size_bytes) -> float:
    """The intra-node reduce-scatter + all-gather of the hierarchical algorithms:
    2(g-1)/g x S / B_NVLink (achieved), g = 8 GPUs per node."""
    g = specs.system(P.ALLREDUCE_SYSTEM).gpus_per_node
    return collectives.bus_factor("all_reduce", g) * size_bytes / hierarchy.link("NVLink 4").effective


def ib_nics() -> str:
    size, nodes, nics = (default("ib_allreduce", k) for k in ("size_mib", "nodes",
                                                              "nics_per_node"))
    eight, one = _times(size, nodes, nics=nics), _times(size, nodes, nics=1)
    nic = specs.system(P.ALLREDUCE_SYSTEM).nic.rate.value
    nv = hierarchy.link("NVLink 4").effective
    return (f"At {D.fmt_bytes(size * MiB, binary=True)} on {nodes} nodes: "
            + "; ".join(f"{a} {D.fmt_time(eight[a])} → {D.fmt_time(one[a])} "
                        f"({ratio(one[a], eight[a])})" for a in _ALGS)
            + ". The NIC bandwidth per node falls eightfold (from "
            f"{D.fmt_rate(nics * nic)} to {D.fmt_rate(nic)} per direction). The ring and the "
            "hierarchical algorithm push their bytes at the pace of the slower of NVLink "
            f"({D.fmt_rate(nv)} achieved) and the node's NICs, so their bandwidth term grows "
            f"by {ratio(min(nv, nics * nic), nic)}, close to the NIC ratio; their latency terms do "
            "not change, so the total grows a little less. SHARP is different: the "
            "switches reduce, so each GPU sends its shard into the network only once, and "
            "with eight NICs the slower of its two pipelined phases was the NVLink "
            "reduce-scatter and all-gather inside each node "
            f"({D.fmt_time(_nvlink_phase(size * MiB))}), which does not change. With one NIC "
            "the network phase becomes the slower one; "
            "the growth is the network time over the old NVLink-bound time, not the NIC ratio.")


def ib_latency() -> str:
    nodes = max(control("ib_allreduce", "nodes").options)
    sizes = control("ib_allreduce", "size_mib")
    small, big = _times(sizes.min, nodes=nodes), _times(sizes.max, nodes=nodes)
    n = nodes * specs.system(P.ALLREDUCE_SYSTEM).gpus_per_node
    return (f"At {nodes} nodes ({n:,} GPUs): {D.fmt_bytes(sizes.min * MiB, binary=True)} "
            f"takes {D.fmt_time(small['ring'])} with the flat ring and "
            f"{D.fmt_time(small['sharp'])} with SHARP "
            f"({ratio(small['ring'], small['sharp'])}); "
            f"{D.fmt_bytes(sizes.max * MiB, binary=True)} takes "
            f"{D.fmt_time(big['ring'])} and {D.fmt_time(big['sharp'])} "
            f"({ratio(big['ring'], big['sharp'])}). The flat ring takes 2(n − 1) = "
            f"{2 * (n - 1):,} steps, each paying a hop latency; for a small buffer those "
            "steps are nearly all of the time. SHARP goes up the switch tree and back down "
            "in a handful of steps. For a large buffer both are bandwidth-bound and differ "
            "only by the bytes each GPU sends (about two buffers against one into the network). "
            "Small messages are a latency problem (count the steps); large ones are a "
            "bandwidth problem (count the bytes).")


def ib_cx8() -> str:
    size, nodes, nics = (default("ib_allreduce", k) for k in ("size_mib", "nodes",
                                                              "nics_per_node"))
    c7, c8 = (_times(size, nodes, nic=nic, nics=nics) for nic in ("connectx-7", "connectx-8"))
    return (f"At {D.fmt_bytes(size * MiB, binary=True)}, {nodes} nodes, {nics} NICs: "
            + "; ".join(f"{a} {D.fmt_time(c7[a])} → {D.fmt_time(c8[a])} "
                        f"({ratio(c7[a], c8[a])})" for a in _ALGS)
            + ". Doubling the NIC rate only speeds up the part of the algorithm that crosses "
            "the network. The hierarchical and SHARP algorithms pipeline an NVLink phase "
            "inside each node with a network phase, and run at the pace of the slower one; "
            "the NVLink reduce-scatter and all-gather take "
            f"{D.fmt_time(_nvlink_phase(size * MiB))} (2(g − 1)/g × S ÷ NVLink's achieved "
            f"{D.fmt_rate(hierarchy.link('NVLink 4').effective)}) whatever the NIC. The flat "
            "ring's per-step rate is the slower of NVLink and the node's NICs, and with "
            "ConnectX-8 that is NVLink. Once the network is faster than NVLink's share, the "
            "NVLink domain is the bottleneck.")


def fat_tree_step() -> str:
    radix, step = default("fat_tree", "radix"), control("fat_tree", "hosts").step
    two = topology.max_hosts(radix, 2)
    # the question's counts: half the two-tier limit, the limit, one slider step beyond
    a, b, c = (topology.fat_tree(h, radix) for h in (two // 2, two, two + step))
    return (f"{a.hosts:,} → {b.hosts:,} hosts: {a.switches} → {b.switches} switches, still "
            f"{b.tiers} tiers and up to {b.max_hops} switch hops: the count just doubles. At "
            f"{c.hosts:,} it jumps to {c.switches} switches, {c.tiers} tiers and "
            f"{c.max_hops} hops. A two-tier non-blocking fat tree of radix-k switches holds "
            f"at most k²/2 hosts ({two:,} for k = {radix}): each leaf uses half its ports for "
            "hosts and half for spines, and a spine has k ports, one per leaf. One host more "
            "needs a third tier, and every path between pods gets two more hops.")


def fat_tree_taper() -> str:
    full, tap = topology.fat_tree(4096, 64, 1.0), topology.fat_tree(4096, 64, 3.0)
    return (f"At {full.hosts:,} hosts a 3:1 leaf uses {tap.leaf_down} ports for hosts and "
            f"{tap.leaf_up} for uplinks: {tap.switches} switches instead of {full.switches} "
            f"(saving {full.switches - tap.switches}) and {tap.cables:,} cables instead of "
            f"{full.cables:,}. The bisection drops to {D.fmt_rate(tap.bisection_per_direction)} "
            f"per direction, {D.fmt_pct(tap.bisection_ratio)} of full: you give up about two "
            "thirds of the bandwidth between leaves for a minority of the switches. That "
            "pays only if most traffic stays under one leaf (as TP and PP do when placed "
            "well).")


def fat_tree_radix() -> str:
    lo, hi = default("fat_tree", "radix"), max(control("fat_tree", "radix").options)
    hosts = 8192
    h_hi, h_lo = topology.max_hosts(hi, 2), topology.max_hosts(lo, 2)
    a, b = topology.fat_tree(hosts, lo), topology.fat_tree(hosts, hi)
    return (f"{h_hi:,} hosts fit in two tiers of {hi}-port switches, four times the "
            f"{h_lo:,} of {lo}-port ones (k²/2). For {hosts:,} hosts the {lo}-port tree needs "
            f"{a.tiers} tiers, {a.switches} switches and {a.cables:,} cables with up to "
            f"{a.max_hops} hops; the {hi}-port tree {b.tiers} tiers, {b.switches} switches, "
            f"{b.cables:,} cables and {b.max_hops} hops. Higher radix means fewer tiers: "
            "fewer switches, cables and optics (the biggest cost), lower latency and fewer "
            "places to fail.")


def credit_bdp() -> str:
    rtt, buf = default("credit_flow", "rtt_steps"), default("credit_flow", "buffer_packets")
    half = rtt // 2  # a buffer of half the round trip
    bound = flowcontrol.credit_throughput_bound(half, rtt)
    at_default = flowcontrol.credit_throughput_bound(buf, rtt)
    return ("A credit comes back one round trip after its packet left, so the sender can "
            "have at most one buffer's worth of packets in flight per round trip: "
            "throughput = min(1, credits ÷ RTT). Full rate needs credits ≥ RTT in packet "
            f"times: {flowcontrol.bdp_packets(rtt)} credits for an RTT of {rtt} packet times, "
            f"exactly the bandwidth-delay product. With a buffer of {half} the bound "
            f"is {float(bound):.3g} of the link, and the demo's credit sender sits right "
            "under it; slide the buffer up to the RTT and it reaches full rate (the demo's "
            f"default buffer of {buf} gives a bound of {float(at_default):.3g}).")


def credit_lossy() -> str:
    load, rtt = (default("credit_flow", k) for k in ("load", "rtt_steps"))
    buf = rtt  # the question's setting: a buffer of one round trip
    runs = P.credit_runs(buf, load, rtt)
    c, lo = runs["credit"], runs["lossy"]
    return (f"At load {load:g} the credit sender delivers {c.goodput:.3f} of the link and "
            f"the lossy sender {lo.goodput:.3f}, but the lossy sender is busy "
            f"{lo.offered:.3f} of the "
            f"time against {c.offered:.3f}: it sends packets the full receiver must drop "
            f"({lo.drops} drops, {lo.discarded} packets discarded and resent). Those "
            "retransmissions use link time and switch buffers upstream that other flows "
            "share, and each loss stalls the flow until it is resent. The credit sender "
            "simply waits, and the link stays free for others.")


def credit_cable() -> str:
    rate = specs.system("dgx-h100").nic.rate.value
    ds = (10, 100, 1000)
    return ("The buffer a credit link needs is its bandwidth-delay product: rate × round "
            "trip. Everything in flight during one round trip must have a guaranteed place "
            f"to land. For a {D.fmt_rate(rate)} port: "
            + ", ".join(f"{d:,} m of fibre → {D.fmt_bytes(flowcontrol.credit_buffer_bytes(rate, d))}"
                        for d in ds)
            + f" (light in fibre covers a metre in {D.fmt_time(1 / flowcontrol.FIBRE_SPEED)}). A longer cable or a faster "
            "port needs proportionally more buffer on every port, which is why long-haul "
            "InfiniBand links need special switches or range extenders.")


def topo_cables() -> str:
    out = []
    radix = default("topologies", "radix")
    for hosts in (default("topologies", "hosts"), control("topologies", "hosts").max):
        c = topology.compare(hosts, radix)
        parts = [f"{n} {c[n].cables:,} cables, "
                 f"{D.fmt_rate(c[n].bisection_per_direction / c[n].cables)} of bisection per "
                 "cable" for n in topology.TOPOLOGIES if c[n] is not None]
        out.append(f"at {hosts:,} hosts: " + "; ".join(parts))
    return (f"Radix {radix}, " + ". And ".join(out) + ". The dragonfly needs the fewest cables (it "
            "uses long global links sparingly); the fat tree gives the most bisection per "
            "cable, because every cable it adds is part of a full-bandwidth path. The "
            "torus is cheapest in switches but poorest in bisection. The ordering holds "
            "when the system grows sixteenfold.")


def topo_radix16() -> str:
    radixes = control("topologies", "radix")
    low, radix, hosts = min(radixes.options), radixes.default, default("topologies", "hosts")
    df = topology.balanced_dragonfly(low)
    a, b = topology.fat_tree(hosts, radix), topology.fat_tree(hosts, low)
    return ("A dragonfly's size is fixed by its routers: with radix k a balanced design has "
            "about k/4 hosts per router, k/2 routers per group and one global link between "
            f"each pair of groups. With {low} ports that tops out at {df.hosts:,} hosts, below "
            f"{hosts:,}. The fat tree still reaches it but needs {b.tiers} tiers instead of "
            f"{a.tiers}, {b.switches:,} switches instead of {a.switches}, and its longest "
            f"path grows from {a.max_links} to {b.max_links} links.")


def topo_torus() -> str:
    t = topology.compare(4096, 64)["3D torus"]
    return ("It pays in hops and bisection. Every node forwards traffic for others through "
            f"its own links: at {t.hosts:,} hosts the longest path is {t.max_links} links "
            f"and the bisection is {D.fmt_pct(t.bisection_ratio)} of full. For nearest-"
            "neighbour traffic (halo exchanges, pipeline stages, a ring all-reduce laid out "
            "along a dimension) each message crosses one link and the price is small; for "
            "all-to-all (expert parallelism, shuffles) most bytes cross the bisection and "
            "many hops, and the torus is slowest.")
