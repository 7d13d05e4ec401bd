"""Draw a midterm and a final from the exam bank (`make exam SEED=n`).

Writes the student papers, without answers, into _build/exams/seed-<n>/: midterm.md and
final.md, and printable midterm.pdf and final.pdf (A4, a name and id field, room to work;
tagged PDF with a title and a language, printed with Debian's Chromium). The keys are not
written here: `make instructor SEED=n` puts both exams' keys into the instructor edition
(tools/course/exam_bank.py, keys_markdown).

    .venv/bin/python tools/exam.py --seed N [--out _build/exams] [--no-pdf]
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from course import exam_bank  # noqa: E402

CSS = ("body{font:11pt/1.45 'DejaVu Sans',sans-serif;margin:0}h1{font-size:17pt}"
       "h2{font-size:12.5pt;margin:1.2em 0 .3em;break-after:avoid}"
       "h2+p,h2+p+p{break-before:avoid}p{margin:.35em 0}"
       ".work{height:7em;border:1px dashed #bbb;margin:.4em 0 1em}")


def paper_html(name: str, seed: int) -> str:
    """The paper as a printable page: each part followed by room to work."""
    from markdown_it import MarkdownIt

    md = exam_bank.paper(name, seed)
    body = MarkdownIt("commonmark").render(md)
    body = body.replace("</ul>\n<p><strong>(", "</ul>\n<div class='work'></div>\n<p><strong>(")
    body = body.replace("<h2>", "<div class='work'></div>\n<h2>")
    body = body.replace("<div class='work'></div>\n<h2>", "<h2>", 1)
    title = f"Interconnects: {name} (seed {seed})"
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title><style>{CSS}</style></head><body>{body}"
            "<div class='work'></div></body></html>")


def build(seed: int, out: Path, pdf: bool = True) -> list[Path]:
    d = out / f"seed-{seed}"
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in exam_bank.EXAMS:
        p = d / f"{name}.md"
        p.write_text(exam_bank.paper(name, seed), encoding="utf-8")
        paths.append(p)
    if pdf:
        from handouts import print_pdfs

        paths += print_pdfs([(d / f"{name}.pdf", paper_html(name, seed))
                             for name in exam_bank.EXAMS], **PDF)
    return paths


PDF = dict(format="A4", print_background=False, tagged=True, outline=True,
           margin={"top": "16mm", "bottom": "16mm", "left": "16mm", "right": "16mm"})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", type=Path, default=REPO / "_build" / "exams")
    ap.add_argument("--no-pdf", action="store_true")
    args = ap.parse_args(argv)
    if args.seed < 0:
        ap.error(f"--seed {args.seed}: a whole number from 0")
    for p in build(args.seed, args.out, pdf=not args.no_pdf):
        print(p.relative_to(REPO) if p.is_relative_to(REPO) else p)
    print("keys: make instructor SEED=%d (the instructor edition only)" % args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
