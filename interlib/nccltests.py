"""Read a reader's nccl-tests output and set it against the model and the published runs.

:func:`parse` turns the text ``all_reduce_perf`` (or ``all_gather_perf``,
``reduce_scatter_perf``, ``alltoall_perf``, ``sendrecv_perf``, ...) printed into a
:class:`Run`: plain SI numbers (bytes, seconds, bytes/s), and never the host names or
addresses the log carries. :func:`compare` predicts the same sizes with
:func:`interlib.collectives.predict` for the reader's hardware, puts a band around the
prediction (:func:`_band`), finds the nearest published runs
(:func:`interlib.validation.load_measurements`) and gives a verdict per size regime;
:func:`diagnose` ranks the likely causes when a regime falls below the band. The page
"Check your cluster" and ``python -m interlib.check`` both call :func:`compare`.

The layouts read (nccl-tests ``src/util.cu`` as of a0b82b2, and older releases): the header
``# nThread ...``, ``# Using devices`` with one ``#  Rank`` line per rank, the table header
(``size count type redop root time algbw busbw #wrong`` twice, or ``... error`` in releases
before 2.11, without ``root`` before that, without ``redop`` for the oldest all-gather; a
``cputime`` column or per-iteration columns in recent ones), the rows (``N/A`` in the
``#wrong`` column with ``-c 0``), ``# Out of bounds values`` and ``# Avg bus bandwidth``;
MPI (``[1,0]<stdout>:``), Slurm (``0:``) and other launcher prefixes; NCCL's ``INFO`` lines
anywhere, even between rows.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .display import fmt_pct
from .units import GB_per_s, Gbit_per_s, MB, us

MAX_CHARS = int(10 * MB)
"""Largest log :func:`parse` reads, characters (10 MB: a full ``NCCL_DEBUG=INFO`` log of a
few hundred ranks; the results table itself is a few kB)."""

PROGRAMS = {"all_reduce_perf": "all_reduce", "all_gather_perf": "all_gather",
            "reduce_scatter_perf": "reduce_scatter", "alltoall_perf": "all_to_all",
            "broadcast_perf": "broadcast", "reduce_perf": "reduce",
            "sendrecv_perf": "sendrecv"}
"""nccl-tests programs and the collective each measures."""

COLLECTIVES = tuple(PROGRAMS.values())
"""What a run can have measured (:func:`parse`'s ``collective``)."""

_PROGRAM_RE = re.compile(r"\b(" + "|".join(PROGRAMS) + r")\b")
_OMPI_PREFIX = re.compile(r"^\[\d+,\d+\]<(?:stdout|stderr)>:\s?")
_LABEL_PREFIX = re.compile(r"^\s*\d+:\s")  # srun --label, torchrun's "0: "
_NCCL_LINE = re.compile(r"\bNCCL (?:INFO|WARN|TRACE|ERROR)\b")
_NCCL_VERSION = re.compile(r"\bNCCL version (\d+\.\d+\.\d+)")
_LIB_CODE = re.compile(r"nccl-library=(\d{4,6})\b")
_NRANKS = re.compile(r"\bnranks (\d+)\b")
_RANK_LINE = re.compile(r"#\s+Rank\s+(\d+)\b.*?\bon\s+(\S+)\s+device\s+(\d+)")
_DEVICE_NAME = re.compile(r"device\s+\d+\s+\[[^\]]*\]\s+(.+?)\s*$")
_HEADER = re.compile(r"#\s+size\s+count\s+type\b")
_AVG = re.compile(r"#\s*Avg bus bandwidth\s*:\s*(\S+)")
_OOB = re.compile(r"#\s*Out of bounds values\s*:\s*(\d+)")
_IPV4 = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
_IPV6 = re.compile(r"\b[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){2,7}(?:%\S+)?")
_TIME_COLS = ("time", "cputime")
_WRONG_COLS = ("#wrong", "error")


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
    """A parsed nccl-tests run. Host names and addresses are not kept.

    Attributes:
        collective: One of :data:`COLLECTIVES`, or None when neither the log nor the
            caller says.
        ranks: Ranks taking part, or None.
        nccl_version: e.g. ``"2.21.5"``, or None.
        rows: The :class:`Row` of each size, in the log's order.
        avg_busbw: The log's "Avg bus bandwidth", bytes/s, or None.
        nodes: Distinct hosts in the ``Rank`` lines, or None.
        gpus_per_node: Most ranks on one host, or None.
        device: The GPU name rank 0 reports (``"NVIDIA H100 80GB HBM3"``), or None.
        out_of_bounds: The log's "Out of bounds values" count, or None.
        notes: What was inferred rather than read, in words.
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

    @property
    def sizes(self) -> list:
        """The sizes, bytes."""
        return [r.size_bytes for r in self.rows]


def scrub(text: str, hosts=()) -> str:
    """``text`` with IPv4/IPv6 addresses and the given host names replaced by ``<host>``.

    >>> scrub("NCCL INFO Bootstrap : Using eth0:172.31.94.17<0> on node-7", ["node-7"])
    'NCCL INFO Bootstrap : Using eth0:<host><0> on <host>'
    """
    v.instance("text", text, str, "a string")
    for h in sorted({h for h in hosts if h}, key=len, reverse=True):
        text = text.replace(h, "<host>")
    text = _IPV4.sub("<host>", text)
    return _IPV6.sub(lambda m: "<host>" if m.group(0).count(":") >= 2 and
                     any(c.isalpha() for c in m.group(0)) else m.group(0), text)


def _strip(line: str) -> str:
    """A line without a launcher prefix (OpenMPI ``--tag-output``, Slurm ``--label``)."""
    line = _OMPI_PREFIX.sub("", line)
    return _LABEL_PREFIX.sub("", line)


def _columns(line: str, lineno: int) -> dict:
    """Column positions from a table header line (``#  size  count  type ...``)."""
    toks = line[line.index("#") + 1:].split()
    times = [i for i, t in enumerate(toks) if t in _TIME_COLS]
    if len(times) != 2:
        raise ValueError(f"line {lineno}: expected a table header with an out-of-place and "
                         f"an in-place 'time' column, found {len(times)} 'time' columns")
    cols = {}
    for half, start in (("out", times[0]), ("in", times[1])):
        names = toks[start:start + 4]
        if names[1:3] != ["algbw", "busbw"] or names[3] not in _WRONG_COLS:
            raise ValueError(f"line {lineno}: expected 'time algbw busbw #wrong' (or "
                             f"'error') in the table header, found {' '.join(names)!r}")
        cols[half] = start
    pre = toks[:times[0]]
    if pre[:3] != ["size", "count", "type"] or not set(pre[3:]) <= {"redop", "root"}:
        raise ValueError(f"line {lineno}: expected 'size count type [redop] [root]' before "
                         f"the times, found {' '.join(pre)!r}")
    return {"n": len(toks), "pre": pre, "out": cols["out"], "in": cols["in"],
            "errors": toks[cols["out"] + 3] == "error", "timestamp": "timestamp" in toks,
            "names": " ".join(toks)}


def _num(tok: str, what: str, lineno: int) -> float:
    try:
        x = float(tok)
    except ValueError:
        raise ValueError(f"line {lineno}: expected a number for {what}, found {tok!r}") from None
    if x != x or x < 0:
        raise ValueError(f"line {lineno}: expected a non-negative number for {what}, "
                         f"found {tok!r}")
    return x


def _wrong(tok: str, errors: bool, what: str, lineno: int):
    """(#wrong count or None, max error or None) from one ``#wrong``/``error`` cell."""
    if tok == "N/A":
        return None, None
    x = _num(tok, what, lineno)
    if errors:
        return None, x
    if x != int(x):
        raise ValueError(f"line {lineno}: expected a whole #wrong count for {what}, "
                         f"found {tok!r}")
    return int(x), None


def _row(toks: list, cols: dict, lineno: int) -> tuple:
    """(Row, redop, root) from a row's tokens (the header's columns, or one fewer where
    the redop is blank)."""
    pre = list(cols["pre"])
    if len(toks) == cols["n"] - 1 and "redop" in pre:
        pre.remove("redop")  # a blank redop (all-gather and friends in some releases)
    shift = len(cols["pre"]) - len(pre)
    need = cols["n"] - shift
    if len(toks) < need or (len(toks) > need and not cols["timestamp"]):
        raise ValueError(f"line {lineno}: expected a results row of {cols['n']} columns "
                         f"({cols['names']}), found {len(toks)}: the log looks truncated "
                         "or two lines ran together")
    size = _num(toks[0], "size", lineno)
    _num(toks[1], "count", lineno)
    if size != int(size):
        raise ValueError(f"line {lineno}: expected a whole size in bytes, found {toks[0]!r}")
    cells = dict(zip(pre, toks[:len(pre)]))
    vals = {}
    for half in ("out", "in"):
        i = cols[half] - shift
        place = "out-of-place" if half == "out" else "in-place"
        t = _num(toks[i], f"the {place} time (us)", lineno)
        a = _num(toks[i + 1], f"the {place} algbw (GB/s)", lineno)
        b = _num(toks[i + 2], f"the {place} busbw (GB/s)", lineno)
        w, e = _wrong(toks[i + 3], cols["errors"], f"the {place} #wrong", lineno)
        vals[half] = (t * us, a * GB_per_s, b * GB_per_s, w, e)
    o, n = vals["out"], vals["in"]
    row = Row(size, o[0], o[1], o[2], o[3], n[0], n[1], n[2], n[3], o[4], n[4])
    return row, cells.get("redop"), cells.get("root")


def _is_row_attempt(toks: list) -> bool:
    return len(toks) >= 2 and toks[0].isdigit() and toks[1].isdigit()


def _from_columns(rows, redops, roots, ranks):
    """The collective the columns tell, or None: busbw/algbw against the rank count (the
    bus factors of nccl-tests' PERFORMANCE.md) with the redop and root columns."""
    big = [r for r in rows if r.algbw_out >= 10 * GB_per_s]
    if not big or not ranks or ranks < 3:
        return None  # 2 ranks: all-reduce and send/recv both have factor 1
    ratio = sorted(r.busbw_out / r.algbw_out for r in big)[len(big) // 2]
    n = ranks
    op = {x for x in redops if x} or {None}
    rooted = any(r not in (None, "-1") for r in roots)
    if abs(ratio - 2 * (n - 1) / n) < 0.01:
        return "all_reduce" if op <= {"sum", "prod", "max", "min", "avg"} else None
    if abs(ratio - (n - 1) / n) < 0.01:  # all-gather and all-to-all look alike: no redop
        return None if op <= {"none", None} else "reduce_scatter"
    if abs(ratio - 1.0) < 0.01 and rooted:
        return "broadcast" if op <= {"none", None} else "reduce"
    return None


def parse(text: str, collective: str | None = None) -> Run:
    """Parse the output of one nccl-tests program.

    Args:
        text: The log as printed (``str``), at most :data:`MAX_CHARS` characters.
        collective: What the run measured, when the log does not say (one of
            :data:`COLLECTIVES`); a log that names its program wins only if they agree.

    Returns:
        A :class:`Run` (times in seconds, bandwidths in bytes/s).

    Raises:
        ValueError: for a log over the size limit, without a results table, with two
            tables, with a truncated or malformed row (naming the line and what was
            expected), or whose program disagrees with ``collective``.

    >>> log = '''#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
    ... #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
    ...    1048576        262144     float     sum      -1    85.58   12.25   22.97      0    84.50   12.41   23.27      0
    ... # Avg bus bandwidth    : 23.12'''
    >>> run = parse(log, collective="all_reduce")
    >>> run.rows[0].busbw_out / 1e9, run.rows[0].time_in_s * 1e6
    (22.97, 84.5)
    """
    v.instance("text", text, str, "the log as text (str)")
    try:
        return _parse(text, collective)
    except ValueError as e:  # a message may quote the log: never show its hosts back
        raise ValueError(scrub(str(e), hosts_in(text))) from None


def _parse(text: str, collective) -> Run:
    if len(text) > MAX_CHARS:
        raise ValueError(f"the log is {len(text) / MB:.1f} MB; the limit is "
                         f"{MAX_CHARS / MB:.0f} MB: paste only the nccl-tests output, from "
                         "'# nThread' to '# Avg bus bandwidth'")
    if collective is not None:
        v.choice("collective", collective, COLLECTIVES)
    programs, hosts, nranks, version, device = [], {}, None, None, None
    rank_ids = set()
    cols = header_line = None
    rows, redops, roots = [], [], []
    avg = oob = None
    done = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        if "\x00" in raw:
            raise ValueError(f"line {lineno}: expected text, found a NUL byte (a binary file?)")
        line = _strip(raw)
        if _NCCL_LINE.search(line):
            m = _NRANKS.search(line)
            if m:
                nranks = max(nranks or 0, int(m.group(1)))
            m = _NCCL_VERSION.search(line)
            version = version or (m.group(1) if m else None)
            continue
        m = _NCCL_VERSION.search(line)
        if m:
            version = version or m.group(1)
        m = _LIB_CODE.search(line)
        if m and not version:
            code = int(m.group(1))
            version = f"{code // 10000}.{code // 100 % 100}.{code % 100}"
        if cols is None:  # the program's name, before its table
            m = _PROGRAM_RE.search(line)
            if m:
                programs.append(PROGRAMS[m.group(1)])
        m = _RANK_LINE.search(line)
        if m and cols is None:
            rank_ids.add(int(m.group(1)))
            hosts.setdefault(m.group(2), set()).add(int(m.group(1)))
            d = _DEVICE_NAME.search(line)
            if d and int(m.group(1)) == 0:
                device = d.group(1)
            continue
        if _HEADER.search(line):
            if cols is not None:
                raise ValueError(f"line {lineno}: a second results table starts here (the "
                                 f"first began on line {header_line}); paste one test's "
                                 "output at a time")
            cols, header_line = _columns(line, lineno), lineno
            continue
        if cols is None:
            continue
        m = _OOB.search(line)
        if m:
            oob, done = int(m.group(1)), True
            continue
        m = _AVG.search(line)
        if m:
            avg = _num(m.group(1), "the average bus bandwidth", lineno) * GB_per_s
            done = True
            continue
        toks = line.split()
        if not toks or toks[0].startswith("#") or done:
            continue
        if _is_row_attempt(toks):
            row, op, root = _row(toks, cols, lineno)
        else:  # an unknown prefix: the row is the line's last columns
            tail = toks[-cols["n"]:]
            if len(toks) <= cols["n"] or not _is_row_attempt(tail):
                continue  # launcher noise between rows
            row, op, root = _row(tail, cols, lineno)
        rows.append(row)
        redops.append(op)
        roots.append(root)
    if cols is None:
        raise ValueError("no nccl-tests results table found: expected a header line like "
                         "'#  size  count  type  redop  root  time  algbw  busbw  #wrong ...' "
                         "(paste the whole output of the test, from '# nThread')")
    if not rows:
        raise ValueError(f"line {header_line}: the table header is followed by no result "
                         "rows: the log looks truncated")
    notes = []
    ranks = (max(rank_ids) + 1) if rank_ids else nranks
    if not rank_ids and nranks:
        notes.append("rank count from NCCL's 'nranks' lines")
    found = programs[-1] if programs else None
    if collective is not None and found is not None and found != collective:
        raise ValueError(f"collective={collective!r} disagrees with the log, which ran "
                         f"{[k for k, c in PROGRAMS.items() if c == found][0]}")
    coll = collective or found
    if coll is None:
        coll = _from_columns(rows, redops, roots, ranks)
        if coll:
            notes.append(f"collective {coll} inferred from busbw/algbw and the redop column")
    nodes = len(hosts) or None
    per_node = max(len(r) for r in hosts.values()) if hosts else None
    return Run(coll, ranks, version, tuple(rows), avg, nodes, per_node, device, oob,
               tuple(notes))


def hosts_in(text: str) -> list:
    """The host names a log names (``Rank`` lines and NCCL's ``host:pid:tid`` prefixes), so
    :func:`scrub` can blank them before a line is shown back."""
    v.instance("text", text, str, "a string")
    found = set()
    for raw in text.splitlines():
        line = _strip(raw)
        m = _RANK_LINE.search(line)
        if m:
            found.add(m.group(2))
        m = re.match(r"^\s*([A-Za-z0-9][\w.-]*):\d+:\d+\s", line)
        if m:
            found.add(m.group(1))
    return sorted(found)


# ------------------------------------------------------------------ against the model
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
        from . import display, validation

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
        from . import display

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


BAND_COVERAGE = 0.8
"""Share of published points the band should hold: its edges are the 10th and 90th
percentiles of measured / predicted busbw over the holdout points of the same class."""

MIN_CLASS_POINTS = 8
"""Fewest holdout points a class (regime x single/multi-node) needs for its own band; with
fewer, the regime's points over both are used."""


@functools.lru_cache(maxsize=1)
def _holdout_spread() -> dict:
    """{(regime, multi_node or None): (q10, q90)} of measured / predicted busbw over the
    shipped holdout points (:func:`interlib.validation.evaluate`: one model, nothing fitted
    to these points)."""
    from . import validation

    res = [r for r in validation.evaluate() if r.measurement.role == "holdout"]
    lo_q, hi_q = (1 - BAND_COVERAGE) / 2, (1 + BAND_COVERAGE) / 2
    out = {}
    for name, _, _ in validation.REGIMES:
        for multi in (False, True, None):
            x = [1 / r.ratio for r in res if r.regime == name
                 and (multi is None or (r.measurement.nodes > 1) == multi)]
            if len(x) >= (MIN_CLASS_POINTS if multi is not None else 1):
                out[(name, multi)] = (float(np.quantile(x, lo_q)), float(np.quantile(x, hi_q)))
    return out


def _band(prediction, sizes, multi_node: bool):
    """(low, high, source): the busbw band around ``prediction`` for each size.

    The model's own prediction interval when :class:`interlib.collectives.Prediction`
    carries one (``busbw_low`` / ``busbw_high``); until then the out-of-sample spread of
    the model's error on the published holdout points of the prediction's class (size
    regime x single/multi-node), :data:`BAND_COVERAGE` of them inside.
    """
    from . import collectives, validation

    names = {f.name for f in dataclasses.fields(collectives.Prediction)}
    if {"busbw_low", "busbw_high"} <= names:
        return (np.asarray(prediction.busbw_low, dtype=float),
                np.asarray(prediction.busbw_high, dtype=float),
                "band: the model's prediction interval (collectives.predict)")
    spread = _holdout_spread()
    pred = np.asarray(prediction.busbw, dtype=float)
    lo, hi = np.empty_like(pred), np.empty_like(pred)
    for i, reg in enumerate(validation.regime(np.asarray(sizes, dtype=float))):
        q = spread.get((str(reg), multi_node)) or spread[(str(reg), None)]
        lo[i], hi[i] = pred[i] * q[0], pred[i] * q[1]
    return lo, hi, (f"band: the middle {fmt_pct(BAND_COVERAGE, 2)} of it over the published "
                    f"holdout runs, same size regime, {'multi' if multi_node else 'single'}-"
                    f"node where there are {MIN_CLASS_POINTS} such points or more")


def _system(system):
    """A catalogue id or a System (custom nodes included), checked."""
    from .specs import SYSTEMS, System, system as lookup

    if isinstance(system, str):
        return lookup(v.choice("system", system, SYSTEMS))
    return v.instance("system", system, System,
                      "a catalogue id (interlib.specs.SYSTEMS) or a node from "
                      "interlib.specs.custom.node()")


def _fabric_of(sys_) -> str:
    from . import validation

    fab = getattr(sys_, "fabric", None)
    if fab:
        return fab
    return "InfiniBand" if "InfiniBand" in sys_.nic.fabric else validation.fabric_kind(
        sys_.nic.fabric)


def _gpu_id(sys_) -> str:
    from .specs import GPUS

    return next((k for k, g in GPUS.items() if g is sys_.gpu or g == sys_.gpu), "")


@functools.lru_cache(maxsize=1)
def _series() -> tuple:
    """The shipped measurements grouped by series, in file order."""
    from . import validation

    groups = {}
    for m in validation.load_measurements():
        groups.setdefault(m.series, []).append(m)
    return tuple((k, tuple(v_)) for k, v_ in groups.items())


def nearest_published(gpu: str, gpus: int, nodes: int, fabric: str, collective: str,
                      count: int = 3) -> tuple:
    """The ``count`` published runs most like the reader's (:class:`Published`).

    Distance: 2 for another GPU, 3 for another collective, 1 when one run crosses nodes
    and the other does not, 0.5 for another network kind, plus half the number of
    doublings between the GPU counts.
    """
    from . import validation

    v.integer("gpus", gpus, lo=1)
    v.integer("nodes", nodes, lo=1)
    v.integer("count", count, lo=1, hi=50)
    out = []
    for name, ms in _series():
        m = ms[0]
        d = (2.0 * (m.gpu != gpu) + 3.0 * (m.collective != collective)
             + 1.0 * ((m.nodes > 1) != (nodes > 1))
             + 0.5 * (validation.fabric_kind(m.fabric) != fabric)
             + 0.5 * abs(math.log2(m.total_gpus / gpus)))
        pts = sorted((x.size_bytes, x.busbw) for x in ms)
        out.append(Published(name, m.source, m.url, m.gpu, m.gpus_per_node, m.nodes,
                             m.fabric, tuple(p[0] for p in pts), tuple(p[1] for p in pts), d))
    return tuple(sorted(out, key=lambda p: (p.distance, -len(p.sizes)))[:count])


GPU_TOKENS = {"a100-sxm-80gb": "A100", "h100-sxm": "H100", "h200": "H200", "b200": "B200",
              "gb200": "GB200", "gb300": "GB300"}
"""What each catalogue GPU's name contains in the device name nccl-tests prints."""


def _gpu_notes(run, sys_, gpu: str) -> tuple:
    """A warning when the log's device name does not name the system's GPU."""
    token = GPU_TOKENS.get(gpu)
    if not run.device or not token:
        return ()
    words = re.findall(r"[A-Z]+\d+", run.device.upper())
    if token in words:
        return ()
    return (f"the log's GPUs are '{run.device}', the hardware compared against has "
            f"{sys_.gpu.name}: the verdict is for that hardware",)


def _verdict(name, ratio, low, high) -> Verdict:
    r, lo, hi = (float(np.median(x)) for x in (ratio, low, high))
    if r < lo:
        st, text = "below", f"below, {fmt_pct(1 - r / lo, 2)} under the band"
    elif r > hi:
        st, text = "above", f"above, {fmt_pct(r / hi - 1, 2)} over the band"
    else:
        st, text = "within", "within the band"
    return Verdict(name, len(ratio), r, lo, hi, st, text)


def compare(run, system, gpus_per_node: int | None = None, nodes: int | None = None, *,
            in_place: bool = False, algorithm: str = "auto", nvls: bool = True) -> Comparison:
    """Set a parsed run against the model and the published runs.

    Args:
        run: A :class:`Run` from :func:`parse`.
        system: The reader's hardware: a catalogue id (``interlib.specs.SYSTEMS``) or a
            node from :func:`interlib.specs.custom.node`.
        gpus_per_node, nodes: The run's shape (default: from the log's ``Rank`` lines,
            else the system's GPUs per node and the ranks over them).
        in_place: Compare the in-place columns instead of the out-of-place ones.
        algorithm, nvls: As :func:`interlib.collectives.predict` (``"auto"``: NCCL's
            default choice; ``nvls=False`` for a run with ``NCCL_NVLS_ENABLE=0``).

    Returns:
        A :class:`Comparison`: the curves, the band, a verdict per size regime, the
        nearest published runs and the likely causes of any shortfall.

    Raises:
        ValueError: for a run whose collective is unknown (pass ``collective=`` to
            :func:`parse`) or that the model does not predict (send/recv), a shape the
            system cannot hold, or a rank count that disagrees with the shape.
    """
    from . import collectives, validation

    v.instance("run", run, Run, "a Run from interlib.nccltests.parse")
    v.flag("in_place", in_place)
    if run.collective is None:
        raise ValueError("the log does not say which collective it measured: give "
                         "collective= to parse (e.g. 'all_reduce')")
    if run.collective not in collectives.COLLECTIVES:
        raise ValueError(f"the model does not predict {run.collective}: it covers "
                         f"{list(collectives.COLLECTIVES)}")
    sys_ = _system(system)
    g = gpus_per_node if gpus_per_node is not None else (
        run.gpus_per_node if run.gpus_per_node and run.nodes else
        min(sys_.gpus_per_node, run.ranks or sys_.gpus_per_node))
    g = v.integer("gpus_per_node", g, lo=1, hi=sys_.gpus_per_node)
    if nodes is None:
        nodes = run.nodes if run.nodes else max(1, (run.ranks or g) // g)
    k = v.integer("nodes", nodes, lo=1, hi=100_000)
    if run.ranks and g * k != run.ranks:
        raise ValueError(f"gpus_per_node={g} x nodes={k} = {g * k} GPUs, but the log ran "
                         f"{run.ranks} ranks")
    rows = [r for r in run.rows if r.size_bytes > 0]
    if not rows:
        raise ValueError("the run has no size above 0 bytes to compare")
    S = np.array([r.size_bytes for r in rows])
    t = np.array([r.time_in_s if in_place else r.time_out_s for r in rows])
    if np.any(t <= 0):
        raise ValueError("the run has a size with a time of 0 us: nothing to compare")
    n = g * k
    measured = S / t * collectives.bus_factor(run.collective, n)
    pred = collectives.predict(run.collective, S, sys_, g, k, algorithm, nvls=nvls)
    low, high, source = _band(pred, S, k > 1)
    predicted = np.asarray(pred.busbw, dtype=float)
    regs = validation.regime(S)
    verdicts = []
    for name, _, _ in validation.REGIMES:
        sel = regs == name
        if np.any(sel):
            verdicts.append(_verdict(name, measured[sel] / predicted[sel],
                                     low[sel] / predicted[sel], high[sel] / predicted[sel]))
    gpu = _gpu_id(sys_)
    fabric = _fabric_of(sys_)
    cmp_ = Comparison(run, sys_.title, run.collective, g, k, S, measured, predicted, low,
                      high, source, tuple(verdicts),
                      nearest_published(gpu, n, k, fabric, run.collective), (),
                      _gpu_notes(run, sys_, gpu))
    return dataclasses.replace(cmp_, diagnoses=tuple(diagnose(cmp_, sys_)))


# ------------------------------------------------------------------ likely causes
MATCH_TOLERANCE = 1.5
"""A plateau within this factor of an alternative's prediction scores above 0 (1: equal)."""

FLOOR_FACTOR = 2.0
"""A latency-bound time this many times the model's is a high small-message floor."""

ERROR_LIMIT = 1e-2
"""Largest ``error`` (older nccl-tests' maximum difference from the expected result) taken
as rounding; above it the values are wrong."""


def _match(x: float, y: float) -> float:
    """1 when ``x == y``, falling to 0 at a factor :data:`MATCH_TOLERANCE` apart."""
    if x <= 0 or y <= 0:
        return 0.0
    return max(0.0, 1.0 - abs(math.log(x / y)) / math.log(MATCH_TOLERANCE))


def _alternative(cmp_, sys_, **node_changes):
    """The model's busbw at the run's largest sizes on ``sys_`` changed as given (a node
    from :func:`interlib.specs.custom.node`), or None when no such node can be built."""
    from . import collectives
    from .specs import custom

    nvls = node_changes.pop("nvls", True)
    spec = dict(nics_per_node=sys_.nics_per_node, nic_gbps=sys_.nic.rate.value / Gbit_per_s,
                fabric=_fabric_of(sys_), intra=sys_.intra, name="alternative")
    spec.update(node_changes)
    try:
        node = custom.node(sys_.gpu, sys_.gpus_per_node, **spec)
    except ValueError:  # e.g. a 72-GPU domain over PCIe: not a hypothesis to rank
        return None
    big = cmp_.sizes[-3:]
    p = collectives.predict(cmp_.collective, big, node, cmp_.gpus_per_node, cmp_.nodes,
                            nvls=nvls)
    return float(np.median(p.busbw))


def diagnose(cmp_: Comparison, system=None) -> list:
    """Likely causes of what falls below the band, ranked by how well the curve's shape
    matches each (:class:`Diagnosis`; data errors first whatever the rest).

    Each hardware cause is tested as the model's prediction for the reader's node with that
    fault (:func:`interlib.specs.custom.node`): half the NICs (one NIC per two GPUs, or
    GPUDirect RDMA off, which halves what a NIC delivers), the GPUs talking over PCIe
    (peer-to-peer blocked), NVLink SHARP off; the plateau (median busbw of the three
    largest sizes) is scored against it: 1 when equal, 0 from
    :data:`MATCH_TOLERANCE` apart. A small-message time
    :data:`FLOOR_FACTOR` times the model's points at the transport; a shortfall in the
    mid sizes alone at protocol and buffer settings.

    Args:
        cmp_: A :class:`Comparison` from :func:`compare`.
        system: The system it was compared against (default: the one :func:`compare`
            used; needed only when ``cmp_`` was built by hand).
    """
    v.instance("cmp_", cmp_, Comparison, "a Comparison from interlib.nccltests.compare")
    sys_ = _system(system) if system is not None else None
    if sys_ is None:
        raise ValueError("system must be given (the catalogue id or node compared against)")
    out = []
    run = cmp_.run
    wrong = sum((r.wrong_out or 0) + (r.wrong_in or 0) for r in run.rows)
    err = max([r.error_out or 0 for r in run.rows] + [r.error_in or 0 for r in run.rows])
    if wrong or (run.out_of_bounds or 0) or err > ERROR_LIMIT:
        what = (f"{wrong} wrong elements in the #wrong columns" if wrong else
                f"a maximum error of {err:g} in the error columns" if err > ERROR_LIMIT else
                f"{run.out_of_bounds} out-of-bounds values")
        out.append(Diagnosis(
            "data_errors", "Wrong results: a faulty GPU, link or NIC", f"The log reports {what}.",
            "chapters/08_impact", "Failures at scale",
            "nvidia-smi -q -d ECC,ROW_REMAPPER; dmesg | grep -i xid; ibstat (port errors); "
            "rerun with -c 1 on subsets of the nodes to find the one that corrupts", 1.0))
    status = {x.regime: x.status for x in cmp_.verdicts}
    plateau = float(np.median(cmp_.measured[-3:]))
    pred = float(np.median(cmp_.predicted[-3:]))
    fmt = lambda x: f"{x / GB_per_s:.0f} GB/s"  # noqa: E731
    if (status.get("bandwidth-bound") or status.get("transition")) == "below":
        if cmp_.nodes > 1:
            alt = _alternative(cmp_, sys_, nics_per_node=max(1, sys_.nics_per_node // 2))
            if alt and alt < pred * 0.9:
                out.append(Diagnosis(
                    "half_nics", "Half the network bandwidth: one NIC per two GPUs, a NIC "
                    "down, or GPUDirect RDMA off",
                    f"The plateau, {fmt(plateau)}, is near the model's {fmt(alt)} with half "
                    f"the NICs (full: {fmt(pred)}).",
                    "chapters/05_infiniband",
                    "From GPU memory to the wire: GPUDirect RDMA, rails and queue pairs",
                    "ibstat (every port Active at the expected rate); nvidia-smi topo -m "
                    "(each GPU's NIC at PIX or PXB); with NCCL_DEBUG=INFO, count the NICs in "
                    "'NET/IB : Using' and look for '/GDRDMA' in the 'via NET/IB' lines",
                    _match(plateau, alt)))
        if sys_.intra != "pcie" and cmp_.gpus_per_node > 1:
            alt = _alternative(cmp_, sys_, intra="pcie")
            if alt and alt < pred * 0.9:
                out.append(Diagnosis(
                    "pcie_p2p", "GPUs talking over PCIe: peer-to-peer blocked (ACS, IOMMU) "
                    "or NVLink unused",
                    f"The plateau, {fmt(plateau)}, is near the model's {fmt(alt)} for the "
                    f"same GPUs over PCIe (NVLink: {fmt(pred)}).",
                    "chapters/02_pcie",
                    "Reading a real server: topology, NUMA, ACS and GPUDirect",
                    "nvidia-smi topo -m (NV# between GPUs, not SYS or PHB); nvidia-smi "
                    "topo -p2p r; with NCCL_DEBUG=INFO, 'via P2P/IPC' or 'via P2P/CUMEM' "
                    "rather than 'via SHM'; lspci -vvv | grep ACSCtl; NCCL_P2P_DISABLE unset",
                    _match(plateau, alt)))
        if cmp_.collective == "all_reduce":
            alt = _alternative(cmp_, sys_, nvls=False)
            if alt and alt < pred * 0.9:
                out.append(Diagnosis(
                    "no_nvls", "NVLink SHARP (NVLS) not in use",
                    f"The plateau, {fmt(plateau)}, is near the model's {fmt(alt)} without "
                    f"NVLS (with it: {fmt(pred)}).",
                    "chapters/04_nvswitch", "In-switch reduction: NVLink SHARP (NVLS)",
                    "NCCL_NVLS_ENABLE unset; nvidia-smi -q | grep -i -A2 fabric (state "
                    "Completed); systemctl status nvidia-fabricmanager (or nvidia-imex on "
                    "NVL72); with NCCL_DEBUG=INFO, the 'NVLS multicast support is available' "
                    "line", _match(plateau, alt)))
        if not [d for d in out if d.key != "data_errors" and d.score > 0.3]:
            out.append(Diagnosis(
                "slow_everywhere", "Below the model with no hardware signature: clocks, "
                "other jobs, or a degraded link",
                f"The plateau, {fmt(plateau)}, is {plateau / pred:.0%} of the model's "
                f"{fmt(pred)} and matches none of the faults above.",
                "chapters/08_impact", "Sharing the fabric: interference from other jobs",
                "nvidia-smi -q -d CLOCK,PERFORMANCE (throttle reasons); nvidia-smi nvlink -s "
                "(every link up at full rate); other jobs on the nodes or the switches",
                0.2))
    if status.get("latency-bound") == "below":
        small = cmp_.sizes < 2**20
        ratio = float(np.median(cmp_.predicted[small] / cmp_.measured[small]))
        if ratio >= FLOOR_FACTOR:
            out.append(Diagnosis(
                "high_floor", "A high small-message floor: a slow network path (TCP sockets "
                "instead of RDMA, a slow plugin) or extra hops",
                f"Below 1 MiB each call takes {ratio:.1f} times the model's time.",
                "chapters/05_infiniband", "RDMA versus the TCP path",
                "with NCCL_DEBUG=INFO, 'NET/IB' (RDMA) or the cloud's plugin, not "
                "'NET/Socket', in the 'Using network' line; ibv_devinfo; the switch hops "
                "between the nodes", min(1.0, math.log(ratio) / math.log(4 * FLOOR_FACTOR))))
    if status.get("transition") == "below" and status.get("bandwidth-bound") == "within":
        out.append(Diagnosis(
            "mid_sizes", "Mid sizes only: protocol, channel or buffer settings",
            "Sizes from 1 MiB to 256 MiB are below the band while large ones are not.",
            "chapters/01_why_connect",
            "How NCCL runs a collective: channels, protocols and trees",
            "env | grep NCCL_ (NCCL_ALGO, NCCL_PROTO, NCCL_BUFFSIZE, NCCL_MIN_NCHANNELS, "
            "NCCL_MAX_NCHANNELS set by hand?); NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING", 0.5))
    return sorted((d for d in out if d.score > 0), key=lambda d: -d.score)
