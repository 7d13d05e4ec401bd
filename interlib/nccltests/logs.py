"""Read the text nccl-tests prints into a :class:`Run` (plain SI numbers, no host names).

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

import re
from dataclasses import dataclass

from .. import _validate as v
from ..units import GB_per_s, MB, us

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
