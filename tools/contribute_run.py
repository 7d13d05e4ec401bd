"""Turn a shared run (an issue opened with the form ``.github/ISSUE_TEMPLATE/share-a-run.yml``)
into rows of the book's measurement table, with their provenance.

    python tools/contribute_run.py ISSUE_BODY.md --url https://github.com/.../issues/42 \\
        --id RUN42 [--out rows.csv]

The issue's body is what GitHub renders from the form (``### Label`` then the value; an
empty field reads ``_No response_``). The rows come out in the columns of
``interlib/data/nccl_measurements.csv`` (``interlib.validation.COLUMNS``), one per size,
``role`` ``holdout`` (a new source the model was not fitted to); ``busbw_GBps`` is recomputed
from the out-of-place time (size / time x nccl-tests' bus factor), as the table's other
rows are, and checked against the busbw the report carries. They are printed (or written to
``--out``, then read back with :func:`interlib.validation.load_measurements`, which checks
every field); this script never writes to the book's table: a maintainer reviews and adds
them, and the new source's row in THIRD_PARTY_NOTICES.md.

A report is refused, with every reason at once, when a required field is missing or
malformed: the hardware (a catalogue system, or gpu=, nics_per_node=, nic_gbps=, fabric=),
the shape, a modelled collective, the rows, or the consent box; or when a row's busbw does
not follow from its time (an edited report). Exit status 0, or 2 with the reasons.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from interlib import collectives, validation  # noqa: E402
from interlib.nccltests.results import fabric_of  # noqa: E402
from interlib.nccltests.sharing import ROWS_HEADER  # noqa: E402
from interlib.specs import GPUS, SYSTEMS, custom  # noqa: E402
from interlib.units import GB_per_s, Gbit_per_s, us  # noqa: E402

LABELS = {"Hardware": "hardware", "Shape": "shape", "Collective": "collective",
          "NCCL version": "nccl-version", "Where it ran": "where", "Rows": "rows",
          "The book's verdict": "verdict", "What the log states": "setup", "Notes": "notes",
          "Sharing": "consent"}
"""The form's labels (as GitHub renders them) and their field ids."""

BUSBW_TOLERANCE = (0.01, 0.0051)
"""Largest gap between a row's busbw and the one its time gives, relative and in GB/s: the
printed busbw has two decimals of GB/s (0.005 of rounding), the time four or more
significant digits."""

CSV_FABRIC = {"InfiniBand": "InfiniBand", "Ethernet": "Ethernet (RoCE)",
              "EFA": "EFA (Ethernet)", "GPUDirect-TCPXO": "Ethernet (GPUDirect-TCPXO)"}
"""How the measurement table spells each network kind (its ``fabric`` column)."""


def sections(body: str) -> dict:
    """``{field id: value}`` from a rendered issue form (``### Label`` blocks)."""
    out = {}
    parts = re.split(r"^###\s+(.+?)\s*$", body, flags=re.M)
    for label, value in zip(parts[1::2], parts[2::2]):
        key = LABELS.get(label.strip())
        if key is None:
            continue
        value = value.strip()
        fence = re.fullmatch(r"```\w*\n(.*?)\n?```", value, flags=re.S)
        if fence:
            value = fence.group(1).strip()
        out[key] = "" if value == "_No response_" else value
    return out


_WORDS = re.compile(r"GPU: (.+?); (\d+) GPUs per node; (\d+) NICs? of ([\d.]+) Gb/s; "
                    r"network: (\S+); GPUs joined by: (.+?)\s*$")


def _from_words(text: str) -> str:
    """A report's hardware in the page's words (``share.hardware_text(..., words=True)``)
    as ids: a system's title becomes its id, a node's words ``key=value`` words."""
    from interlib.nccltests.sharing import INTRA_WORDS

    for k, s in SYSTEMS.items():
        if text == s.title:
            return k
    m = _WORDS.fullmatch(text)
    if not m:
        return text
    gpu = next((k for k, g in GPUS.items() if g.name == m.group(1)), m.group(1))
    intra = next((k for k, w in INTRA_WORDS.items() if w == m.group(6)), m.group(6))
    return (f"gpu={gpu} gpus_per_node={m.group(2)} nics_per_node={m.group(3)} "
            f"nic_gbps={m.group(4)} fabric={m.group(5)} intra={intra}")


def _hardware(text: str, problems: list) -> dict | None:
    text = _from_words(text.strip())
    if text in SYSTEMS:
        s = SYSTEMS[text]
        gpu = next(k for k, g in GPUS.items() if g is s.gpu or g == s.gpu)
        return {"system": text, "gpu": gpu, "nics_per_node": s.nics_per_node,
                "nic_gbps": s.nic.rate.value / Gbit_per_s, "fabric": fabric_of(s)}
    words = dict(re.findall(r"(\w+)=(\S+)", text))
    missing = [k for k in ("gpu", "nics_per_node", "nic_gbps", "fabric") if k not in words]
    if missing:
        problems.append(f"hardware {text!r}: not a catalogue system ({', '.join(SYSTEMS)}) "
                        f"and missing {', '.join(k + '=' for k in missing)}")
        return None
    try:
        node = custom.node(words["gpu"], int(words.get("gpus_per_node", 8)),
                           nics_per_node=int(words["nics_per_node"]),
                           nic_gbps=float(words["nic_gbps"]), fabric=words["fabric"],
                           intra=words.get("intra", "nvswitch"))
    except ValueError as e:
        problems.append(f"hardware: {e}")
        return None
    system = next((k for k, s in SYSTEMS.items() if s.gpu is node.gpu and
                   s.intra == node.intra), None)
    if system is None:
        problems.append(f"hardware: no catalogue system has {node.gpu.name} over "
                        f"{node.intra}: the table needs one")
        return None
    return {"system": system, "gpu": words["gpu"], "nics_per_node": node.nics_per_node,
            "nic_gbps": float(words["nic_gbps"]), "fabric": words["fabric"]}


def rows_from(report: dict, url: str, series: str) -> list:
    """The measurement rows of a shared report (dicts keyed by ``validation.COLUMNS``).

    Raises:
        ValueError: listing every missing or malformed part.
    """
    problems = []
    if not re.fullmatch(r"https://\S+", url or ""):
        problems.append(f"url={url!r}: give the issue's https:// address (--url)")
    if not re.fullmatch(r"[A-Z][A-Z0-9]{1,11}", series or ""):
        problems.append(f"id={series!r}: a short upper-case series prefix, e.g. RUN42 (--id)")
    for key in ("hardware", "shape", "collective", "rows"):
        if not report.get(key):
            problems.append(f"the report has no {key}")
    if "[x]" not in report.get("consent", "").lower():
        problems.append("the consent box is not ticked")
    hw = _hardware(report["hardware"], problems) if report.get("hardware") else None
    m = re.fullmatch(r"(\d+) GPUs? per node x (\d+) nodes?", report.get("shape", "").strip())
    if report.get("shape") and not m:
        problems.append(f"shape {report['shape']!r}: expected '8 GPUs per node x 2 nodes'")
    coll = report.get("collective", "").strip()
    if coll and coll not in collectives.COLLECTIVES:
        problems.append(f"collective {coll!r}: not one the model predicts "
                        f"({', '.join(collectives.COLLECTIVES)})")
    lines = [x.strip() for x in report.get("rows", "").splitlines() if x.strip()]
    if lines and lines[0] == ROWS_HEADER:
        lines = lines[1:]
    if report.get("rows") and not lines:
        problems.append("the rows box holds no row")
    parsed = []
    for i, line in enumerate(lines, 1):
        toks = line.replace(";", " ").split()
        try:
            size, t, b, _ = int(toks[0]), float(toks[1]), float(toks[2]), float(toks[3])
        except (ValueError, IndexError):
            problems.append(f"row {i} {line!r}: expected '{ROWS_HEADER}'")
            continue
        if size <= 0 or t <= 0:
            continue  # a 0-byte or 0-time row measures nothing
        parsed.append((i, size, t, b))
    if problems:
        raise ValueError("; ".join(problems))
    g, k = int(m.group(1)), int(m.group(2))
    factor = collectives.bus_factor(coll, g * k)
    version = report.get("nccl-version", "").strip()
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        version = "not stated"
    where = report.get("where", "").strip()
    out = []
    for i, size, t, b in parsed:
        busbw = size / (t * us) * factor
        rel, absolute = BUSBW_TOLERANCE
        if abs(busbw / GB_per_s - b) > rel * b + absolute:
            problems.append(f"row {i}: busbw {b:g} GB/s does not follow from its time "
                            f"({busbw / GB_per_s:.4g} GB/s)")
        out.append({
            "id": f"{series}-{len(out) + 1:02d}", "role": "holdout",
            "source": f"Reader-shared nccl-tests run ({where or 'place not given'}), "
                      f"{url.rstrip('/').split('/')[-1]}",
            "url": url, "system": hw["system"], "gpu": hw["gpu"], "gpus_per_node": g,
            "nodes": k, "nics_per_node": hw["nics_per_node"],
            "nic_gbps": f"{hw['nic_gbps']:g}", "fabric": CSV_FABRIC.get(hw["fabric"],
                                                                        hw["fabric"]),
            "nccl_version": version, "collective": coll, "algorithm": "auto",
            "size_bytes": size, "busbw_GBps": f"{busbw / GB_per_s:.6g}",
            "note": f"shared with the book's form; hardware as the reader stated it "
                    f"({report['hardware'].strip()}); busbw recomputed from the out-of-place "
                    f"time ({t:g} us: size / time x nccl-tests' bus factor); "
                    "NCCL's own choice of algorithm (auto)"})
    if problems:
        raise ValueError("; ".join(problems))
    return out


def to_csv(rows: list) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(validation.COLUMNS), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("body", help="the issue's body (a file, or - for standard input)")
    p.add_argument("--url", required=True, help="the issue's address (the rows' provenance)")
    p.add_argument("--id", required=True, help="the series prefix of the rows' ids")
    p.add_argument("--out", help="write the CSV rows here (then check them by reading back)")
    args = p.parse_args(argv)
    try:
        body = sys.stdin.read() if args.body == "-" else Path(args.body).read_text(
            encoding="utf-8")
        rows = rows_from(sections(body), args.url, args.id)
        text = to_csv(rows)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
            validation.load_measurements(args.out)
        else:
            sys.stdout.write(text)
    except (OSError, ValueError) as e:
        print(f"refused: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
