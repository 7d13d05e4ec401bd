"""Out of the book: the parsed run, its setup and the verdict as JSON (:func:`to_json`), and
a prefilled report to share a run with the book (:func:`share`).

A shared run goes to the repository's issue form ``.github/ISSUE_TEMPLATE/share-a-run.yml``
(GitHub fills a form's fields from query parameters named by their ids). What it carries:
the rows as read (size, count, the out-of-place time and busbw, the in-place time), the
hardware as the reader stated it, the shape, the NCCL version and the verdict; never the
log's host names or addresses (the :class:`~.runs.Run` keeps none, and the setup lines it
quotes were blanked), which the report says. ``tools/contribute_run.py`` turns such a report
into rows of the book's measurement table.
"""
from __future__ import annotations

from urllib.parse import quote, urlencode

from .. import _validate as v
from ..units import GB_per_s, us
from .results import Comparison
from .runs import Run

REPOSITORY = "https://github.com/interconnects-book/interconnects"
"""The book's repository (``_config.yml``'s ``repository.url``; a fork changes both)."""

FORM = "share-a-run.yml"
"""The issue form a shared run opens."""

ROWS_HEADER = "size_bytes time_out_us busbw_out_GBps time_in_us"
"""The first line of a shared run's rows (one row per size below it, space-separated)."""

MAX_URL = 7500
"""Longest prefilled link, characters (browsers and GitHub accept about 8 kB): longer rows
are cut to fit, and the report says how many were left for the reader to paste."""


INTRA_WORDS = {"nvswitch": "NVSwitch", "pcie": "PCIe only",
               "nvlink-bridge": "PCIe + NVLink bridges"}
"""How a report names the way a node's GPUs are joined, in words."""


def hardware_text(system, words: bool = False) -> str:
    """How a shared report names the hardware: a catalogue id (``"dgx-h100"``), or a node's
    parts as ``key=value`` words (``"gpu=h100-sxm gpus_per_node=8 nics_per_node=8
    nic_gbps=200 fabric=GPUDirect-TCPXO intra=nvswitch"``); with ``words=True`` the same in
    a reader's words (the system's title; ``"GPU: H100 SXM; 8 GPUs per node; 8 NICs of
    200 Gb/s; network: GPUDirect-TCPXO; GPUs joined by: NVSwitch"``), as the page shows it.
    ``tools/contribute_run.py`` reads every form back."""
    from ..specs import GPUS, SYSTEMS, custom
    from ..units import Gbit_per_s

    if isinstance(system, str):
        v.choice("system", system, SYSTEMS)
        return SYSTEMS[system].title if words else system
    for k, s in SYSTEMS.items():
        if s is system:
            return s.title if words else k
    gpu = next((k for k, g in GPUS.items() if g is system.gpu or g == system.gpu), "?")
    intra = custom.intra_of(system)
    if words:
        return (f"GPU: {system.gpu.name}; {system.gpus_per_node} GPUs per node; "
                f"{system.nics_per_node} NIC{'s' if system.nics_per_node != 1 else ''} of "
                f"{system.nic.rate.value / Gbit_per_s:g} Gb/s; network: "
                f"{system.nic.fabric}; GPUs joined by: "
                f"{INTRA_WORDS[intra]}")
    words = [f"gpu={gpu}", f"gpus_per_node={system.gpus_per_node}",
             f"nics_per_node={system.nics_per_node}",
             f"nic_gbps={system.nic.rate.value / Gbit_per_s:g}",
             f"fabric={system.nic.fabric}",
             f"intra={intra}"]
    for key in ("tcpxo_profile", "nccl_version"):
        if getattr(system, key, None):
            words.append(f"{key}={getattr(system, key)}")
    return " ".join(words)


def _rows(run: Run) -> list:
    return [{"size_bytes": int(r.size_bytes), "time_out_us": round(r.time_out_s / us, 6),
             "algbw_out_GBps": round(r.algbw_out / GB_per_s, 6),
             "busbw_out_GBps": round(r.busbw_out / GB_per_s, 6),
             "wrong_out": r.wrong_out, "time_in_us": round(r.time_in_s / us, 6),
             "algbw_in_GBps": round(r.algbw_in / GB_per_s, 6),
             "busbw_in_GBps": round(r.busbw_in / GB_per_s, 6), "wrong_in": r.wrong_in}
            for r in run.rows]


def to_json(obj) -> dict:
    """The parsed run, what its log states and (given a :class:`Comparison`) the verdict,
    as plain JSON-ready data: ``{"run": ..., "setup": [...], "comparison": ...}``. Sizes in
    bytes, times in microseconds and bandwidths in GB/s (nccl-tests' units), named so."""
    v.instance("obj", obj, (Run, Comparison), "a Run or a Comparison")
    cmp_ = obj if isinstance(obj, Comparison) else None
    run = cmp_.run if cmp_ else obj
    out = {"run": {"collective": run.collective, "program": run.program,
                   "ranks": run.ranks, "nodes_in_rank_lines": run.nodes,
                   "gpus_per_node_in_rank_lines": run.gpus_per_node, "device": run.device,
                   "vendor": run.vendor, "nccl_version": run.nccl_version,
                   "avg_busbw_GBps": (None if run.avg_busbw is None else
                                      round(run.avg_busbw / GB_per_s, 6)),
                   "out_of_bounds": run.out_of_bounds, "source": run.source,
                   "test": run.test, "notes": list(run.notes), "rows": _rows(run)},
           "setup": run.setup.lines(), "comparison": None}
    if cmp_:
        out["comparison"] = {
            "system": cmp_.system, "collective": cmp_.collective,
            "gpus_per_node": cmp_.gpus_per_node, "nodes": cmp_.nodes,
            "band_source": cmp_.band_source, "notes": list(cmp_.notes),
            "assumed": list(cmp_.assumed),
            "sizes_bytes": [int(s) for s in cmp_.sizes],
            "measured_busbw_GBps": [round(float(x) / GB_per_s, 6) for x in cmp_.measured],
            "predicted_busbw_GBps": [round(float(x) / GB_per_s, 6) for x in cmp_.predicted],
            "band_low_GBps": [round(float(x) / GB_per_s, 6) for x in cmp_.low],
            "band_high_GBps": [round(float(x) / GB_per_s, 6) for x in cmp_.high],
            "verdicts": [{"regime": x.regime, "sizes": x.count, "ratio": round(x.ratio, 6),
                          "band_low": round(x.low, 6), "band_high": round(x.high, 6),
                          "status": x.status, "rule": x.rule, "text": x.text}
                         for x in cmp_.verdicts],
            "diagnoses": [{"key": d.key, "title": d.title, "evidence": d.evidence,
                           "stated_by_log": d.stated, "score": round(d.score, 6),
                           "read": f"{d.chapter}: {d.heading}", "check": d.check}
                          for d in cmp_.diagnoses]}
    return out


def row_lines(run: Run) -> list:
    """The rows of a shared report: ``size_bytes time_out_us busbw_out_GBps time_in_us``
    (:data:`ROWS_HEADER`), as printed precision allows."""
    return [f"{int(r.size_bytes)} {r.time_out_s / us:.3f} {r.busbw_out / GB_per_s:.2f} "
            f"{r.time_in_s / us:.3f}" for r in run.rows]


def share(obj, hardware: str, *, where: str = "", repository: str = REPOSITORY) -> dict:
    """A prefilled report to share a run with the book.

    Args:
        obj: A :class:`Comparison` (verdict included) or a :class:`Run` (no verdict).
        hardware: The hardware as the reader states it: a catalogue id (``"dgx-h100"``) or
            ``"gpu=h100-sxm nics_per_node=8 nic_gbps=400 fabric=InfiniBand"`` for a node
            of their own.
        where: Optional: the cloud or cluster, in the reader's words.
        repository: The book's repository URL.

    Returns:
        ``{"title", "fields", "url", "note"}``: the issue title, the form's fields by id,
        the prefilled link (rows cut to fit
        :data:`~interlib.nccltests.sharing.MAX_URL`, the note then says so) and a note on
        what was left out (host names and addresses: never included).
    """
    v.instance("obj", obj, (Run, Comparison), "a Run or a Comparison")
    v.instance("hardware", hardware, str, "a catalogue id or 'gpu=... nics_per_node=...'")
    if not hardware.strip():
        raise ValueError("hardware='' is empty: say what the run ran on (a catalogue id or "
                         "'gpu=... nics_per_node=... nic_gbps=... fabric=...')")
    cmp_ = obj if isinstance(obj, Comparison) else None
    run = cmp_.run if cmp_ else obj
    if not run.collective:
        raise ValueError("the run's collective is unknown: parse it with collective= first")
    shape = (f"{cmp_.gpus_per_node} GPUs per node x {cmp_.nodes} nodes" if cmp_ else
             f"{run.gpus_per_node} GPUs per node x {run.nodes} nodes"
             if run.nodes and run.gpus_per_node else f"{run.ranks} ranks")
    verdict = ("\n".join(f"{x.regime}: {x.text} (median ratio {x.ratio:.3f})"
                         for x in cmp_.verdicts) + f"\nCompared against: {cmp_.system}"
               if cmp_ else "not compared")
    rows = row_lines(run)
    note = ("Host names and IP addresses in the log were removed (the book keeps none); "
            "the rows are the parsed numbers, not the log.")
    fields = {"hardware": hardware.strip(), "shape": shape, "collective": run.collective,
              "nccl-version": run.nccl_version or "", "where": where,
              "verdict": verdict, "setup": "\n".join(run.setup.lines()),
              "rows": "\n".join([ROWS_HEADER] + rows), "notes": "\n".join(run.notes)}
    title = f"[run] {run.collective} on {shape}, {hardware.strip()}"

    def url(fs):
        return (f"{repository}/issues/new?"
                + urlencode({"template": FORM, "title": title, **fs}, quote_via=quote))

    link = url(fields)
    kept = len(rows)
    while len(link) > MAX_URL and kept > 1:
        kept -= 1
        fields["rows"] = "\n".join([ROWS_HEADER] + rows[:kept])
        link = url(fields)
    if kept < len(rows):
        note += (f" The link holds the first {kept} of {len(rows)} rows (a link's length is "
                 "limited): paste the rest into the form's rows box.")
    fields["rows"] = "\n".join([ROWS_HEADER] + rows)
    return {"title": title, "fields": fields, "url": link, "note": note}
