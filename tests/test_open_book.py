"""The open-book apparatus (issue 29): licences, the third-party notice, the citation, one
version string, the changelog and errata, the edition on every page, the report-a-problem
link, the release archives.

Offline, no browser: the files themselves. With the test run's book build: every page's
footer. Every page's report link as a reader's browser resolves it (prefilled with that
page's title, address and edition) is checked in tests/test_site_pages.py, on the load of
each page its other desktop checks share.
"""

from __future__ import annotations

import csv
import datetime as dt
import fnmatch
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml

from conftest import HTML, REPO, toc_docnames

sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "book" / "_ext"))
import edition  # noqa: E402
import notices  # noqa: E402
import open_book  # noqa: E402
import release  # noqa: E402

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
CONFIG = yaml.safe_load((REPO / "_config.yml").read_text())
CFF = yaml.safe_load((REPO / "CITATION.cff").read_text())
NOTICE = (REPO / "THIRD_PARTY_NOTICES.md").read_text()
CSV = REPO / "interlib" / "data" / "nccl_measurements.csv"


# --- licences -------------------------------------------------------------------------------

def test_licence_files_and_metadata():
    mit = (REPO / "LICENSE").read_text()
    assert mit.startswith("MIT License") and "Permission is hereby granted, free of charge" in mit
    assert "The Interconnects authors" in mit
    cc = (REPO / "LICENSE-CC-BY-4.0.txt").read_text()
    # The legal code itself, not a pointer to it: its title and its last numbered section.
    assert cc.startswith("Creative Commons Attribution 4.0 International Public License")
    assert "Section 8 -- Interpretation." in cc and "Section 3 -- License Conditions." in cc
    assert PYPROJECT["license"] == "MIT"
    for f in PYPROJECT["license-files"]:
        assert (REPO / f).is_file(), f
    assert set(CFF["license"]) == {"CC-BY-4.0", "MIT"}
    assert "CC BY 4.0" in CONFIG["copyright"] and "MIT" in CONFIG["copyright"]


# --- the third-party notice -----------------------------------------------------------------

def vendored_rows(notice: str = NOTICE):
    rows = notices.vendored_rows(notice)
    for globs, row in rows:
        assert globs, f"a row of table 1 names no file: {row[0]!r}"
    return rows


vendored_files = notices.vendored_files
notice_gaps = notices.vendored_gaps


def test_notice_lists_every_vendored_file():
    files = vendored_files()
    assert len(files) > 40  # MathJax, the Pyodide runtime and its 28 wheels, piplite, ...
    uncovered, stale = notice_gaps(files, vendored_rows())
    assert not uncovered, ("THIRD_PARTY_NOTICES.md, table 1, covers no row for:\n" +
                           "\n".join(uncovered) + "\nadd a row (or a glob) with its licence")
    assert not stale, f"THIRD_PARTY_NOTICES.md, table 1, names files that do not exist: {stale}"


def test_notice_rows_give_licence_and_matching_versions():
    """Every row states a licence and an attribution; a wheel's row gives the version its
    file name carries (so re-vendoring a newer wheel means revisiting its row)."""
    for globs, row in vendored_rows():
        assert len(row) == 6 and row[3] and row[4], f"incomplete row: {row}"
        for f in vendored_files():
            if f.endswith(".whl") and any(fnmatch.fnmatchcase(f, g) for g in globs):
                version = Path(f).name.split("-")[1]
                assert version in row[2], f"{f}: the notice says version {row[2]!r}"


def test_notice_check_as_the_build_runs_it():
    """The build's check (book/_ext/open_book.py warns, so -W fails) finds nothing today,
    and names a document the CSV gains without a row, and a vendored file without one."""
    assert notices.problems(REPO) == []


def test_notice_check_reports_a_new_csv_document(tmp_path):
    (tmp_path / "interlib" / "data").mkdir(parents=True)
    for root in notices.VENDORED_ROOTS:
        (tmp_path / root).mkdir(parents=True, exist_ok=True)
        (tmp_path / root / "x.js").write_text("")
    (tmp_path / notices.NOTICE).write_text(
        "## 1. Vendored files\n| files | a | b | c | d | e |\n|---|---|---|---|---|---|\n"
        "| " + " ".join(f"`{r}/x.js`" for r in notices.VENDORED_ROOTS) +
        " `interlib/data/nccl_measurements.csv` | x | 1 | MIT | me | here |\n"
        "## 2. Published measurements\n| url | a | b | c |\n|---|---|---|---|\n"
        "| https://a.example/1 | A | MIT | A1 |\n")
    header = "id,role,source,url\n"
    (tmp_path / notices.CSV).write_text(header + "A1-01,holdout,Doc A,https://a.example/1\n")
    assert notices.problems(tmp_path) == []
    (tmp_path / notices.CSV).write_text(header + "A1-01,holdout,Doc A,https://a.example/1\n"
                                        "B1-01,holdout,Doc B,https://b.example/2\n")
    (tmp_path / "book/_vendor/new.js").write_text("")
    found = notices.problems(tmp_path)
    assert len(found) == 2
    assert "https://b.example/2 (source: Doc B)" in found[1] and "book/_vendor/new.js" in found[0]


def test_notice_check_catches_a_missing_file():
    """The coverage rule is not vacuous: a file outside every glob, and a glob without a
    file, are both reported."""
    rows = vendored_rows()
    uncovered, stale = notice_gaps(vendored_files() + ["book/_vendor/static/new-lib.js"],
                                   rows + [(["book/_vendor/gone/*"], [])])
    assert uncovered == ["book/_vendor/static/new-lib.js"]
    assert stale == ["book/_vendor/gone/*"]


def test_notice_lists_every_measurement_source():
    """Every document the CSV takes values from has one row in table 2 (first cell: the url
    as the CSV gives it), with its licence or terms and the author to credit."""
    listed = notices.measurement_rows(NOTICE)
    docs = notices.measurement_documents(CSV)
    assert len(docs) >= 10
    missing, stale = notices.measurement_gaps(docs, listed)
    assert not missing, ("THIRD_PARTY_NOTICES.md, table 2, lacks a row for these documents "
                         "of nccl_measurements.csv (one row each: url | author | licence or "
                         "terms | id prefixes):\n" +
                         "\n".join(f"{u}  (source: {s})" for u, s in missing.items()))
    assert not stale, f"table 2 lists documents the CSV no longer uses: {stale}"
    for url, row in listed.items():
        assert len(row) == 4 and all(row[1:3]), f"incomplete row for {url}: {row}"


# --- citation, version, changelog -----------------------------------------------------------

def _cff_validator():
    import jsonschema

    schema = json.loads((REPO / "tests" / "data" / "cff-1.2.0-schema.json").read_text())
    assert schema["$id"] == "https://citation-file-format.github.io/1.2.0/schema.json"
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_citation_cff_is_valid_cff_1_2_0():
    validator = _cff_validator()
    errors = sorted(validator.iter_errors(CFF), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)
    # The schema really constrains: a file without authors, a made-up licence, or a date
    # that is not a date are each rejected.
    for broken in ({k: v for k, v in CFF.items() if k != "authors"},
                   {**CFF, "license": ["CC-BY-4.0", "Not-A-Licence"]},
                   {**CFF, "date-released": "26 Nov 2026"}):
        assert list(validator.iter_errors(broken)), f"schema accepted {broken}"


def test_citation_pyproject_and_config_agree():
    assert CFF["version"] == PYPROJECT["version"]
    assert CFF["title"] == CONFIG["title"]
    assert [a["name"] for a in CFF["authors"]] == [a["name"] for a in PYPROJECT["authors"]] \
        == [CONFIG["author"]]
    repo = CONFIG["repository"]["url"].rstrip("/")
    assert CFF["repository-code"] == repo == PYPROJECT["urls"]["Repository"]
    assert PYPROJECT["urls"]["Issues"] == repo + "/issues"
    assert CFF["date-released"] == changelog_versions()[PYPROJECT["version"]]
    book = CFF["preferred-citation"]
    assert book["type"] == "book" and book["title"] == CFF["title"]
    assert book["authors"] == CFF["authors"] and book["version"] == CFF["version"]
    assert str(book["year"]) == CFF["date-released"][:4]
    assert book["license"] == CFF["license"] and book["url"] == CFF["url"]


def test_bibtex_entry_parses_and_matches():
    from pybtex.database import parse_string

    text = open_book.bibtex(open_book.citation_data())
    entries = parse_string(text, "bibtex").entries
    assert len(entries) == 1
    (key, entry), = entries.items()
    assert PYPROJECT["version"].replace(".", "_") in key
    assert entry.fields["version"] == entry.fields["edition"] == PYPROJECT["version"]
    assert entry.fields["year"] == CFF["date-released"][:4]
    assert entry.fields["title"].replace("{", "").replace("}", "") == CFF["title"]
    assert CFF["url"] in entry.fields["howpublished"]


def test_version_is_held_in_one_place():
    """pyproject.toml holds it; interlib reports it; only the citation, the changelog and
    the errata page's "fixed in" column repeat it (each checked: above, and the errata
    rows against the changelog's editions below). No other page, notebook or tool spells
    it out."""
    import interlib

    v = PYPROJECT["version"]
    assert interlib.__version__ == v, "reinstall interlib (make re-installs on pyproject change)"
    assert edition.version() == v
    tracked = subprocess.run(["git", "-C", str(REPO), "ls-files"], capture_output=True,
                             text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout: cannot list the tracked files")
    allowed = {"pyproject.toml", "CITATION.cff", "CHANGELOG.md", "book/corrections.md"}
    spelled = []
    for name in tracked.stdout.split("\n"):
        p = REPO / name
        if not name or name in allowed or not p.is_file() or p.suffix in {".whl", ".zip",
                                                                         ".wasm", ".png"}:
            continue
        if p.stat().st_size < 5_000_000 and v in p.read_text(errors="replace"):
            spelled.append(name)
    assert not spelled, f"version {v} written out in {spelled}: read it from pyproject.toml"


def changelog_versions(text: str | None = None) -> dict[str, str]:
    """{version: date} of the released sections of CHANGELOG.md, in file order."""
    text = text if text is not None else (REPO / "CHANGELOG.md").read_text()
    return dict(re.findall(r"^## \[([^\]]+)\] - (\d{4}-\d{2}-\d{2})\s*$", text, re.M))


def test_changelog_keeps_a_changelog():
    from packaging.version import Version

    text = (REPO / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    headings = re.findall(r"^## (.*)$", text, re.M)
    assert headings[0] == "[Unreleased]", "the first section is [Unreleased]"
    versions = changelog_versions(text)
    assert len(versions) == len(headings) - 1, f"malformed section headings: {headings}"
    assert list(versions)[0] == PYPROJECT["version"], "the newest section is this edition"
    order = [Version(v) for v in versions]
    assert order == sorted(order, reverse=True), "sections newest first"
    dates = list(versions.values())
    assert dates == sorted(dates, reverse=True)
    for d in dates:
        dt.date.fromisoformat(d)
    for v in ["Unreleased", *versions]:
        assert re.search(rf"^\[{re.escape(v)}\]: https://", text, re.M), f"no link for [{v}]"
    for body in re.split(r"^## \[[^\]]+\] - .*$", text, flags=re.M)[1:]:
        kinds = re.findall(r"^### (\w+)", body, re.M)
        assert kinds and set(kinds) <= {"Added", "Changed", "Deprecated", "Removed", "Fixed",
                                        "Security"}, kinds


# --- errata ---------------------------------------------------------------------------------

def errata_problems(text: str, docs: list[str], editions: list[str]) -> list[str]:
    """What is wrong with the corrections page: each table row (outside HTML comments) must
    link a page of the book ({doc}), name editions of the changelog, and be fixed in an
    edition no older than the one that printed the error."""
    from packaging.version import Version

    body = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    section = body.split("## Corrections", 1)[1]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")][2:]
    problems = []
    if not rows and "No corrections yet" not in section:
        problems.append("no table and no 'No corrections yet'")
    if rows and "No corrections yet" in section:
        problems.append("rows, yet it says 'No corrections yet'")
    for row in rows:
        if len(row) != 7:
            problems.append(f"{row}: 7 columns expected")
            continue
        m = re.fullmatch(r"\{doc\}`\.\./([^`]+)`", row[0])
        if not m or m.group(1) not in docs:
            problems.append(f"{row[0]}: not a page of the book")
        printed, fixed = row[4], row[5]
        for ed in (printed, fixed):
            if ed not in editions:
                problems.append(f"{ed}: not an edition in CHANGELOG.md")
        if printed in editions and fixed in editions and Version(fixed) <= Version(printed):
            problems.append(f"{row}: fixed in {fixed}, not after {printed}")
        if not (row[2] and row[3] and row[6]):
            problems.append(f"{row}: printed, corrected and source are required")
    return problems


def test_errata_page_entries_name_real_pages_and_editions():
    docs = [d.removeprefix("book/") if False else d for d in toc_docnames()]
    text = (REPO / "book" / "corrections.md").read_text()
    assert errata_problems(text, docs, list(changelog_versions())) == []


def test_errata_check_catches_bad_entries():
    head = "# Errata\n## Corrections\n| a | b | c | d | e | f | g |\n|---|---|---|---|---|---|---|\n"
    good = "| {doc}`../chapters/03_nvlink` | table | 900 | 450 | 1.0.0 | 1.0.1 | #1 |\n"
    docs, editions = ["chapters/03_nvlink"], ["1.0.1", "1.0.0"]
    assert errata_problems(head + good, docs, editions) == []
    bad_page = good.replace("03_nvlink", "99_none")
    backwards = good.replace("| 1.0.0 | 1.0.1 |", "| 1.0.1 | 1.0.0 |")
    unknown = good.replace("1.0.1", "7.0.0")
    for bad in (bad_page, backwards, unknown):
        assert errata_problems(head + bad, docs, editions), bad
    assert errata_problems("## Corrections\nnothing\n", docs, editions)


# --- the edition: git, and without git ------------------------------------------------------

def test_edition_from_git_names_the_commit():
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True,
                          text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    e = edition.edition(REPO)
    assert e.version == PYPROJECT["version"]
    assert e.commit and head.stdout.strip().startswith(e.commit.removesuffix("+modified"))
    dt.date.fromisoformat(e.date)
    assert e.text == f"Edition {e.version}, {e.date}, commit {e.commit}"


def test_edition_without_git_falls_back_clearly(tmp_path, monkeypatch):
    """A source tarball (no .git): the build still knows the version, says the commit is
    unknown, and dates the build today; INTERCONNECTS_COMMIT can name the commit."""
    for name in ("pyproject.toml", "_config.yml"):
        (tmp_path / name).write_bytes((REPO / name).read_bytes())
    monkeypatch.delenv("INTERCONNECTS_COMMIT", raising=False)
    e = edition.edition(tmp_path)
    assert e.version == PYPROJECT["version"] and e.commit is None
    assert "unknown (not built from a git checkout)" in e.text
    assert e.date == dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert e.commit_url is None
    monkeypatch.setenv("INTERCONNECTS_COMMIT", "abc123def456")
    assert edition.edition(tmp_path).commit == "abc123def456"


# --- report a problem -----------------------------------------------------------------------

FORM = REPO / ".github" / "ISSUE_TEMPLATE" / open_book.ISSUE_TEMPLATE


def _form_ids() -> dict[str, dict]:
    form = yaml.safe_load(FORM.read_text())
    return {item["id"]: item for item in form["body"] if "id" in item}


def test_issue_form_asks_what_is_wrong_and_for_a_source():
    form = yaml.safe_load(FORM.read_text())
    assert form["name"] and form["description"]
    ids = _form_ids()
    for required in ("what", "evidence", "page", "edition"):
        assert ids[required]["validations"]["required"] is True, required
    assert ids["what"]["type"] == ids["evidence"]["type"] == "textarea"
    assert "source" in ids["evidence"]["attributes"]["label"].lower()


def test_report_url_prefills_fields_of_the_form():
    url = open_book.report_url("https://github.com/o/r", "3. NVLink: the GPU highway",
                               "https://example.org/chapters/03_nvlink.html",
                               "chapters/03_nvlink.ipynb", "Edition 9.9.9, 2030-01-01, commit x",
                               "9.9.9")
    u = urlparse(url)
    assert (u.scheme, u.netloc, u.path) == ("https", "github.com", "/o/r/issues/new")
    q = {k: v[0] for k, v in parse_qs(u.query).items()}
    assert q["template"] == FORM.name
    assert q["title"].startswith("[9.9.9] 3. NVLink: the GPU highway")
    assert q["page"] == "3. NVLink: the GPU highway"
    assert q["url"] == "https://example.org/chapters/03_nvlink.html"
    assert q["edition"] == "Edition 9.9.9, 2030-01-01, commit x"
    assert "3. NVLink" in q["body"] and "commit x" in q["body"]
    # Every prefilled field exists in the form, under that id.
    fields = set(q) - {"template", "title", "body"}
    assert fields <= set(_form_ids()), fields - set(_form_ids())


# --- release archives -----------------------------------------------------------------------

def test_release_archives_are_named_with_the_edition(tmp_path):
    site = tmp_path / "html"
    (site / "book").mkdir(parents=True)
    e = edition.Edition("9.8.7", "2030-01-02", "0123456789ab", "https://github.com/o/r")
    (site / "book" / "intro.html").write_text(f"<footer>{e.version} {e.commit}</footer>")
    (site / "index.html").write_text("<html></html>")
    pdf = tmp_path / "pdf"
    (pdf / "chapters").mkdir(parents=True)
    (pdf / "interconnects.pdf").write_bytes(b"%PDF-1.7 book")
    (pdf / "chapters" / "01_why_connect.pdf").write_bytes(b"%PDF-1.7 ch1")
    out = tmp_path / "release"
    made = release.release(site, pdf, out, e)
    names = sorted(p.name for p in made)
    assert names == sorted(["interconnects-9.8.7-site.zip", "interconnects-9.8.7.pdf",
                            "interconnects-9.8.7-chapters-pdf.zip",
                            "interconnects-9.8.7-notebooks.zip", "EDITION.txt", "SHA256SUMS"])
    with zipfile.ZipFile(out / "interconnects-9.8.7-notebooks.zip") as z:
        members = set(z.namelist())
    for doc in toc_docnames():
        if (REPO / f"{doc}.ipynb").is_file():
            assert f"interconnects-9.8.7-notebooks/{doc}.ipynb" in members
    assert "interconnects-9.8.7-notebooks/interlib/__init__.py" in members
    assert "interconnects-9.8.7-notebooks/LICENSE" in members
    with zipfile.ZipFile(out / "interconnects-9.8.7-site.zip") as z:
        assert "interconnects-9.8.7-site/book/intro.html" in z.namelist()
    sums = (out / "SHA256SUMS").read_text()
    assert "interconnects-9.8.7.pdf" in sums and "EDITION.txt" in sums
    # Deterministic: the same inputs give the same bytes.
    first = (out / "interconnects-9.8.7-notebooks.zip").read_bytes()
    release.release(site, pdf, out, e)
    assert (out / "interconnects-9.8.7-notebooks.zip").read_bytes() == first
    # A stale site (another edition in its footer) and a modified tree are refused.
    with pytest.raises(SystemExit, match="^release: the site in .* is not edition"):
        release.release(site, pdf, out, edition.Edition("9.8.8", "2030-01-02", "0123456789ab",
                                                         "https://github.com/o/r"))
    with pytest.raises(SystemExit, match="^release: the working tree has uncommitted changes"):
        release.release(site, pdf, out, edition.Edition("9.8.7", "2030-01-02",
                                                         "0123456789ab+modified", "x"))


# --- the built site: every page's footer ------------------------------------------------------

@pytest.fixture(scope="module")
def built(book_build):
    assert book_build.returncode == 0, book_build.output[-4000:]
    return edition.current()


@pytest.mark.parametrize("docname", toc_docnames())
def test_every_page_footer_gives_edition_and_licence(built, docname):
    text = (HTML / f"{docname}.html").read_text(encoding="utf-8")
    m = re.search(r'<div class="interlib-edition">(.*?)</div>', text, re.S)
    assert m, f"{docname}: no edition footer"
    footer = m.group(1)
    assert f'<strong class="interlib-version">{built.version}</strong>' in footer
    assert built.date in footer and built.commit_text in footer
    assert 'rel="license" href="https://creativecommons.org/licenses/by/4.0/"' in footer
    assert "code: MIT" in footer
    assert 'class="interlib-report"' in footer
