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
* **Memory per GPU** (:func:`memory_per_gpu`): mixed-precision Adam keeps 2 + 2 + 12 bytes
  per parameter (bf16 weights, bf16 gradients, fp32 master weights, momentum and variance;
  Rajbhandari et al. 2020, ZeRO), each GPU holding ``1 / (tp x pp)`` of the model, and the
  ZeRO stage shards the optimizer state (1), then the gradients (2), then the weights (3)
  over the ``dp`` replicas; activations follow Korthikanti et al. 2022 (sequence parallelism
  and selective recomputation: ``34 x seq_len x micro_batch x hidden`` bytes per layer over
  ``tp``; under 1F1B the first stage holds ``pp`` micro-batches of its ``layers / pp``
  layers, so all ``layers`` of one micro-batch). A design whose sum exceeds the GPU's HBM
  capacity (catalogue) does not fit: :attr:`StepTime.fits` is False and the book's demos say
  so instead of quoting an efficiency. ZeRO-3 gathers the weights before use, moving
  1.5 times the data of an all-reduce (the same paper), so its DP time is 1.5 times.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from . import _validate as v
from . import collectives, display, scaling, transfer
from .specs import NIC, SYSTEMS, Source, Spec, System, calibration as C, gpu_flops, system
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
                   leaf_nodes: int = DEFAULT_LEAF_NODES, in_network_reduction: bool = False,
                   zero: int = 1) -> Layout:
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
        zero: ZeRO stage (:data:`ZERO_STAGES`); stage 3 moves ``ZERO3_TRAFFIC_FACTOR``
            times a plain all-reduce's DP bytes and time (stages 0-2 move the same).

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
    v.integer("zero", zero, lo=0, hi=3)
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
    if nodes > collectives.MAX_NODES:
        raise ValueError(f"tp={tp}, pp={pp}, dp={dp} is out of range: tp x pp x dp = {n:,} "
                         f"GPUs fill {nodes:,} nodes of {g}, more than the collective model "
                         f"takes ({collectives.MAX_NODES:,} nodes)")

    # TP: 4 all-reduces per layer per micro-batch
    if tp == 1:
        tp_phase = Phase("TP", "none", 0.0, 0.0, "none (tp = 1)")
    else:
        g_tp, k_tp = (tp, 1) if tp <= g else (g, tp // g)
        t1 = collectives.predict("all_reduce", act, sys_, g_tp, k_tp).time_s
        ops = 4 * (m.layers / pp) * micro_batches
        count = f"{ops:,.0f}" if float(ops).is_integer() else f"{ops:,.1f}"  # layers / pp
        tp_phase = Phase("TP", _intra_rung(sys_) if k_tp == 1 else "Scale-out NIC",
                         tr.tp, ops * t1, f"{count} all-reduces of {display.fmt_bytes(act)}")
    # PP: activation forward + gradient backward per micro-batch across each boundary
    if pp == 1:
        pp_phase = Phase("PP", "none", 0.0, 0.0, "none (pp = 1)")
    else:
        intra = tp * pp <= g
        bw, lat = _p2p(sys_, intra)
        t = 2 * micro_batches * transfer.transfer_time(act, bw, lat)
        pp_phase = Phase("PP", _intra_rung(sys_) if intra else "Scale-out NIC", tr.pp, t,
                         f"{2 * micro_batches:,} sends of {display.fmt_bytes(act)}")
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
        t, how = p.time_s, f"all-reduce of {display.fmt_bytes(shard)} over {dp:,} ranks"
        if in_network_reduction and k_dp > 1:
            t_sharp = collectives.predict("all_reduce", shard, s_eff, g_dp, k_dp,
                                          "sharp").time_s
            if t_sharp < t:
                t, how = t_sharp, how + " (SHARP in the switches)"
        if zero == 3:
            t, how = t * ZERO3_TRAFFIC_FACTOR, how + " and weight all-gathers (ZeRO-3)"
        dp_phase = Phase("DP", rung, tr.dp * (ZERO3_TRAFFIC_FACTOR if zero == 3 else 1.0), t,
                         how)
    return Layout((tp_phase, pp_phase, dp_phase), n, nodes,
                  float(dp * micro_batch * micro_batches * seq_len))


# ------------------------------------------------------------------ memory per GPU
ZERO_STAGES = {0: "no ZeRO", 1: "ZeRO-1", 2: "ZeRO-2", 3: "ZeRO-3"}
"""ZeRO stages (Rajbhandari et al. 2020): 0 = every data-parallel replica holds all its
state; 1 shards the optimizer state over the dp replicas; 2 also the gradients; 3 also the
weights. Megatron-LM's distributed optimizer is stage 1; PyTorch FSDP is stage 3."""

ADAM_BYTES = {"weights": 2.0, "gradients": 2.0, "optimizer": 12.0}
"""Bytes per parameter of mixed-precision Adam (``interlib.specs.sources.ZERO_PAPER``:
"2 + 2 bytes" of 16-bit weights and gradients, "12 bytes" of fp32 weights, momentum and
variance; 16 in all, the ZeRO paper's K = 12). bf16 has the size of fp16."""

ACTIVATIONS_PAPER = Source(
    "Korthikanti, Casper, Lym, McAfee, Andersch, Shoeybi and Catanzaro, Reducing Activation "
    "Recomputation in Large Transformer Models (MLSys 2023, arXiv:2205.05198), Table 2 and "
    "Section 4.2",
    "https://arxiv.org/abs/2205.05198",
    "Activation memory per transformer layer: sbh(34 + 5as/h) bytes with 16-bit "
    "activations; with tensor and sequence parallelism and selective activation "
    "recomputation, 34 sbh / t. Under the 1F1B pipeline schedule the first stage stores "
    "activations of p micro-batches of L/p layers: 34 sbhL / t in all.")
ACTIVATION_BYTES_PER_SBH = 34.0
"""Bytes of stored activations per layer per (token x hidden unit), with sequence
parallelism and selective recomputation, before dividing by tp (``ACTIVATIONS_PAPER``)."""

ZERO3_TRAFFIC_FACTOR = 1.5
"""ZeRO-3's data-parallel traffic over a plain all-reduce's: 3 Psi against 2 Psi (the
weights are all-gathered in the forward and the backward pass, the gradients
reduce-scattered; ``interlib.specs.sources.ZERO_PAPER``, Section 7.2.2)."""


@dataclass(frozen=True)
class Memory:
    """Bytes one GPU holds during a step (:func:`memory_per_gpu`).

    Attributes:
        weights, gradients, optimizer, activations: Bytes of each.
        capacity: The GPU's HBM capacity, bytes (catalogue).
        zero: ZeRO stage used.
    """

    weights: float
    gradients: float
    optimizer: float
    activations: float
    capacity: float
    zero: int

    @property
    def total(self) -> float:
        """Bytes in all."""
        return self.weights + self.gradients + self.optimizer + self.activations

    @property
    def fits(self) -> bool:
        """Whether the total fits in the GPU's HBM (with no headroom: a real job also needs
        the CUDA context, NCCL buffers and allocator slack, so True is optimistic)."""
        return self.total <= self.capacity

    def describe(self) -> str:
        """One line: what each GPU would hold against its HBM."""
        from . import display

        head = (f"{display.fmt_bytes(self.total)} of {display.fmt_bytes(self.capacity)} HBM "
                f"per GPU")
        return (f"{head} (weights {display.fmt_bytes(self.weights)}, gradients "
                f"{display.fmt_bytes(self.gradients)}, optimizer "
                f"{display.fmt_bytes(self.optimizer)}, activations "
                f"{display.fmt_bytes(self.activations)}; {ZERO_STAGES[self.zero]})")


def memory_per_gpu(system="dgx-h100", model: str = "llama-3-70b", tp: int = 8, pp: int = 4,
                   dp: int = 8, seq_len: int = 4096, micro_batch: int = 1,
                   zero: int = 1) -> Memory:
    """Bytes one GPU holds when training ``model`` with mixed-precision Adam.

    ``weights = 2 P / (tp pp)``, ``gradients = 2 P / (tp pp)``, ``optimizer = 12 P / (tp
    pp)`` (:data:`ADAM_BYTES`), each divided by ``dp`` from its ZeRO stage on (optimizer
    from 1, gradients from 2, weights from 3); ``activations = 34 x seq_len x micro_batch x
    hidden x layers / tp`` (``ACTIVATIONS_PAPER``).

    Args:
        system: Catalogue id, a :data:`FABRICS` name or a System (its GPU's HBM capacity
            is the limit).
        model, tp, pp, dp, seq_len, micro_batch: As in :func:`layout_traffic` (``pp`` at
            most the model's layers).
        zero: ZeRO stage, one of :data:`ZERO_STAGES` (0..3).

    Returns:
        A :class:`Memory`.

    >>> m = memory_per_gpu("dgx-h100", "llama-3-405b", 1, 1, 2048)
    >>> m.fits, round(m.weights / 1e9)
    (False, 810)
    """
    sys_ = _sys(system)
    m = scaling.model(v.choice("model", model, scaling.MODELS))
    for name, val in (("tp", tp), ("pp", pp), ("dp", dp)):
        v.integer(name, val, lo=1, hi=1_000_000)
    v.integer("seq_len", seq_len, lo=1, hi=10_000_000)
    v.integer("micro_batch", micro_batch, lo=1, hi=100_000)
    v.integer("zero", zero, lo=0, hi=3)
    if pp > m.layers:  # a stage without a layer: the shares below would not hold
        raise ValueError(f"pp={pp} is out of range: must be between 1 and "
                         f"layers={m.layers} (a pipeline stage holds at least one layer)")
    per = m.params / (tp * pp)
    w, g, o = (ADAM_BYTES[k] * per for k in ("weights", "gradients", "optimizer"))
    if zero >= 1:
        o /= dp
    if zero >= 2:
        g /= dp
    if zero >= 3:
        w /= dp
    act = ACTIVATION_BYTES_PER_SBH * seq_len * micro_batch * m.hidden * m.layers / tp
    return Memory(w, g, o, act, float(sys_.gpu.hbm_capacity.value), int(zero))


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
        memory: Bytes per GPU (:class:`Memory`); when they exceed the GPU's HBM
            (``fits`` False) the design cannot run and its times are hypothetical.
    """

    compute: float
    bubble: float
    tp: float
    pp: float
    dp: float
    hidden: float
    step: float
    layout: Layout
    memory: Memory | None = None

    @property
    def fits(self) -> bool:
        """Whether the model state and activations fit in each GPU's HBM."""
        return self.memory is None or self.memory.fits

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
              in_network_reduction: bool = False, zero: int = 1) -> StepTime:
    """Step time = compute + bubble + communication - overlap (module docstring).

    Args:
        system: As in :func:`layout_traffic`, whose GPU has a dense bf16 peak in the
            catalogue (``interlib.specs.BF16_DENSE_FLOPS``; the compute time needs it),
            and so are ``model``, ``tp``, ``pp``, ``dp``, ``seq_len``, ``micro_batch``,
            ``micro_batches``, ``oversubscription``, ``leaf_nodes``,
            ``in_network_reduction`` and ``zero``.
        mfu: Model FLOPs utilisation of the compute kernels, (0, 1].
        overlap: Share of the DP and PP communication that hides behind compute, [0, 1]
            (0: none; 1: all of it, up to the compute time).

    Returns:
        A :class:`StepTime`; its ``memory`` says whether the design fits in HBM
        (:func:`memory_per_gpu`).
    """
    v.number("overlap", overlap, lo=0.0, hi=1.0)
    sys_ = _sys(system)
    # the compute time needs the GPU's dense bf16 peak: a catalogue GPU that has one
    gpu_id = next((k for k, g in GPUS.items() if g == sys_.gpu), None)
    if gpu_id not in BF16_DENSE_FLOPS:
        raise ValueError(f"system={sys_.name!r} is out of range: its GPU ({sys_.gpu.name}) "
                         f"has no dense bf16 peak in the catalogue, so its compute time "
                         f"cannot be modelled; step_time takes a system whose GPU is one of "
                         f"{list(BF16_DENSE_FLOPS)} (interlib.specs.BF16_DENSE_FLOPS)")
    lay = layout_traffic(sys_, model, tp, pp, dp, seq_len, micro_batch, micro_batches,
                         oversubscription, leaf_nodes, in_network_reduction, zero)
    mem = memory_per_gpu(sys_, model, tp, pp, dp, seq_len, micro_batch, zero)
    m = scaling.model(v.choice("model", model, scaling.MODELS))
    comp = float(compute_time(m.params, lay.tokens, lay.n_gpus, gpu_id, mfu))
    bubble = comp * (pp - 1) / micro_batches
    t_tp, t_pp, t_dp = (lay.phase(k).time_s for k in ("TP", "PP", "DP"))
    hidden = overlap * min(t_pp + t_dp, comp)
    step = comp + bubble + t_tp + t_pp + t_dp - hidden
    return StepTime(comp, bubble, t_tp, t_pp, t_dp, hidden, step, lay, mem)


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
        g = _sys(system).gpus_per_node
        if n > collectives.MAX_NODES * g:
            raise ValueError(f"n_gpus={n} is out of range: must be at most "
                             f"{collectives.MAX_NODES * g:,} ({collectives.MAX_NODES:,} nodes "
                             f"of {g} GPUs, the most the collective model takes)")
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
