"""The shape a run is compared in: GPUs per node and nodes, where a node is one NVLink
domain.

On an 8-GPU HGX board the node, the host and the NVLink domain are the same thing. On a
rack-scale NVLink system (GB200/GB300 NVL72) they are not: nccl-tests' ``Rank`` lines name
the host of each rank, which is a compute tray of 4 GPUs, while the collective model's node
is the NVLink domain of 72 (:attr:`interlib.specs.System.gpus_per_server` is the tray,
``gpus_per_node`` the domain). So by default the node is the domain of the system compared
against; the host count is used only where hosts are nodes, and only when the Rank lines
can be trusted (one per rank, none elided). Every choice made here is said in ``notes``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from .. import collectives


@dataclass(frozen=True)
class Shape:
    """GPUs per node and nodes for a comparison, and how they were chosen.

    Attributes:
        gpus_per_node: GPUs of one node (one NVLink domain) in the run.
        nodes: Nodes in the run.
        notes: Which numbers were used and why, in words.
    """

    gpus_per_node: int
    nodes: int
    notes: tuple = ()


def shape(run, system, gpus_per_node: int | None = None, nodes: int | None = None) -> Shape:
    """The run's shape on ``system`` (a :class:`~interlib.specs.System`).

    Args:
        run: The parsed run.
        system: The hardware compared against (its ``gpus_per_node`` is the NVLink domain,
            ``gpus_per_server`` the host or tray).
        gpus_per_node, nodes: The shape, when the caller knows it (each checked against the
            log's rank count).

    Raises:
        ValueError: naming ``gpus_per_node=`` or ``nodes=`` when the shape cannot hold the
            run's ranks or the system's domain, or the log does not say how many ranks ran.
    """
    domain = system.gpus_per_node
    server = getattr(system, "gpus_per_server", domain) or domain
    notes = []
    if gpus_per_node is not None:
        gpus_per_node = v.integer("gpus_per_node", gpus_per_node, lo=1, hi=domain)
    if nodes is not None:
        nodes = v.integer("nodes", nodes, lo=1, hi=collectives.MAX_NODES)
    ranks = run.ranks
    if ranks is None and run.nodes and run.gpus_per_node:
        ranks = run.nodes * run.gpus_per_node
    if ranks is None:
        if gpus_per_node is None or nodes is None:
            raise ValueError("the log does not say how many ranks ran (no Rank lines, no "
                             "NCCL 'nranks' line, and its columns do not pin it): give "
                             "gpus_per_node= and nodes=")
        return Shape(gpus_per_node, nodes, ("shape as given: the log does not say how many "
                                            "ranks ran",))
    if gpus_per_node is not None and nodes is not None:
        if gpus_per_node * nodes != ranks:
            raise ValueError(f"gpus_per_node={gpus_per_node} x nodes={nodes} = "
                             f"{gpus_per_node * nodes} GPUs, but the log ran {ranks} ranks")
        return Shape(gpus_per_node, nodes)
    hosts_ok = run.nodes is not None and run.gpus_per_node is not None
    if gpus_per_node is not None and hosts_ok and domain <= server:
        if gpus_per_node * run.nodes != ranks:
            raise ValueError(f"gpus_per_node={gpus_per_node} x nodes={run.nodes} (the log's "
                             f"hosts) = {gpus_per_node * run.nodes} GPUs, but the log ran "
                             f"{ranks} ranks")
        return Shape(gpus_per_node, run.nodes)
    if gpus_per_node is not None:
        if ranks % gpus_per_node:
            raise ValueError(f"gpus_per_node={gpus_per_node} does not divide the log's "
                             f"{ranks} ranks: give nodes= too, or another gpus_per_node=")
        return Shape(gpus_per_node, ranks // gpus_per_node)
    if nodes is not None:
        if ranks % nodes or ranks // nodes > domain:
            raise ValueError(f"nodes={nodes} cannot hold the log's {ranks} ranks on "
                             f"{system.title} ({domain} GPUs per node): give gpus_per_node= "
                             "too, or another nodes=")
        return Shape(ranks // nodes, nodes)
    if domain > server:  # a rack-scale NVLink domain: hosts are trays
        g = min(domain, ranks)
        if ranks % g:
            raise ValueError(_split_unknown(ranks, domain, server, system.title))
        trays = (f"; the Rank lines' {run.nodes} hosts are its {server}-GPU trays"
                 if hosts_ok and run.gpus_per_node <= server else
                 f"; the log's hosts hold {run.gpus_per_node} ranks each, more than a "
                 f"{server}-GPU tray: the log may not come from this system"
                 if hosts_ok else "")
        notes.append(f"a node here is one NVLink domain of {system.title}: {g} of its "
                     f"{domain} GPUs per node x {ranks // g} node"
                     f"{'s' if ranks // g != 1 else ''}{trays}")
        return Shape(g, ranks // g, tuple(notes))
    if hosts_ok and run.gpus_per_node * run.nodes == ranks:
        if run.gpus_per_node > domain:
            raise ValueError(f"the log puts {run.gpus_per_node} ranks on one host, but "
                             f"{system.title} has {domain} GPUs per node: give "
                             "gpus_per_node= and nodes=")
        return Shape(run.gpus_per_node, run.nodes)
    g = min(domain, ranks)
    if ranks % g:
        raise ValueError(f"the log's {ranks} ranks do not fill nodes of {domain} GPUs "
                         f"({system.title}): give gpus_per_node= and nodes=")
    why = ("the log has no Rank lines" if not run.rank_lines else
           "its Rank lines cannot be trusted" if not hosts_ok else
           "its Rank lines do not add up")
    notes.append(f"{why}, so the host count is not used: {ranks} ranks over {g} GPUs per "
                 f"node ({system.title}) = {ranks // g} node{'s' if ranks // g != 1 else ''}")
    return Shape(g, ranks // g, tuple(notes))


def _split_unknown(ranks: int, domain: int, server: int, title: str) -> str:
    """Why a run of more GPUs than one rack-scale NVLink domain, not a whole number of them,
    has no default shape, and the shapes that would hold it: the fewest domains the ranks
    fit in, split evenly (when that is whole trays), and every tray a domain of its own."""
    few = -(-ranks // domain)
    options = []
    if ranks % few == 0 and (ranks // few) % server == 0:
        g = ranks // few
        options.append(f"gpus_per_node={g} and nodes={few} if they ran as {few} NVLink "
                       f"domains (racks) of {g // server} trays of {server} each")
    if ranks % server == 0:
        options.append(f"gpus_per_node={server} and nodes={ranks // server} if every "
                       f"{server}-GPU tray was an NVLink domain of its own (the trays "
                       "reached each other over the network only)")
    how = ("; e.g. " + ", or ".join(options)) if options else ""
    return (f"the log's {ranks} ranks are not whole NVLink domains of {domain} GPUs "
            f"({title}): they span at least {few} domains without filling them, and how "
            f"many GPUs ran in each domain is not in the log. Give gpus_per_node= and "
            f"nodes={how}")
