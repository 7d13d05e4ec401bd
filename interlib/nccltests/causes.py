"""The likely causes of a shortfall (:func:`diagnose`), each as the book teaches it: first
what the log itself states (its NCCL lines, the variables it sets), each quoting its line;
then the signatures the curve's shape matches."""
from __future__ import annotations

import math

import numpy as np

from .. import _validate as v
from .. import intervals
from ..display import fmt_bytes
from ..units import GB_per_s, Gbit_per_s
from .results import Comparison, Diagnosis, fabric_of, system_of

MATCH_TOLERANCE = 1.5
"""A plateau within this factor of an alternative's prediction scores above 0 (1: equal)."""

FLOOR_FACTOR = 2.0
"""A latency-bound time this many times the model's is a high small-message floor."""

ERROR_LIMIT = 1e-2
"""Largest ``error`` (older nccl-tests' maximum difference from the expected result) taken
as rounding; above it the values are wrong."""

FEW_CHANNELS = 2
"""At most this many collective channels is few on a run of more than two GPUs (NCCL builds
a channel per ring; one or two cannot keep several NVLinks or NICs busy); a run of two GPUs
is not judged by its channel count."""

FORCED = {"NCCL_ALGO": None, "NCCL_PROTO": None, "NCCL_P2P_DISABLE": "1",
          "NCCL_SHM_DISABLE": "1", "NCCL_IB_DISABLE": "1", "NCCL_NVLS_ENABLE": "0",
          "NCCL_MAX_NCHANNELS": None, "NCCL_MIN_NCHANNELS": None,
          "NCCL_NET_GDR_LEVEL": None, "NCCL_BUFFSIZE": None, "NCCL_COLLNET_ENABLE": None,
          "NCCL_CROSS_NIC": None, "NCCL_NET": None}
"""``NCCL_*`` variables that change how NCCL runs a collective, and the value that matters
(None: any value set by hand)."""

_CH1 = ("chapters/01_why_connect", "How NCCL runs a collective: channels, protocols and trees")
_CH2 = ("chapters/02_pcie", "Reading a real server: topology, NUMA, ACS and GPUDirect")
_CH5_GDR = ("chapters/05_infiniband",
            "From GPU memory to the wire: GPUDirect RDMA, rails and queue pairs")
_CH5_TCP = ("chapters/05_infiniband", "RDMA versus the TCP path")


def _match(x: float, y: float) -> float:
    """1 when ``x == y``, falling to 0 at a factor :data:`MATCH_TOLERANCE` apart."""
    if x <= 0 or y <= 0:
        return 0.0
    return max(0.0, 1.0 - abs(math.log(x / y)) / math.log(MATCH_TOLERANCE))


def _alternative(cmp_, sys_, **node_changes):
    """The model's busbw at the run's largest sizes on ``sys_`` changed as given (a node
    from :func:`interlib.specs.custom.node`), or None when no such node can be built.

    Everything else of ``sys_`` is kept, the settings of a reader's node included (an
    NVLink bridge, Google's TCPXO profile, ``NCCL_BUFFSIZE``, the NCCL version): the
    alternative differs from the prediction compared by the one fault only."""
    from .. import collectives
    from ..specs import custom

    nvls = node_changes.pop("nvls", True)
    spec = dict(nics_per_node=sys_.nics_per_node, nic_gbps=sys_.nic.rate.value / Gbit_per_s,
                fabric=fabric_of(sys_),
                intra=custom.intra_of(sys_),
                name="alternative", tcpxo_profile=getattr(sys_, "tcpxo_profile", None),
                buffsize=getattr(sys_, "buffsize", None),
                nccl_version=getattr(sys_, "nccl_version", None))
    spec.update(node_changes)
    try:
        node = custom.node(sys_.gpu, sys_.gpus_per_node, **spec)
    except ValueError:  # e.g. a 72-GPU domain over PCIe: not a hypothesis to rank
        return None
    big = cmp_.sizes[-3:]
    p = collectives.predict(cmp_.collective, big, node, cmp_.gpus_per_node, cmp_.nodes,
                            nvls=nvls)
    return float(np.median(p.busbw))


SHAPE_KEYS = ("separate_domains", "one_domain")
"""Diagnoses that say the comparison's shape is not the run's (trays of a rack-scale NVLink
system compared as one domain when the run crossed the network, or the reverse): when they
match, everything else was measured against the wrong prediction, so they rank first."""

_CH4_DOMAINS = ("chapters/04_nvswitch", "Beyond one box: NVL72 and multi-rack domains")


# The check names the fields of ``nvidia-smi -q``'s Fabric section that NVIDIA's own topology
# tool groups nodes into NVLink domains by: ClusterUUID (NVIDIA/topograph
# pkg/providers/baremetal/mnnvl.go at 05725b4, one domain per ClusterUUID: "nvidia-smi -q |
# grep ClusterUUID"), with CliqueId in its InfiniBand provider's domain key; equal on every
# tray of one domain.


def _trays(sys_):
    """``(tray GPUs, domain GPUs)`` of a rack-scale NVLink system (a domain of several
    trays, each its own host), or None."""
    domain = sys_.gpus_per_node
    server = getattr(sys_, "gpus_per_server", domain) or domain
    return (server, domain) if domain > server else None


def _shape_plateau(cmp_, sys_, g: int, k: int) -> float:
    """The model's busbw at the run's largest sizes on ``sys_`` as ``k`` nodes of ``g``."""
    from .. import collectives

    return float(np.median(collectives.predict(cmp_.collective, cmp_.sizes[-3:], sys_, g,
                                               k).busbw))


def _hosts_said(run, server: int, n: int) -> str:
    """What the log says of its trays: its Rank lines' hosts, or the rank count alone."""
    if run.nodes and run.nodes > 1 and run.gpus_per_node:
        return (f"The Rank lines name {run.nodes} hosts of {run.gpus_per_node} GPUs: "
                f"{server}-GPU trays")
    return f"{n} ranks fill at least {-(-n // server)} trays of {server} GPUs"


def _separate_domains(cmp_, sys_, plateau: float, pred: float, fmt):
    """Trays compared as one NVLink domain whose plateau matches them as separate nodes
    over the network (the run crossed domains), or None."""
    trays = _trays(sys_)
    n = cmp_.gpus_per_node * cmp_.nodes
    if trays is None or cmp_.gpus_per_node <= trays[0] or n % trays[0]:
        return None
    server = trays[0]
    alt = _shape_plateau(cmp_, sys_, server, n // server)
    if not alt < pred * 0.9 or _match(plateau, alt) <= _match(plateau, pred):
        return None
    dom = (f"as {cmp_.nodes} NVLink domain{'s' if cmp_.nodes != 1 else ''} of "
           f"{cmp_.gpus_per_node}")
    return Diagnosis(
        "separate_domains", "These trays look like different NVLink domains: the run "
        "crossed the network",
        f"{_hosts_said(cmp_.run, server, n)}. The plateau, {fmt(plateau)}, is near the "
        f"model's {fmt(alt)} with each tray a node of its own over the network "
        f"({n // server} nodes of {server}); {dom}: {fmt(pred)}. Compare it as it ran: "
        f"gpus_per_node={server}, nodes={n // server}.", *_CH4_DOMAINS,
        "whether the trays share one NVLink domain: nvidia-smi -q | grep -i -A3 fabric "
        "(the same ClusterUUID and CliqueId on every tray, State Completed); where the "
        "scheduler placed them (one rack, one node pool or topology block); nvidia-imex "
        "running", _match(plateau, alt))


def _one_domain(cmp_, sys_, plateau: float, pred: float, fmt):
    """Trays compared as separate nodes over the network whose plateau matches them in one
    NVLink domain (the run never left NVLink), or None."""
    trays = _trays(sys_)
    n = cmp_.gpus_per_node * cmp_.nodes
    if trays is None or cmp_.nodes == 1 or cmp_.gpus_per_node > trays[0]:
        return None
    g = min(trays[1], n)
    if n % g:
        return None
    alt = _shape_plateau(cmp_, sys_, g, n // g)
    if not alt > pred / 0.9 or _match(plateau, alt) <= _match(plateau, pred):
        return None
    return Diagnosis(
        "one_domain", "These trays look like one NVLink domain: the run did not cross the "
        "network",
        f"{_hosts_said(cmp_.run, trays[0], n)}. The plateau, {fmt(plateau)}, is near the "
        f"model's {fmt(alt)} with them in NVLink domains of {g} ({n // g} node"
        f"{'s' if n // g != 1 else ''} of {g}); as {cmp_.nodes} nodes of "
        f"{cmp_.gpus_per_node} over the network: {fmt(pred)}. Compare it as it ran: "
        f"gpus_per_node={g}, nodes={n // g}.", *_CH4_DOMAINS,
        "nvidia-smi -q | grep -i -A3 fabric (the same ClusterUUID and CliqueId on every "
        "tray: one NVLink domain); with NCCL_DEBUG=INFO, 'via P2P' or NVLS rather than "
        "'via NET' between the trays", _match(plateau, alt))


def _stated(cmp_, sys_) -> list:
    """Causes the log states: the socket transport, GPUDirect RDMA off, shared memory
    inside a node, fewer NICs than the system has, few channels, variables set by hand."""
    st, out = cmp_.run.setup, []
    multi = cmp_.nodes > 1
    socket = next((f for name, f in st.transports.items() if "Socket" in name), None) or (
        st.network if st.network and "Socket" in str(st.network.value) else None)
    if multi and socket:
        warn = next((w for w in st.warnings if "ibverbs" in str(w.value).lower()), None)
        out.append(Diagnosis(
            "socket", "TCP sockets between the nodes, not RDMA",
            f"The log shows NCCL's socket transport ({socket.cite()})"
            + (f"; and {warn.cite()}" if warn else "") + ".", *_CH5_TCP,
            "ibv_devinfo (the RDMA NICs are there and Active); NCCL_IB_DISABLE and NCCL_NET "
            "unset; the RDMA libraries (libibverbs, the cloud's network plugin) installed "
            "where the test runs", 1.0, True))
    if multi and st.gdr is not None and st.gdr.value is False:
        out.append(Diagnosis(
            "gdr_off", "GPUDirect RDMA off: the NIC reads GPU memory through the host",
            f"The log says so ({st.gdr.cite()}).", *_CH5_GDR,
            "the GPU and its NIC under one PCIe switch (topology map); the peer-memory "
            "kernel module loaded; NCCL_NET_GDR_LEVEL not lowered by hand", 0.95, True))
    shm = next((f for name, f in st.transports.items() if name.startswith("SHM")), None)
    if shm and cmp_.gpus_per_node > 1 and sys_.intra != "pcie":
        out.append(Diagnosis(
            "shm", "GPUs in a node exchanging through host memory (SHM), not directly",
            f"The log shows the shared-memory transport inside a node ({shm.cite()}).",
            *_CH2, "peer-to-peer between the GPUs (topology map, ACS off); "
            "NCCL_P2P_DISABLE unset", 0.9, True))
    if multi and st.nics and len(st.nics.value) < sys_.nics_per_node:
        out.append(Diagnosis(
            "few_nics", f"{len(st.nics.value)} NICs in use where the system has "
                        f"{sys_.nics_per_node}",
            f"The log lists them ({st.nics.cite()}).", *_CH5_GDR,
            "every NIC up at its rate; NCCL_IB_HCA not narrowing the list", 0.85, True))
    if st.channels and st.channels.value <= FEW_CHANNELS and cmp_.gpus_per_node * \
            cmp_.nodes > 2:
        out.append(Diagnosis(
            "few_channels", f"Only {st.channels.value} channel"
                            f"{'s' if st.channels.value != 1 else ''}",
            f"The log says so ({st.channels.cite()}).", *_CH1,
            "NCCL_MAX_NCHANNELS / NCCL_MIN_NCHANNELS not set by hand; the topology NCCL "
            "detected (NCCL_DEBUG_SUBSYS=GRAPH)", 0.8, True))
    forced = [(k, f) for k, f in st.env.items() if k in FORCED and (
        FORCED[k] is None or str(f.value) == FORCED[k])]
    if forced:
        out.append(Diagnosis(
            "env", "NCCL settings changed by hand",
            "The log sets " + "; ".join(f"{k}={f.value} ({f.cite()})" for k, f in forced)
            + ".", *_CH1, "rerun without them (or with each in turn) and compare", 0.75,
            True))
    return out


def diagnose(cmp_: Comparison, system) -> list:
    """Likely causes of what falls below the band: data errors first whatever the rest,
    then what the log states (:class:`Diagnosis` with ``stated=True``, each quoting its
    line), then hardware causes ranked by how well the curve's shape matches each.

    Each hardware cause is tested as the model's prediction for the reader's node with that
    fault (:func:`interlib.specs.custom.node`): half the NICs (one NIC per two GPUs, or
    GPUDirect RDMA off, which halves what a NIC delivers), the GPUs talking over PCIe
    (peer-to-peer blocked), NVLink SHARP off; the plateau (median busbw of the three
    largest sizes) is scored against it: 1 when equal, 0 from :data:`MATCH_TOLERANCE`
    apart. A small-message time :data:`FLOOR_FACTOR` times the model's points at the
    transport; a shortfall in the middle regimes alone at protocol and buffer settings.
    The size regimes are ``interlib.intervals.REGIMES`` (smallest first).

    Args:
        cmp_: A :class:`Comparison` from :func:`compare`.
        system: The catalogue id or node it was compared against (what :func:`compare`
            was given: a :class:`Comparison` keeps only its title).
    """
    from ..specs import custom

    v.instance("cmp_", cmp_, Comparison, "a Comparison from interlib.nccltests.compare")
    sys_ = system_of(system)
    out = []
    run = cmp_.run
    wrong = sum((r.wrong_out or 0) + (r.wrong_in or 0) for r in run.rows)
    err = max([r.error_out or 0 for r in run.rows] + [r.error_in or 0 for r in run.rows])
    if wrong or (run.out_of_bounds or 0) or err > ERROR_LIMIT:
        what = (f"{wrong} wrong elements in the #wrong columns" if wrong else
                f"a maximum error of {err:g} in the error columns" if err > ERROR_LIMIT else
                f"{run.out_of_bounds} out-of-bounds values")
        out.append(Diagnosis(
            "data_errors", "Wrong results: a faulty GPU, link or NIC", f"The log reports {what}.",
            "chapters/08_impact", "Failures at scale",
            "nvidia-smi -q -d ECC,ROW_REMAPPER; dmesg | grep -i xid; ibstat (port errors); "
            "rerun with -c 1 on subsets of the nodes to find the one that corrupts", 1.0,
            True))
    regimes = [r[0] for r in intervals.REGIMES]
    status = {x.regime: x.status for x in cmp_.verdicts}
    small, large, middle = regimes[0], regimes[-1], regimes[1:-1]
    below = [r for r in regimes if status.get(r) == "below"]
    plateau = float(np.median(cmp_.measured[-3:]))
    pred = float(np.median(cmp_.predicted[-3:]))
    fmt = lambda x: f"{x / GB_per_s:.0f} GB/s"  # noqa: E731
    top = max((r for r in regimes if r in status), key=regimes.index)
    if status.get(top) == "above" and top != small:  # far above: maybe one NVLink domain
        d = _one_domain(cmp_, sys_, plateau, pred, fmt)
        if d is not None and d.score > 0:
            out.append(d)
    if not below:
        return _ranked(out)
    out += _stated(cmp_, sys_)
    if status.get(top) == "below" and top != small:  # the plateau: the largest sizes
        d = _separate_domains(cmp_, sys_, plateau, pred, fmt)
        if d is not None:
            out.append(d)
        if cmp_.nodes > 1:
            alt = _alternative(cmp_, sys_, nics_per_node=max(1, sys_.nics_per_node // 2))
            if alt and alt < pred * 0.9:
                out.append(Diagnosis(
                    "half_nics", "Half the network bandwidth: one NIC per two GPUs, a NIC "
                    "down, or GPUDirect RDMA off",
                    f"The plateau, {fmt(plateau)}, is near the model's {fmt(alt)} with half "
                    f"the NICs (full: {fmt(pred)}).",
                    "chapters/05_infiniband",
                    "From GPU memory to the wire: GPUDirect RDMA, rails and queue pairs",
                    "ibstat (every port Active at the expected rate); nvidia-smi topo -m "
                    "(each GPU's NIC at PIX or PXB); with NCCL_DEBUG=INFO, count the NICs in "
                    "'NET/IB : Using' and look for '/GDRDMA' in the 'via NET/IB' lines",
                    _match(plateau, alt)))
        # NVLink inside the node: an NVSwitch, or PCIe cards paired by NVLink bridges
        # (intra "pcie" with nvlink_bridge), whose plain-PCIe model is the alternative
        if custom.intra_of(sys_) != "pcie" and cmp_.gpus_per_node > 1:
            alt = _alternative(cmp_, sys_, intra="pcie")
            if alt and alt < pred * 0.9:
                out.append(Diagnosis(
                    "pcie_p2p", "GPUs talking over PCIe: peer-to-peer blocked (ACS, IOMMU) "
                    "or NVLink unused",
                    f"The plateau, {fmt(plateau)}, is near the model's {fmt(alt)} for the "
                    f"same GPUs over PCIe (NVLink: {fmt(pred)}).",
                    "chapters/02_pcie",
                    "Reading a real server: topology, NUMA, ACS and GPUDirect",
                    "nvidia-smi topo -m (NV# between GPUs, not SYS or PHB); nvidia-smi "
                    "topo -p2p r; with NCCL_DEBUG=INFO, 'via P2P/IPC' or 'via P2P/CUMEM' "
                    "rather than 'via SHM'; lspci -vvv | grep ACSCtl; NCCL_P2P_DISABLE unset",
                    _match(plateau, alt)))
        nvls_on = "NVLS" in run.setup.algorithms
        if cmp_.collective == "all_reduce" and not nvls_on:
            alt = _alternative(cmp_, sys_, nvls=False)
            if alt and alt < pred * 0.9:
                out.append(Diagnosis(
                    "no_nvls", "NVLink SHARP (NVLS) not in use",
                    f"The plateau, {fmt(plateau)}, is near the model's {fmt(alt)} without "
                    f"NVLS (with it: {fmt(pred)}).",
                    "chapters/04_nvswitch", "In-switch reduction: NVLink SHARP (NVLS)",
                    "NCCL_NVLS_ENABLE unset; nvidia-smi -q | grep -i -A2 fabric (state "
                    "Completed); systemctl status nvidia-fabricmanager (or nvidia-imex on "
                    "NVL72); with NCCL_DEBUG=INFO, the 'NVLS multicast support is available' "
                    "line", _match(plateau, alt)))
        if not [d for d in out if d.key != "data_errors" and d.score > 0.3]:
            out.append(Diagnosis(
                "slow_everywhere", "Below the model with no hardware signature: clocks, "
                "other jobs, or a degraded link",
                f"The plateau, {fmt(plateau)}, is {plateau / pred:.0%} of the model's "
                f"{fmt(pred)} and matches none of the faults above.",
                "chapters/08_impact", "Sharing the fabric: interference from other jobs",
                "nvidia-smi -q -d CLOCK,PERFORMANCE (throttle reasons); nvidia-smi nvlink -s "
                "(every link up at full rate); other jobs on the nodes or the switches",
                0.2))
    if status.get(small) == "below":
        lo, hi = intervals.REGIMES[0][1], intervals.REGIMES[0][2]
        sel = (cmp_.sizes >= lo) & (cmp_.sizes < hi)
        ratio = float(np.median(cmp_.predicted[sel] / cmp_.measured[sel]))
        if ratio >= FLOOR_FACTOR:
            out.append(Diagnosis(
                "high_floor", "A high small-message floor: a slow network path (TCP sockets "
                "instead of RDMA, a slow plugin) or extra hops",
                f"Below {fmt_bytes(hi, binary=True)} each call takes {ratio:.1f} times the "
                "model's time.", "chapters/05_infiniband", "RDMA versus the TCP path",
                "with NCCL_DEBUG=INFO, 'NET/IB' (RDMA) or the cloud's plugin, not "
                "'NET/Socket', in the 'Using network' line; ibv_devinfo; the switch hops "
                "between the nodes", min(1.0, math.log(ratio) / math.log(4 * FLOOR_FACTOR))))
    if middle and any(status.get(r) == "below" for r in middle) and \
            status.get(large) in ("within", "above"):
        lo, hi = intervals.REGIMES[1][1], intervals.REGIMES[-2][2]
        out.append(Diagnosis(
            "mid_sizes", "Mid sizes only: protocol, channel or buffer settings",
            f"Sizes from {fmt_bytes(lo, binary=True)} to {fmt_bytes(hi, binary=True)} are "
            "below the band while large ones are not.", "chapters/01_why_connect",
            "How NCCL runs a collective: channels, protocols and trees",
            "env | grep NCCL_ (NCCL_ALGO, NCCL_PROTO, NCCL_BUFFSIZE, NCCL_MIN_NCHANNELS, "
            "NCCL_MAX_NCHANNELS set by hand?); NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING", 0.5))
    return _ranked(out)


def _ranked(out) -> list:
    """Data errors first, then a shape that matches better than the one compared
    (:data:`SHAPE_KEYS`), then what the log states, then by score; no zero scores."""
    keep = [d for d in out if d.score > 0]
    return sorted(keep, key=lambda d: (d.key != "data_errors", d.key not in SHAPE_KEYS,
                                       not d.stated, -d.score))
