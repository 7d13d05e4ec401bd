"""The pieces Appendix B's claims are made of: the verdicts, the :class:`Claim` and
:class:`Figure` records, the claims' own givens (:data:`CLAIM_GIVENS`) and the sources that
stand for "the article" and "derived here". :mod:`~interlib.book.errata_claims` builds each
claim from them; :mod:`~interlib.book.errata` is the public face."""

from __future__ import annotations

from dataclasses import dataclass


from .. import _validate as v
from .. import display, specs
from ..specs import sources as S
from ..specs._base import Source
from ..units import GB, GB_per_s, Gbit_per_s, billion, us

VERDICTS = ("RIGHT", "RIGHT, WITH CAVEATS", "WRONG", "MISLEADING", "UNCONFIRMED",
            "NOT FOUND", "ASYMPTOTICALLY RIGHT, PRACTICALLY MISLEADING",
            "ARITHMETIC RIGHT, MODEL MISLEADING", "RIGHT AS RAW SIGNALLING")
"""The verdicts a claim (or each part of a two-part claim, joined by " / ") can get."""

ARTICLES = Source("popular articles and blog posts on GPU networking (the claim as stated)",
                  "book/appendix_errata",
                  "Claims collected in the book's fact sheet, section 4 (seed errata).")

DERIVED = Source("derived here from the figures above (arithmetic shown in 'how')",
                 "book/appendix_errata",
                 "Ratios and products of the cited figures in the same table.")

CLAIM_GIVENS = {
    "a": {"params": 70 * billion, "gpus": 8, "claimed_bytes": 280 * GB,
          "claimed_nvlink": 3350 * GB_per_s, "claimed_pcie": 50 * GB_per_s},
    "b": {"claimed_ratio": 14.0},
    "c": {"claimed_gap": 160.0},
    "d": {"claimed_gpus_per_nic": 8},
    "e": {"wire_difference": 1 * us},
    "f": {"claimed_gb_per_gpu": 192 * GB},
    "g": {"payload": 1 * GB, "gpus": 8},
    "i": {"lanes": 16},
    "k": {"claimed_share": 0.107},
    "l": {"radix": 64, "hosts": (1024, 65536, 2_097_152)},
    "m": {"payload": 140 * GB, "link": 100 * Gbit_per_s, "nodes": 4},
}
"""Numbers that belong to the claims themselves (the article's figures, problem givens)."""

ADAM_BYTES_PER_PARAM = specs.Spec(
    16, "count", "secondary", S.ZERO_PAPER,
    note="mixed-precision Adam: 2 (fp16 weights) + 2 (fp16 gradients) + 12 (fp32 weights, "
         "momentum, variance) bytes per parameter")

@dataclass(frozen=True)
class Figure:
    """One computed figure: ``label``, ``value`` (SI), ``text`` (formatted), ``how`` (the
    formula or interlib call), ``source``."""

    label: str
    value: float
    text: str
    how: str
    source: Source


@dataclass(frozen=True)
class Claim:
    """A claim, checked.

    Attributes:
        key: ``"a"`` ... ``"m"``; the book's anchor is ``errata-<key>``.
        topic: Short title.
        claim: The claim as popular articles state it.
        verdict: One of :data:`VERDICTS` (two-part claims: two joined by ``" / "``).
        why: The reasons, with the computed figures filled in.
        figures: The correct figures, computed by interlib.
    """

    key: str
    topic: str
    claim: str
    verdict: str
    why: tuple
    figures: tuple

    @property
    def anchor(self) -> str:
        return f"errata-{self.key}"

    @property
    def sources(self) -> tuple:
        """The distinct sources behind the figures."""
        out = []
        for f in self.figures:
            if f.source not in out:
                out.append(f.source)
        return tuple(out)


KEYS = tuple("abcdefghijklm")
"""Claim keys, in the fact sheet's order."""
