"""Read the text nccl-tests (or rccl-tests) printed into a :class:`~.runs.Run`.

The layouts read (nccl-tests ``src/util.cu`` as of a0b82b2, and older releases): the header
``# nThread ...`` (rccl-tests: ``# nThreads: ...``), ``# Using devices`` with one
``#  Rank`` line per rank (with or without ``Group``), the table header (``size count type
redop root time algbw busbw #wrong`` twice, or ``... error`` in releases before 2.11,
without ``root`` before that, without ``redop`` for the oldest all-gather and broadcast; a
``cputime`` column or a timestamp in recent ones), the rows (``N/A`` in the ``#wrong``
column with ``-c 0``), ``# Out of bounds values`` and ``# Avg bus bandwidth``; launcher tags
anywhere in a line (:func:`.text.strip_tags`); NCCL's ``INFO`` lines anywhere, even between
rows. Rows pasted without their header are read in the current layout.

A log is refused, with the reason that is true for it, when it is a failed run (its first
failure line quoted), a build without MPI (every process ran the test alone), a paste
that stops before the table, or a file of several tests without ``test=``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..units import GB_per_s, us
from .infer import Cells, infer
from .runs import Row, Run, vendor_of
from .setup import nranks_in, read_setup
from .text import PROGRAMS, hosts_of, is_nccl_line, program_in, scrub, strip_tags

_NTHREAD = re.compile(r"^\s*#?\s*nThreads?:?\s+\d+\s+nGpus:?\s+\d+")
_STARTING = re.compile(r"#\s*Collective test starting:\s*(\S+)")
_CONCLUDED = re.compile(r"#\s*Collective test concluded:\s*(\S+)")
"""The line nccl-tests prints after a test's table: it names the program that printed the
rows above it (what a paste that starts at the table still carries)."""
_RANK_LINE = re.compile(r"#\s+Rank\s+(\d+)\b(?:\s+Group\s+\d+)?(?:\s+Pid\s+(\d+))?\s+on\s+"
                        r"(\S+)\s+device\s+(\d+)\s+\[[^\]]*\]\s*(.*?)\s*$")
_HEADER = re.compile(r"#\s*size\s+count\s+type\b")
_OLD_HEADER = re.compile(r"#\s*bytes\s+N\s+type\b")
_AVG = re.compile(r"#\s*Avg bus bandwidth\s*:\s*(\S+)")
_OOB = re.compile(r"#\s*Out of bounds values\s*:\s*(\d+)")
_LABEL = re.compile(r"^\s*=+\s*([^=\s].*?)\s*=+\s*$")
_ELIDED = re.compile(r"^\s*(?:#\s*)?(?:\.\.\.|<snip>|\[\.\.\.\]|…)\s*$")
_FAILURE = re.compile(r"^\s*(?:[\w.-]+:\s+|\.\.\s+[\w.-]+ pid \d+:\s+)?"
                      r"(?:Test (?:NCCL|CUDA|HIP) failure|NCCL failure|Test failure)\s+\S+:\d+")
_TIME_COLS = ("time", "cputime")
_WRONG_COLS = ("#wrong", "error")
_RCCL_TESTS_ONLY = "# Errors with asterisks indicate errors that have exceeded the maximum"
"""A line rccl-tests prints after its table (``src/common.cu:1424`` @ ROCm/rccl-tests ae3e635,
since 924521f, 2019-06-28) and NVIDIA's nccl-tests never has (no commit of NVIDIA/nccl-tests
up to a0b82b2, 2.19.6, contains it): a paste with it is an RCCL run."""

_DEFAULT_HEADER = ("#  size  count  type  redop  root  time  algbw  busbw  #wrong  time  "
                   "algbw  busbw  #wrong")


@dataclass
class _Block:
    """One test of a log while it is read."""

    start: int
    label: str | None = None
    program: str | None = None
    ranks: dict = field(default_factory=dict)  # rank id -> (host, pid, device)
    rank_repeats: int = 0
    elided_ranks: bool = False
    header: dict | None = None
    header_line: int | None = None
    layout: str | None = None  # the columns headerless rows were read in (names)
    rows: list = field(default_factory=list)
    cells: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    avg: float | None = None
    oob: int | None = None
    elided_rows: int | None = None
    end: int = 0

    def name(self, i: int) -> str:
        what = (self.program or "a test").replace("_mpi", "")
        extra = f", '{self.label}'" if self.label else ""
        first, last = (self.rows[0][0], self.rows[-1][0]) if self.rows else (self.start,) * 2
        n = len(self.rows)
        return (f"{i}: {what}{extra} (rows on lines {first}-{last}, {n} size"
                f"{'s' if n != 1 else ''})")


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
    extra = toks[cols["in"] + 4:]
    return {"n": cols["in"] + 4, "pre": pre, "out": cols["out"], "in": cols["in"],
            "errors": toks[cols["out"] + 3] == "error", "extra": bool(extra),
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
    """(Row, Cells) from a row's tokens (the header's columns, or one fewer where the
    redop is blank)."""
    pre = list(cols["pre"])
    if len(toks) == cols["n"] - 1 and "redop" in pre:
        pre.remove("redop")  # a blank redop (hypercube, and all-gather in some releases)
    shift = len(cols["pre"]) - len(pre)
    need = cols["n"] - shift
    if len(toks) < need or (len(toks) > need and not cols["extra"]):
        raise ValueError(f"line {lineno}: expected a results row of {cols['n']} columns "
                         f"({cols['names']}), found {len(toks)}: the log looks truncated "
                         "or two lines ran together")
    size = _num(toks[0], "size", lineno)  # whole: a row starts with two digit strings
    count = _num(toks[1], "count", lineno)
    cell = dict(zip(pre, toks[:len(pre)]))
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
    i = cols["out"] - shift
    cells = Cells(int(size), int(count), toks[2], cell.get("redop", "" if shift else None),
                  cell.get("root"), toks[i + 1], toks[i + 2])
    return row, cells


def _is_row_attempt(toks: list) -> bool:
    """A results row starts with two whole numbers (decimal digits: ``isdigit`` would also
    take '²', which ``int`` refuses)."""
    return len(toks) >= 2 and toks[0].isdecimal() and toks[1].isdecimal()


def _headerless(toks: list, lineno: int) -> dict:
    """The columns of a row pasted without its header: the current layout, the one
    before ``root`` (``redop`` then the times), the older one of tests without a
    reduction (``size count type`` then the times, ``error`` columns: all-gather in
    nccl-tests of 2019-2020, nccl#340), or the current one with nccl-tests 2.19's options
    ``-I 1`` (``i_min i_max i_p99 i_cv%`` after each half) or ``-S 1`` (a ``timestamp``
    after the row; both ``src/util.cu`` @ NVIDIA/nccl-tests a0b82b2), by the row's width."""
    if len(toks) == 12 and not re.fullmatch(r"-?\d+", toks[3]):
        return _columns("#  size  count  type  redop  time  algbw  busbw  error  time  algbw "
                        " busbw  error", lineno) | {"errors": "e" in toks[7].lower()
                                                    or "." in toks[7]}
    if len(toks) == 11 and re.fullmatch(r"[A-Za-z]\w*", toks[2]) and _is_float(toks[3]):
        return _columns("#  size  count  type  time  algbw  busbw  error  time  algbw  busbw "
                        " error", lineno)
    if len(toks) == 21:  # -I 1: four per-iteration columns after each half
        it = "  i_min  i_max  i_p99  i_cv%"
        return _columns(_DEFAULT_HEADER.replace("#wrong", "#wrong" + it), lineno)
    if len(toks) == 15 and re.fullmatch(r"\d{4}-\d\d-\d\d", toks[13]) and \
            re.fullmatch(r"\d\d:\d\d:\d\d", toks[14]):  # -S 1: the time of the row
        return _columns(_DEFAULT_HEADER + "  timestamp", lineno)
    return _columns(_DEFAULT_HEADER, lineno)


def _layout_words(names: str) -> str:
    """A column layout in words: ``the current nccl-tests layout (size count type redop
    root time algbw busbw #wrong x 2)``, naming the option that adds columns."""
    toks = names.split()
    t0, t1 = [i for i, t in enumerate(toks) if t in _TIME_COLS][:2]
    pre, half, tail = toks[:t0], toks[t0:t1], toks[t1 + (t1 - t0):]
    which = "the current" if pre == ["size", "count", "type", "redop", "root"] else "an older"
    opt = (" with -I 1" if "i_min" in half else "") + (" with -S 1" if tail else "")
    return (f"{which} nccl-tests layout{opt} ({' '.join(pre + half)} x 2"
            + "".join(f" {t}" for t in tail) + ")")


def _is_float(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


def _blocks(lines) -> tuple:
    """The tests of a log (:class:`_Block` s), the first failure line, the NCCL lines and
    whether two tests' headers interleave (processes writing at once)."""
    blocks = [_Block(1)]
    failure = None
    interleaved = False
    pending_program = None
    for n, line in lines:
        raw = line
        b = blocks[-1]
        if "NCCL " in line and is_nccl_line(line):
            b.lines.append((n, raw))
            continue
        if failure is None and "ailure" in line and _FAILURE.search(line):
            failure = (n, raw)
        m = _STARTING.search(line) if "test starting" in line else None
        prog = (m.group(1) if m else None) or (program_in(line) if "_perf" in line else None)
        if m:
            prog = program_in(m.group(1)) or prog
        if "nThread" in line and _NTHREAD.search(line):
            if b.header is None and b.ranks == {} and any(
                    _NTHREAD.search(x) for _, x in b.lines):
                interleaved = True  # a second '# nThread' before any Rank line or table
            if b.header is not None or b.ranks:
                b.end = n - 1
                blocks.append(_Block(n, None, pending_program))
                b = blocks[-1]
                pending_program = None
            b.lines.append((n, raw))
            if prog:
                b.program = prog
            continue
        b.lines.append((n, raw))
        lab = _LABEL.match(line) if "==" in line else None
        if lab and not _HEADER.search(line):
            if b.rows:
                b.end = n - 1
                blocks.append(_Block(n, lab.group(1)))
            else:
                b.label = lab.group(1)
            continue
        if prog and not b.rows:
            b.program = prog
            continue
        m = _CONCLUDED.search(line) if "concluded" in line else None
        if m and b.rows:  # names the test whose rows are above, not the next one's
            b.program = b.program or program_in(m.group(1)) or prog
            continue
        if prog:
            pending_program = prog
        m = _RANK_LINE.search(line) if "Rank" in line else None
        if m and not b.rows:
            rid = int(m.group(1))
            if rid in b.ranks:
                b.rank_repeats += 1
            b.ranks.setdefault(rid, (m.group(3), m.group(2), m.group(5)))
            continue
        if _ELIDED.match(line):
            if b.header is None and b.ranks:
                b.elided_ranks = True
            elif b.rows or b.header is not None:
                b.elided_rows = b.elided_rows or n
            continue
        if "size" in line and _HEADER.search(line):
            if b.header is not None and b.rows:
                b.end = n - 1
                blocks.append(_Block(n, None, pending_program))
                pending_program = None
                b = blocks[-1]
                b.lines.append((n, raw))
            elif b.header is not None and not b.rows:
                interleaved = True
                continue
            b.header, b.header_line = _columns(line, n), n
            continue
        m = _OOB.search(line) if "Out of bounds" in line else None
        if m and (b.rows or b.header):
            b.oob = int(m.group(1))
            continue
        m = _AVG.search(line) if "Avg bus" in line else None
        if m and (b.rows or b.header):
            b.avg = _num(m.group(1), "the average bus bandwidth", n) * GB_per_s
            continue
        toks = line.split()
        if not toks or toks[0].startswith("#"):
            continue
        if _is_row_attempt(toks):
            row_toks = toks
        else:  # an unknown prefix: the row is the line's last columns
            width = (b.header or {}).get("n", 13)
            tail = toks[-width:]
            if len(toks) <= width or not _is_row_attempt(tail):
                continue  # launcher noise between rows
            row_toks = tail
        if b.avg is not None or b.oob is not None:
            b.end = n - 1
            blocks.append(_Block(n, None, pending_program))
            pending_program = None
            b = blocks[-1]
        cols = b.header or _headerless(row_toks, n)
        size = int(row_toks[0])
        if b.rows and size < b.rows[-1][1].size_bytes and b.header is None:
            b.end = n - 1
            blocks.append(_Block(n))
            b = blocks[-1]
        row, cell = _row(row_toks, cols, n)
        if b.header is None and b.layout is None:
            b.layout = cols["names"]
        b.rows.append((n, row))
        b.cells.append(cell)
    blocks[-1].end = lines[-1][0] if lines else 0
    return [b for b in blocks if b.rows or b.header or b.ranks or b.program], failure, \
        interleaved


def _choose(blocks, test, collective) -> _Block:
    """The one test to read: the only one with rows, or the one ``test`` names."""
    full = [b for b in blocks if b.rows]
    names = [b.name(i) for i, b in enumerate(full, 1)]
    if test is None:
        if len(full) > 1:
            first = [b for b in full if b.header_line]
            lead = (f"line {first[1].header_line}: a second results table starts here (the "
                    f"first began on line {first[0].header_line}); ") if len(first) > 1 else ""
            raise ValueError(f"{lead}the file holds {len(full)} tests: {'; '.join(names)}. "
                             "Choose one with test= (its number, or a word of its name)")
        return full[0]
    key = str(test).strip().lower()
    if key.isdecimal() and 1 <= int(key) <= len(full):
        return full[int(key) - 1]
    hits = [b for b, nm in zip(full, names) if key and key in nm.split(": ", 1)[1].lower()]
    if len(hits) == 1:
        return hits[0]
    raise ValueError(f"test={test!r} {'matches several' if hits else 'matches none'} of the "
                     f"{len(full)} test{'s' if len(full) != 1 else ''} in the file: "
                     f"{'; '.join(names)}")


def parse_text(text: str, collective: str | None = None, test=None) -> Run:
    """Parse nccl-tests text output (already decoded; :func:`interlib.nccltests.parse`
    checks the arguments and the size)."""
    lines = []
    for n, raw in enumerate(text.splitlines(), 1):
        if "\x00" in raw:
            raise ValueError(f"line {n}: expected text, found a NUL byte (a binary file?)")
        lines.append((n, strip_tags(raw)))
    hosts = hosts_of(lines)
    blocks, failure, interleaved = _blocks(lines)
    nthreads = sum(1 for _, x in lines if "nThread" in x and _NTHREAD.search(x))
    full = [b for b in blocks if b.rows]
    if failure is not None:
        n, raw = failure
        done = sum(len(b.rows) for b in full)
        raise ValueError(
            f"the run failed: line {n} says '{scrub(raw.strip(), hosts)}' (the "
            "first failure line; nccl-tests stops there)"
            + (f", after printing {done} result row{'s' if done != 1 else ''}" if done else "")
            + ". There is no complete run to compare: fix the failure (rerun with "
              "NCCL_DEBUG=INFO to see why) and paste the new output")
    one_rank = [b for b in blocks if b.ranks and len(b.ranks) == 1]
    if interleaved or any(b.rank_repeats for b in blocks) or (
            nthreads > 1 and len(one_rank) > 1 and len(one_rank) == len(
                [b for b in blocks if b.ranks])):
        raise ValueError(
            f"nccl-tests was built without MPI: the log has {nthreads} '# nThread' "
            f"header{'s' if nthreads != 1 else ''} and every process numbers its GPUs from "
            "Rank 0, so each process ran the test alone (one-rank runs print busbw 0). Rebuild with 'make MPI=1 MPI_HOME=...', "
            "run under mpirun or srun, and paste that output")
    if not full:
        with_header = [b for b in blocks if b.header_line]
        if with_header:
            raise ValueError(f"line {with_header[0].header_line}: the table header is "
                             "followed by no result rows: the log looks truncated (the run "
                             "stopped, or the paste ends there)")
        said = [b for b in blocks if b.ranks]
        named = [b.program for b in blocks if b.program]
        if said:
            last = lines[-1][0]
            n_ranks = len(said[0].ranks)
            raise ValueError(f"the paste ends on line {last} before the results table: it "
                             f"has {n_ranks} Rank line{'s' if n_ranks != 1 else ''} but no "
                             "'#  size  count  type ...' header and no rows. Paste the whole "
                             "output of the test, from '# nThread' to '# Avg bus bandwidth'")
        raise ValueError("no nccl-tests results table found"
                         + (f" (the text names {named[0]}, but has no Rank lines, table "
                            "header or rows)" if named else "")
                         + ": expected a header line like "
                         "'#  size  count  type  redop  root  time  algbw  busbw  #wrong ...' "
                         "or its rows (paste the whole output of the test, from '# nThread')")
    b = _choose(blocks, test, collective)
    names = [x.name(i) for i, x in enumerate(full, 1)] if len(full) > 1 else []
    return _run(b, lines, hosts, collective, names,
                names[full.index(b)] if names else None)


def _run(b: _Block, lines, hosts, collective, tests, chosen) -> Run:
    notes = []
    rows = tuple(r for _, r in b.rows)
    block_lines = lines[b.start - 1:max(b.end, b.start)]
    setup = read_setup(lines, hosts)
    program = b.program
    found = PROGRAMS.get(program) if program else None
    if collective is not None and found is not None and found != collective:
        raise ValueError(f"collective={collective!r} disagrees with the log, which ran "
                         f"{program}")
    ids = sorted(b.ranks)
    rank_max = (ids[-1] + 1) if ids else None
    complete = bool(ids) and ids == list(range(len(ids))) and not b.elided_ranks
    nranks = nranks_in(block_lines) or nranks_in(lines)
    coll = collective or found
    inf = infer(b.cells, rank_max if complete else nranks, coll)
    ranks, trusted = None, False
    if complete:
        ranks, trusted = rank_max, True
    elif nranks:
        ranks = nranks
        notes.append(f"{nranks} ranks from NCCL's 'nranks' lines")
    elif inf.ranks:
        ranks = inf.ranks
        notes.append(f"{inf.how_ranks}"
                     + (f" (the highest Rank line, {rank_max - 1}, would give {rank_max}: "
                        "the columns are used)" if rank_max and rank_max != ranks else ""))
    elif rank_max:
        ranks = rank_max
        notes.append(f"{ranks} ranks from the highest Rank line ({rank_max - 1}) + 1")
    if ids and not complete:
        why = ("elided ('...')" if b.elided_ranks else
               f"not one per rank ({len(ids)} line{'s' if len(ids) != 1 else ''}, ranks up "
               f"to {ids[-1]})")
        notes.append(f"the Rank lines are {why}: the host count is not used")
    candidates = ()
    if coll is None:
        coll = inf.collective
        if coll:
            notes.insert(0, f"collective {coll} inferred: {inf.how}")
        elif len(inf.candidates) > 1:
            candidates = inf.candidates
            notes.append("the columns fit " + " and ".join(candidates)
                         + " alike: say which with collective=")
    if b.elided_rows:
        notes.append(f"rows are elided ('...' on line {b.elided_rows}): only the printed "
                     "rows are read")
    if b.header is None:
        notes.append("rows pasted without their table header: read in "
                     + _layout_words(b.layout))
    hostmap = {}
    for rid, (host, _, _) in b.ranks.items():
        hostmap.setdefault(host, set()).add(rid)
    nodes = len(hostmap) if trusted else None
    per_node = max(len(r) for r in hostmap.values()) if trusted else None
    device = (b.ranks.get(0) or (next(iter(b.ranks.values())) if b.ranks else
                                 (None, None, None)))[2] or None
    lib = setup.library.value if setup.library else None
    if any("rccl-tests" in x or _RCCL_TESTS_ONLY in x for _, x in lines):
        lib = lib or "RCCL"
    version = setup.version.value if setup.version else None
    return Run(coll, ranks, version, rows, b.avg, nodes, per_node, device, b.oob,
               tuple(notes), program, vendor_of(device, lib), setup, len(ids),
               tuple(tests), chosen, candidates=candidates)
