"""What a comparison returns: the verdict per regime, the published runs set beside it,
the likely causes, and the whole :class:`Comparison`; and the checks shared by
:mod:`.comparison` and :mod:`.causes` (the hardware compared against: ``system_of`` is the
collective model's own check, :func:`interlib.collective_model.choice.system_of`, so a
bad ``system`` gets the same message from ``predict`` and from ``compare``)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import _validate as v
from ..collective_model.choice import system_of  # noqa: F401  (re-exported, see above)
from .logs import Run

@dataclass(frozen=True)
class Verdict:
    """The measured curve against the band in one size regime.

    Attributes:
        regime: A regime of :data:`interlib.validation.REGIMES`.
        count: Sizes of the run in it.
        ratio: Median measured / predicted busbw.
        low, high: Median lower and upper edge of the band, as a fraction of the prediction.
        status: ``"within"``, ``"above"`` or ``"below"`` the band.
        text: The verdict in words.
    """

    regime: str
    count: int
    ratio: float
    low: float
    high: float
    status: str
    text: str


@dataclass(frozen=True)
class Published:
    """A published run of similar hardware (rows of the shipped data with one id prefix).

    Attributes:
        series: Row-id prefix (``"A3M"``).
        source, url: Who published it, where.
        gpu, gpus_per_node, nodes, fabric: Its hardware, as the data records it.
        sizes, busbw: Its points, bytes and bytes/s, by size.
        distance: How unlike the reader's run it is (0: same GPU, GPU count, network).
    """

    series: str
    source: str
    url: str
    gpu: str
    gpus_per_node: int
    nodes: int
    fabric: str
    sizes: tuple
    busbw: tuple
    distance: float


@dataclass(frozen=True)
class Diagnosis:
    """A likely cause of a shortfall, as the book teaches it.

    Attributes:
        key: Short id (``"half_nics"``).
        title: The cause in a few words.
        evidence: What in the curve points to it (numbers from this run).
        chapter, heading: The book's notebook (``"chapters/05_infiniband"``) and the section
            heading that explains it.
        check: The commands or log lines that confirm or rule it out.
        score: How well the curve's shape matches, 0..1 (the list is sorted by it).
    """

    key: str
    title: str
    evidence: str
    chapter: str
    heading: str
    check: str
    score: float

    @property
    def anchor(self) -> str:
        """The heading's id on the site (docutils' ``make_id``: lower case, runs of other
        characters to one hyphen)."""
        return re.sub(r"[^a-z0-9]+", "-", self.heading.lower()).strip("-")

    def url(self, base: str = "../") -> str:
        """Link to the section from a page ``base`` away from the book's root."""
        return f"{base}{self.chapter}.html#{self.anchor}"


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` returns. Arrays are by size, in the run's order.

    Attributes:
        run: The parsed run.
        system: The hardware's title.
        collective: What was predicted.
        gpus_per_node, nodes: The run's shape.
        sizes: Sizes, bytes.
        measured: Measured busbw, bytes/s (from the times: nccl-tests' own formula, with
            more digits than its two-decimal column).
        predicted, low, high: The model's busbw and its band, bytes/s.
        band_source: Where the band comes from, in words.
        verdicts: One :class:`Verdict` per regime the run covers.
        published: Nearest published runs, nearest first.
        diagnoses: Likely causes, most likely first (empty when nothing is below).
        notes: Warnings about the comparison itself (the log's GPU is not the system's).
    """

    run: Run
    system: str
    collective: str
    gpus_per_node: int
    nodes: int
    sizes: object
    measured: object
    predicted: object
    low: object
    high: object
    band_source: str
    verdicts: tuple
    published: tuple
    diagnoses: tuple
    notes: tuple = ()

    def table(self):
        """The verdict per regime as a :class:`interlib.display.Table`."""
        from .. import display, validation

        rows = [[x.regime, str(x.count), display.fmt_pct(x.ratio, 2),
                 f"{display.fmt_pct(x.low, 2).removesuffix(' %')}-"
                 f"{display.fmt_pct(x.high, 2)}", x.text] for x in self.verdicts]
        bounds = "; ".join(f"{x.regime}: {validation.regime_bounds(x.regime)}"
                           for x in self.verdicts)
        return display.Table(["regime", "sizes", "ratio", "band", "verdict"], rows,
                             caption=f"{bounds}. ratio: median of measured / predicted busbw; "
                             + self.band_source)

    def report(self) -> str:
        """Verdicts, diagnoses and the nearest published runs, as plain text."""
        from .. import display

        n = self.gpus_per_node * self.nodes
        out = [f"{self.collective} on {n} GPU{'s' if n != 1 else ''} ({self.gpus_per_node} "
               f"per node x {self.nodes} node{'s' if self.nodes != 1 else ''}) against the "
               f"model for {self.system}", *(f"Note: {x}" for x in self.notes), "",
               repr(self.table()), ""]
        if self.diagnoses:
            out.append("Likely causes, most likely first:")
            for i, d in enumerate(self.diagnoses, 1):
                out += [f"{i}. {d.title} (match {d.score:.2f}). {d.evidence}",
                        f"   Read: {d.chapter}, '{d.heading}'.", f"   Check: {d.check}"]
        else:
            out.append("Nothing is below the band: no diagnosis.")
        out += ["", "Nearest published runs:"]
        out += [f"- {p.series}: {p.gpus_per_node * p.nodes} x {p.gpu}, {p.fabric}; {p.source}"
                for p in self.published]
        return "\n".join(out)


def fabric_of(sys_) -> str:
    """The network kind of a system as the published data names it (``"InfiniBand"``,
    ``"RoCE"``, ``"EFA"``, ...)."""
    from .. import validation

    fab = getattr(sys_, "fabric", None)
    if fab:
        return fab
    return "InfiniBand" if "InfiniBand" in sys_.nic.fabric else validation.fabric_kind(
        sys_.nic.fabric)
