"""The text around an nccl-tests table: decoding, launcher tags, host names, program names.

What people paste is rarely the program's output alone: a file saved by Windows PowerShell
is UTF-16 with a byte-order mark; ``mpirun --tag-output`` puts ``[1,0]<stdout>:`` before
every line, and when output is flushed in pieces it lands in the middle of a line too
(``... sum -1[0]  1626.5 ...``); Slurm's ``--label`` prefixes ``0:``; NCCL's ``INFO``
lines name hosts and addresses. This module turns such text into plain lines and blanks
the host names before anything is shown back.
"""
from __future__ import annotations

import re

from .. import _validate as v

PROGRAMS = {
    "all_reduce_perf": "all_reduce", "all_gather_perf": "all_gather",
    "reduce_scatter_perf": "reduce_scatter", "alltoall_perf": "all_to_all",
    "broadcast_perf": "broadcast", "reduce_perf": "reduce", "sendrecv_perf": "sendrecv",
    "gather_perf": "gather", "scatter_perf": "scatter", "hypercube_perf": "hypercube",
    "alltoallv_perf": "alltoallv"}
"""nccl-tests (and rccl-tests) programs and what each measures; a build with MPI may add
``_mpi`` to the name (NGC containers ship ``all_reduce_perf_mpi``)."""

COLLECTIVES = tuple(PROGRAMS.values())
"""Every collective a log can have measured."""

PROGRAM_OF = {c: p for p, c in PROGRAMS.items()}
"""The program that measures each collective."""

_PROGRAM_RE = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(PROGRAMS, key=len,
                                                                  reverse=True))
                         + r")(?:_mpi|_nompi)?(?![A-Za-z0-9])")
_OMPI_TAG = re.compile(r"\[\d+,\d+\]<(?:stdout|stderr)>:\s?")
_RANK_TAG = re.compile(r"\[\d{1,5}\]\s?")  # mpirun/torchrun "[0]" output tags
_LEAD_RANK_TAG = re.compile(r"^\s*\[\d{1,5}\]\s")
_LABEL = re.compile(r"^\s*\d{1,5}:\s")  # srun --label "0: "
_NCCL_LINE = re.compile(r"\bNCCL (?:INFO|WARN|TRACE|ERROR)\b")
_IPV4 = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
_IPV6 = re.compile(r"\b[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){2,7}(?:%\S+)?")
_RANK_HOST = re.compile(r"#\s+Rank\s+\d+\b.*?\bon\s+(\S+)\s+device\b")
_INFO_HOST = re.compile(r"^\s*([A-Za-z0-9][\w.-]*):\d+:\d+\s")
_FAIL_HOST = re.compile(r"^\s*(?:\.\.\s+)?([A-Za-z0-9][\w.-]*)(?::| pid \d+:) Test ")
_PROMPT_HOST = re.compile(r"^\s*(?:\([^)]*\)\s*)?[\w.-]+@([A-Za-z0-9][\w.-]*):")
_HOSTNAME_LINE = re.compile(r"^\s*Hostname\s*:\s*(\S+)")


def decode(data: bytes) -> str:
    """Text from the bytes of a saved log: UTF-8 (with or without a byte-order mark) or
    UTF-16 (with its byte-order mark, as Windows PowerShell's ``>`` writes, or without
    one when every other byte is zero); undecodable bytes become U+FFFD.

    >>> decode("# nThread 1".encode("utf-16"))
    '# nThread 1'
    """
    v.instance("data", data, (bytes, bytearray), "the log's bytes")
    data = bytes(data)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace")
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:].decode("utf-8", errors="replace")
    head = data[:4000]
    if len(head) >= 8 and head[1::2].count(0) > 0.9 * len(head[1::2]):
        return data.decode("utf-16-le", errors="replace")
    if len(head) >= 8 and head[0::2].count(0) > 0.9 * len(head[0::2]):
        return data.decode("utf-16-be", errors="replace")
    return data.decode("utf-8", errors="replace")


def normalise(text: str) -> tuple[str, str | None]:
    """``(text, note)``: UTF-16 read as if it were UTF-8 (a NUL after every character, as a
    browser shows such a file) and byte-order marks undone, with a note saying so; any
    other text unchanged (note None)."""
    note = None
    stripped = text.lstrip("\ufeff")
    if stripped.startswith("\ufffd\ufffd") and "\x00" in stripped[:8]:
        stripped = stripped[2:]  # a UTF-16 byte-order mark read as UTF-8
    sample = stripped[:4000]
    if len(sample) >= 8 and sample[1::2].count("\x00") > 0.9 * len(sample[1::2]):
        stripped, note = stripped.replace("\x00", ""), ("the text was UTF-16 (as Windows "
                                                        "PowerShell saves it), read as such")
    elif len(sample) >= 8 and sample[0::2].count("\x00") > 0.9 * len(sample[0::2]):
        stripped, note = stripped.replace("\x00", ""), ("the text was UTF-16 (big-endian), "
                                                        "read as such")
    return stripped, note


def is_nccl_line(line: str) -> bool:
    """Whether ``line`` is one of NCCL's own log lines (``NCCL INFO``, ``NCCL WARN``)."""
    return bool(_NCCL_LINE.search(line))


def strip_tags(line: str) -> str:
    """``line`` without launcher tags: OpenMPI's ``[1,0]<stdout>:`` anywhere, a leading
    rank tag ``[0]`` or Slurm label ``0:``, and, outside NCCL's own lines (whose ``[0]``
    and ``1[21000]`` name devices), rank tags in the middle of the line.

    >>> strip_tags("[0]   1048576   262144  float  sum  -1[0]  1626.5  0.64  1.24  0")
    '  1048576   262144  float  sum  -1  1626.5  0.64  1.24  0'
    """
    if ">:" in line:
        line = _OMPI_TAG.sub("", line)
    if "[" in line[:12]:
        line = _LEAD_RANK_TAG.sub("", line, count=1)
    if "NCCL " in line and is_nccl_line(line):
        return line
    if ":" in line[:8] and line.lstrip()[:1].isdigit():
        line = _LABEL.sub("", line, count=1)
    if "[" in line and "Rank" not in line:
        line = _RANK_TAG.sub(" ", line)
    return line


def program_in(line: str) -> str | None:
    """The nccl-tests program a line names (``"all_reduce_perf"``, also as
    ``all_reduce_perf_mpi`` or in a path), or None."""
    m = _PROGRAM_RE.search(line)
    return m.group(1) if m else None


def scrub(text: str, hosts=()) -> str:
    """``text`` with IPv4/IPv6 addresses and the given host names replaced by ``<host>``.

    >>> scrub("NCCL INFO Bootstrap : Using eth0:172.31.94.17<0> on node-7", ["node-7"])
    'NCCL INFO Bootstrap : Using eth0:<host><0> on <host>'
    """
    v.instance("text", text, str, "a string")
    for h in sorted({h for h in hosts if h}, key=len, reverse=True):
        if len(h) >= 2:
            text = re.sub(r"(?<![\w.-])" + re.escape(h) + r"(?![\w-])", "<host>", text)
    text = _IPV4.sub("<host>", text)
    return _IPV6.sub(lambda m: "<host>" if m.group(0).count(":") >= 2 and
                     any(c.isalpha() for c in m.group(0)) else m.group(0), text)


def hosts_of(lines) -> list:
    """:func:`hosts_in` of ``(lineno, line)`` pairs whose tags are already stripped."""
    found = set()
    for _, line in lines:
        for rx in ((_RANK_HOST,) if "Rank" in line else ()) + (_INFO_HOST, _FAIL_HOST) + (
                (_PROMPT_HOST,) if "@" in line else ()) + (
                (_HOSTNAME_LINE,) if "Hostname" in line else ()):
            m = rx.search(line)
            if m and not m.group(1).isdigit():
                found.add(m.group(1))
    return sorted(found)


def hosts_in(text: str) -> list:
    """The host names a log names (``Rank`` lines, NCCL's ``host:pid:tid`` prefixes, the
    failure lines ``host: Test NCCL failure``, a shell prompt ``user@host:``, RCCL's
    ``Hostname :``), so :func:`scrub` can blank them before a line is shown back."""
    v.instance("text", text, str, "a string")
    return hosts_of((n, strip_tags(x)) for n, x in enumerate(text.splitlines(), 1))
