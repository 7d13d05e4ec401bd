"""What the columns of an nccl-tests table say (interlib.nccltests.infer), row by row of
nccl-tests' own table of bus factors and counts (NVIDIA/nccl-tests a0b82b2, ``src/*.cu``
``*GetBw`` / ``*GetCollByteCount``; ``doc/PERFORMANCE.md``): all_reduce busbw = algbw x
2 (n - 1)/n with the whole count; reduce_scatter, all_gather, alltoall, gather, scatter
(n - 1)/n with one rank's count; broadcast, reduce, sendrecv 1; hypercube 1 with one rank's
count. Rows below are written as nccl-tests prints them (two decimals of GB/s) at n = 8;
intervals and rank counts by hand.
"""
from __future__ import annotations

import math

import pytest

from interlib.nccltests.infer import (Cells, Inference, _half_unit, _ranks_for, _ratio,
                                      factor_interval, infer)

S = 1 << 20          # 1 MiB rows


def cells(count, redop="sum", root="-1", algbw="10.00", busbw="17.50", type_="float",
          size=S):
    return [Cells(size, count, type_, redop, root, algbw, busbw)]


@pytest.mark.parametrize("tok, half", [("12.25", 0.005), ("1626.5", 0.05), ("12", 0.5),
                                       ("1.2e+03", 50.0), ("5e-01", 0.05), ("1.25E2", 0.5),
                                       ("0.24", 0.005)])
def test_half_of_the_last_printed_digit(tok, half):
    assert _half_unit(tok) == pytest.approx(half, rel=1e-12)


def test_factor_interval_is_every_value_the_rounded_columns_allow():
    lo, hi = factor_interval(cells(S // 4))
    assert (lo, hi) == pytest.approx((17.495 / 10.005, 17.505 / 9.995), rel=1e-12)
    # two rows: the intersection; a slow row (0.24 / 0.42) constrains it too, loosely
    two = cells(S // 4) + cells(S // 4, algbw="0.24", busbw="0.42")
    assert factor_interval(two) == pytest.approx(
        (max(17.495 / 10.005, 0.415 / 0.245), min(17.505 / 9.995, 0.425 / 0.235)), rel=1e-12)


def test_factor_interval_skips_unprinted_and_zero_rows_and_refuses_mixed_tests():
    skip = cells(S // 4, algbw="N/A") + cells(S // 4, algbw="0.00", busbw="0.00") + \
        cells(S // 4, algbw="0.01", busbw="0.00")
    assert factor_interval(skip) is None                     # no row left
    assert factor_interval(skip + cells(S // 4)) == factor_interval(cells(S // 4))
    # an all-reduce row (1.75) and a broadcast row (1.00): no factor fits both
    assert factor_interval(cells(S // 4) + cells(S // 4, busbw="10.00")) is None


def test_ratio_of_size_to_count_times_word():
    assert _ratio(cells(S // 4)) == 1                       # float: 4 bytes
    assert _ratio(cells(S // 32)) == 8
    assert _ratio(cells(S // 16, type_="double")) == 2
    assert _ratio(cells(S, type_="int8")) == 1
    assert _ratio(cells(S // 2, type_="BFLOAT16")) == 1      # case ignored
    assert _ratio(cells(S // 4 - 1)) is None                 # not a whole number
    assert _ratio(cells(S // 4) + cells(S // 32)) is None    # rows disagree
    assert _ratio(cells(S // 4, type_="complex")) is None    # unknown type: no ratio
    assert _ratio(cells(0)) is None and _ratio(cells(5, size=0)) is None
    assert _ratio(cells(0) + cells(S // 32)) == 8            # a row without a count skipped
    assert _ratio([]) is None


def test_ranks_for_a_factor_interval():
    f2 = (17.495 / 10.005, 17.505 / 9.995)                   # 1.75 = 2 x 7/8
    assert _ranks_for("2", *f2) == [8]
    assert _ranks_for("1", 0.8745, 0.8755) == [8]            # 7/8
    assert _ranks_for("1", 0.499, 0.501) == [2]
    assert _ranks_for("2", 1.0, 2.0) == [] and _ranks_for("1", 1.0, 1.2) == []
    assert _ranks_for("1", 0.0, 0.6) == [2]                  # lo 0: from 2
    # a loose interval allows several: at most six are listed, from the smallest
    assert _ranks_for("1", 0.5, 0.999) == [2, 3, 4, 5, 6, 7]
    assert _ranks_for("2", 1.874, 1.876) == [16]
    n = 1000
    assert _ranks_for("1", (n - 1) / n - 1e-12, (n - 1) / n + 1e-12) == [n]


def _what(inf: Inference):
    return inf.collective, inf.candidates, inf.ranks


@pytest.mark.parametrize("rows, want", [
    # collective   count        redop   root  busbw
    (cells(S // 4, "sum", "-1", busbw="17.50"), ("all_reduce", ("all_reduce",), 8)),
    (cells(S // 32, "sum", "-1", busbw="8.75"), ("reduce_scatter", ("reduce_scatter",), 8)),
    (cells(S // 32, "none", "-1", busbw="8.75"), (None, ("all_gather", "all_to_all"), 8)),
    (cells(S // 32, "none", "0", busbw="8.75"), (None, ("gather", "scatter"), 8)),
    (cells(S // 4, "none", "0", busbw="10.00"), ("broadcast", ("broadcast",), None)),
    (cells(S // 4, None, "0", busbw="10.00"), ("broadcast", ("broadcast",), None)),
    (cells(S // 4, "sum", "0", busbw="10.00"), ("reduce", ("reduce",), None)),
    # sendrecv's factor 1 is also an all_reduce's at 2 ranks (2 x 1/2): both stay
    (cells(S // 4, "sum", "-1", busbw="10.00"), (None, ("all_reduce", "sendrecv"), None)),
    (cells(S // 32, "", "-1", busbw="10.00"), ("hypercube", ("hypercube",), 8)),
    (cells(S // 4, "MAX", "-1", busbw="17.50"), ("all_reduce", ("all_reduce",), 8)),
])
def test_each_row_of_nccl_tests_table(rows, want):
    assert _what(infer(rows)) == want


def test_how_it_was_found_in_words():
    ar = infer(cells(S // 4))
    assert ar.how == ("all_reduce from busbw / algbw, the count column and the redop and "
                      "root columns")
    assert ar.how_ranks == "8 ranks from busbw / algbw = 2 (n - 1) / n"
    rs = infer(cells(S // 32, busbw="8.75"))
    assert rs.how == ("reduce_scatter from busbw / algbw, the count column and the redop "
                      "and root columns")
    assert rs.how_ranks == "8 ranks from size / (count x word size)"
    # no count column (unknown type): the factor alone; (n - 1)/n pins the ranks
    rs2 = infer(cells(S // 32, busbw="8.75", type_="?"))
    assert rs2.how == "reduce_scatter from busbw / algbw and the redop and root columns"
    assert (rs2.ranks, rs2.how_ranks) == (8, "8 ranks from busbw / algbw = (n - 1) / n")
    # the count column contradicting the one collective the factor allows: said
    odd = infer(cells(S // 32, busbw="17.50"))
    assert odd.collective == "all_reduce" and odd.how.endswith(
        " (the count column does not fit it)")


def test_the_count_column_tells_split_from_whole():
    """Loose rows (0.01 GB/s: the factor anywhere in [0.33, 3]) allow all_reduce,
    reduce_scatter and sendrecv; the count column keeps the whole-buffer ones (count =
    size / 4) or the split one (count = size / 32, with the rank count then known)."""
    loose = dict(algbw="0.01", busbw="0.01")
    assert infer(cells(S // 4, type_="?", **loose)).candidates == (
        "all_reduce", "reduce_scatter", "sendrecv")
    assert infer(cells(S // 4, **loose)).candidates == ("all_reduce", "sendrecv")
    assert _what(infer(cells(S // 32, **loose))) == ("reduce_scatter", ("reduce_scatter",), 8)


def test_a_named_collective_or_rank_count_is_taken_as_given():
    given = infer(cells(S // 32, busbw="8.75"), collective="all_gather")
    assert _what(given) == ("all_gather", ("all_gather",), 8) and given.how == ""
    assert given.how_ranks == "8 ranks from size / (count x word size)"
    # the log states 8 ranks: nothing to report about ranks
    stated = infer(cells(S // 4), ranks=8)
    assert _what(stated) == ("all_reduce", ("all_reduce",), None) and stated.how_ranks == ""
    # 16 ranks stated: the 1.75 factor does not fit 2 x 15/16 = 1.875
    assert infer(cells(S // 4), ranks=16).candidates == ()
    assert infer(cells(S // 4, busbw="18.75"), ranks=16).collective == "all_reduce"
    # at 8 ranks stated, factor 1 with a reduction and no root is sendrecv alone
    assert _what(infer(cells(S // 4, busbw="10.00"), ranks=8)) == ("sendrecv", ("sendrecv",),
                                                                   None)


def test_no_rows_or_no_bandwidths_allow_nothing():
    assert _what(infer([])) == (None, (), None)
    na = infer(cells(S // 32, algbw="N/A", busbw="N/A", type_="float"))
    assert na.collective is None and na.ranks == 8           # the count still pins ranks
    assert math.isinf(factor_interval(cells(S // 4, busbw="17.50"))[1]) is False


def test_a_factor_on_the_intervals_edge_fits():
    """Whole-number columns make exact edges: algbw '3' and busbw '4' allow [3.5/3.5,
    4.5/2.5] = [1.0, 1.8]; algbw '3' and busbw '2' allow [1.5/3.5, 2.5/2.5] = [0.43, 1.0].
    A factor on an edge fits (<=)."""
    assert factor_interval(cells(S // 4, algbw="3", busbw="4")) == (1.0, 1.8)
    assert factor_interval(cells(S // 4, algbw="3", busbw="2"))[1] == 1.0
    # 8 ranks stated: 1.75 and 1.0 both fit [1.0, 1.8] -> all_reduce or sendrecv
    assert infer(cells(S // 4, algbw="3", busbw="4"), ranks=8).candidates == (
        "all_reduce", "sendrecv")
    # 0.875 and 1.0 fit [0.43, 1.0] -> reduce_scatter or sendrecv (no count column)
    assert infer(cells(S // 4, algbw="3", busbw="2", type_="?"), ranks=8).candidates == (
        "reduce_scatter", "sendrecv")


def test_unknown_ranks_two_and_part_at_exactly_one():
    """Ranks unknown: 2(n-1)/n needs a factor above 1 (n = 2 gives exactly 1, which is
    sendrecv's too), (n-1)/n one below 1."""
    # [0.43, 1.0]: nothing above 1 -> no all_reduce; the whole count keeps sendrecv
    assert infer(cells(S // 4, algbw="3", busbw="2")).collective == "sendrecv"
    # [1.0, 1.8] with no count column: nothing below 1 -> no reduce_scatter
    assert infer(cells(S // 4, algbw="3", busbw="4", type_="?")).candidates == (
        "all_reduce", "sendrecv")


def test_rows_of_two_redops_allow_no_collective():
    """A reduction in some rows and 'none' in others (two tests' rows mixed): neither a
    reducing nor a plain collective, so nothing, at 7/8 as at 1."""
    for busbw in ("8.75", "10.00"):
        mixed = cells(S // 32, "sum", busbw=busbw) + cells(S // 32, "none", busbw=busbw)
        assert infer(mixed).candidates == ()
