"""The text parser's rarer paths (interlib.nccltests.logs), each on a short log written the
way nccl-tests prints it (NVIDIA/nccl-tests a0b82b2 ``src/common.cu``/``util.cu``; releases
before 2.11 print a maximum ``error`` instead of ``#wrong``, and before that no ``root``
column): rows pasted without a header in the older layout, a second test after a first
one's summary lines or after a smaller size, tables whose headers interleave, the rank
count from NCCL's ``nranks`` lines, elided rows, and a test chosen by name. The real logs
of the corpus are in test_nccltests_corpus.py; expected values are the logs' own numbers.
"""
from __future__ import annotations

import pytest

from interlib import nccltests as N

HEADER = ("#       size         count      type   redop    root     time   algbw   busbw "
          "#wrong     time   algbw   busbw #wrong\n")


def row(size, t=85.58, algbw=12.25, busbw=22.97, redop="sum", root="-1", wrong="0"):
    return (f"  {size:>10} {size // 4:>12}   float {redop:>7} {root:>7} {t:>8} {algbw:>7} "
            f"{busbw:>7} {wrong:>6} {t:>8} {algbw:>7} {busbw:>7} {wrong:>6}\n")


def ranks(n, host="node0"):
    return "".join(f"#  Rank {i:2d} Group  0 Pid {1000 + i:6d} on {host:>10} device {i % 8:2d} "
                   f"[0x{i:02x}] NVIDIA H100 80GB HBM3\n" for i in range(n))


NTHREAD = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5\n"


def test_headerless_rows_in_the_layout_before_root():
    """12 columns, the fourth a redop word: size count type redop time algbw busbw error
    x 2 (nccl-tests before 2.11 without root): the error column is a maximum error."""
    text = ("  1048576  262144  float  sum  85.58  12.25  22.97  0e+00  84.50  12.41  23.27  "
            "0e+00\n"
            "  2097152  524288  float  sum  95.00  22.07  41.39  1e-07  94.00  22.31  41.83  "
            "0e+00\n")
    run = N.parse(text, collective="all_reduce")
    r0, r1 = run.rows
    assert (r0.size_bytes, r0.wrong_out, r0.error_out, r1.error_out, r1.error_in) == \
        (1048576, None, 0.0, 1e-07, 0.0)
    assert r1.time_in_s == pytest.approx(94.00e-6) and r1.busbw_out == pytest.approx(41.39e9)
    assert run.notes[-1] == ("rows pasted without their table header: read in an older "
                             "nccl-tests layout (size count type redop time algbw busbw error "
                             "x 2)")
    # the same width with whole numbers there: a #wrong count, not an error
    whole = text.replace("0e+00", "0").replace("1e-07", "0")
    assert [r.wrong_out for r in N.parse(whole, collective="all_reduce").rows] == [0, 0]


# nccl#340 (https://github.com/NVIDIA/nccl/issues/340, AlexWang1900, 2020): an
# all_gather_perf -g 2 of 2019-2020 on two RTX 2080 Ti, rows pasted without the header, in
# the layout of tests without a reduction (no redop, no root; 'error' columns). Three of its
# rows, as published.
NCCL340_ROWS = (
    "       65536          8192   float    16.57    1.98    1.98  0e+00    13.83    2.37    2.37  0e+00\n"
    "     1048576        131072   float    47.38   11.06   11.06  0e+00    46.84   11.19   11.19  0e+00\n"
    "   134217728      16777216   float   3298.6   20.34   20.34  0e+00   3070.3   21.86   21.86  0e+00\n")


def test_headerless_rows_in_the_older_layout_without_a_reduction():
    """11 columns, the fourth a time: size count type time algbw busbw error x 2. Read cell
    by cell as printed; 2 ranks from size / (count x 4 bytes); the note names the layout used
    (it said 'the current layout' for every headerless paste before session 6)."""
    run = N.parse(NCCL340_ROWS, collective="all_gather")
    assert run.sizes == [65536, 1048576, 134217728] and run.ranks == 2
    r0, r2 = run.rows[0], run.rows[-1]
    assert r0.time_out_s == pytest.approx(16.57e-6) and r0.time_in_s == pytest.approx(13.83e-6)
    assert (r0.algbw_out, r0.busbw_out, r0.busbw_in) == (
        pytest.approx(1.98e9), pytest.approx(1.98e9), pytest.approx(2.37e9))
    assert r2.time_out_s == pytest.approx(3298.6e-6) and r2.busbw_in == pytest.approx(21.86e9)
    assert (r0.wrong_out, r0.error_out, r2.error_in) == (None, 0.0, 0.0)
    assert run.notes[-1] == ("rows pasted without their table header: read in an older "
                             "nccl-tests layout (size count type time algbw busbw error x 2)")
    # eleven cells whose fourth is not a number are no such row: the current layout's
    # message, which says what it expected
    bad = NCCL340_ROWS.splitlines()[0].replace("16.57", "sum") + "\n"
    with pytest.raises(ValueError, match="^line 1: expected a results row of 13 columns"):
        N.parse(bad, collective="all_gather")


# nccl-tests 2.19 (NVIDIA/nccl-tests a0b82b2, src/util.cu writeBenchmarkLineBody,
# writePerIterReport, writeTimestamp): -I 1 prints i_min i_max i_p99 i_cv% after each
# half ("  %7s" each), -S 1 a "%Y-%m-%d %H:%M:%S" timestamp after the row. Rows typed in
# those formats (no published log of either option was found).
PER_ITER_ROW = ("     1048576        262144     float     sum      -1    60.00   17.48   30.58"
                "       0    58.20    66.00    65.40     2.50    61.00   17.19   30.08       0"
                "    59.20    67.00    66.40     2.40\n")
STAMPED_ROW = ("     1048576        262144     float     sum      -1    60.00   17.48   30.58"
               "       0    61.00   17.19   30.08       0  2026-11-29 10:00:00\n")
PER_ITER_HEADER = (
    "#       size         count      type   redop    root     time   algbw   busbw  #wrong"
    "    i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max"
    "    i_p99    i_cv% \n")


@pytest.mark.parametrize("text, layout", [
    (PER_ITER_ROW, "the current nccl-tests layout with -I 1 (size count type redop root time "
                   "algbw busbw #wrong i_min i_max i_p99 i_cv% x 2)"),
    (PER_ITER_HEADER + PER_ITER_ROW, None),
    (STAMPED_ROW, "the current nccl-tests layout with -S 1 (size count type redop root time "
                  "algbw busbw #wrong x 2 timestamp)"),
])
def test_rows_of_nccl_tests_2_19_options_are_read_with_or_without_their_header(text, layout):
    """The out-of-place and in-place cells are the ones printed, whatever follows them
    (they were refused as 'truncated or two lines ran together' without the header)."""
    run = N.parse(text, collective="all_reduce")
    (r,) = run.rows
    assert (r.size_bytes, r.wrong_out, r.wrong_in) == (1048576, 0, 0)
    assert (r.time_out_s, r.time_in_s) == (pytest.approx(60.00e-6), pytest.approx(61.00e-6))
    assert (r.algbw_out, r.busbw_out, r.algbw_in, r.busbw_in) == (
        pytest.approx(17.48e9), pytest.approx(30.58e9), pytest.approx(17.19e9),
        pytest.approx(30.08e9))
    headerless = [n for n in run.notes if n.startswith("rows pasted without")]
    assert headerless == ([f"rows pasted without their table header: read in {layout}"]
                          if layout else [])


def test_the_headerless_note_names_the_layout_of_the_first_row_read():
    """A paste whose rows change width (a current-layout row, then a timestamped one) is read
    row by row; the note names the layout its first row was read in."""
    run = N.parse(row(1048576) + STAMPED_ROW.replace("1048576        262144",
                                                     "2097152        524288"),
                  collective="all_reduce")
    assert run.sizes == [1048576, 2097152]
    assert run.notes[-1] == ("rows pasted without their table header: read in the current "
                             "nccl-tests layout (size count type redop root time algbw busbw "
                             "#wrong x 2)")


def test_headerless_rows_in_the_current_layout():
    run = N.parse(row(1048576) + row(2097152), collective="all_reduce")
    assert run.sizes == [1048576, 2097152] and run.rows[0].wrong_out == 0
    assert run.notes[-1] == ("rows pasted without their table header: read in the current "
                             "nccl-tests layout (size count type redop root time algbw busbw "
                             "#wrong x 2)")


def test_a_smaller_size_starts_a_second_headerless_test():
    text = row(1048576) + row(2097152) + row(1048576) + row(2097152)
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce")
    assert str(e.value).startswith("the file holds 2 tests: 1: a test (rows on lines 1-2, 2 "
                                   "sizes); 2: a test (rows on lines 3-4, 2 sizes). Choose one "
                                   "with test=")
    assert N.parse(text, collective="all_reduce", test=2).sizes == [1048576, 2097152]


def test_rows_after_a_summary_are_a_second_test():
    one = HEADER + row(1048576) + "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : " \
                                  "22.97\n"
    text = one + row(4194304) + row(8388608)
    with pytest.raises(ValueError, match="^the file holds 2 tests: "):
        N.parse(text, collective="all_reduce")
    first = N.parse(text, collective="all_reduce", test=1)
    assert (first.sizes, first.out_of_bounds, first.avg_busbw) == ([1048576], 0, 22.97e9)
    second = N.parse(text, collective="all_reduce", test="2")
    assert (second.sizes, second.out_of_bounds, second.avg_busbw, second.program) == \
        ([4194304, 8388608], None, None, None)            # no program named: None


def test_two_headers_before_any_row_are_processes_writing_at_once():
    text = NTHREAD + HEADER + HEADER + row(1048576) + row(1048576)
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce")
    assert str(e.value).startswith("nccl-tests was built without MPI: the log has 1 "
                                   "'# nThread' header and every process")


def test_ranks_from_ncclss_nranks_lines_and_what_the_columns_suggest():
    nccl = ("node0:1:2 [0] NCCL INFO comm 0x1 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1000"
            " commId 0x2 - Init COMPLETE\n")
    run = N.parse(NTHREAD + nccl + HEADER + row(1048576) + row(2097152),
                  collective="all_reduce")
    # the busbw column says 22.97 / 12.25 = 1.875 = 2 x 15/16: 16 ranks, as NCCL says
    assert run.ranks == 16 and run.notes == ("16 ranks from NCCL's 'nranks' lines",)
    # NCCL's count wins over the columns' (1.75 = 2 x 7/8 would say 8)
    run8 = N.parse(NTHREAD + nccl + HEADER + row(1048576, busbw=21.44),
                   collective="all_reduce")
    assert run8.ranks == 16 and run8.notes == ("16 ranks from NCCL's 'nranks' lines",)


def test_elided_rows_are_said():
    text = NTHREAD + ranks(8) + HEADER + row(1048576, busbw=21.44) + "...\n" \
        + row(1073741824, busbw=21.44)
    run = N.parse(text, collective="all_reduce")
    assert run.sizes == [1048576, 1073741824]
    assert run.notes == ("rows are elided ('...' on line 12): only the printed rows are "
                         "read",)
    assert (run.ranks, run.nodes, run.gpus_per_node) == (8, 1, 8)


def test_a_test_chosen_by_a_word_of_its_name():
    a = NTHREAD + "# Collective test starting: all_reduce_perf\n" + HEADER + \
        row(1048576, busbw=21.44) + "# Avg bus bandwidth    : 21.44\n"
    b = NTHREAD + "# Collective test starting: all_gather_perf\n" + HEADER + \
        row(1048576, redop="none", busbw=10.72) + "# Avg bus bandwidth    : 10.72\n"
    text = a + b
    with pytest.raises(ValueError) as e:
        N.parse(text)
    assert str(e.value) == (
        "line 8: a second results table starts here (the first began on line 3); the file "
        "holds 2 tests: 1: all_reduce_perf (rows on lines 4-4, 1 size); 2: all_gather_perf "
        "(rows on lines 9-9, 1 size). Choose one with test= (its number, or a word of its "
        "name)")
    assert N.parse(text, test="gather").collective == "all_gather"
    assert N.parse(text, test=" ALL_REDUCE ").collective == "all_reduce"
    for bad, how in (("perf", "matches several"), ("broadcast", "matches none"),
                     ("3", "matches none"), ("", "matches none")):
        with pytest.raises(ValueError) as e:
            N.parse(text, test=bad)
        assert str(e.value).startswith(f"test={bad!r} {how} of the 2 tests in the file: 1: ")


def test_headerless_rows_of_twelve_columns_with_a_number_fourth_are_the_current_layout():
    """12 columns whose fourth is a number: the current layout with a blank redop (its
    root column fourth), not the layout before root (a redop word fourth). The first row
    is the real one of tests/fixtures/nccltests/v100pcie_2x1_broadcast_socket_issue82.log
    (broadcast_perf, root 0, bandwidths 0.00 at 8 B); the second is the same columns at
    1 MiB with the bandwidths a broadcast prints (busbw = algbw = 1 MiB / 100 us = 10.49
    GB/s). Read so, the root and the 1:1 busbw/algbw say broadcast."""
    real = ("           8             2   float       0    45.82    0.00    0.00    N/A    "
            "38.17    0.00    0.00    N/A\n")
    mib = ("     1048576        262144   float       0   100.00   10.49   10.49    N/A   "
           "100.00   10.49   10.49    N/A\n")
    run = N.parse(real + mib)
    assert run.collective == "broadcast"
    assert run.notes[0] == ("collective broadcast inferred: broadcast from busbw / algbw, "
                            "the count column and the redop and root columns")
    assert [(r.size_bytes, r.time_out_s * 1e6, r.busbw_in, r.wrong_out, r.error_out)
            for r in run.rows] == [(8, pytest.approx(45.82), 0.0, None, None),
                                   (1048576, pytest.approx(100.0), 10.49e9, None, None)]


def test_headerless_error_with_a_decimal_point_is_a_maximum_error():
    """In the layout before root the error column is a maximum error: a value with a
    decimal point and no exponent (0.5) is read as one, not refused as a fractional
    #wrong count."""
    text = ("  1048576  262144  float  sum  85.58  12.25  22.97  0.5  84.50  12.41  23.27  "
            "0.25\n")
    r = N.parse(text, collective="all_reduce").rows[0]
    assert (r.error_out, r.error_in, r.wrong_out, r.wrong_in) == (0.5, 0.25, None, None)


def _init(n):
    return (f"node0:1:2 [0] NCCL INFO comm 0x1 rank 0 nranks {n} cudaDev 0 nvmlDev 0 busId "
            "1000 commId 0x2 - Init COMPLETE\n")


@pytest.mark.parametrize("first, second, test, init_first", [
    (8, 16, 1, False), (16, 8, 2, False),
    # the first run's Init line before its '# nThread' (another rank's output first): the
    # file's first line is the first test's
    (8, 16, 1, "first"),
    # ... or after its table (another rank's output last): still the first test's
    (8, 16, 1, "last"),
    # each run under a label line ('=== run 2 ==='), the second's Init line right after
    # its label and the first's after its table
    (8, 16, 1, "labels")])
def test_each_test_of_a_file_takes_the_rank_count_of_its_own_nccl_lines(first, second,
                                                                          test, init_first):
    """Two runs appended to one file, at 8 and 16 ranks, each with NCCL's Init line after
    its '# nThread' header: the test chosen takes its own count, not the file's largest
    (the busbw/algbw column of each says the same: 1.75 = 2 x 7/8, 1.875 = 2 x 15/16)."""
    busbw = {8: 21.44, 16: 22.97}
    text = "".join(NTHREAD + _init(n) + HEADER + row(1048576, busbw=busbw[n])
                   + f"# Avg bus bandwidth    : {busbw[n]}\n" for n in (first, second))
    if init_first == "first":
        text = _init(first) + text.replace(_init(first), "", 1)
    elif init_first == "last":
        avg = f"# Avg bus bandwidth    : {busbw[first]}\n"
        text = text.replace(_init(first), "", 1).replace(avg, avg + _init(first), 1)
    elif init_first == "labels":
        avg = f"# Avg bus bandwidth    : {busbw[first]}\n"
        text = ("=== run 1 ===\n" + text.replace(_init(first), "", 1).replace(
            avg, avg + _init(first) + "=== run 2 ===\n" + _init(second), 1).replace(
            NTHREAD + _init(second), NTHREAD, 1))
    run = N.parse(text, collective="all_reduce", test=test)
    want = (first, second)[test - 1]
    assert run.ranks == want and run.notes == (f"{want} ranks from NCCL's 'nranks' lines",)


FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures" / "nccltests"
INFERRED = ("collective all_reduce inferred: all_reduce from busbw / algbw, the count column "
            "and the redop and root columns")
HOSTS = ": the host count is not used"


@pytest.mark.parametrize("name, cut, ranks, notes", [
    # CoreWeave's '2 Racks' paste: its one Rank line is rank 143; every row's busbw/algbw is
    # 2 x 127/128: 128 ranks, and the note says what the Rank line would have given
    ("coreweave_gb200_nvl72_2racks_all_reduce.log", False, 128, (
        INFERRED, "128 ranks from busbw / algbw = 2 (n - 1) / n (the highest Rank line, 143, "
        "would give 144: the columns are used)",
        "the Rank lines are not one per rank (1 line, ranks up to 143)" + HOSTS)),
    # '20 Racks': one Rank line, 1439; at 1,440 ranks the two-decimal columns cannot tell
    # the count, so the Rank line gives it
    ("coreweave_gb200_nvl72_20racks_all_reduce.log", False, 1440, (
        INFERRED, "1440 ranks from the highest Rank line (1439) + 1",
        "the Rank lines are not one per rank (1 line, ranks up to 1439)" + HOSTS)),
    # Oracle's two trays: Rank lines 0, 1, '...', 6, 7; the columns say 8 (2 x 7/8)
    ("oci_gb300_2trays_all_reduce_elided.log", False, 8, (
        "8 ranks from busbw / algbw = 2 (n - 1) / n",
        "the Rank lines are elided ('...')" + HOSTS)),
    # the same paste without its '...' line (a paste that lost it): four Rank lines that
    # are not ranks 0-3
    ("oci_gb300_2trays_all_reduce_elided.log", True, 8, (
        "8 ranks from busbw / algbw = 2 (n - 1) / n",
        "the Rank lines are not one per rank (4 lines, ranks up to 7)" + HOSTS)),
])
def test_the_rank_count_notes_whole(name, cut, ranks, notes):
    raw = (FIXTURES / name).read_text()
    if cut:
        raw = "".join(x for x in raw.splitlines(keepends=True) if x.strip() != "...")
    run = N.parse(raw)
    assert (run.ranks, run.notes) == (ranks, notes)


def test_the_columns_that_fit_two_collectives_are_named():
    """Google's A3 High all-gather rows (no program name): all-gather and all-to-all print
    the same columns, so the note names both and asks."""
    run = N.parse((FIXTURES / "gke_a3high_h100_2x8_all_gather_tcpx_rows.log").read_text())
    assert run.collective is None
    assert run.notes == ("16 ranks from size / (count x word size)",
                         "the columns fit all_gather and all_to_all alike: say which with "
                         "collective=")
    # the Run carries them, and compare names them (its first as the example)
    assert run.candidates == ("all_gather", "all_to_all")
    with pytest.raises(ValueError) as e:
        N.compare(run, "dgx-h100")
    assert str(e.value) == ("the log does not say which collective it measured (the columns "
                            "fit all_gather and all_to_all alike): give collective= to parse "
                            "(e.g. 'all_gather')")
    # once the collective is stated, or the columns decide, there are none to choose from
    assert N.parse((FIXTURES / "gke_a3high_h100_2x8_all_gather_tcpx_rows.log").read_text(),
                   collective="all_gather").candidates == ()
    inferred = N.parse((FIXTURES / "aws_p5_h100_2x8_all_reduce_slurm_rows.log").read_text())
    assert inferred.collective == "all_reduce" and inferred.candidates == ()


def test_the_device_is_rank_0s_or_the_only_one_named():
    """Run.device is the GPU rank 0 reports, wherever its line is; with no rank 0 line,
    the one Rank line there is (CoreWeave's one-rack paste: rank 71 only)."""
    mixed = ("#  Rank  1 Group  0 Pid   1001 on      node0 device  1 [0x01] NVIDIA "
             "A100-SXM4-80GB\n"
             "#  Rank  0 Group  0 Pid   1000 on      node0 device  0 [0x00] NVIDIA H100 "
             "80GB HBM3\n")
    run = N.parse(NTHREAD + mixed + HEADER + row(1048576, busbw=12.25),
                  collective="all_reduce")
    assert run.device == "NVIDIA H100 80GB HBM3"
    one = N.parse((FIXTURES / "coreweave_gb200_nvl72_1rack_all_reduce.log").read_text())
    assert one.device == "NVIDIA Graphics Device"


def test_an_rccl_run_is_amd_by_its_library_or_by_rccl_tests():
    """Without a GPU name the vendor comes from the library: the MI355X paste (Rank lines
    without device names) from its 'RCCL version' line, even cut below rccl-tests' own
    version line; the MI325X grep output (no Rank lines, no library line) from the
    rccl-tests path in its commands."""
    raw = (FIXTURES / "amd_mi355x_2x8_all_reduce_pollara.log").read_text()
    cut = "".join(x for x in raw.splitlines(keepends=True) if "rccl-tests" not in x)
    assert cut.count("\n") == raw.count("\n") - 1
    run = N.parse(cut)
    assert (run.device, run.setup.library.value, run.vendor) == (None, "RCCL", "AMD")
    grep = N.parse((FIXTURES / "amd_mi325x_1to8x8_all_reduce_grep.log").read_text(), test=1)
    assert (grep.device, grep.setup.library, grep.vendor) == (None, None, "AMD")


def test_a_program_outside_nccl_tests_list_is_named_without_its_mpi_suffix():
    """A fork's program built with MPI ('my_allreduce_perf_mpi', not one nccl-tests ships)
    keeps its own name in the list of tests, without the '_mpi' a build adds."""
    a = NTHREAD + "# Collective test starting: my_allreduce_perf_mpi\n" + HEADER + \
        row(1048576, busbw=21.44) + "# Avg bus bandwidth    : 21.44\n"
    b = NTHREAD + "# Collective test starting: all_reduce_perf_mpi\n" + HEADER + \
        row(2097152, busbw=21.44) + "# Avg bus bandwidth    : 21.44\n"
    with pytest.raises(ValueError) as e:
        N.parse(a + b, collective="all_reduce")
    assert "the file holds 2 tests: 1: my_allreduce_perf (rows on lines 4-4, 1 size); " \
           "2: all_reduce_perf (rows on lines 9-9, 1 size)." in str(e.value)


def test_a_test_chosen_by_a_word_of_a_label_with_a_colon():
    """Labels name the tests ('=== NCCL_ALGO: Ring ===', as a script printing its settings
    writes them): a word after the label's own colon still chooses; a word both share
    matches several."""
    a = "=== NCCL_ALGO: Ring ===\n" + NTHREAD + HEADER + row(1048576, busbw=21.44) + \
        "# Avg bus bandwidth    : 21.44\n"
    b = "=== NCCL_ALGO: Tree ===\n" + NTHREAD + HEADER + row(2097152, busbw=21.44) + \
        "# Avg bus bandwidth    : 21.44\n"
    text = a + b
    assert N.parse(text, collective="all_reduce", test="tree").sizes == [2097152]
    assert N.parse(text, collective="all_reduce", test="ring").sizes == [1048576]
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce", test="nccl_algo")
    assert str(e.value) == ("test='nccl_algo' matches several of the 2 tests in the file: "
                            "1: a test, 'NCCL_ALGO: Ring' (rows on lines 4-4, 1 size); 2: a "
                            "test, 'NCCL_ALGO: Tree' (rows on lines 9-9, 1 size)")


def test_a_test_asked_of_a_file_of_one_test():
    text = NTHREAD + HEADER + row(1048576, busbw=21.44)
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce", test="broadcast")
    assert str(e.value) == ("test='broadcast' matches none of the 1 test in the file: 1: a "
                            "test (rows on lines 3-3, 1 size)")


def test_a_row_too_long_for_its_header_is_refused_unless_the_header_has_more_columns():
    """Two rows run together are refused with the header's columns named; a header with a
    column after the in-place #wrong (recent releases' timestamp or cputime) admits the
    longer rows."""
    long = row(1048576).rstrip("\n") + "      7\n"
    with pytest.raises(ValueError) as e:
        N.parse(HEADER + long, collective="all_reduce")
    assert str(e.value) == (
        "line 2: expected a results row of 13 columns (size count type redop root time algbw "
        "busbw #wrong time algbw busbw #wrong), found 14: the log looks truncated or two "
        "lines ran together")
    wide = HEADER.rstrip("\n") + "  timestamp\n"
    run = N.parse(wide + long, collective="all_reduce")
    assert run.sizes == [1048576] and run.rows[0].wrong_in == 0


def test_a_wrong_count_that_is_not_a_number_is_named():
    bad = row(1048576, wrong="x1")
    with pytest.raises(ValueError) as e:
        N.parse(HEADER + bad, collective="all_reduce")
    assert str(e.value) == ("line 2: expected a number for the out-of-place #wrong, found "
                            "'x1'")


def test_digit_symbols_that_are_no_number_are_no_row_and_no_test_number():
    """'²' passes str.isdigit() but int() refuses it: a line starting with such symbols is
    no results row (it was read as one, and the reader got Python's 'invalid literal for
    int()'), and test='²' is a word matching no test (the same error before)."""
    bad = row(1048576).replace("1048576", "²", 1).replace("262144", "³", 1)
    with pytest.raises(ValueError) as e:
        N.parse(HEADER + bad, collective="all_reduce")
    assert str(e.value) == ("line 1: the table header is followed by no result rows: the "
                            "log looks truncated (the run stopped, or the paste ends there)")
    text = row(1048576) + row(2097152) + row(1048576)
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce", test="²")
    assert str(e.value).startswith("test='²' matches none of the 2 tests in the file: 1: ")
    # decimal digits of other scripts are numbers to int(): test='٢' is the second test
    assert N.parse(text, collective="all_reduce", test="٢").sizes == [1048576]


@pytest.mark.parametrize("column, what", [
    (5, "the out-of-place time (us)"), (6, "the out-of-place algbw (GB/s)"),
    (7, "the out-of-place busbw (GB/s)"), (8, "the out-of-place #wrong"),
    (9, "the in-place time (us)"), (10, "the in-place algbw (GB/s)"),
    (11, "the in-place busbw (GB/s)"), (12, "the in-place #wrong"),
])
def test_each_cell_that_is_not_a_number_is_named(column, what):
    """A row of nccl-tests' current layout with one cell garbled: the message names the
    line, the cell and what was found."""
    toks = row(1048576).split()
    toks[column] = "1.2.3"
    with pytest.raises(ValueError) as e:
        N.parse(HEADER + "  ".join(toks) + "\n", collective="all_reduce")
    assert str(e.value) == f"line 2: expected a number for {what}, found '1.2.3'"


def test_a_header_without_a_space_after_its_hash():
    """'#size count type ...' (a paste that lost the spaces after '#') is the same header."""
    run = N.parse(HEADER.replace("#       size", "#size") + row(1048576),
                  collective="all_reduce")
    assert run.sizes == [1048576] and run.rows[0].busbw_out == pytest.approx(22.97e9)


def test_hypercube_rows_have_a_blank_redop():
    """hypercube_perf prints no redop (the current header, one column fewer in each row):
    with busbw = algbw and no root that is hypercube, inferred from the columns (its count
    is size / (ranks x 4 bytes), as test_nccltests_infer's hypercube cells: 8 ranks)."""
    rows = "".join(f"  {s:>10} {s // 32:>12}   float      -1    100.00  {s / 1e5:6.2f}  "
                   f"{s / 1e5:6.2f}      0    100.00  {s / 1e5:6.2f}  "
                   f"{s / 1e5:6.2f}      0\n" for s in (1048576, 2097152))
    run = N.parse(HEADER + rows)
    assert (run.collective, run.ranks, run.sizes) == ("hypercube", 8, [1048576, 2097152])


@pytest.mark.parametrize("header, found", [
    # algbw and busbw swapped
    (HEADER.replace("algbw   busbw #wrong     time", "busbw   algbw #wrong     time", 1),
     "line 1: expected 'time algbw busbw #wrong' (or 'error') in the table header, found "
     "'time busbw algbw #wrong'"),
    # a column nccl-tests never printed between type and the times
    (HEADER.replace("redop", "   op", 1),
     "line 1: expected 'size count type [redop] [root]' before the times, found 'size count "
     "type op root'"),
])
def test_a_garbled_table_header_is_named(header, found):
    with pytest.raises(ValueError) as e:
        N.parse(header + row(1048576), collective="all_reduce")
    assert str(e.value) == found


def test_launcher_lines_between_rows_are_not_rows():
    """'srun: 2 tasks started' has a number second, not first: not a row."""
    run = N.parse(HEADER + row(1048576) + "srun: 2 tasks started\n" + row(2097152),
                  collective="all_reduce")
    assert run.sizes == [1048576, 2097152]


def test_nccl_lines_before_the_header():
    """With NCCL_DEBUG=INFO another rank's NCCL lines may come before rank 0's '# nThread'
    header: they are NCCL's, not a second header."""
    nccl = "node1:7:7 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
    run = N.parse(nccl + NTHREAD + ranks(8) + HEADER + row(1048576, busbw=21.44),
                  collective="all_reduce")
    assert (run.ranks, run.sizes) == (8, [1048576])


def test_two_nthread_headers_before_any_rank_line_are_processes_writing_at_once():
    """Two '# nThread' headers before any Rank line or table: two processes each printing
    the whole test's header (a build without MPI)."""
    with pytest.raises(ValueError) as e:
        N.parse(NTHREAD + NTHREAD + HEADER + row(1048576), collective="all_reduce")
    assert str(e.value) == (
        "nccl-tests was built without MPI: the log has 2 '# nThread' headers and every "
        "process numbers its GPUs from Rank 0, so each process ran the test alone (one-rank "
        "runs print busbw 0). Rebuild with 'make MPI=1 MPI_HOME=...', run under mpirun or "
        "srun, and paste that output")


R0 = "#  Rank  0 Group  0 Pid   1000 on {h:>10} device  0 [0x00] NVIDIA H100 80GB HBM3\n"


def test_each_process_alone_with_its_own_header_rank_0_and_table():
    """Two processes of a build without MPI, each printing its header, its one Rank 0 line
    and its table (busbw 0): refused as such, not as a file of two tests."""
    one = lambda h: NTHREAD + R0.format(h=h) + HEADER + row(1048576, busbw=0.0)  # noqa: E731
    with pytest.raises(ValueError, match="^nccl-tests was built without MPI: the log has 2 "):
        N.parse(one("node0") + one("node1"), collective="all_reduce")
    # one such test and another whose Rank lines were not pasted: two tests, not that
    text = one("node0") + NTHREAD + HEADER + row(1048576)
    with pytest.raises(ValueError, match="^line 6: a second results table starts here"):
        N.parse(text, collective="all_reduce")


def test_a_sentence_naming_nthread_is_no_header():
    """Only a line in the header's shape starts a test: a pasted explanation that mentions
    nThread is text."""
    text = (NTHREAD + "(the nThread line above lists the test's arguments)\n" + ranks(8)
            + HEADER + row(1048576, busbw=21.44))
    run = N.parse(text, collective="all_reduce")
    assert (run.ranks, run.sizes) == (8, [1048576])


def test_tests_named_as_nccl_tests_prints_them():
    """nccl-tests prints '# Collective test starting: <program>' before its '# nThread'
    header: in a file of two tests each is named by the line before its own header."""
    text = "".join(f"# Collective test starting: {p}\n" + NTHREAD + HEADER
                   + row(1048576, redop=op, busbw=b) + f"# Avg bus bandwidth    : {b}\n"
                   for p, op, b in (("all_reduce_perf", "sum", 21.44),
                                    ("all_gather_perf", "none", 10.72)))
    with pytest.raises(ValueError) as e:
        N.parse(text)
    assert "the file holds 2 tests: 1: all_reduce_perf (rows on lines 4-4, 1 size); 2: " \
           "all_gather_perf (rows on lines 9-9, 1 size)." in str(e.value)
    assert N.parse(text, test=2).collective == "all_gather"


def test_rows_after_a_second_tests_summary_name_no_program():
    text = (NTHREAD + HEADER + row(1048576) + "# Avg bus bandwidth    : 22.97\n"
            + NTHREAD + HEADER + row(2097152) + "# Avg bus bandwidth    : 22.97\n"
            + row(4194304))
    third = N.parse(text, collective="all_reduce", test=3)
    assert (third.sizes, third.program) == ([4194304], None)


def test_a_line_between_single_equals_signs_is_no_label():
    """Labels are set off by runs of '=' ('=== 2-node ==='); '= 2 =' is text."""
    text = ("=== first ===\n" + HEADER + row(1048576) + "= 2 =\n" + HEADER + row(2097152))
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce")
    assert "1: a test, 'first' (rows on lines 3-3, 1 size); 2: a test (rows on lines 6-6, " \
           "1 size)" in str(e.value)


def test_tests_split_by_their_table_headers_keep_their_own_lines():
    """Two runs pasted without their '# nThread' lines, each table header starting a test:
    the first's Init line after its row, the second's right after its header; each test
    takes its own rank count."""
    text = (HEADER + row(1048576, busbw=21.44) + _init(8)
            + HEADER + _init(16) + row(2097152, busbw=22.97))
    one = N.parse(text, collective="all_reduce", test=1)
    two = N.parse(text, collective="all_reduce", test=2)
    assert (one.ranks, one.sizes, two.ranks, two.sizes) == (8, [1048576], 16, [2097152])


def test_programs_of_tests_split_by_their_table_headers():
    """Each 'Collective test starting' line names the table that follows it; rows after a
    summary with no such line are a test of no program."""
    text = ("# Collective test starting: all_reduce_perf\n" + HEADER
            + row(1048576, busbw=21.44)
            + "# Collective test starting: all_gather_perf\n" + HEADER
            + row(1048576, redop="none", busbw=10.72)
            + "# Collective test starting: broadcast_perf\n" + HEADER
            + row(1048576, redop="none", busbw=10.72) + "# Avg bus bandwidth    : 10.72\n"
            + row(2097152, redop="none", busbw=10.72))
    runs = [N.parse(text, test=i, collective="all_gather" if i == 4 else None)
            for i in (1, 2, 3, 4)]
    assert [(r.program, r.sizes) for r in runs] == [
        ("all_reduce_perf", [1048576]), ("all_gather_perf", [1048576]),
        ("broadcast_perf", [1048576]), (None, [2097152])]
    # each of the three tables read under its own header (the fourth, after a summary,
    # has none)
    assert [any("without their table header" in n for n in r.notes) for r in runs] == [
        False, False, False, True]


def test_elided_rows_said_only_inside_a_table():
    """'...' right after the table header elides rows; '...' before a headerless paste's
    first row elides nothing of a table."""
    run = N.parse(HEADER + "...\n" + row(1073741824), collective="all_reduce")
    assert run.notes[-1] == ("rows are elided ('...' on line 2): only the printed rows are "
                             "read")
    bare = N.parse("...\n" + row(1048576) + row(2097152), collective="all_reduce")
    assert not any("elided" in n for n in bare.notes)


def test_a_failure_after_interleaved_headers_is_the_reason_given():
    """Processes writing at once (two table headers before any row), one of which then
    fails: the failure is what the reader must fix first, and it is read wherever it is."""
    fail = "node0: Test NCCL failure common.cu:1008 'unhandled system error'\n"
    with pytest.raises(ValueError) as e:
        N.parse(NTHREAD + HEADER + HEADER + row(1048576) + fail, collective="all_reduce")
    assert str(e.value) == ("the run failed: line 5 says '<host>: Test NCCL failure "
                            "common.cu:1008 'unhandled system error'' (the first failure "
                            "line; nccl-tests stops there), after printing 1 result row. "
                            "There is no complete run to compare: fix the failure (rerun "
                            "with NCCL_DEBUG=INFO to see why) and paste the new output")
    # failing before any row: nothing printed is said
    with pytest.raises(ValueError) as e:
        N.parse(NTHREAD + ranks(8) + fail, collective="all_reduce")
    assert str(e.value).startswith("the run failed: line 10 says '<host>: Test NCCL failure "
                                   "common.cu:1008 'unhandled system error'' (the first "
                                   "failure line; nccl-tests stops there). There is no ")


def test_the_summary_of_headerless_rows_is_read():
    text = (row(1048576) + row(2097152) + "# Out of bounds values : 3 FAILED\n"
            + "# Avg bus bandwidth    : 22.97\n")
    run = N.parse(text, collective="all_reduce")
    assert (run.out_of_bounds, run.avg_busbw) == (3, 22.97e9)


def test_an_average_that_is_not_a_number_is_named():
    with pytest.raises(ValueError) as e:
        N.parse(HEADER + row(1048576) + "# Avg bus bandwidth    : N/A\n",
                collective="all_reduce")
    assert str(e.value) == ("line 3: expected a number for the average bus bandwidth, "
                            "found 'N/A'")


def test_a_commented_out_row_is_not_read():
    text = HEADER + "#" + row(1048576) + row(2097152)
    assert N.parse(text, collective="all_reduce").sizes == [2097152]


OLD_HEADER = ("#       size         count      type   redop     time   algbw   busbw  error     "
              "time   algbw   busbw  error\n")


@pytest.mark.parametrize("header, cells", [
    # the layout before root (12 columns), each row behind a timestamp
    (OLD_HEADER, "  1048576  262144  float  sum  85.58  12.25  22.97  0e+00  84.50  12.41  "
                 "23.27  0e+00\n"),
    # no header: the current layout's 13 columns, each row behind a word
    ("", row(1048576)),
])
def test_rows_behind_a_prefix_are_the_lines_last_columns(header, cells):
    """An unknown prefix before each row (a timestamp, a launcher's word): the row is the
    line's last columns, as many as the header has (13 without one)."""
    text = header + "".join(f"{p} {cells.replace('1048576', str(s), 1)}"
                            for p, s in (("12:00:01", 1048576), ("12:00:02", 2097152)))
    run = N.parse(text, collective="all_reduce")
    assert run.sizes == [1048576, 2097152]


def test_rows_after_an_average_line_alone_are_a_second_test():
    text = HEADER + row(1048576) + "# Avg bus bandwidth    : 22.97\n" + row(4194304)
    with pytest.raises(ValueError, match="^the file holds 2 tests: "):
        N.parse(text, collective="all_reduce")
    text = HEADER + row(1048576) + "# Out of bounds values : 0 OK\n" + row(4194304)
    with pytest.raises(ValueError, match="^the file holds 2 tests: "):
        N.parse(text, collective="all_reduce")


def test_tests_split_by_a_summary_keep_their_own_lines_and_programs():
    """A second run's rows right after the first's summary: each keeps its own Init line
    (the first's after its summary, the second's between its rows), the program a
    'Collective test starting' line names before it, and a third run after the second's
    summary, named by nothing, has no program."""
    avg = "# Avg bus bandwidth    : 21.44\n"
    ranks_text = (HEADER + row(1048576, busbw=21.44) + avg + _init(8)
                  + row(2097152, busbw=22.97) + _init(16) + row(4194304, busbw=22.97))
    one = N.parse(ranks_text, collective="all_reduce", test=1)
    two = N.parse(ranks_text, collective="all_reduce", test=2)
    assert (one.ranks, two.ranks, two.sizes) == (8, 16, [2097152, 4194304])
    named = (HEADER + row(1048576, busbw=21.44) + avg
             + "# Collective test starting: all_gather_perf\n"
             + row(2097152, redop="none", busbw=10.72) + avg
             + row(4194304, redop="none", busbw=10.72))
    assert [N.parse(named, collective="all_gather" if i == 3 else None, test=i).program
            for i in (2, 3)] == ["all_gather_perf", None]


def test_repeated_sizes_of_a_headerless_paste_are_one_test():
    """Google's A3 Mega all-gather rows (tests/fixtures/nccltests, from cluster-toolkit's
    README) start with five 0-byte rows (sizes under 16 ranks x 4 bytes print as 0); the
    same 31 rows pasted without the header lines and summary (every '#' line) are still one
    test: only a smaller size starts another."""
    raw = (FIXTURES / "gke_a3mega_h100_2x8_all_gather_rows.log").read_text()
    bare = "".join(x for x in raw.splitlines(keepends=True) if not x.lstrip().startswith("#"))
    run = N.parse(bare, collective="all_gather")
    assert run.sizes[:6] == [0, 0, 0, 0, 0, 256] and len(run.sizes) == 31
    assert run.tests == ()


def test_headerless_tests_split_by_a_smaller_size_keep_their_own_lines():
    text = (row(1048576, busbw=21.44) + row(2097152, busbw=21.44) + _init(8)
            + row(1048576, busbw=22.97) + _init(16) + row(2097152, busbw=22.97))
    one = N.parse(text, collective="all_reduce", test=1)
    two = N.parse(text, collective="all_reduce", test=2)
    assert (one.ranks, two.ranks) == (8, 16)


def test_three_headerless_tests():
    text = (row(1048576) + row(2097152) + row(1048576) + row(4194304) + row(2097152)
            + row(8388608))
    assert [N.parse(text, collective="all_reduce", test=i).sizes for i in (1, 2, 3)] == [
        [1048576, 2097152], [1048576, 4194304], [2097152, 8388608]]


def test_empty_text_has_no_table():
    """parse_text on nothing (interlib.nccltests.parse refuses an empty paste before it):
    the message for no table, not an IndexError."""
    from interlib.nccltests import logs as L

    with pytest.raises(ValueError, match="^no nccl-tests results table found: "):
        L.parse_text("")


def test_only_header_lines_are_counted_as_headers():
    """The MPI-less message counts the '# nThread' headers, not a sentence naming one."""
    with pytest.raises(ValueError) as e:
        N.parse(NTHREAD + NTHREAD + "(each process printed its own nThread line)\n" + HEADER
                + row(1048576), collective="all_reduce")
    assert str(e.value).startswith("nccl-tests was built without MPI: the log has 2 "
                                   "'# nThread' headers")


def test_rank_0_twice_is_a_build_without_mpi_whatever_the_headers():
    """Two Rank 0 lines (each process numbering its GPUs from 0) say a build without MPI
    even when only one '# nThread' header survived the paste."""
    r0 = ("#  Rank  0 Group  0 Pid   1000 on {h:>10} device  0 [0x00] NVIDIA H100 80GB "
          "HBM3\n")
    text = NTHREAD + r0.format(h="node0") + r0.format(h="node1") + HEADER + row(1048576)
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce")
    assert str(e.value).startswith("nccl-tests was built without MPI: the log has 1 "
                                   "'# nThread' header and every process")


def test_pastes_that_stop_before_the_table_in_full():
    with pytest.raises(ValueError) as e:
        N.parse(NTHREAD + ranks(8), collective="all_reduce")
    assert str(e.value) == (
        "the paste ends on line 9 before the results table: it has 8 Rank lines but no "
        "'#  size  count  type ...' header and no rows. Paste the whole output of the test, "
        "from '# nThread' to '# Avg bus bandwidth'")
    with pytest.raises(ValueError) as e:
        N.parse(NTHREAD + ranks(1), collective="all_reduce")
    assert str(e.value).startswith("the paste ends on line 2 before the results table: it "
                                   "has 1 Rank line but no ")
    with pytest.raises(ValueError) as e:
        N.parse("$ mpirun -np 16 ./build/all_reduce_perf -b 8 -e 8G -f 2\n")
    assert str(e.value) == (
        "no nccl-tests results table found (the text names all_reduce_perf, but has no Rank "
        "lines, table header or rows): expected a header line like '#  size  count  type  "
        "redop  root  time  algbw  busbw  #wrong ...' or its rows (paste the whole output of "
        "the test, from '# nThread')")


def test_a_run_chosen_from_several_says_which_and_lists_them():
    text = row(1048576) + row(2097152) + row(1048576)
    run = N.parse(text, collective="all_reduce", test=2)
    assert run.tests == ("1: a test (rows on lines 1-2, 2 sizes)",
                         "2: a test (rows on lines 3-3, 1 size)")
    assert run.test == "2: a test (rows on lines 3-3, 1 size)"
    one = N.parse(row(1048576), collective="all_reduce")
    assert (one.tests, one.test) == ((), None)


@pytest.mark.parametrize("before", [1, 2])
def test_a_later_test_written_by_two_processes_at_once(before):
    """After one or two complete tests, a test whose '# nThread' header two processes both
    printed: a build without MPI, however many tests came before."""
    done = NTHREAD + HEADER + row(1048576) + "# Avg bus bandwidth    : 22.97\n"
    text = done * before + NTHREAD + NTHREAD + HEADER + row(1048576)
    with pytest.raises(ValueError) as e:
        N.parse(text, collective="all_reduce")
    assert str(e.value).startswith(f"nccl-tests was built without MPI: the log has "
                                   f"{before + 2} '# nThread' headers")


def test_parse_text_scrubs_the_failure_line_itself():
    """logs.parse_text (not only interlib.nccltests.parse around it) hides the host names
    of the failure line it quotes."""
    from interlib.nccltests import logs as L

    fail = "gpu-node-7: Test NCCL failure common.cu:1008 'unhandled system error'\n"
    text = NTHREAD + ranks(8, host="gpu-node-7") + fail
    with pytest.raises(ValueError) as e:
        L.parse_text(text, collective="all_reduce")
    assert "gpu-node-7" not in str(e.value)
    assert str(e.value).startswith("the run failed: line 10 says '<host>: Test NCCL failure")
