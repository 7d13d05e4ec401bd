"""Which algorithms and protocols a collective may run with on a given system, and why one
cannot: the candidates :func:`interlib.collectives.predict` times and chooses among, with
NCCL's own rules (``tuning.cc``'s enable matrix, ``nvls.cc``'s GPU count, LL128 only over
NVLink) and a vendor profile's settings; and the checks of the arguments ``predict`` and
``nccl_estimate`` share.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as v
from ..alphabeta import COLLECTIVES
from ..specs import System, calibration as C, system as _system_lookup
from .fabrics import profile

ALGORITHMS = ("auto", "ring", "tree", "rhd", "hierarchical", "nvls", "nvls_tree", "sharp",
              "direct", "fastest")
"""Algorithm names :func:`interlib.collectives.predict` accepts. ``"nvls"`` is NVLink SHARP
inside one node (NCCL's NVLS) and ``"nvls_tree"`` NVLS inside each node with a double binary
tree between nodes (NCCL's NVLSTree); a :class:`interlib.collectives.Prediction` names the
one it computed."""

NCCL_NAMES = {"ring": "Ring", "tree": "Tree", "nvls": "NVLS", "nvls_tree": "NVLSTree",
              "sharp": "CollNet"}
"""NCCL's own name (``NCCL_ALGO``) of each algorithm of :data:`ALGORITHMS` that NCCL has
(``"sharp"`` is CollNet with IB SHARP; ``"rhd"``, ``"hierarchical"`` and ``"direct"`` are
the book's, not NCCL's)."""

def supported(sys_: System, collective: str, algorithm: str, g: int, k: int) -> str | None:
    """Why ``algorithm`` cannot run here, or None if it can."""
    if algorithm in ("nvls", "nvls_tree"):
        if collective != "all_reduce":
            return f"{NCCL_NAMES[algorithm]} (NVLink SHARP) is modelled for all_reduce only"
        if sys_.intra != "nvswitch" or sys_.nvswitch_gen is None or sys_.nvswitch_gen < 3:
            return f"{sys_.name} has no NVSwitch with in-switch reduction (needs NVSwitch 3+)"
        if g < 2 and k > 1:  # (one GPU in all exchanges nothing, whatever the algorithm)
            return (f"{NCCL_NAMES[algorithm]} needs 2 or more GPUs per node: NCCL leaves NVLS "
                    "off on a node of one GPU (ncclNvlsInit, nvls.cc, every version)")
        if algorithm == "nvls_tree" and k < 2:
            return ("NVLSTree joins NVLS domains across nodes and NCCL disables it on a single "
                    "node (tuning.cc): use 'nvls' within a node")
    if algorithm == "sharp":
        if collective != "all_reduce":
            return "SHARP in-network reduction is modelled for all_reduce only"
        if k < 2:
            return "SHARP reduces in the network switches: it needs nodes >= 2"
    if algorithm in ("tree", "hierarchical") and collective != "all_reduce":
        return f"{algorithm!r} is modelled for all_reduce only (NCCL uses ring for the rest)"
    if algorithm == "tree" and k == 1 and g <= 2:
        return "'tree' is not modelled for 2 GPUs or fewer in one node (use 'ring')"
    if algorithm == "rhd" and collective not in ("all_reduce", "all_gather", "reduce_scatter"):
        return "'rhd' is defined for all_reduce, all_gather and reduce_scatter"
    if algorithm == "direct" and collective != "all_to_all":
        return "'direct' (pairwise exchange) is the all_to_all algorithm"
    if collective == "all_to_all" and algorithm not in ("direct",):
        return "all_to_all uses algorithm 'direct' (or 'auto')"
    return None


def nvls_name(k: int) -> str:
    """What NVLS is on ``k`` nodes: ``"nvls"`` within one node, ``"nvls_tree"`` (NCCL's
    NVLSTree) across nodes. NCCL's own ``NVLS`` across nodes is NVLS + CollNet (IB SHARP):
    ``tuning.cc`` disables it for ``nNodes > 1`` unless CollNet is enabled; the model does
    not cover it, so an ``"nvls"`` asked for across nodes is timed as NVLSTree and labelled
    so."""
    return "nvls" if k == 1 else "nvls_tree"


def candidates(sys_, collective, algorithm, g, k, nvls=True):
    """(algorithm, protocol) pairs to evaluate (``nvls=False``: NCCL_NVLS_ENABLE=0)."""
    n = g * k
    prof = profile(sys_, k)
    if algorithm == "auto":
        if collective == "all_to_all":
            algs = ["direct"]
        elif collective == "all_reduce":
            algs = ["ring", "tree"]
            if nvls and supported(sys_, collective, "nvls", g, k) is None \
                    and g >= C.NVLS_MIN_GPUS.value:
                algs.append(nvls_name(k))
            if prof is not None:  # the profile's NCCL_ALGO / NCCL_NVLS_ENABLE
                algs = [a for a in algs if a in prof["algorithms"]]
        else:
            algs = ["ring"]
    else:
        algs = [nvls_name(k) if algorithm == "nvls" else algorithm]
    pairs = []
    for a in algs:
        if a in ("nvls", "nvls_tree", "sharp", "rhd", "hierarchical", "direct"):
            pairs.append((a, "Simple"))
            continue
        for p in C.PROTOCOLS:
            if p == "LL128" and sys_.intra != "nvswitch":
                continue  # NCCL enables LL128 by default only over NVLink
            if prof is not None and p not in prof["protocols"]:
                continue  # the cloud's recommended NCCL_PROTO leaves it out
            if a == "tree" and n <= 2 and k == 1:
                continue
            pairs.append((a, p))
    return pairs


def system_of(system) -> System:
    """The :class:`~interlib.specs.System` a ``system`` argument names, checked: a
    catalogue id (:data:`interlib.specs.SYSTEMS`, unknown ids get the nearest one
    suggested) or a System itself (a node from :func:`interlib.specs.custom.node`
    included). The one check behind :func:`resolve` (the collective model's ``predict``)
    and :mod:`interlib.nccltests` (``compare``, ``diagnose``)."""
    if isinstance(system, str):
        from ..specs import SYSTEMS

        return _system_lookup(v.choice("system", system, SYSTEMS))
    return v.instance("system", system, System,
                      "a catalogue id (interlib.specs.SYSTEMS), a specs.System or a node "
                      "from interlib.specs.custom.node()")


MAX_NODES = 100_000
"""The most nodes :func:`interlib.collectives.predict` takes: a bound on the input, not a
hardware figure. Callers that derive a node
count from their own arguments (``interlib.steptime``) check against it, so their message
names the argument the reader typed."""


def resolve(system, gpus_per_node, nodes):
    """(System, g, k) from predict-style arguments, validated (the system by
    :func:`system_of`)."""
    sys_ = system_of(system)
    g = sys_.gpus_per_node if gpus_per_node is None else v.integer(
        "gpus_per_node", gpus_per_node, lo=1, hi=sys_.gpus_per_node)
    k = v.integer("nodes", nodes, lo=1, hi=MAX_NODES)
    return sys_, g, k


def checked(collective, size_bytes, system, gpus_per_node, nodes, algorithm, nvls):
    """The arguments :func:`interlib.collectives.predict` and
    :func:`interlib.collectives.nccl_estimate` share, checked: the node,
    GPUs per node, nodes and the sizes as an array (``algorithm`` is already a valid
    name)."""
    v.choice("collective", collective, COLLECTIVES)
    v.flag("nvls", nvls)
    sys_, g, k = resolve(system, gpus_per_node, nodes)
    v.number("size_bytes", size_bytes, lo=1)
    if algorithm in ("nvls", "nvls_tree") and not nvls:
        raise ValueError(f"algorithm={algorithm!r} is not available with nvls=False "
                         "(NCCL_NVLS_ENABLE=0): choose another algorithm or nvls=True")
    if algorithm not in ("auto", "fastest"):
        why = supported(sys_, collective, algorithm, g, k)
        if why:
            raise ValueError(f"algorithm={algorithm!r} is not available: {why}")
    return sys_, g, k, np.atleast_1d(np.asarray(size_bytes, dtype=float))
