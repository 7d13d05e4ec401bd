"""What a comparison returns: the verdict per regime, the published runs set beside it,
the likely causes, and the whole :class:`Comparison`; and the checks shared by
:mod:`.comparison` and :mod:`.causes` (the hardware compared against: ``system_of`` is the
collective model's own check, :func:`interlib.collective_model.choice.system_of`, so a
bad ``system`` gets the same message from ``predict`` and from ``compare``)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..collective_model.choice import system_of  # noqa: F401  (re-exported, see above)
from .runs import Run


class NotModelled(ValueError):
    """A run read exactly that the model does not predict (another vendor's GPUs, or a
    collective outside the model): the message says what was read and what the book can
    say instead. ``run`` is the parsed run."""

    def __init__(self, message: str, run=None):
        super().__init__(message)
        self.run = run


def regime_bounds(name: str) -> str:
    """A size regime's bounds in words, from :data:`interlib.intervals.REGIMES`."""
    from .. import intervals
    from ..display import fmt_bytes

    for r in intervals.REGIMES:
        if r[0] == name:
            lo, hi = r[1], r[2]
            if lo <= 0:
                return f"below {fmt_bytes(hi, binary=True)}"
            if hi == float("inf"):
                return f"{fmt_bytes(lo, binary=True)} and above"
            return f"{fmt_bytes(lo, binary=True)} to {fmt_bytes(hi, binary=True)}"
    raise ValueError(f"name={name!r} is not a regime of interlib.intervals.REGIMES")

@dataclass(frozen=True)
class Verdict:
    """The measured curve against the band in one size regime.

    Attributes:
        regime: A regime of ``interlib.intervals.REGIMES``.
        count: Sizes of the run in it.
        ratio: Median measured / predicted busbw.
        low, high: Median lower and upper edge of the band, as a fraction of the prediction.
        status: ``"within"``, ``"above"`` or ``"below"`` the band.
        text: The verdict in words.
        rule: ``"band"``, or ``"factor"`` when the page's rule independent of the band
            decided (at most half, or at least twice, the model's prediction).
    """

    regime: str
    count: int
    ratio: float
    low: float
    high: float
    status: str
    text: str
    rule: str = "band"


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
        stated: True when the log itself states the cause (a line it prints, quoted in
            ``evidence``): these rank before causes guessed from the curve's shape.
    """

    key: str
    title: str
    evidence: str
    chapter: str
    heading: str
    check: str
    score: float
    stated: bool = False

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
        notes: Warnings about the comparison itself (the log's GPU is not the system's,
            how the shape was chosen, what the log's rows left out).
        assumed: Values the comparison assumed rather than read or was told, in words.
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
    assumed: tuple = ()

    def table(self):
        """The verdict per regime as a :class:`interlib.display.Table`."""
        from .. import display

        rows = [[x.regime, str(x.count), display.fmt_pct(x.ratio, 2),
                 f"{display.fmt_pct(x.low, 2).removesuffix(' %')}-"
                 f"{display.fmt_pct(x.high, 2)}", x.text] for x in self.verdicts]
        bounds = "; ".join(f"{x.regime}: {regime_bounds(x.regime)}"
                           for x in self.verdicts)
        return display.Table(["regime", "sizes", "ratio", "band", "verdict"], rows,
                             caption=f"{bounds}. ratio: median of measured / predicted busbw; "
                             + self.band_source)

    def in_words(self) -> str:
        """The verdicts as one phrase, regimes grouped by status: ``"within the band in
        the latency-bound, transition and bandwidth-bound regimes"``."""
        groups = {}
        for x in self.verdicts:
            groups.setdefault(x.status, []).append(x.regime)

        def listed(names):
            return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

        return "; ".join(f"{st} the band in the {listed(names)} regime"
                         f"{'s' if len(names) > 1 else ''}" for st, names in groups.items())

    def report(self) -> str:
        """The shape, what the log states, the verdicts, the likely causes (each with the
        line that supports it where the log states it) and the nearest published runs, as
        plain text."""
        from .. import display

        n = self.gpus_per_node * self.nodes
        out = [f"{self.collective} on {display.fmt_count(n, 'GPU')} ({self.gpus_per_node} "
               f"per node x {display.fmt_count(self.nodes, 'node')}) against the model for "
               f"{self.system}", *(f"Note: {x}" for x in self.run.notes + self.notes),
               *(f"Assumed: {x}" for x in self.assumed)]
        stated = self.run.setup.lines()
        if stated:
            out += ["", "What the log states:"] + [f"- {x}" for x in stated]
        out += ["", repr(self.table()), ""]
        if self.diagnoses:
            out.append("Likely causes, most likely first (what the log states comes first):")
            for i, d in enumerate(self.diagnoses, 1):
                how = "stated by the log" if d.stated else f"match {d.score:.2f}"
                out += [f"{i}. {d.title} ({how}). {d.evidence}",
                        f"   Read: {d.chapter}, '{d.heading}'.", f"   Check: {d.check}"]
        else:
            out.append("Nothing is below the band: no diagnosis.")
        out += ["", "Nearest published runs:"]
        out += [f"- {p.series}: {p.gpus_per_node * p.nodes} x {_gpu_name(p.gpu)}, "
                f"{p.fabric}; {p.source}" for p in self.published]
        return "\n".join(out)


def _gpu_name(gpu: str) -> str:
    """A catalogue GPU's name for a reader (``"H100 SXM"``, not ``"h100-sxm"``)."""
    from ..specs import GPUS

    return GPUS[gpu].name if gpu in GPUS else gpu


def fabric_of(sys_) -> str:
    """The network kind of a system as the published data names it (``"InfiniBand"``,
    ``"RoCE"``, ``"EFA"``, ...)."""
    from .. import validation

    fab = getattr(sys_, "fabric", None)
    if fab:
        return fab
    return "InfiniBand" if "InfiniBand" in sys_.nic.fabric else validation.fabric_kind(
        sys_.nic.fabric)
