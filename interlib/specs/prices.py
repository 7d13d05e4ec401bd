"""The price sheet: what the scale-out network's parts cost, as published, with dates.

Chapter 8's capstone asks for a cluster "designed for a budget, then defended"; this sheet
gives the network's parts a price so the design can be costed
(:func:`interlib.capstone.network_price`).

**These are published figures, not quotes, and street prices differ.** Every entry is
what one public page states, in US dollars, with the page's address and the date it was
seen. None of the pages found is a vendor's or reseller's dated list-price page (the
search for NVIDIA store, FS.com, router-switch and NADDOD listings of the Quantum-2
QM9700, ConnectX-7 and LinkX OSFP parts found product documents without prices); every
entry is therefore a *published estimate* (a vendor blog's or an analysis page's price
range), and the sheet keeps each source's own range. Where sources disagree the sheet
keeps both, and :func:`price_range` spans them: the spread is part of the answer.
Actual prices depend on volume, vendor (NVIDIA's own optics vs compatible third-party
modules), date and supply; get a quote before buying anything.

What the sheet does **not** price, because no citable figure was found (see
:data:`NOT_PRICED`): the NICs (ConnectX-7 or any 400G adapter), passive copper (DAC) and
active copper (ACC) cables. The capstone's costing lists them as "not priced". A second
search on 2026-11-26 (resellers' pages: FS.com, NADDOD, router-switch, network-switch.com,
Ascent Optics, Vitex; cluster bills of materials and cost analyses; NVIDIA's LinkX and
ConnectX-7 documents, which give no prices) found no page that states a dollar figure for
an identifiable NIC or copper cable at a known rate. Two near misses are left out on
purpose: Infrastructure Economics' "10x ConnectX-7 (400G) per node ... @ $12k avg" does not
say whether the $12k is per NIC or per node, and Yobitel's BlueField-3 "street price" is
for a DPU, not the ConnectX-7 adapter the capstone's nodes carry.

A stated total over many units (a bill of materials for 48 switches) is stored as
stated, with its unit count; the per-unit figure is derived by code
(``Quote.per_unit()``), never typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from ._base import Source

CURRENCY = "USD"
"""Every price in the sheet is in US dollars (the sources' own currency; nothing converted)."""

BASES = ("list price", "reseller price", "published estimate")
"""What kind of figure a quote is: a vendor's list price, a reseller's listed price, or a
published estimate (a price range in a vendor blog or an analysis). This sheet holds only
published estimates (see the module docstring)."""

ITEMS = {
    "switch": "one 64-port switch at the port rate (the whole box; per port = / 64)",
    "optic": "one transceiver at one end of a link, at the port rate",
    "fibre": "one fibre patch/trunk cable (one per optical link)",
}
"""The item classes the sheet prices, and what one unit of each is."""

LINKX_COPPER = Source(
    "NVIDIA LinkX user guide, 400Gb/s 100G-PAM4 cables: Copper DAC and LACC Cables Overview",
    "https://docs.nvidia.com/networking/display/400g100gpam4ovpub/"
    "copper-dac-and-lacc-cables-overview",
    "DAC copper cables are mainly used for inside system racks linking compute servers to "
    "storage subsystems within the 3-meter maximum length. LACC cables are used to extend "
    "the low-cost, low-power, and low latency of copper cables from 3- to 5-meters which can "
    "span several racks.")
COPPER_REACH_M = {"DAC": 3, "LACC": 5}
"""The longest copper link at 400G/800G (100G-PAM4 lanes), metres, as NVIDIA's LinkX guide
states it (``LINKX_COPPER``): passive DAC inside a rack, LACC across a few racks."""

NOT_PRICED = {
    "NIC": "no citable price found (searched 2026-11-26) for a 400G ConnectX-7 or any 400G "
           "adapter: the pages found give no price, or a figure that does not say whether "
           "it is per NIC or per node",
    "copper cable": "no citable price found (searched 2026-11-26) for 400G/800G passive "
                    "(DAC) or active (ACC) copper cables. Copper would replace two optics "
                    f"and a fibre on links up to {COPPER_REACH_M['DAC']} m (passive DAC) "
                    f"or {COPPER_REACH_M['LACC']} m (linear active copper, LACC; NVIDIA "
                    "LinkX): a leaf in its servers' rack, or switch-to-switch links in "
                    "neighbouring racks. The capstone takes every link as optical, so it "
                    "counts none",
}
"""Item classes left out of the sheet, and why (the capstone lists them as not priced)."""

STREET_PRICE_NOTE = ("Published estimates in US dollars (sources and dates in "
                     "interlib.specs.prices); street prices differ with volume, vendor and "
                     "date: get a quote.")
"""The label every priced output carries."""

SEEN = "2026-11-26"
"""The date the sources below were read (ISO 8601)."""


@dataclass(frozen=True)
class Quote:
    """One published price.

    Attributes:
        item: One of :data:`ITEMS`.
        what: The product the price is for, as the source names it.
        rate_gbps: Port rate it applies to, Gb/s per direction (400 or 800).
        low, high: The price the source states, US dollars, for ``units`` items (a single
            figure has ``low == high``).
        units: How many items the stated price covers (1 for a unit price).
        basis: One of :data:`BASES`.
        source: Where it is stated (``says`` quotes the figure).
        seen: Date the page was read, ISO 8601.
        page_date: The date the page itself gives, or ``""`` when it gives none.
        currency: Always :data:`CURRENCY`.
        note: Caveats (what the figure covers, volume, whose parts).
    """

    item: str
    what: str
    rate_gbps: float
    low: float
    high: float
    units: int
    basis: str
    source: Source
    seen: str = SEEN
    page_date: str = ""
    currency: str = CURRENCY
    note: str = ""

    def __post_init__(self):
        v.choice("item", self.item, ITEMS)
        v.choice("basis", self.basis, BASES)
        v.positive("rate_gbps", self.rate_gbps)
        v.positive("low", self.low)
        v.number("high", self.high, lo=self.low)
        v.integer("units", self.units, lo=1)
        v.instance("source", self.source, Source, "a specs.Source")
        if self.currency != CURRENCY:
            raise ValueError(f"currency={self.currency!r}: the sheet holds {CURRENCY} only")
        if len(self.seen) != 10 or self.seen[4] != "-" or self.seen[7] != "-":
            raise ValueError(f"seen={self.seen!r} must be an ISO date, YYYY-MM-DD")

    def per_unit(self) -> tuple[float, float]:
        """``(low, high)`` per single item, US dollars: the stated price / ``units``."""
        return self.low / self.units, self.high / self.units


LUXOPTX_800G = Source(
    "LuxOptX, 800G Optical Module Cost Analysis: TCO Optimization for AI Data Centers (blog)",
    "https://luxoptx.com/blogs/news/800g-optical-module-cost-analysis-tco-optimization-"
    "for-ai-data-centers",
    "800G OSFP-DR8: $1,100-1,400 (volume pricing for 1000+ units); 400G QSFP-DD: "
    "$600-800 (for comparison); 64-port 800G switch costs $150,000-250,000 depending on "
    "features and vendor; MPO-16 trunk cables $50-150 per cable.")
INFRA_ECONOMICS = Source(
    "Infrastructure Economics, a financial breakdown of a hyperscale AI training facility",
    "https://www.infra-economics.com/",
    "600-800 QM9700 switches @ $35k avg; 20,000+ links, OSFP transceivers ($500-1000 "
    "each), AOC/DAC cables.")
YOBITEL_NDR = Source(
    "Yobitel knowledge base, InfiniBand NDR",
    "https://yobitel.com/knowledge-base/infiniband-ndr",
    "a 1,024-GPU NDR fat-tree uses 32 leaves + 16 spines of Quantum-2 (~48 switches, "
    "~$0.55-0.75M switch BOM plus ~$1.2-1.6M of optics) - verify against your bill of "
    "materials.")

QUOTES = (
    Quote("switch", "NVIDIA Quantum-2 QM9700 (64 x 400G NDR InfiniBand)", 400, 35_000,
          35_000, 1, "published estimate", INFRA_ECONOMICS,
          note="an average over a 600-800 switch purchase, as the page states"),
    Quote("switch", "NVIDIA Quantum-2 (64 x 400G NDR InfiniBand), 48 switches", 400,
          550_000, 750_000, 48, "published estimate", YOBITEL_NDR,
          note="a bill of materials for 48 switches (32 leaf + 16 spine); the page says to "
               "verify it against your own"),
    Quote("switch", "64-port 800G switch (Ethernet)", 800, 150_000, 250_000, 1,
          "published estimate", LUXOPTX_800G,
          note="'depending on features and vendor'"),
    Quote("optic", "OSFP transceiver (NDR InfiniBand cluster)", 400, 500, 1_000, 1,
          "published estimate", INFRA_ECONOMICS,
          note="the page's fabric is 400G NDR Quantum-2; the module's rate is not stated"),
    Quote("optic", "400G QSFP-DD transceiver", 400, 600, 800, 1, "published estimate",
          LUXOPTX_800G, note="given 'for comparison' beside the 800G modules"),
    Quote("optic", "800G OSFP-DR8 transceiver", 800, 1_100, 1_400, 1, "published estimate",
          LUXOPTX_800G, note="volume pricing for 1000+ units"),
    Quote("fibre", "MPO-16 fibre trunk cable", 400, 50, 150, 1, "published estimate",
          LUXOPTX_800G, note="per cable; NDR links use MPO-12/APC fibre, priced alike here"),
    Quote("fibre", "MPO-16 fibre trunk cable", 800, 50, 150, 1, "published estimate",
          LUXOPTX_800G, note="per cable"),
)
"""Every published price in the sheet (see the module docstring for what they are)."""

RATES_GBPS = tuple(sorted({q.rate_gbps for q in QUOTES}))
"""The port rates the sheet prices, Gb/s."""

SWITCH_PORTS = 64
"""Ports of the switches the ``switch`` quotes price (Quantum-2 QM9700: 64 x 400G; the
800G quote is for a 64-port switch)."""


def quotes(item: str, rate_gbps: float) -> list[Quote]:
    """The quotes for one item class at one port rate.

    Args:
        item: One of :data:`ITEMS` (``"switch"``, ``"optic"``, ``"fibre"``).
        rate_gbps: Port rate, Gb/s per direction; one of :data:`RATES_GBPS`.
    """
    v.choice("item", item, ITEMS)
    v.number("rate_gbps", rate_gbps, lo=0)
    if float(rate_gbps) not in RATES_GBPS:
        raise ValueError(f"rate_gbps={rate_gbps!r}: the price sheet has no prices at this "
                         f"rate; priced rates: {', '.join(f'{r:g}' for r in RATES_GBPS)} Gb/s")
    return [q for q in QUOTES if q.item == item and q.rate_gbps == float(rate_gbps)]


def price_range(item: str, rate_gbps: float) -> tuple[float, float]:
    """``(low, high)`` US dollars for one unit of ``item`` at ``rate_gbps``: the lowest
    and highest per-unit figure over every source that prices it.

    >>> price_range("switch", 400)[1]
    35000.0
    """
    per = [q.per_unit() for q in quotes(item, rate_gbps)]
    return float(min(lo for lo, _ in per)), float(max(hi for _, hi in per))


def prices_table():
    """The sheet as a table (``interlib.display.Table``): one row per quote."""
    from ..display import Table

    def money(x):
        return f"${x:,.0f}"

    rows = []
    for q in QUOTES:
        stated = money(q.low) if q.low == q.high else f"{money(q.low)}-{money(q.high)}"
        if q.units > 1:
            stated += f" for {q.units}"
        lo, hi = q.per_unit()
        each = money(lo) if lo == hi else f"{money(lo)}-{money(hi)}"
        rows.append([q.item, q.what, f"{q.rate_gbps:g} Gb/s", stated, each, q.basis,
                     q.source.url, q.seen])
    return Table(["item", "what", "port rate", "as stated", "per unit", "basis", "source",
                  "seen"], rows,
                 f"{STREET_PRICE_NOTE} Not priced (no citable figure): "
                 f"{', '.join(NOT_PRICED)}.")
