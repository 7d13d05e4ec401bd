"""The price sheet (interlib.specs.prices) and the capstone's network costing.

Expected totals are derived by hand from the sheet's entries as their sources state them:
the reference design (32 servers x 8 NICs at 400 Gb/s on 64-port switches, non-blocking)
has 12 switches (8 leaf + 4 spine) and 512 links (256 host + 256 switch), Chapter 8's
table. At 400 Gb/s a switch costs between $550,000 / 48 = $11,458.33 (Yobitel's 48-switch
bill of materials) and $35,000 (Infrastructure Economics' average); a transceiver between
$500 and $1,000 (Infrastructure Economics; LuxOptX's $600-800 lies inside); a fibre cable
$50-$150 (LuxOptX).
"""

from __future__ import annotations

import re

import pytest

from interlib import capstone
from interlib.specs import Source, prices


# --------------------------------------------------------------------------- the sheet
def test_every_quote_says_where_when_and_in_what_currency():
    assert len(prices.QUOTES) >= 6
    for q in prices.QUOTES:
        assert q.source.url.startswith("https://"), q
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", q.seen), q
        assert q.currency == "USD" and q.basis in prices.BASES and q.item in prices.ITEMS
        # the figure the quote stores is the one its source's text states
        says = q.source.says.replace(",", "")
        stated = [f"{x:g}" for x in (q.low, q.high)]
        short = [f"{x / 1000:g}k" for x in (q.low, q.high)]
        short_m = [f"{x / 1e6:g}" for x in (q.low, q.high)]
        assert any(all(s in says for s in form) for form in (stated, short, short_m)), \
            (q.what, q.source.says)


def test_the_sheet_says_what_it_leaves_out_and_that_street_prices_differ():
    assert set(prices.NOT_PRICED) == {"NIC", "copper cable"}
    assert "street prices differ" in prices.STREET_PRICE_NOTE
    doc = prices.__doc__
    assert "street prices differ" in doc and "NICs" in doc and "copper" in doc
    table = repr(prices.prices_table())
    assert "street prices differ" in table and "Not priced" in table


def test_copper_is_placed_by_its_cited_reach_and_still_counted_as_none():
    # NVIDIA LinkX: DAC "within the 3-meter maximum length", LACC "from 3- to 5-meters"
    says = prices.LINKX_COPPER.says
    assert "3-meter maximum" in says and "3- to 5-meters" in says
    assert prices.COPPER_REACH_M == {"DAC": 3, "LACC": 5}
    reason = prices.NOT_PRICED["copper cable"]
    assert "3 m (passive DAC)" in reason and "5 m" in reason and "counts none" in reason
    assert "2026-11-26" in reason and "2026-11-26" in prices.NOT_PRICED["NIC"]
    p = capstone.network_price(capstone.design())
    assert dict((item, n) for item, n, _ in p.not_priced)["copper cables"] == 0


def test_the_sheet_sources_are_on_the_references_page():
    from interlib.specs import sources

    listed = sources.all_sources()
    titles = [row[0] for row in sources.sources_table().rows]
    for q in prices.QUOTES:
        assert any(s is q.source for s in listed), q.source.title
        assert q.source.title in titles
    assert prices.LINKX_COPPER.title in titles
    assert len({id(s) for s in listed}) == len(listed)  # each source once


def test_a_total_over_many_units_is_divided_by_code():
    (q,) = [q for q in prices.QUOTES if q.units > 1]
    assert q.units == 48
    assert q.per_unit() == pytest.approx((550_000 / 48, 750_000 / 48))


def test_price_range_spans_every_source():
    assert prices.price_range("switch", 400) == pytest.approx((11_458.333, 35_000), rel=1e-6)
    assert prices.price_range("optic", 400) == (500, 1_000)
    assert prices.price_range("optic", 800) == (1_100, 1_400)
    assert prices.price_range("switch", 800) == (150_000, 250_000)
    assert prices.price_range("fibre", 400) == (50, 150)


@pytest.mark.parametrize("kwargs, match", [
    (dict(item="nic", rate_gbps=400), "^item="),
    (dict(item="switch", rate_gbps=200), "^rate_gbps=200"),
    (dict(item="switch", rate_gbps=-1), "^rate_gbps="),
    (dict(item="switch", rate_gbps="fast"), "^rate_gbps="),
])
def test_bad_lookups_name_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        prices.price_range(**kwargs)


def test_a_quote_checks_itself():
    src = Source("t", "https://example.org")
    ok = dict(item="optic", what="x", rate_gbps=400, low=1, high=2, units=1,
              basis="published estimate", source=src)
    prices.Quote(**ok)
    for bad, match in [(dict(high=0.5), "^high="), (dict(currency="EUR"), "^currency="),
                       (dict(units=0), "^units="), (dict(seen="26/11/2026"), "^seen="),
                       (dict(basis="rumour"), "^basis="), (dict(low=0), "^low=")]:
        with pytest.raises(ValueError, match=match):
            prices.Quote(**{**ok, **bad})


# ------------------------------------------------------------------ pricing a design
def test_the_reference_design_is_priced_from_the_sheet():
    p = capstone.network_price(capstone.design())
    lines = {ln.item: ln for ln in p.lines}
    assert lines["switches"].count == 12 and lines["optics"].count == 1024
    assert lines["fibre cables"].count == 512
    assert lines["switches"].total == pytest.approx((137_500, 420_000))
    assert lines["optics"].total == pytest.approx((512_000, 1_024_000))
    assert lines["fibre cables"].total == pytest.approx((25_600, 76_800))
    assert p.total == pytest.approx((675_100, 1_520_800))
    assert p.per_gpu == pytest.approx((675_100 / 256, 1_520_800 / 256))
    nics = dict((item, count) for item, count, _ in p.not_priced)
    assert nics["NICs"] == 256


def test_an_800g_design_uses_the_800g_entries():
    p = capstone.network_price(capstone.design(nic_gbps=800.0))
    # same tree (256 hosts on 64-port switches): 12 switches, 512 links
    assert p.total == pytest.approx((12 * 150_000 + 1024 * 1_100 + 512 * 50,
                                     12 * 250_000 + 1024 * 1_400 + 512 * 150))


def test_a_bigger_radix_is_priced_per_port():
    d = capstone.design(radix=128)
    p = capstone.network_price(d)
    sw = p.lines[0]
    assert sw.count == d.tree.switches
    assert sw.unit == pytest.approx((2 * 550_000 / 48, 2 * 35_000))


def test_unpriced_rates_and_wrong_arguments_get_messages():
    with pytest.raises(ValueError, match="^d=Design\\(port rate 200 Gb/s\\)"):
        capstone.network_price(capstone.design(nic_gbps=200.0))
    with pytest.raises(ValueError, match="^d="):
        capstone.network_price("my cluster")
    with pytest.raises(ValueError, match="^p="):
        capstone.price_table(42)


def test_the_price_table_is_labelled():
    text = repr(capstone.price_table(capstone.network_price(capstone.design())))
    assert "street prices differ" in text and "not priced" in text
    assert "$675,100 - $1,520,800" in text


# ------------------------------------------------------------------ a reader's own quotes
def test_own_quotes_price_the_nics_and_replace_sheet_figures():
    d = capstone.design()
    p = capstone.network_price(d, quotes={"nic": 2_000, "optic": (400, 600)})
    lines = {ln.item: ln for ln in p.lines}
    # by hand: 256 hosts with one 400G port each -> 256 NICs x $2,000 = $512,000;
    # 1,024 optics x $400-600 = $409,600-614,400; switches and fibre as the sheet's
    assert lines["NICs"].count == 256
    assert lines["NICs"].total == pytest.approx((512_000, 512_000))
    assert lines["optics"].total == pytest.approx((409_600, 614_400))
    assert lines["switches"].total == pytest.approx((137_500, 420_000))
    assert p.total == pytest.approx((137_500 + 409_600 + 25_600 + 512_000,
                                     420_000 + 614_400 + 76_800 + 512_000))
    assert [item for item, _, _ in p.not_priced] == ["copper cables"]
    assert lines["NICs"].how.endswith("your quote") and lines["optics"].how.endswith("your quote")
    assert not lines["fibre cables"].how.endswith("your quote")
    text = repr(capstone.price_table(p))
    assert "Your own quotes: optics, NICs." in text
    # a switch quote is for a 64-port switch, scaled to the radix like the sheet's
    big = capstone.design(radix=128)
    sw = capstone.network_price(big, quotes={"switch": 40_000}).lines[0]
    assert sw.unit == pytest.approx((80_000, 80_000))


def test_own_quotes_are_checked():
    d = capstone.design()
    for quotes, match in [([1], "^quotes="), ({"nik": 1}, "^quotes='nik'.*'nic'"),
                          ({"nic": -1}, r"^quotes\['nic'\]=-1"),
                          ({"nic": float("nan")}, r"^quotes\['nic'\]="),
                          ({"nic": (3, 2)}, r"^quotes\['nic'\] high=2"),
                          ({"nic": (1, 2, 3)}, r"^quotes\['nic'\]=\(1, 2, 3\)")]:
        with pytest.raises(ValueError, match=match):
            capstone.network_price(d, quotes=quotes)
