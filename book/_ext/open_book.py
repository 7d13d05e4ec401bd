"""Sphinx extension: the open-book apparatus on every page (loaded via _config.yml).

1. **Edition footer.** Every page's footer says which edition it is (version from
   pyproject.toml, date and commit from git at build time, or a stated fallback without git:
   ``tools/edition.py``), under which licences, and links to How to cite, the Changelog and
   the Errata.
2. **Report a problem.** Every page's footer links to a new issue in the repository of
   ``_config.yml`` (``repository.url``), through the issue form
   ``.github/ISSUE_TEMPLATE/report-a-problem.yml``, prefilled with the page's title, its
   URL and the edition: GitHub fills a form's fields from query parameters named by the
   fields' ids (``page``, ``url``, ``edition``), ``title`` sets the issue's title and
   ``body`` is kept for a repository without the form. It is a link only: nothing is loaded
   from anywhere at read time. The URL in the link is the page's path in the book; an
   inline script (no request) replaces it with the address the reader actually has open.
3. **The third-party notice is complete** (``tools/notices.py``): every vendored file and
   every document of the measurement CSV has its row in ``THIRD_PARTY_NOTICES.md``, or the
   build warns (and ``-W`` fails), naming what to add.
4. **Citation.** The directive ``{edition-citation}`` writes the current edition's
   citation (text and BibTeX) from ``CITATION.cff`` and the version in pyproject.toml, so the
   How-to-cite page never states a stale version.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from urllib.parse import quote, urlencode

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "tools"))
from edition import current as _edition  # noqa: E402

ISSUE_TEMPLATE = "report-a-problem.yml"
CC_BY = "https://creativecommons.org/licenses/by/4.0/"
# Where the footer's links point (docnames); each must be in _toc.yml.
CITE_DOC, CHANGELOG_DOC, ERRATA_DOC = "book/cite", "book/changelog", "book/corrections"
# The URL placeholder in each report link until the inline script sets the reader's address.
_SCRIPT = """<script>
document.querySelectorAll('a.interlib-report').forEach(function (a) {
  var u = new URL(a.href), here = location.href.split('#')[0], page = a.dataset.pageUrl;
  u.searchParams.set('url', here);
  u.searchParams.set('body', u.searchParams.get('body').replace(page, here));
  a.href = u.toString();
});
</script>"""


def _plain(title: str) -> str:
    """A page title as plain text (Sphinx gives it as HTML)."""
    return html.unescape(re.sub(r"<[^>]+>", "", title or "")).replace("\u00b6", "").strip()


def report_url(repository: str, page_title: str, page_url: str, source: str,
               edition_text: str, version: str) -> str:
    """The prefilled new-issue link for one page (module docstring, 2)."""
    body = (f"**Page:** {page_title}\n**URL:** {page_url}\n**Source file:** {source}\n"
            f"**Edition:** {edition_text}\n\n**What is wrong?**\n\n\n"
            "**Your source** (a datasheet, paper, measurement or link that shows it):\n\n")
    params = {"template": ISSUE_TEMPLATE, "title": f"[{version}] {page_title}: ",
              "page": page_title, "url": page_url, "source-file": source,
              "edition": edition_text, "body": body}
    return f"{repository}/issues/new?" + urlencode(params, quote_via=quote)


def footer_html(app, pagename: str, title: str) -> str:
    e = _edition()
    rel = lambda doc: app.builder.get_relative_uri(pagename, doc)  # noqa: E731
    commit = (f'<a href="{html.escape(e.commit_url)}"><code>{html.escape(e.commit)}</code></a>'
              if e.commit_url else f"<code>{html.escape(e.commit_text)}</code>")
    source = app.env.doc2path(pagename, base=False) if pagename in app.env.all_docs else ""
    page_url = f"{pagename}.html"
    link = report_url(e.repository, title, page_url, str(source), e.text, e.version)
    return (
        '<div class="interlib-edition">'
        f'<p><em>Interconnects</em>, edition <strong class="interlib-version">'
        f'{html.escape(e.version)}</strong>, {html.escape(e.date)}, commit {commit}. '
        f'Text and figures: <a rel="license" href="{CC_BY}">CC BY 4.0</a>; code: MIT '
        f'(<a href="{rel(CITE_DOC)}#licences">licences</a>). '
        f'<a href="{rel(CITE_DOC)}">How to cite</a> · '
        f'<a href="{rel(CHANGELOG_DOC)}">Changelog</a> · '
        f'<a href="{rel(ERRATA_DOC)}">Errata</a></p>'
        f'<p><a class="interlib-report" href="{html.escape(link)}" '
        f'data-page-url="{html.escape(page_url)}">Report a problem with this page</a> '
        "(opens a form on GitHub with this page and edition filled in)</p></div>" + _SCRIPT)


def add_footer(app, pagename, templatename, context, doctree) -> None:
    """Module docstring, 1 and 2: the page's own footer (``theme_extra_footer``)."""
    title = _plain(context.get("title") or "") or _plain(app.config.project)
    context["theme_extra_footer"] = footer_html(app, pagename, title)


# --- the {edition-citation} directive --------------------------------------------------------

def citation_data() -> dict:
    import yaml

    cff = yaml.safe_load((REPO / "CITATION.cff").read_text())
    e = _edition()
    authors = " and ".join(a.get("name") or f"{a['family-names']}, {a['given-names']}"
                           for a in cff["authors"])
    return {"title": cff["title"], "authors": authors, "version": e.version,
            "year": str(cff["date-released"])[:4], "date": str(cff["date-released"]),
            "url": cff.get("url") or cff["repository-code"], "commit": e.commit_text,
            "licence": " (text) and ".join(cff["license"]) + " (code)"}


def bibtex(d: dict) -> str:
    key = "interconnects_" + re.sub(r"[^0-9A-Za-z]+", "_", d["version"])
    # Braces keep BibTeX from lower-casing GPUs and from splitting a collective author.
    title = d["title"].replace("GPUs", "{GPUs}")
    author = "{" + d["authors"] + "}" if " and " not in d["authors"] else d["authors"]
    return (f"@misc{{{key},\n"
            f"  title        = {{{title}}},\n"
            f"  author       = {{{author}}},\n"
            f"  year         = {{{d['year']}}},\n"
            f"  edition      = {{{d['version']}}},\n"
            f"  version      = {{{d['version']}}},\n"
            f"  howpublished = {{\\url{{{d['url']}}}}},\n"
            f"  note         = {{Released {d['date']}; text CC BY 4.0, code MIT}},\n"
            "}")


def _citation_directive():
    from docutils import nodes
    from docutils.parsers.rst import Directive

    class EditionCitation(Directive):
        has_content = False

        def run(self):
            d = citation_data()
            para = nodes.paragraph()
            para += nodes.Text(f"{d['authors']} ({d['year']}). ")
            para += nodes.emphasis(text=d["title"])
            para += nodes.Text(f", edition {d['version']} (released {d['date']}). ")
            para += nodes.reference(text=d["url"], refuri=d["url"])
            para += nodes.Text(". Licence: CC BY 4.0 (text and figures), MIT (code).")
            code = nodes.literal_block(bibtex(d), bibtex(d), language="bibtex")
            return [para, code]

    return EditionCitation


def set_edition(app, config) -> None:
    """The edition as a config value that rebuilds HTML: when the commit or version changes,
    Sphinx's build info no longer matches and every page is written again, so no page of an
    incremental build keeps an old edition in its footer."""
    config.interconnects_edition = _edition().text


def check_notice(app) -> None:
    """The third-party notice is complete (tools/notices.py): else a warning per gap, which
    fails ``make book`` (``-W``)."""
    import notices
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    for problem in notices.problems(REPO):
        logger.warning(problem)


def setup(app):
    app.connect("builder-inited", check_notice)
    app.add_config_value("interconnects_edition", "", "html")
    app.connect("config-inited", set_edition)
    app.connect("html-page-context", add_footer)
    app.add_directive("edition-citation", _citation_directive())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
