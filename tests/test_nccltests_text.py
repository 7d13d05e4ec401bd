"""The text layer of the log checker (interlib.nccltests.text): bytes to text, launcher tags,
the program a line names, host names found and blanked. Each rule alone, on lines written
the way the launchers and NCCL print them (OpenMPI's ``--tag-output`` ``[1,0]<stdout>:``,
mpirun/torchrun ``[0]``, Slurm ``srun --label`` ``0:``; NCCL's ``host:pid:tid [dev] NCCL
INFO`` prefix; nccl-tests' ``#  Rank  0 Group  0 Pid ... on HOST device ...`` and its
``HOST: Test NCCL failure`` line; RCCL's ``Hostname :``), expected outputs by hand.
"""
from __future__ import annotations

import pytest

from interlib.nccltests.text import (decode, hosts_in, is_nccl_line, normalise, program_in,
                                     scrub, strip_tags)

LINE = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592"


# ----------------------------------------------------------------------------- decode

@pytest.mark.parametrize("data", [
    LINE.encode("utf-16"),                              # BOM + little-endian (PowerShell)
    b"\xfe\xff" + LINE.encode("utf-16-be"),             # BOM + big-endian
    b"\xef\xbb\xbf" + LINE.encode("utf-8"),             # UTF-8 with a BOM: the BOM dropped
    LINE.encode("utf-16-le"),                           # no BOM: every other byte zero
    LINE.encode("utf-16-be"),
    LINE.encode("utf-8"),
    bytearray(LINE.encode("utf-8")),
])
def test_decode_every_encoding_a_saved_log_comes_in(data):
    assert decode(data) == LINE


def test_decode_short_and_undecodable_bytes():
    # fewer than 8 bytes: not enough to call it UTF-16, read as UTF-8
    assert decode(b"a\x00b\x00") == "a\x00b\x00"
    assert decode("abcd".encode("utf-16-le")) == "abcd"        # 8 bytes: enough
    assert decode("abcd".encode("utf-16-be")) == "abcd"
    assert decode(b"size \xff\xfe") == "size \ufffd\ufffd"
    assert decode(b"\xef\xbb\xbfx\xff") == "x\ufffd"
    assert decode(b"\xff\xfea\x00\x00\xd8") == "a\ufffd"        # a lone surrogate


def test_decode_utf16_needs_more_than_nine_zero_bytes_in_ten():
    """'€' (U+20AC) has a non-zero high byte: 1 of 10 characters -> 90 % zeros, not above
    the 0.9 rule, read as UTF-8; 1 of 20 -> 95 %, UTF-16."""
    ten, twenty = "€" + "a" * 9, "€" + "a" * 19
    assert decode(ten.encode("utf-16-le")) != ten
    assert decode(twenty.encode("utf-16-le")) == twenty
    assert decode(ten.encode("utf-16-be")) != ten
    assert decode(twenty.encode("utf-16-be")) == twenty


def test_decode_only_looks_at_the_head():
    """The first 4000 bytes decide: a UTF-16 head followed by anything is UTF-16."""
    text = "a" * 2000 + "b" * 100
    assert decode(text.encode("utf-16-le")) == text
    utf8_head = ("a" * 4000).encode() + "a".encode("utf-16-le") * 10_000
    assert decode(utf8_head).startswith("a" * 4000 + "a\x00")


def test_decode_refuses_text():
    with pytest.raises(ValueError, match="^data="):
        decode(LINE)


# -------------------------------------------------------------------------- normalise

def test_normalise_undoes_utf16_read_as_utf8():
    le = "".join(c + "\x00" for c in LINE)
    assert normalise(le) == (LINE, "the text was UTF-16 (as Windows PowerShell saves it), "
                                   "read as such")
    assert normalise("\ufffd\ufffd" + le) == normalise(le)    # its BOM as two U+FFFD
    assert normalise("\ufeff" + le) == normalise(le)
    be = "".join("\x00" + c for c in LINE)
    assert normalise(be) == (LINE, "the text was UTF-16 (big-endian), read as such")


def test_normalise_leaves_other_text_alone():
    assert normalise(LINE) == (LINE, None)
    assert normalise("\ufeff\ufeff" + LINE) == (LINE, None)
    assert normalise("\ufffd\ufffd" + LINE) == ("\ufffd\ufffd" + LINE, None)  # no NUL near
    assert normalise("a\x00b\x00") == ("a\x00b\x00", None)        # fewer than 8 characters
    assert normalise("a\x00b\x00c\x00d\x00") == ("abcd", normalise("a\x00" * 8)[1])
    # one NUL in ten is not UTF-16
    assert normalise("a" * 18 + "\x00a")[1] is None


# ------------------------------------------------------------------------- strip_tags

@pytest.mark.parametrize("line, want", [
    ("[1,0]<stdout>:#  Rank  0 Group  0 Pid  12 on node-a device  0 [0x1b] NVIDIA H100",
     "#  Rank  0 Group  0 Pid  12 on node-a device  0 [0x1b] NVIDIA H100"),
    ("[1,12]<stderr>: 8  2  float  sum  -1  5.1  0.00  0.00  0",
     "8  2  float  sum  -1  5.1  0.00  0.00  0"),
    ("[0]   1048576   262144  float  sum  -1[0]  1626.5  0.64  1.24  0",
     "  1048576   262144  float  sum  -1  1626.5  0.64  1.24  0"),
    ("0: #  Rank  0 Group  0 Pid  12 on node-a device  0 [0x1b] NVIDIA H100",
     "#  Rank  0 Group  0 Pid  12 on node-a device  0 [0x1b] NVIDIA H100"),
    ("12:     1048576   262144  float  sum  -1", "    1048576   262144  float  sum  -1"),
    # NCCL's own lines keep their device tags [0] and 1[21000]
    ("node-a:12:34 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
     "node-a:12:34 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"),
    ("[3] node-a:12:34 [3] NCCL INFO Ring 00 : 3 -> 0 [receive] via NET/IB/0",
     "node-a:12:34 [3] NCCL INFO Ring 00 : 3 -> 0 [receive] via NET/IB/0"),
    # a Rank line keeps its bracketed numbers
    ("#  Rank  1 Group  0 Pid  13 on node-a device  1 [1] NVIDIA H100",
     "#  Rank  1 Group  0 Pid  13 on node-a device  1 [1] NVIDIA H100"),
    # a time of day is no Slurm label; a line without tags is unchanged
    ("12:34:56 up 3 days", "12:34:56 up 3 days"),
    ("# Avg bus bandwidth    : 1.57614", "# Avg bus bandwidth    : 1.57614"),
])
def test_strip_tags(line, want):
    assert strip_tags(line) == want


def test_is_nccl_line():
    for word in ("INFO", "WARN", "TRACE", "ERROR"):
        assert is_nccl_line(f"node-a:1:2 [0] NCCL {word} x")
    assert not is_nccl_line("node-a:1:2 [0] NCCL DEBUG x")
    assert not is_nccl_line("MYNCCL INFO x") and not is_nccl_line("NCCL INFOS")


# ------------------------------------------------------------------------- program_in

@pytest.mark.parametrize("line, want", [
    ("/opt/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1", "all_reduce_perf"),
    ("all_reduce_perf_mpi -b 8", "all_reduce_perf"),             # NGC's MPI build
    ("./alltoall_perf_nompi", "alltoall_perf"),
    ("# Collective test concluded: reduce_scatter_perf", "reduce_scatter_perf"),
    ("sendrecv_perf", "sendrecv_perf"),
    ("all_reduce_perfx -b 8", None), ("no program", None),
])
def test_program_in(line, want):
    assert program_in(line) == want


# ------------------------------------------------------------------------------ scrub

def test_scrub_blanks_addresses_and_the_given_hosts():
    assert scrub("NCCL INFO Bootstrap : Using eth0:172.31.94.17<0> on node-7", ["node-7"]) \
        == "NCCL INFO Bootstrap : Using eth0:<host><0> on <host>"
    assert scrub("NET/IB : Using [0]mlx5_0:1/RoCE fe80::1%eth0 and 2001:db8::7") == \
        "NET/IB : Using [0]mlx5_0:1/RoCE <host> and <host>"
    # a time of day has colons but no letter: not an address
    assert scrub("12:34:56 started") == "12:34:56 started"
    # the longer name first; a name inside another word or name is left
    assert scrub("node-1 node-10 mynode-1 node-1.x", ["node-1", "node-10"]) == \
        "<host> <host> mynode-1 <host>.x"
    # one-letter and empty names are not blanked (they would blank every word)
    assert scrub("a b node", ["a", "", None, "node"]) == "a b <host>"


def test_scrub_refuses_bytes():
    for f in (scrub, hosts_in):
        with pytest.raises(ValueError) as e:
            f(b"x")
        assert str(e.value) == "text=b'x' must be a string"
    with pytest.raises(ValueError) as e:
        decode("x")
    assert str(e.value) == "data='x' must be the log's bytes"


# --------------------------------------------------------------------------- hosts_in

def test_hosts_in_every_line_that_names_one():
    log = "\n".join([
        "[1,0]<stdout>:#  Rank  0 Group  0 Pid  12 on node-a device  0 [0x1b] NVIDIA H100",
        "node-b:123:456 [0] NCCL INFO Bootstrap : Using eth0",
        "node-c: Test NCCL failure common.cu:1285 'internal error'",
        " .. node-d pid 123: Test failure common.cu:393",
        "user@node-e:~$ mpirun -np 16 all_reduce_perf",
        "(venv) user@node-f:/work$ ./all_reduce_perf",
        "Hostname : node-g",
        "123:456:789 [0] NCCL INFO digits only: not a host name",
        "#  Rank  1 Group  0 Pid  13 on node-a device  1 [0x1c] NVIDIA H100",
    ])
    assert hosts_in(log) == ["node-a", "node-b", "node-c", "node-d", "node-e", "node-f",
                             "node-g"]
    assert hosts_in("#  1048576  262144  float  sum  -1  85.58") == []
