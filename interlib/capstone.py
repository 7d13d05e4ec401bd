"""Chapter 8's capstone: design a cluster and see what it costs and how fast it trains.

Every number comes from the same functions the earlier chapters use: the node from
:func:`interlib.steptime.make_system` (catalogue GPUs and link rates), the network from
:func:`interlib.topology.fat_tree`, communication from :func:`interlib.collectives.predict`
(via :func:`interlib.steptime.step_time`), money from :mod:`interlib.cost`.

Assumption for the leaf/spine boundary: the fabric is *rail-optimised* (NIC i of every node
goes to leaf group i, as in NVIDIA's DGX SuperPOD reference architecture), so a leaf with
``down`` host ports keeps the traffic of ``down`` nodes off the spine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import _validate as v
from . import cost, display, steptime
from .units import Gbit_per_s, day

REFERENCE = dict(gpu="h100-sxm", nodes=32, gpus_per_node=8, nics_per_node=8,
                 nic_gbps=400.0, fabric="InfiniBand", radix=64, oversubscription=1.0,
                 model="llama-3-70b", tp=8, pp=4, micro_batches=16, seq_len=4096, mfu=0.4,
                 overlap=0.8, zero=1)
"""The 256-GPU reference design: 32 DGX H100-class servers (8 GPUs, 8 x 400 Gb/s NDR
each) on a non-blocking leaf/spine of 64-port switches (one DGX H100 SuperPOD scalable
unit), training Llama 3 70B with TP 8 x PP 4 x DP 8 and the optimizer state sharded over
the data-parallel replicas (ZeRO-1, as Megatron-LM's distributed optimizer)."""


FABRICS = {
    "InfiniBand": ("InfiniBand", False),
    "InfiniBand + SHARP": ("InfiniBand", True),
    "Ethernet": ("Ethernet", False),
}
"""The capstone's fabric choices: ``name -> (NIC fabric, in-network reduction)``.

At equal port rates the model charges InfiniBand and Ethernet (RoCE) alike: it has no
congestion, and no like-for-like latency measurement exists (Appendix B, claim e). What
differs is SHARP: Quantum InfiniBand switches can reduce gradients in the network (NCCL's
CollNet path, with the SHARP plugin), so each GPU sends its shard once instead of a ring's
2(k-1)/k; Ethernet switches cannot."""


@dataclass(frozen=True)
class Design:
    """Everything the capstone computes for one design.

    Attributes:
        system: The node (:class:`~interlib.specs.System`).
        tree: The network (:class:`~interlib.topology.FatTree`).
        step: The step-time breakdown (:class:`~interlib.steptime.StepTime`).
        idle: GPU-hours and dollars lost to exposed communication over ``period_s``.
        mtbi_s: Mean time between unexpected interruptions, s (Llama 3 rate).
        interruption_overhead: Share of time lost to interruptions and checkpoints.
        n_gpus: GPUs.
        dp: Data-parallel degree.
        tokens_per_s: Training throughput.
        period_s: The costed period, s.
        price_per_gpu_hour: The reader's price, $.
        tp, pp: Tensor and pipeline degrees.
        not_computing: GPU-hours and dollars of all the time the GPUs do not compute
            (1 - efficiency: the pipeline bubble plus the exposed communication), the
            cost that sits beside the efficiency.
    """

    system: object
    tree: object
    step: object
    idle: object
    mtbi_s: float
    interruption_overhead: float
    n_gpus: int
    dp: int
    tokens_per_s: float
    period_s: float
    price_per_gpu_hour: float
    tp: int = 1
    pp: int = 1
    not_computing: object = None

    @property
    def fits(self) -> bool:
        """Whether each GPU's weights, gradients, optimizer state and activations fit in
        its HBM."""
        return self.step.fits

    @property
    def waiting_split(self) -> tuple[float, float]:
        """:attr:`not_computing`'s dollars split ``(pipeline bubble, exposed
        communication)``; the second is :attr:`idle`'s."""
        total = float(self.not_computing.dollars_lost)
        comm = float(self.idle.dollars_lost)
        return max(total - comm, 0.0), comm


def ethernet_ports(nic_gbps: float) -> tuple[int, float]:
    """``(ports, rate)``: how a NIC of ``nic_gbps`` meets an Ethernet switch, from the
    catalogue: the ports it runs and each one's data rate, bytes/s per direction. A NIC
    whose documentation says it splits on Ethernet (ConnectX-8: 800 Gb/s as two 400 GbE
    ports, :class:`interlib.specs.NIC`'s ``ethernet_ports``) gives its split; any other
    rate is one port at ``nic_gbps``.

    >>> ethernet_ports(800.0)[0], ethernet_ports(400.0)[0]
    (2, 1)
    """
    from .specs import NICS

    v.positive("nic_gbps", nic_gbps)
    for nic in NICS.values():
        if "Ethernet" in nic.fabric and abs(nic.rate.value / Gbit_per_s - nic_gbps) < 1e-6 \
                and nic.ethernet_ports > 1:
            return nic.ethernet_ports, nic.ethernet_port
    return 1, nic_gbps * Gbit_per_s


def design(gpu: str = "h100-sxm", nodes: int = 32, gpus_per_node: int = 8,
           nics_per_node: int = 8, nic_gbps: float = 400.0, fabric: str = "InfiniBand",
           radix: int = 64, oversubscription: float = 1.0, model: str = "llama-3-70b",
           tp: int = 8, pp: int = 4, micro_batches: int = 16, seq_len: int = 4096,
           mfu: float = 0.4, overlap: float = 0.8,
           price_per_gpu_hour: float = cost.DEFAULT_PRICE_PER_GPU_HOUR,
           period_days: float = 30.0, node=None, zero: int = 1) -> Design:
    """Design a cluster (defaults: :data:`REFERENCE`) and evaluate it.

    Args:
        gpu: GPU catalogue id.
        nodes: Servers (1..4096).
        gpus_per_node: GPUs per server / NVLink domain (1..72).
        nics_per_node: Scale-out NICs per server (1..16).
        nic_gbps: Rate per NIC, Gb/s per direction. On ``"Ethernet"`` a NIC the catalogue
            says splits (ConnectX-8 at 800: two 400 GbE ports,
            :func:`interlib.capstone.ethernet_ports`)
            takes that many switch ports at that rate; the network is sized on them.
        fabric: One of :data:`FABRICS`: ``"InfiniBand"``, ``"InfiniBand + SHARP"`` (the
            DP all-reduce across nodes may reduce in the switches) or ``"Ethernet"``.
        radix: Switch ports (even, 4..1024); 64 for NDR Quantum-2.
        oversubscription: Leaf down:up ratio requested, within
            :data:`interlib.steptime.OVERSUBSCRIPTION_RANGE` (1 = non-blocking) and below
            the radix. The step time uses the ratio the leaf's whole ports achieve
            (``down / up``, never above the request), the same one the network is sized at.
        model: Model id (:data:`interlib.scaling.MODELS`).
        tp, pp: Tensor and pipeline degrees; dp = GPUs / (tp x pp) must be whole.
        micro_batches: Micro-batches per step per pipeline; seq_len: tokens per sequence.
        mfu: Model FLOPs utilisation of the compute kernels, (0, 1].
        overlap: Share of DP and PP communication hidden behind compute, [0, 1].
        price_per_gpu_hour: Reader's price, $ per GPU-hour (an assumption, not a fact).
        period_days: Length of the run that is costed, days (> 0).
        node: Your own node (:func:`interlib.specs.custom.node`, or any
            :class:`~interlib.specs.System`); when given it replaces ``gpu``,
            ``gpus_per_node``, ``nics_per_node`` and ``nic_gbps``, and its own fabric is
            used (``fabric`` then only says whether SHARP may reduce in the switches).
        zero: ZeRO stage (:data:`interlib.steptime.ZERO_STAGES`): what of the optimizer
            state, gradients and weights is sharded over the data-parallel replicas.

    The design is checked against each GPU's memory (``d.fits``, ``d.step.memory``:
    :func:`interlib.steptime.memory_per_gpu`); one that does not fit still gets its
    times (what it would take), but ``design_table`` and the demo report the memory
    instead of an efficiency.
    """
    from .topology import fat_tree

    v.integer("nodes", nodes, lo=1, hi=4096)
    if node is not None:
        from .specs import System

        if not isinstance(node, System):
            raise ValueError(f"node={node!r:.60} must be a specs.System, e.g. from "
                             "specs.custom.node()")
        gpus_per_node, nics_per_node = node.gpus_per_node, node.nics_per_node
        nic_gbps = node.nic.rate.value / Gbit_per_s
    v.integer("gpus_per_node", gpus_per_node, lo=1, hi=72)
    v.integer("nics_per_node", nics_per_node, lo=1, hi=16 if node is None else 4 * 72)
    v.positive("period_days", period_days)
    over = steptime.check_oversubscription(oversubscription)
    nic_fabric, sharp = FABRICS[v.choice("fabric", fabric, FABRICS)]
    n = nodes * gpus_per_node
    v.integer("tp", tp, lo=1, hi=n)
    v.integer("pp", pp, lo=1, hi=n)
    if n % (tp * pp):
        m = server_multiple(tp, pp, gpus_per_node)
        raise ValueError(f"tp={tp}, pp={pp}: tp x pp must divide the GPU count {n} "
                         f"(nodes={nodes}: use a multiple of {m} servers of "
                         f"{gpus_per_node} GPUs)")
    dp = n // (tp * pp)
    sys_ = node if node is not None else steptime.make_system(
        gpu, gpus_per_node, "nvswitch", nics_per_node, nic_gbps, nic_fabric, "capstone")
    ports, port_rate = (ethernet_ports(nic_gbps) if node is None and nic_fabric == "Ethernet"
                        else (1, nic_gbps * Gbit_per_s))
    tree = fat_tree(nodes * nics_per_node * ports, radix, over, link_rate=port_rate)
    # rail-optimised: a NIC's ports go to the same leaf, so a leaf holds down / ports nodes
    leaf_nodes = nodes if tree.tiers == 1 else max(1, tree.leaf_down // ports)
    st = steptime.step_time(sys_, model, tp, pp, dp, seq_len, 1, micro_batches, mfu, overlap,
                            tree.oversubscription, leaf_nodes, sharp, zero)
    period = period_days * day
    idle = cost.idle_cost(n, st.comm_fraction, period, price_per_gpu_hour)
    not_computing = cost.idle_cost(n, 1.0 - st.efficiency, period, price_per_gpu_hour)
    mtbi = float(cost.mean_time_between_interruptions(n))
    ovh = float(cost.interruption_overhead(n))
    return Design(sys_, tree, st, idle, mtbi, ovh, n, dp, st.layout.tokens / st.step, period,
                  float(price_per_gpu_hour), tp, pp, not_computing)


def server_multiple(tp: int, pp: int, gpus_per_node: int = 8) -> int:
    """The smallest number of servers whose GPUs a TP x PP group divides: a design's
    ``nodes`` must be a multiple of it (``nodes x gpus_per_node`` GPUs split into whole
    data-parallel replicas of ``tp x pp`` GPUs each), ``tp x pp / gcd(tp x pp,
    gpus_per_node)``.

    Args:
        tp, pp: Tensor and pipeline degrees (1..4096 x 72 GPUs).
        gpus_per_node: GPUs per server (1..72).

    >>> server_multiple(8, 4), server_multiple(8, 8), server_multiple(2, 4), server_multiple(4, 1, 6)
    (4, 8, 1, 2)
    """
    v.integer("tp", tp, lo=1, hi=4096 * 72)
    v.integer("pp", pp, lo=1, hi=4096 * 72)
    v.integer("gpus_per_node", gpus_per_node, lo=1, hi=72)
    g = tp * pp
    return g // math.gcd(g, gpus_per_node)


def ports_per_nic(d: Design) -> int:
    """Switch ports each NIC of the design takes (2 for ConnectX-8 on Ethernet at 800 Gb/s:
    :func:`ethernet_ports`; else 1), from its node's NIC rate over the network's port rate."""
    if not isinstance(d, Design):
        raise ValueError(f"d={d!r} must be a Design (from design)")
    return max(1, round(d.system.nic.rate.value / d.tree.link_rate))


_TIER_NAMES = ("leaf", "spine", "core")


def switches_text(tree) -> str:
    """The switch count with its tiers in words: ``'1 switch (1 leaf)'``,
    ``'96 switches (64 leaf + 32 spine)'``."""
    per = tuple(tree.switches_per_tier)
    names = _TIER_NAMES if len(per) <= len(_TIER_NAMES) else \
        tuple(f"tier {i + 1}" for i in range(len(per)))
    parts = " + ".join(f"{n:,} {name}" for n, name in zip(per, names))
    return f"{display.fmt_count(tree.switches, 'switch')} ({parts})"


def memory_text(d: Design) -> str:
    """What each GPU holds against its HBM, and whether it fits, in one line."""
    if not isinstance(d, Design):
        raise ValueError(f"d={d!r} must be a Design (from design)")
    m = d.step.memory
    return f"{m.describe()}: {'fits' if m.fits else 'does NOT fit'}"


def design_table(d: Design):
    """The capstone's outputs as a :class:`~interlib.display.Table`. A design that does not
    fit in the GPUs' memory shows what it would need instead of an efficiency."""
    if not isinstance(d, Design):
        raise ValueError(f"d={d!r} must be a Design (from design)")
    t, s = d.tree, d.step
    bn = s.layout.bottleneck
    bubble, comm = d.waiting_split
    rows = [
        ["GPUs", f"{d.n_gpus:,} ({d.system.title})"],
        ["parallelism", f"TP {s.layout.phase('TP').rung} · PP {s.layout.phase('PP').rung} · "
                        f"DP {s.layout.phase('DP').rung} (tp = {d.tp}, pp = {d.pp}, "
                        f"dp = {d.dp})"],
        ["memory per GPU", memory_text(d)],
        ["switches", switches_text(t)],
        ["cables (host + switch)", f"{t.cables:,} ({t.host_cables:,} + {t.switch_cables:,})"
                                   + (f"; each NIC on {ports_per_nic(d)} switch ports of "
                                      f"{display.fmt_bits(t.link_rate * 8)}"
                                      if ports_per_nic(d) > 1 else "")],
        ["tiers / max switch hops", f"{t.tiers} / {t.max_hops}"],
        ["leaf oversubscription (achieved)", f"{t.oversubscription:.3g}:1"],
        ["bisection, per direction", f"{display.fmt_rate(t.bisection_per_direction)} "
                                     f"({display.fmt_pct(t.bisection_ratio)} of full)"],
    ]
    if not d.fits:
        rows.append(["step time, efficiency", "none: the design does not fit in the GPUs' "
                     "memory (more TP or PP, a higher ZeRO stage, or a GPU with more HBM)"])
    else:
        rows += [
            ["compute per step", display.fmt_time(s.compute)],
            ["+ pipeline bubble", display.fmt_time(s.bubble)],
            ["+ TP / PP / DP communication", f"{display.fmt_time(s.tp)} / "
                                             f"{display.fmt_time(s.pp)} / "
                                             f"{display.fmt_time(s.dp)}"],
            ["− hidden by overlap", display.fmt_time(s.hidden)],
            ["= step time", display.fmt_time(s.step)],
            ["slowest communication", _slowest(bn)],
            ["efficiency (compute / step)", display.fmt_pct(s.efficiency)],
            ["throughput", f"{d.tokens_per_s:,.0f} tokens/s"],
            ["GPU-hours not computing (bubble + waiting)",
             f"{d.not_computing.gpu_hours_lost:,.0f} of {d.not_computing.gpu_hours:,.0f} in "
             f"{display.fmt_time(d.period_s)}"],
            ["cost of that time", f"${d.not_computing.dollars_lost:,.0f} (bubble "
                                  f"${bubble:,.0f}, "
                                  f"communication ${comm:,.0f}) at "
                                  f"${d.price_per_gpu_hour:.2f}/GPU-hour (assumed)"],
        ]
    rows += [
        ["mean time between interruptions", display.fmt_time(d.mtbi_s)],
        ["time lost to interruptions + checkpoints",
         display.fmt_pct(d.interruption_overhead)],
    ]
    return display.Table(["quantity", "value"], rows,
                         "Computed by interlib.capstone.design; price is a reader assumption.")


def _slowest(phase) -> str:
    """The slowest communication in words (``'none'`` when nothing is sent)."""
    if phase.time_s <= 0:
        return "none (one GPU per replica: nothing to send)"
    return f"{phase.kind} over {phase.rung}"


# ------------------------------------------------------------------ the network's price
@dataclass(frozen=True)
class PriceLine:
    """One priced line of a design's network: ``count`` items at ``unit`` dollars each.

    Attributes:
        item: What is counted (``"switches"``, ``"optics"``, ``"fibre cables"``).
        count: How many the design needs.
        unit: ``(low, high)`` US dollars per item, from :mod:`interlib.specs.prices`.
        how: How the count and the unit price follow from the design.
    """

    item: str
    count: int
    unit: tuple
    how: str

    @property
    def total(self) -> tuple[float, float]:
        """``(low, high)`` US dollars for the line: ``count x unit``."""
        return self.count * self.unit[0], self.count * self.unit[1]


@dataclass(frozen=True)
class NetworkPrice:
    """A design's scale-out network priced from the sheet (:func:`network_price`).

    Attributes:
        lines: The priced lines (``PriceLine``: item, count, unit price range, how).
        not_priced: ``(item, count, reason)`` for the parts the sheet has no price for.
        n_gpus: GPUs in the design (for the per-GPU figure).
        rate_gbps: Port rate priced, Gb/s per direction.
    """

    lines: tuple
    not_priced: tuple
    n_gpus: int
    rate_gbps: float

    @property
    def total(self) -> tuple[float, float]:
        """``(low, high)`` US dollars for every priced line."""
        return (sum(ln.total[0] for ln in self.lines), sum(ln.total[1] for ln in self.lines))

    @property
    def per_gpu(self) -> tuple[float, float]:
        """``(low, high)`` US dollars of priced network per GPU."""
        lo, hi = self.total
        return lo / self.n_gpus, hi / self.n_gpus


def network_price(d: Design, quotes: dict | None = None) -> NetworkPrice:
    """Price a design's scale-out network from the price sheet
    (:mod:`interlib.specs.prices`: published estimates with sources and dates; street
    prices differ).

    Counted from the design's fat tree (``d.tree``), at its port rate:

    * **switches**: ``tree.switches``, each priced as the sheet's 64-port switch scaled to
      the radix (``price x radix / 64``: per-port pricing, an assumption for radices other
      than 64);
    * **optics**: one transceiver at each end of every link, ``2 x tree.cables`` (a
      twin-port switch module serves two link ends; the sheet prices per link end);
    * **fibre cables**: one per link, ``tree.cables``;
    * **NICs** (``tree.host_cables``, one per host port) and copper cables are listed as
      not priced: the sheet has no citable price for them
      (:data:`interlib.specs.prices.NOT_PRICED`).

    Every link is taken as optical: a design that puts servers within copper reach of
    their leaf (the reach in :data:`interlib.specs.prices.COPPER_REACH_M`)
    saves optics the sheet cannot price the copper for.

    **Your own quotes** (``quotes``) replace the sheet's figure for an item, or price one
    the sheet cannot (the NICs, copper cables): a class designing for a budget enters the
    prices it was quoted, and the line says it is the reader's quote.

    Args:
        d: A :class:`Design` from :func:`design` whose port rate the sheet prices
            (:data:`interlib.specs.prices.RATES_GBPS`: 400 or 800 Gb/s).
        quotes: Optional ``{item: price}``, US dollars per single item, a number or a
            ``(low, high)`` range; items: :data:`QUOTE_ITEMS` (``"switch"`` is the price
            of one 64-port switch, scaled to the radix like the sheet's).

    >>> p = network_price(design(), quotes={"nic": 2_000})
    >>> [ln.item for ln in p.lines][-1], p.lines[-1].unit
    ('NICs', (2000.0, 2000.0))
    """
    from .specs import prices

    if not isinstance(d, Design):
        raise ValueError(f"d={d!r:.60} must be a Design (from design)")
    own = _own_quotes(quotes)
    t = d.tree
    rate = t.link_rate / Gbit_per_s
    if round(rate, 6) not in prices.RATES_GBPS:
        raise ValueError(f"d=Design(port rate {rate:g} Gb/s): the price sheet has no prices "
                         f"at this rate; priced "
                         f"rates: {', '.join(f'{r:g}' for r in prices.RATES_GBPS)} Gb/s")
    rate = round(rate, 6)
    scale = t.radix / prices.SWITCH_PORTS

    def unit(item):  # (low, high, whose): the reader's quote if given, else the sheet's
        if item in own:
            return (*own[item], "your quote")
        return (*prices.price_range(item, rate), "")

    def how(text, whose):
        return f"{text}; {whose}" if whose else text

    sw_lo, sw_hi, sw_whose = unit("switch")
    lines = [
        PriceLine("switches", t.switches, (sw_lo * scale, sw_hi * scale),
                  how(f"{t.switches} switches of {t.radix} ports; a {prices.SWITCH_PORTS}-port "
                      f"switch x {t.radix}/{prices.SWITCH_PORTS}", sw_whose)),
    ]
    for item, name, count, text in (
            ("optic", "optics", 2 * t.cables, f"one at each end of {t.cables} links"),
            ("fibre", "fibre cables", t.cables,
             f"one per link ({t.host_cables} host + {t.switch_cables} switch)")):
        lo, hi, whose = unit(item)
        lines.append(PriceLine(name, count, (lo, hi), how(text, whose)))
    not_priced = []
    per_nic = ports_per_nic(d)
    for item, unpriced, name, count, text in (
            ("nic", "NIC", "NICs", t.host_cables // per_nic,
             "one per host port" if per_nic == 1 else f"one per {per_nic} host ports"),
            ("copper cable", "copper cable", "copper cables", 0,
             "every link is taken as optical")):
        if item in own:
            lines.append(PriceLine(name, count, own[item], how(text, "your quote")))
        else:
            not_priced.append((name, count, prices.NOT_PRICED[unpriced]))
    return NetworkPrice(tuple(lines), tuple(not_priced), d.n_gpus, rate)


QUOTE_ITEMS = ("switch", "optic", "fibre", "nic", "copper cable")
"""The items :func:`network_price` takes a reader's own quote for (US dollars per item)."""


def _own_quotes(quotes) -> dict:
    """``quotes`` checked: ``{item: (low, high)}`` US dollars per item."""
    if quotes is None:
        return {}
    if not isinstance(quotes, dict):
        raise ValueError(f"quotes={quotes!r:.60} must be a dict {{item: US dollars per item}} "
                         f"with items from {', '.join(QUOTE_ITEMS)}")
    out = {}
    for item, price in quotes.items():
        v.choice("quotes", item, QUOTE_ITEMS)  # the message names the item it refuses
        if isinstance(price, (tuple, list)):
            if len(price) != 2:
                raise ValueError(f"quotes[{item!r}]={price!r}: a price is one number or a "
                                 f"(low, high) pair, US dollars per item")
            lo = v.positive(f"quotes[{item!r}] low", price[0])
            hi = v.number(f"quotes[{item!r}] high", price[1], lo=lo)
        else:
            lo = hi = v.positive(f"quotes[{item!r}]", price)
        out[item] = (float(lo), float(hi))
    return out


def price_table(p: NetworkPrice):
    """A :class:`NetworkPrice` as a table (``interlib.display.Table``), labelled with what
    the prices are (published estimates; street prices differ)."""
    from .specs import prices

    if not isinstance(p, NetworkPrice):
        raise ValueError(f"p={p!r:.60} must be a NetworkPrice (from network_price)")

    def rng(lo, hi):
        return f"${lo:,.0f}" if round(lo) == round(hi) else f"${lo:,.0f} - ${hi:,.0f}"

    rows = [[ln.item, f"{ln.count:,}", rng(*ln.unit), rng(*ln.total), ln.how]
            for ln in p.lines]
    rows.append(["= priced network", "", "", rng(*p.total),
                 f"{rng(*p.per_gpu)} per GPU ({p.n_gpus:,} GPUs)"])
    for item, count, reason in p.not_priced:
        rows.append([item, f"{count:,}" if count else "-", "not priced", "-", reason])
    yours = [ln.item for ln in p.lines if ln.how.endswith("your quote")]
    mine = (f" Your own quotes: {', '.join(yours)}." if yours else "")
    return display.Table(["item", "count", "each", "total", "how"], rows,
                         f"Computed by interlib.capstone.network_price at "
                         f"{p.rate_gbps:g} Gb/s. {prices.STREET_PRICE_NOTE}{mine}")
