"""Common claims about GPU interconnects, checked (Appendix B).

Each claim is stored as popular articles state it, with its verdict and the correct figures
**computed** from the catalogue (:mod:`interlib.specs`) and the models
(:mod:`interlib.collectives`, :mod:`interlib.scaling`, :mod:`interlib.transfer`). Figures
that belong to the claim itself (the article's own numbers and problem givens, such as
"70B parameters on 8 GPUs") live in :data:`CLAIM_GIVENS`; everything else comes from cited
specs. The keys ``"a"`` ... ``"m"`` follow the fact sheet's section 4, and the book's
anchors are ``errata-a`` ... ``errata-m``.

>>> claim("h").verdict
'MISLEADING'
"""

from __future__ import annotations

from dataclasses import dataclass


from .. import _validate as v
from .. import display, specs
from ..specs import sources as S
from ..specs._base import Source
from ..units import GB, GB_per_s, Gbit_per_s, billion, us
from .errata_base import (ADAM_BYTES_PER_PARAM, ARTICLES, CLAIM_GIVENS, DERIVED, KEYS,  # noqa: F401
                          VERDICTS, Claim, Figure)
from .errata_claims import BUILDERS


def claim(key: str) -> Claim:
    """One checked claim, ``"a"`` ... ``"m"`` (figures computed on each call)."""
    return BUILDERS[v.choice("key", key, KEYS)]()


def claims() -> list[Claim]:
    """All claims, in order."""
    return [claim(k) for k in KEYS]


def overview_table() -> display.Table:
    """One row per claim: anchor, topic, verdict."""
    return display.Table(["claim", "topic", "verdict"],
                         [[c.key, c.topic, c.verdict] for c in claims()],
                         caption="Verdicts; each claim's section below gives the computed "
                                 "figures and sources.")


class ClaimText(str):
    """Plain text that shows as itself in a notebook (one ``text/plain`` output, stable
    under re-execution) and as Markdown on the site."""

    def __repr__(self) -> str:
        return str(self)

    def _repr_markdown_(self) -> str:
        head, _, rest = str(self).partition("\n\n")
        claim_line, verdict_line = head.split("\n", 1)
        c = claim_line.removeprefix("Claim: ")
        v_ = verdict_line.removeprefix("Verdict: ")
        return f"**Claim:** {c}\n\n**Verdict: {v_}**\n\n{rest}\n"


def claim_text(key: str) -> ClaimText:
    """The claim, its verdict and the reasons, as text (a ``str``; Markdown in notebooks)."""
    c = claim(key)
    lines = [f"Claim: {c.claim}", f"Verdict: {c.verdict}", ""]
    lines += [f"- {w}" for w in c.why]
    return ClaimText("\n".join(lines))


def claim_table(key: str) -> display.Table:
    """The correct figures for one claim: what, value, how computed, source."""
    c = claim(key)
    return display.Table(["figure", "value", "how", "source"],
                         [[f.label, f.text, f.how, f.source.title] for f in c.figures],
                         caption="Computed by interlib from the cited catalogue.")


def sources_table(key: str | None = None) -> display.Table:
    """Sources behind one claim's figures (or all claims'), with links (the claims
    themselves and this book's own arithmetic are not listed)."""
    keys = KEYS if key is None else (v.choice("key", key, KEYS),)
    seen = []
    for k in keys:
        for s in claim(k).sources:
            if s not in seen and s not in (ARTICLES, DERIVED):
                seen.append(s)
    return display.Table(["source", "link"], [[s.title, s.url] for s in seen])


def article_comparison() -> dict:
    """The popular 70B estimate next to the book's (Chapter 1, Problem 1), reusing the
    figures of Appendix B, claim a (:func:`claim`). Lives here, not in
    :mod:`interlib.scaling`: the appendix imports the models, never the reverse.

    Returns:
        dict with ``pcie_over_nvlink`` (PCIe time / NVLink ring time, from the model),
        ``article_pcie_over_nvlink`` (the article's "NVLink" rate / its PCIe rate),
        ``training_state`` (mixed-precision Adam state of the model, bytes) and
        ``node_hbm`` (HBM of the 8 GPUs, bytes). Each value is an
        :class:`Figure` except the article's ratio, a float.

    >>> c = article_comparison()
    >>> c["training_state"].value > c["node_hbm"].value
    True
    """
    figs = {f.label: f for f in claim("a").figures}
    given = CLAIM_GIVENS["a"]
    wanted = {"pcie_over_nvlink": "PCIe time / NVLink ring time",
              "training_state": "training state, mixed-precision Adam",
              "node_hbm": "HBM of the 8 GPUs"}
    missing = [lab for lab in wanted.values() if lab not in figs]
    if missing:
        raise KeyError(f"Appendix B claim a no longer has the figures {missing}")
    out = {k: figs[lab] for k, lab in wanted.items()}
    out["article_pcie_over_nvlink"] = given["claimed_nvlink"] / given["claimed_pcie"]
    return out


__all__ = ["article_comparison", "VERDICTS", "ARTICLES", "DERIVED", "CLAIM_GIVENS",
           "ADAM_BYTES_PER_PARAM", "Figure", "Claim", "claim", "claims", "KEYS",
           "overview_table", "claim_text", "claim_table", "sources_table"]
