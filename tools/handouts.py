"""Per-session handouts (PDF), one per session plan of book/instructors.md
(`make handouts SEED=n`): a name and id field, what to read before, the session's
exit-ticket questions (the chapters' quizzes, without answers) and its problem set
(statements and givens of variant SEED, without answers), with room to work under each;
no heading is left alone at the foot of a page. Printed with Debian's Chromium through
Playwright, offline, as tagged PDF with the session's title and the language set
(accessibility: screen readers read the structure), into _build/handouts/session-<k>.pdf.

    .venv/bin/python tools/handouts.py [--seed N] [--out _build/handouts]
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from course import problems  # noqa: E402
from interlib.book import quizzes  # noqa: E402
from interlib.book.problems import md_html as _md_html, md_inline as _md_inline  # noqa: E402
from interlib.book.quiz import Choice  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
#: The three 90-minute sessions of book/instructors.md: title, quizzes, problem sets
SESSIONS = {
    1: ("Why GPUs talk, and how fast (Chapters 1 and 2)", ("ch01", "ch02"), ("A",)),
    2: ("Inside the box (Chapters 3 and 4)", ("ch03", "ch04"), ("B",)),
    3: ("Across the data centre, and what it costs (Chapters 5 to 8)",
        ("ch05", "ch06", "ch07", "ch08"), ("C", "D")),
}
CSS = ("body{font:11pt/1.45 'DejaVu Sans',sans-serif;margin:0}h1{font-size:17pt;margin:0 0 .2em}"
       "h2{font-size:13pt;border-bottom:1px solid #999;margin:1.2em 0 .4em}"
       "h2,h3{break-after:avoid;page-break-after:avoid}"
       "h3{font-size:11.5pt;margin:1em 0 .2em}.work{height:5.5em;border:1px dashed #bbb;"
       "margin:.4em 0 1em}ol li{margin:.3em 0}.opt{margin-left:1.2em}"
       ".q,.keep{break-inside:avoid;page-break-inside:avoid}"
       ".who{display:flex;gap:2em;margin:.6em 0 1em}.who span{flex:1;border-bottom:1px solid "
       "#444;padding-bottom:.2em}")
#: Playwright's PDF options for the handouts (tagged: a structure a screen reader follows)
PDF = dict(format="A4", print_background=False, tagged=True, outline=True,
           margin={"top": "16mm", "bottom": "16mm", "left": "16mm", "right": "16mm"})


def session_html(k: int, seed: int = 0) -> str:
    title, quiz_names, sets = SESSIONS[k]
    e = html.escape
    head = f"Session {k}: {title}"
    out = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>"
           f"{e(head)}</title><style>{CSS}</style></head>"
           f"<body><h1>{e(head)}</h1>"
           "<div class='who'><span>Name:</span><span>Student id:</span></div>"
           "<p>Interconnects: how GPUs talk to each other. Read before the session: "
           + ", ".join(e(quizzes.show(n).title.replace(" self-check", "")) for n in quiz_names)
           + " (each chapter's demos and its self-check).</p>"]
    first = True
    for n in quiz_names:
        for q in quizzes.show(n).questions:
            opts = ("".join(f"<div class='opt'>☐ {e(o)}</div>" for o in q.options)
                    if isinstance(q, Choice) else
                    f"<div class='opt'>Answer: ______________ {e(q.unit)}</div>")
            item = f"<li class='q'>{e(q.question)}{opts}</li>"
            if first:  # the heading and the first question stay together
                out.append(f"<div class='keep'><h2>Exit tickets</h2><ol>{item}</ol></div><ol "
                           "start='2'>")
                first = False
            else:
                out.append(item)
    out.append("</ol>")
    for s in sets:
        heading = f"<h2>Problem set {s}" + (f" (variant {seed})" if seed else "") + "</h2>"
        for i, key in enumerate(problems.SETS[s]):
            p = problems.get(key, seed)
            unit = f" (answer in {e(p.numeric.unit)})" if p.numeric.unit else ""
            givens = "".join(f"<li>{_md_inline(g)}</li>" for g in p.givens)
            out.append(f"<div class='q'>{heading if i == 0 else ''}<h3>{e(key)}. "
                       f"{e(p.title)} ({e(p.difficulty)}){unit}</h3>{_md_html(p.question)}"
                       + (f"<p><em>Given:</em></p><ul>{givens}</ul>" if givens else "")
                       + f"<p><em>Method:</em> {_md_inline(p.section)}.</p>"
                       + "<div class='work'></div></div>")
    out.append("</body></html>")
    return "".join(out)


def print_pdfs(jobs, **pdf_options) -> list[Path]:
    """Print each ``(path, html)`` of ``jobs`` to a PDF at ``path`` with Debian's Chromium
    (Playwright), every request off the page refused (offline); ``pdf_options`` go to
    Playwright's ``page.pdf``. The one printer of the handouts and the slides."""
    from playwright.sync_api import sync_playwright

    paths = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox"])
        page = browser.new_page()
        page.route("**/*", lambda r: r.abort() if r.request.url.startswith("http")
                   else r.continue_())
        for path, text in jobs:
            page.set_content(text, wait_until="load")
            path.write_bytes(page.pdf(**pdf_options))
            paths.append(path)
        browser.close()
    return paths


def build(seed: int = 0, out: Path = REPO / "_build" / "handouts") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    return print_pdfs([(out / f"session-{k}.pdf", session_html(k, seed)) for k in SESSIONS],
                      **PDF)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=REPO / "_build" / "handouts")
    args = ap.parse_args(argv)
    for p in build(args.seed, args.out):
        print(p.relative_to(REPO) if p.is_relative_to(REPO) else p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
