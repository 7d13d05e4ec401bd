"""Step time of a 3D-parallel training job: where each kind of traffic lands on the
bandwidth ladder, how long it takes, and what is left after overlap (Chapters 7 and 8).

Model (stated, not hidden):

* **Placement** (Megatron-LM order, Narayanan et al. SC'21): tensor parallelism (TP)
  innermost, inside a node; then pipeline stages (PP); data parallelism (DP) outermost.
  A group that fits in one node uses the intra-node link (NVLink or PCIe); otherwise the
  scale-out NICs; a DP group that spans more nodes than one leaf switch holds goes through
  the spine at its oversubscribed share.
* **Bytes** per GPU per step: :func:`interlib.scaling.parallelism_traffic`.
* **Times**: TP and DP collectives from :func:`interlib.collectives.predict` (NCCL-style,
  algorithm ``"auto"``); PP point-to-point sends from :func:`interlib.transfer.transfer_time`
  at the achieved per-GPU rate of the link they cross.
* **Compute**: ``6 x params x tokens`` FLOPs per step (forward + backward; Kaplan et al.
  2020, Narayanan et al. 2021) over ``GPUs x peak x MFU``; MFU is an explicit parameter.
* **Pipeline bubble** (1F1B): ``(pp - 1) / micro_batches x compute``.
* **Overlap**: TP collectives sit on the critical path (each layer waits for them); the
  DP gradient sync and PP sends can hide behind compute:
  ``step = compute + bubble + t_TP + t_PP + t_DP - overlap x min(t_PP + t_DP, compute)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from . import _validate as v
from . import collectives, scaling, transfer
from .specs import NIC, SYSTEMS, Spec, System, calibration as C, gpu_flops, system
from .specs import BF16_DENSE_FLOPS, GPUS, PCIE_HOST_COPY_EFFICIENCY
from .specs import sources as S
from .units import Gbit_per_s

_NVSWITCH_FOR_NVLINK = {3: 2, 4: 3, 5: 4}

OVERSUBSCRIPTION_RANGE = (1.0, 16.0)
"""Leaf-to-spine oversubscription (down:up) the step-time model accepts, ``(lo, hi)``,
where 1 is non-blocking; 16:1 is beyond any taper in the book's sources (Meta's is 7:1). Every
function here (and :func:`interlib.capstone.design`) validates against this one range."""


DEFAULT_LEAF_NODES = 32
"""Nodes under one leaf switch group when a function is not told otherwise: a DGX H100
SuperPOD scalable unit (32 nodes, 256 GPUs, under 8 rail leaf switches). A DP group that
spans more nodes than this crosses the spine."""


def check_oversubscription(oversubscription) -> float:
    """``oversubscription`` validated against :data:`OVERSUBSCRIPTION_RANGE` (ValueError
    naming it otherwise)."""
    lo, hi = OVERSUBSCRIPTION_RANGE
    return float(v.number("oversubscription", oversubscription, lo=lo, hi=hi))


def make_system(gpu: str = "h100-sxm", gpus_per_node: int = 8, intra: str = "nvswitch",
                nics_per_node: int = 8, nic_gbps: float = 400.0,
                fabric: str = "InfiniBand", name: str = "custom") -> System:
    """A node design built from catalogue parts (for what-if questions and the capstone):
    the permissive what-if builder behind :func:`interlib.specs.custom.node` (which checks
    that the design can be built; use that one for your own cluster).

    Args:
        gpu: GPU catalogue id (:data:`interlib.specs.GPUS`).
        gpus_per_node: GPUs per node / NVLink domain (1..576).
        intra: ``"nvswitch"`` (all-to-all NVLink) or ``"pcie"`` (GPUs talk over PCIe).
        nics_per_node: Scale-out NICs per node (1..64).
        nic_gbps: Port rate of each NIC, Gb/s per direction (10..1600).
        fabric: ``"InfiniBand"`` or ``"Ethernet"``. At the same port rate the model treats
            both alike (no congestion is modelled, and no like-for-like latency
            measurement exists); only InfiniBand can reduce in the switches (SHARP, see
            :func:`layout_traffic`'s ``in_network_reduction``).
        name: Id of the result.

    Returns:
        A :class:`~interlib.specs.custom.Node` usable wherever a catalogue system is; its
        source is :data:`interlib.specs.sources.HYPOTHETICAL_NODE` (a derived what-if, not
        a product). With ``intra="pcie"`` every GPU gets its full x16 link (no shared PCIe
        switch or root complex), which flatters PCIe.
    """
    g = GPUS[v.choice("gpu", gpu, GPUS)]
    v.instance("name", name, str, "a string (the id of the result)")
    v.integer("gpus_per_node", gpus_per_node, lo=1, hi=576)
    v.choice("intra", intra, ("nvswitch", "pcie"))
    v.integer("nics_per_node", nics_per_node, lo=1, hi=64)
    v.number("nic_gbps", nic_gbps, lo=10.0, hi=1600.0)
    v.choice("fabric", fabric, ("InfiniBand", "Ethernet"))
    nic = NIC(f"{nic_gbps:g} Gb/s {fabric} NIC",
              Spec(float(nic_gbps) * Gbit_per_s, "Gbit_per_s", "derived", S.IEEE_8023
                   if fabric == "Ethernet" else S.IB_ROADMAP, "per direction",
                   "reader-chosen port rate"), fabric)
    nvs = _NVSWITCH_FOR_NVLINK.get(g.nvlink_gen) if intra == "nvswitch" else None
    title = (f"{gpus_per_node} x {g.name}, {'NVSwitch' if intra == 'nvswitch' else 'PCIe'}, "
             f"{nics_per_node} x {nic_gbps:g}G {fabric}")
    from .specs.custom import Node

    return Node(name, title, g, gpus_per_node, intra, nvs, nics_per_node, nic,
                S.HYPOTHETICAL_NODE, fabric=fabric)


FABRICS = {
    "NVLink + NDR InfiniBand": "dgx-h100",
    "PCIe + 100 GbE": None,  # built below: same GPU, commodity fabric
}
"""Chapter 8's two fabrics, a DGX H100 (NVSwitch, 8 x 400 Gb/s NDR) and the same eight
H100 GPUs talking over PCIe with two 100 GbE NICs per server."""


def fabric(name: str) -> System:
    """One of :data:`FABRICS` as a :class:`~interlib.specs.System`."""
    v.choice("name", name, FABRICS)
    if name == "PCIe + 100 GbE":
        return make_system("h100-sxm", 8, "pcie", 2, 100.0, "Ethernet", "h100-pcie-100gbe")
    return system(FABRICS[name])


def _sys(s) -> System:
    if isinstance(s, System):
        return s
    if isinstance(s, str) and s in FABRICS:
        return fabric(s)
    return system(v.choice("system", s, list(SYSTEMS) + list(FABRICS)))


def tapered(sys_: System, oversubscription: float) -> System:
    """``sys_`` with its NIC rate divided by ``oversubscription``: what each GPU gets when
    all of them cross an oversubscribed spine at once."""
    v.instance("sys_", sys_, System, "a System (interlib.specs.System)")
    check_oversubscription(oversubscription)
    if oversubscription == 1.0:
        return sys_
    r = sys_.nic.rate
    nic = NIC(sys_.nic.name + f" via {oversubscription:g}:1 spine",
              Spec(r.value / oversubscription, r.unit, "derived", r.source, r.direction,
                   f"{r.note}; divided by the spine oversubscription"), sys_.nic.fabric)
    return replace(sys_, nic=nic)


# ------------------------------------------------------------------ placement and traffic
@dataclass(frozen=True)
class Phase:
    """One kind of traffic in a layout.

    Attributes:
        kind: ``"TP"``, ``"PP"`` or ``"DP"``.
        rung: The ladder rung it crosses (``"NVLink"``, ``"PCIe"``, ``"Scale-out NIC"``,
            ``"Spine"``, or ``"none"`` when the degree is 1).
        bytes: Bytes one GPU sends per step.
        time_s: Seconds per step.
        collective: What moves it.
    """

    kind: str
    rung: str
    bytes: float
    time_s: float
    collective: str


@dataclass(frozen=True)
class Layout:
    """Result of :func:`layout_traffic`.

    Attributes:
        phases: TP, PP, DP :class:`Phase` in that order.
        n_gpus: tp x pp x dp.
        nodes: Nodes used.
        tokens: Tokens per step (dp x micro_batch x micro_batches x seq_len).
    """

    phases: tuple
    n_gpus: int
    nodes: int
    tokens: float

    @property
    def bottleneck(self) -> Phase:
        """The phase that takes longest."""
        return max(self.phases, key=lambda p: p.time_s)

    def phase(self, kind: str) -> Phase:
        """The phase ``"TP"``, ``"PP"`` or ``"DP"``."""
        v.choice("kind", kind, ("TP", "PP", "DP"))
        return {p.kind: p for p in self.phases}[kind]


def _intra_rung(sys_):
    return "NVLink" if sys_.intra == "nvswitch" else "PCIe"


def _p2p(sys_, intra: bool):
    """(achieved bandwidth per GPU, latency) of a point-to-point send."""
    if intra:
        if sys_.intra == "nvswitch":
            return sys_.gpu.nvlink.per_gpu_effective, C.HOP_LATENCY[("nvlink", "ring",
                                                                     "Simple")].value
        bw = sys_.gpu.pcie.usable_per_direction(16) * PCIE_HOST_COPY_EFFICIENCY.value
        return bw, C.HOP_LATENCY[("pcie", "ring", "Simple")].value
    return (sys_.nic_bw_per_gpu * C.NET_EFFICIENCY.value,
            C.HOP_LATENCY[("net", "ring", "Simple")].value)


def layout_traffic(system="dgx-h100", model: str = "llama-3-70b", tp: int = 8, pp: int = 4,
                   dp: int = 8, seq_len: int = 4096, micro_batch: int = 1,
                   micro_batches: int = 16, oversubscription: float = 1.0,
                   leaf_nodes: int = DEFAULT_LEAF_NODES, in_network_reduction: bool = False) -> Layout:
    """Bytes and time per step of each kind of parallelism, and the rung each lands on.

    Args:
        system: Catalogue id, a :data:`FABRICS` name, or a :class:`~interlib.specs.System`.
        model: Model id in :data:`interlib.scaling.MODELS`.
        tp, pp, dp: Parallel degrees (>= 1). TP must divide the GPUs per node or be a
            multiple of them (a TP group never straddles a node boundary).
        seq_len: Tokens per sequence (>= 1).
        micro_batch: Sequences per micro-batch (>= 1).
        micro_batches: Micro-batches per step per pipeline (>= 1).
        oversubscription: Leaf-to-spine taper, :data:`OVERSUBSCRIPTION_RANGE` (1 =
            non-blocking).
        leaf_nodes: Nodes under one leaf switch (a DP group wider than this crosses the
            spine). 32 nodes = one 256-GPU DGX H100 scalable unit.
        in_network_reduction: Let the DP all-reduce across nodes use InfiniBand SHARP
            (switches reduce; NCCL's CollNet path) when the model finds it faster than
            NCCL's default choice. Needs an InfiniBand NIC (SHARP is an InfiniBand switch
            feature); default False (NCCL without the SHARP plugin).

    Returns:
        A :class:`Layout`; times in s, bytes per GPU per step.
    """
    sys_ = _sys(system)
    m = scaling.model(v.choice("model", model, scaling.MODELS))
    for name, val in (("tp", tp), ("pp", pp), ("dp", dp)):
        v.integer(name, val, lo=1, hi=1_000_000)
    v.integer("leaf_nodes", leaf_nodes, lo=1, hi=100_000)
    check_oversubscription(oversubscription)
    v.flag("in_network_reduction", in_network_reduction)
    if in_network_reduction and sys_.nic.fabric != "InfiniBand":
        raise ValueError(f"in_network_reduction={in_network_reduction!r} needs an InfiniBand "
                         f"fabric (SHARP), not {sys_.nic.fabric!r}")
    g = sys_.gpus_per_node
    if (tp > g and tp % g) or (tp < g and g % tp):
        allowed = [d for d in range(1, g + 1) if g % d == 0]
        raise ValueError(f"tp={tp} is out of range: a tensor-parallel group fills part of "
                         f"one node or whole nodes, never straddling a node boundary, so tp "
                         f"must divide gpus_per_node={g} ({', '.join(map(str, allowed))}) "
                         f"or be a multiple of it")
    tr = scaling.parallelism_traffic(m.params, m.layers, m.hidden, seq_len, micro_batch,
                                     micro_batches, tp=tp, pp=pp, dp=dp)
    act = micro_batch * seq_len * m.hidden * 2.0
    n = tp * pp * dp
    nodes = max(1, math.ceil(n / g))

    # TP: 4 all-reduces per layer per micro-batch
    if tp == 1:
        tp_phase = Phase("TP", "none", 0.0, 0.0, "none (tp = 1)")
    else:
        g_tp, k_tp = (tp, 1) if tp <= g else (g, tp // g)
        t1 = collectives.predict("all_reduce", act, sys_, g_tp, k_tp).time_s
        ops = 4 * (m.layers / pp) * micro_batches
        tp_phase = Phase("TP", _intra_rung(sys_) if k_tp == 1 else "Scale-out NIC",
                         tr.tp, ops * t1, f"{ops:g} all-reduces of {act:.3g} B")
    # PP: activation forward + gradient backward per micro-batch across each boundary
    if pp == 1:
        pp_phase = Phase("PP", "none", 0.0, 0.0, "none (pp = 1)")
    else:
        intra = tp * pp <= g
        bw, lat = _p2p(sys_, intra)
        t = 2 * micro_batches * transfer.transfer_time(act, bw, lat)
        pp_phase = Phase("PP", _intra_rung(sys_) if intra else "Scale-out NIC", tr.pp, t,
                         f"{2 * micro_batches} sends of {act:.3g} B")
    # DP: gradient shard all-reduce
    if dp == 1:
        dp_phase = Phase("DP", "none", 0.0, 0.0, "none (dp = 1)")
    else:
        shard = m.params / (tp * pp) * 2.0
        r = tp * pp
        if r >= g:
            g_dp, k_dp = 1, dp
        else:
            per_node = g // r
            g_dp, k_dp = (dp, 1) if dp <= per_node else (per_node, math.ceil(dp / per_node))
        span_nodes = k_dp if r < g else dp * math.ceil(r / g)
        if k_dp == 1:
            rung, s_eff = _intra_rung(sys_), sys_
        elif span_nodes > leaf_nodes:
            rung, s_eff = "Spine", tapered(sys_, oversubscription)
        else:
            rung, s_eff = "Scale-out NIC", sys_
        p = collectives.predict("all_reduce", shard, s_eff, g_dp, k_dp)
        t, how = p.time_s, f"all-reduce of {shard:.3g} B over {dp} ranks"
        if in_network_reduction and k_dp > 1:
            t_sharp = collectives.predict("all_reduce", shard, s_eff, g_dp, k_dp,
                                          "sharp").time_s
            if t_sharp < t:
                t, how = t_sharp, how + " (SHARP in the switches)"
        dp_phase = Phase("DP", rung, tr.dp, t, how)
    return Layout((tp_phase, pp_phase, dp_phase), n, nodes,
                  float(dp * micro_batch * micro_batches * seq_len))


# ----------------------------------------------------------------------- step time
def compute_time(params, tokens, n_gpus, gpu: str = "h100-sxm", mfu: float = 0.4):
    """Seconds of pure compute per step: ``6 x params x tokens / (n_gpus x peak x mfu)``.

    Args:
        params: Model parameters (> 0).
        tokens: Tokens processed per step, whole job (> 0).
        n_gpus: GPUs sharing the work (>= 1).
        gpu: GPU catalogue id with a dense bf16 peak (:func:`interlib.specs.gpu_flops`).
        mfu: Model FLOPs utilisation, the share of peak the maths kernels reach, (0, 1].
            Published values: :data:`interlib.specs.studies.LLAMA3_MFU` (Llama 3 405B).

    Reference: the 6ND rule (forward 2, backward 4 FLOPs per parameter per token; Kaplan et
    al. 2020); MFU as in Chowdhery et al. 2022 (PaLM).
    """
    v.positive("params", params)
    v.positive("tokens", tokens)
    v.whole("n_gpus", n_gpus, lo=1)
    v.fraction("mfu", mfu)
    peak = gpu_flops(v.choice("gpu", gpu, BF16_DENSE_FLOPS)).value
    return v.result(6.0 * np.asarray(params, float) * tokens
                    / (np.asarray(n_gpus, float) * peak * mfu))


@dataclass(frozen=True)
class StepTime:
    """A step-time breakdown, seconds.

    Attributes:
        compute: Maths at the given MFU.
        bubble: Pipeline bubble (idle stages).
        tp, pp, dp: Communication time of each parallelism.
        hidden: Communication hidden behind compute by overlap.
        step: compute + bubble + tp + pp + dp - hidden.
        layout: The :class:`Layout` behind it.
    """

    compute: float
    bubble: float
    tp: float
    pp: float
    dp: float
    hidden: float
    step: float
    layout: Layout

    @property
    def exposed_comm(self) -> float:
        """Communication the GPUs wait for, s."""
        return self.tp + self.pp + self.dp - self.hidden

    @property
    def efficiency(self) -> float:
        """compute / step: the share of the step spent on maths (1 = no waiting)."""
        return self.compute / self.step

    @property
    def comm_fraction(self) -> float:
        """exposed communication / step: the share of GPU time lost to the network."""
        return self.exposed_comm / self.step


def step_time(system="dgx-h100", model: str = "llama-3-70b", tp: int = 8, pp: int = 4,
              dp: int = 8, seq_len: int = 4096, micro_batch: int = 1,
              micro_batches: int = 16, mfu: float = 0.4, overlap: float = 0.8,
              oversubscription: float = 1.0, leaf_nodes: int = DEFAULT_LEAF_NODES,
              in_network_reduction: bool = False) -> StepTime:
    """Step time = compute + bubble + communication - overlap (module docstring).

    Args:
        system: As in :func:`layout_traffic`, and so are ``model``, ``tp``, ``pp``, ``dp``,
            ``seq_len``, ``micro_batch``, ``micro_batches``, ``oversubscription``,
            ``leaf_nodes`` and ``in_network_reduction``.
        mfu: Model FLOPs utilisation of the compute kernels, (0, 1].
        overlap: Share of the DP and PP communication that hides behind compute, [0, 1]
            (0: none; 1: all of it, up to the compute time).

    Returns:
        A :class:`StepTime`.
    """
    v.number("overlap", overlap, lo=0.0, hi=1.0)
    sys_ = _sys(system)
    lay = layout_traffic(sys_, model, tp, pp, dp, seq_len, micro_batch, micro_batches,
                         oversubscription, leaf_nodes, in_network_reduction)
    m = scaling.model(v.choice("model", model, scaling.MODELS))
    gpu_id = next(k for k, g in GPUS.items() if g is sys_.gpu)
    comp = float(compute_time(m.params, lay.tokens, lay.n_gpus, gpu_id, mfu))
    bubble = comp * (pp - 1) / micro_batches
    t_tp, t_pp, t_dp = (lay.phase(k).time_s for k in ("TP", "PP", "DP"))
    hidden = overlap * min(t_pp + t_dp, comp)
    step = comp + bubble + t_tp + t_pp + t_dp - hidden
    return StepTime(comp, bubble, t_tp, t_pp, t_dp, hidden, step, lay)


def scaling_efficiency(system="dgx-h100", model: str = "llama-3-70b", n_gpus=(8, 1024),
                       tp: int = 8, pp: int = 1, seq_len: int = 4096, micro_batch: int = 1,
                       micro_batches: int = 16, mfu: float = 0.4, overlap: float = 0.8,
                       oversubscription: float = 1.0, leaf_nodes: int = DEFAULT_LEAF_NODES):
    """compute / step time for each GPU count (weak scaling: each data-parallel replica
    keeps its batch; dp = n_gpus / (tp x pp)).

    Args:
        n_gpus: GPU counts, each a multiple of tp x pp.
        Others: as in :func:`step_time`.

    Returns:
        numpy array of efficiencies in (0, 1].
    """
    v.choice("model", model, scaling.MODELS)
    tp = v.integer("tp", tp, lo=1, hi=1_000_000)
    pp = v.integer("pp", pp, lo=1, hi=1_000_000)
    out = []
    for n in v.items("n_gpus", np.atleast_1d(n_gpus).tolist()):
        n = int(v.whole("n_gpus", n, lo=1))
        if n % (tp * pp):
            raise ValueError(f"n_gpus={n} is out of range: must be a multiple of "
                             f"tp x pp = {tp * pp}")
        out.append(step_time(system, model, tp, pp, n // (tp * pp), seq_len, micro_batch,
                             micro_batches, mfu, overlap, oversubscription,
                             leaf_nodes).efficiency)
    return np.array(out)


# ---------------------------------------------------------------------- tables
def gpu_compute_table():
    """Chapter 8's spec table: dense bf16 peaks from the catalogue, with their sources."""
    from . import display
    from .specs.compute import TFLOPS

    rows = [[GPUS[k].name, f"{s.value / TFLOPS:,.0f}", s.kind, s.source.title, s.note]
            for k, s in BF16_DENSE_FLOPS.items()]
    return display.Table(["GPU", "dense bf16 peak, TFLOP/s", "kind", "source", "note"], rows,
                         "Dense = without 2:4 structured sparsity. MFU is measured against "
                         "these peaks.")


def breakdown_table(st: StepTime):
    """A :class:`StepTime` as a Table: each part, its time and its share of the step."""
    from . import display

    if not isinstance(st, StepTime):
        raise ValueError(f"st={st!r} must be a StepTime (from step_time)")
    lay = st.layout
    parts = [("compute (at the given MFU)", st.compute, "—"),
             ("pipeline bubble", st.bubble, "—"),
             ("TP all-reduces", st.tp, lay.phase("TP").rung),
             ("PP sends", st.pp, lay.phase("PP").rung),
             ("DP gradient all-reduce", st.dp, lay.phase("DP").rung),
             ("hidden by overlap (subtracted)", -st.hidden, "—")]
    rows = [[name, ("−" if t < 0 else "") + display.fmt_time(abs(t)), rung,
             display.fmt_pct(t / st.step)] for name, t, rung in parts]
    rows.append(["step", display.fmt_time(st.step), "—", display.fmt_pct(1.0)])
    return display.Table(["part", "time", "rung", "share of step"], rows,
                         f"{lay.n_gpus:,} GPUs; efficiency (compute / step) "
                         f"{display.fmt_pct(st.efficiency)}")
