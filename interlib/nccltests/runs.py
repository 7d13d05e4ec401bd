"""What a parsed log is: a :class:`Run` of :class:`Row` s, in plain SI units (bytes,
seconds, bytes/s), without the host names or addresses the log carries."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..units import MB
from .setup import RunSetup

MAX_CHARS = int(10 * MB)
"""Largest log :func:`parse` reads, characters (10 MB: a full ``NCCL_DEBUG=INFO`` log of a
few hundred ranks; the results table itself is a few kB)."""


@dataclass(frozen=True)
class Row:
    """One size of a run, in SI units.

    Attributes:
        size_bytes: nccl-tests size, bytes.
        time_out_s, time_in_s: Out-of-place / in-place time of one call, seconds.
        busbw_out, busbw_in: Bus bandwidth, bytes/s (as printed: two decimals of GB/s).
        algbw_out, algbw_in: Algorithm bandwidth, bytes/s.
        wrong_out, wrong_in: ``#wrong`` elements, or None (``-c 0`` prints ``N/A``; logs
            before nccl-tests 2.11 print a maximum error instead, in ``error_out/in``).
        error_out, error_in: That maximum error (older logs), else None.
    """

    size_bytes: float
    time_out_s: float
    algbw_out: float
    busbw_out: float
    wrong_out: int | None
    time_in_s: float
    algbw_in: float
    busbw_in: float
    wrong_in: int | None
    error_out: float | None = None
    error_in: float | None = None


@dataclass(frozen=True)
class Run:
    """A parsed nccl-tests (or rccl-tests) run. Host names and addresses are not kept.

    Attributes:
        collective: What the run measured (:data:`interlib.nccltests.COLLECTIVES`), or
            None when neither the log, its columns nor the caller says.
        ranks: Ranks taking part, or None.
        nccl_version: e.g. ``"2.21.5"`` (NCCL's or RCCL's), or None.
        rows: The :class:`Row` of each size, in the log's order.
        avg_busbw: The log's "Avg bus bandwidth", bytes/s, or None.
        nodes: Distinct hosts in the ``Rank`` lines, or None when the log has none or they
            cannot be trusted (elided, or not one per rank).
        gpus_per_node: Most ranks on one host, or None (as ``nodes``).
        device: The GPU name rank 0 reports (``"NVIDIA H100 80GB HBM3"``), or None.
        out_of_bounds: The log's "Out of bounds values" count, or None.
        notes: What was inferred rather than read, and what the log left out, in words.
        program: The nccl-tests program the log names (``"all_reduce_perf"``), or None.
        vendor: ``"NVIDIA"`` or ``"AMD"`` when the log says (the GPU's name, RCCL's
            lines), else None.
        setup: What the log's NCCL lines state (a :class:`RunSetup`).
        rank_lines: How many ``Rank`` lines the log has (0: none).
        tests: Names of the tests the file holds when it holds several (the one read is
            ``test``), else ().
        test: The test read, when the file holds several, else None.
        source: ``"text"``, ``"nccl-tests JSON"`` or ``"NCCL Inspector"``.
        candidates: The collectives a text log's columns fit alike when neither the log
            nor the caller says which (``collective`` is then None, and a note names
            them), e.g. ``("all_gather", "all_to_all")``; else () (the collective stated,
            inferred, or not even narrowed to a few).
    """

    collective: str | None
    ranks: int | None
    nccl_version: str | None
    rows: tuple
    avg_busbw: float | None
    nodes: int | None = None
    gpus_per_node: int | None = None
    device: str | None = None
    out_of_bounds: int | None = None
    notes: tuple = ()
    program: str | None = None
    vendor: str | None = None
    setup: object = field(default_factory=RunSetup)
    rank_lines: int = 0
    tests: tuple = ()
    test: str | None = None
    source: str = "text"
    candidates: tuple = ()

    @property
    def sizes(self) -> list:
        """The sizes, bytes."""
        return [r.size_bytes for r in self.rows]


def vendor_of(device: str | None, library: str | None = None) -> str | None:
    """``"AMD"`` or ``"NVIDIA"`` from a GPU name (``"AMD Instinct MI300X"``, ``"NVIDIA
    H100 80GB HBM3"``, ``"Tesla V100-SXM2-16GB"``) or the library (``"RCCL"``), or None."""
    d = (device or "").upper()
    if "AMD" in d or "INSTINCT" in d or d.startswith("MI") or library == "RCCL":
        return "AMD"
    if "NVIDIA" in d or "TESLA" in d or "GEFORCE" in d or "QUADRO" in d:
        return "NVIDIA"
    if library == "NCCL":
        return "NVIDIA"
    return None
