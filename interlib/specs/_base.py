"""Building blocks of the catalogue: ``Source`` and ``Spec``.

Every hardware figure in the book is a :class:`Spec`: a value in SI base units plus the
display unit, the direction (per direction or bidirectional, for rates), the kind of figure
(vendor peak, measured, derived, model constant, calibrated) and a :class:`Source`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import _validate as v
from .. import units

KINDS = ("vendor peak", "measured", "derived", "model constant", "calibrated", "secondary")
"""Kinds of figure.

* ``vendor peak``: a vendor's datasheet or standard (line rate, before protocol overheads).
* ``measured``: a published measurement (nvbandwidth, nccl-tests), conditions in the note.
* ``derived``: arithmetic on other cited figures (the note shows the arithmetic).
* ``model constant``: a constant from NCCL's own performance model (``tuning.cc``/``topo.h``).
* ``calibrated``: a constant of this book's model, fitted once to the calibration set and
  used unchanged everywhere (Appendix A checks it against held-out measurements).
* ``secondary``: a careful secondary source (named expert book or blog) where no primary was
  retrieved.
"""

DIRECTIONS = ("per direction", "bidirectional", "read + write", "n/a", "not stated")
"""``read + write`` is for memory bandwidth: one figure shared by reads and writes.
``not stated`` is for a vendor's rate whose source does not say whether both directions are
added (AWS's NeuronLink "bandwidth per device"): it is quoted as stated and never halved or
doubled, and no per-direction comparison uses it."""

_RATE_UNITS = {"GB_per_s", "TB_per_s", "Gbit_per_s", "Tbit_per_s", "MB_per_s", "PB_per_s"}
_UNITS = _RATE_UNITS | {"B", "GB", "TB", "GiB", "MiB", "KiB", "s", "us", "ns", "ms",
                        "GT_per_s", "TFLOP_per_s", "count", "fraction", "dollar_per_hour"}


@dataclass(frozen=True)
class Source:
    """Where a figure comes from.

    Attributes:
        title: Human-readable name of the document, e.g. "NVIDIA Hopper architecture page".
        url: Link (or arXiv/DOI id) a reader can follow.
        says: What the source says, quoted or closely paraphrased.
        key: Bibtex key in ``book/references.bib`` when the work is cited in prose; empty
            otherwise (the References page lists every Source in a generated table).
    """

    title: str
    url: str
    says: str = ""
    key: str = ""

    def __post_init__(self):
        if not self.title.strip():
            raise ValueError("Source.title must not be empty")
        if not self.url.strip():
            raise ValueError(f"Source.url must not be empty (source {self.title!r})")


@dataclass(frozen=True)
class Spec:
    """One cited figure.

    Attributes:
        value: The figure in SI base units (bytes, seconds, bytes/s), or a plain count or
            fraction.
        unit: Display unit, the name of a constant in :mod:`interlib.units`
            (``"GB_per_s"``, ``"Gbit_per_s"``, ``"GB"``, ``"us"`` ...), or ``"count"`` /
            ``"fraction"``.
        kind: One of :data:`KINDS`.
        source: Where it comes from.
        direction: For link rates, ``"per direction"`` or ``"bidirectional"``; for memory
            bandwidth ``"read + write"``; else ``"n/a"``.
        note: Conditions, caveats, or the arithmetic for a derived figure.
    """

    value: float
    unit: str
    kind: str
    source: Source
    direction: str = "n/a"
    note: str = ""

    def __post_init__(self):
        if not isinstance(self.value, (int, float)) or isinstance(self.value, bool) \
                or not math.isfinite(self.value) or self.value < 0:
            raise ValueError(f"Spec.value={self.value!r} must be a finite number >= 0")
        if self.unit not in _UNITS:
            raise ValueError(f"Spec.unit={self.unit!r} is not one of {sorted(_UNITS)}")
        if self.kind not in KINDS:
            raise ValueError(f"Spec.kind={self.kind!r} is not one of {KINDS}")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"Spec.direction={self.direction!r} is not one of {DIRECTIONS}")
        if self.unit in _RATE_UNITS and self.direction == "n/a":
            raise ValueError(f"Spec.direction={self.direction!r}: a rate ({self.unit}) must say "
                             "its direction: 'per direction' or 'bidirectional'")
        if self.unit == "fraction" and self.value > 1:
            raise ValueError(f"Spec.value={self.value!r} is a fraction: must be <= 1")
        if not isinstance(self.source, Source):
            raise ValueError(f"Spec.source={self.source!r} must be a Source")

    def in_unit(self, unit: str | None = None) -> float:
        """The value expressed in ``unit`` (default: its own display unit)."""
        unit = unit or self.unit
        if unit in ("count", "fraction", "dollar_per_hour"):
            return self.value
        return self.value / getattr(units, unit)

    def __float__(self) -> float:
        return float(self.value)


def derived(value: float, unit: str, note: str, *, direction: str = "n/a",
            from_: Spec | None = None) -> Spec:
    """A derived Spec: arithmetic on cited figures, shown in ``note``."""
    v.instance("note", note, str, "a string saying how the value was derived")
    if from_ is not None:
        v.instance("from_", from_, Spec, "a Spec (the figure it is derived from) or None")
    src = from_.source if from_ is not None else Source("derived in this book", "interlib",
                                                        note)
    return Spec(value, unit, "derived", src, direction, note)


STATES = ("shipped", "announced")
"""Where a product stands: ``shipped`` (in customers' hands per the source) or
``announced`` (specified or previewed; not shipping per the sources read)."""


@dataclass(frozen=True)
class Status:
    """Whether a catalogue entry has shipped or is only announced, and since when.

    Attributes:
        state: ``"shipped"`` or ``"announced"`` (:data:`interlib.specs.STATES`).
        date: When, as precisely as the source says: ``"2025"``, ``"2025-08"`` or
            ``"2025-08-26"``; None when no source read gives a date (then ``note`` must
            say what the source does show, e.g. a current product page).
        source: Where the state and date come from.
        note: What exactly the date marks (first deployment, specification release ...).
    """

    state: str
    date: str | None
    source: Source
    note: str = ""

    def __post_init__(self):
        import re

        if self.state not in STATES:
            raise ValueError(f"Status.state={self.state!r} is not one of {STATES}")
        if self.date is None:
            if not self.note.strip():
                raise ValueError("Status.date=None needs a note saying what the source "
                                 "shows instead of a date")
        elif not isinstance(self.date, str) or not re.fullmatch(
                r"(19|20)\d\d(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?", self.date):
            raise ValueError(f"Status.date={self.date!r} must be 'YYYY', 'YYYY-MM' or "
                             "'YYYY-MM-DD'")
        if not isinstance(self.source, Source):
            raise ValueError(f"Status.source={self.source!r} must be a Source")

    def __str__(self) -> str:
        return f"{self.state} ({self.date or 'date not in our sources'})"
