"""Hostile text: markup in anything a reader can type or choose comes back escaped.

A reader chooses control values (a demo's dropdown options, sent back by the live page as
JSON) and types quiz answers; the book shows them, and what the code derives from them, in
HTML: the static demo page (:mod:`interlib.widgets.page`), the live frame's numbers
(:func:`interlib.widgets.live.frame`, which the page inserts with ``innerHTML``), the quiz
HTML (:mod:`interlib.quiz`). Each test feeds a payload that closes an attribute and opens
a script, parses the HTML the library returns with the standard library's parser, and
checks that no element or attribute came from the payload and that the text reads back
unchanged. Removing any one ``html.escape`` on these paths makes a test here fail.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from matplotlib.figure import Figure

from interlib import widgets
from interlib.book import quiz
from interlib.widgets import Demo, Dropdown, FloatSlider, live, page

HOSTILE = "\"><script>alert('x')</script><img src=x onerror=alert(1)>&amp;"


class _Doc(HTMLParser):
    """Every start tag with its attributes, and the text, of an HTML fragment."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text = ""
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text += data


def _assert_inert(fragment: str, allowed: set[str]):
    doc = _Doc(fragment)
    tags = {t for t, _ in doc.tags}
    assert "script" not in tags and "img" not in tags or "img" in allowed, tags
    assert tags <= allowed, tags - allowed
    # no event handler but the form's own onsubmit="return false"
    handlers = [(k, x) for _, a in doc.tags for k, x in a.items() if k.startswith("on")]
    assert set(handlers) <= {("onsubmit", "return false")}, handlers
    return doc


# ------------------------------------------------------------------ the static demo page
def test_control_html_escapes_hostile_options_labels_and_defaults():
    dd = Dropdown(options=(HOSTILE, "plain"), default=HOSTILE, label=HOSTILE)
    doc = _assert_inert(page.control_html("hostile", "choice", dd),
                        {"div", "label", "select", "option"})
    (select,) = [a for t, a in doc.tags if t == "select"]
    assert json.loads(select["data-default"]) == HOSTILE          # the attribute reads back
    values = [a["value"] for t, a in doc.tags if t == "option"]
    assert [json.loads(x) for x in values] == [HOSTILE, "plain"]
    assert doc.text.count(HOSTILE) == 2                            # the label and the option
    sl = FloatSlider(0.0, 1.0, 0.5, label=HOSTILE)
    doc = _assert_inert(page.control_html("hostile", "x", sl), {"div", "label", "input",
                                                                  "output"})
    assert HOSTILE in doc.text


@pytest.fixture
def hostile_demo():
    """A demo whose dropdown offers markup, whose figure title and summary repeat the
    reader's choice, and whose question and answer are markup too."""

    def func(choice):
        fig = Figure(figsize=(2, 1.5), dpi=40)
        ax = fig.add_subplot()
        ax.set_title(choice)
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        return fig

    def summary(choice):
        return f"you chose {choice}"

    name = "hostile_text_test"
    demo = Demo(name, func, {"choice": Dropdown((HOSTILE, "plain"), "plain", HOSTILE)},
                summary=summary, questions=((HOSTILE, HOSTILE),))
    widgets.register(demo)
    try:
        yield name
    finally:
        widgets.DEMOS.pop(name, None)
        live._FRAMES.pop(name, None)


def test_static_page_escapes_the_demo_everywhere(hostile_demo):
    html_text = page.static_html(hostile_demo)
    doc = _assert_inert(html_text, {"div", "form", "label", "select", "option", "button",
                                    "span", "img", "pre", "details", "summary", "p", "ol",
                                    "ul", "li", "section", "h4", "strong", "em", "br",
                                    # the phone layout: <picture><source media=...><img>
                                    "picture", "source"})
    (img,) = [a for t, a in doc.tags if t == "img"]
    assert set(img) <= {"src", "alt", "style"} and img["src"].startswith("data:image/png")
    assert HOSTILE in doc.text                     # label, option, question, answer


# ------------------------------------------------------------------ the live frame
def test_live_frame_returns_a_hostile_choice_escaped(hostile_demo):
    r = json.loads(live.frame(hostile_demo, json.dumps({"choice": HOSTILE})))
    assert r["ok"], r
    assert r["summary"] == f"you chose {HOSTILE}"                  # plain text, unchanged
    doc = _assert_inert(r["summary_html"], {"pre"})                # inserted as innerHTML
    assert doc.text == f"you chose {HOSTILE}"
    assert HOSTILE in r["alt"]       # alt text: set as a DOM property by the page, not HTML


def test_live_frame_error_for_a_hostile_value_is_plain_text():
    # a value outside a control comes back as a refusal in the reader's words (shown with
    # textContent) that does not echo the value, and the developer's message as detail
    r = json.loads(live.frame("pcie_transfer", json.dumps({"lanes": HOSTILE})))
    assert r["ok"] is False and "summary_html" not in r
    assert r["error"].startswith("lanes: ") and "<" not in r["error"]
    assert "ValueError" not in r["error"] and "script" not in r["error"]
    assert r["detail"].startswith("lanes='\"><script>alert(")


# ------------------------------------------------------------------ quizzes
def test_quiz_html_escapes_questions_options_feedback_and_units():
    q1 = quiz.Choice(HOSTILE, (HOSTILE, "b"), 0, (HOSTILE, HOSTILE))
    q2 = quiz.Numeric(HOSTILE, 2.0, HOSTILE, 0.02, HOSTILE, ((4.0, HOSTILE),),
                      HOSTILE, HOSTILE)
    html_text = quiz.Quiz("hostile", HOSTILE, [q1, q2]).html()
    body, script = html_text.split("<script>", 1)
    doc = _assert_inert(body, {"style", "section", "p", "strong", "div", "fieldset",
                               "legend", "label", "input", "button", "details", "summary"})
    assert HOSTILE in doc.text
    # the checking data travels in an attribute and reads back exactly
    checks = [json.loads(a["data-check"]) for t, a in doc.tags if "data-check" in a]
    assert checks[0]["feedback"] == [HOSTILE, HOSTILE]
    assert checks[1]["mistakes"] == [[4.0, HOSTILE]] and checks[1]["unit"] == HOSTILE
    # the typed answer and the feedback are written with textContent, never as HTML
    assert "out.textContent" in script and "innerHTML" not in script


def test_a_typed_hostile_answer_gets_a_plain_text_verdict():
    # the answer is echoed in the feedback, which the page writes with textContent
    q = quiz.Numeric("How many?", 2.0, "GB/s", 0.02, "Two.")
    verdict, text = quiz.check(q, HOSTILE)
    assert verdict == "invalid" and HOSTILE in text


def test_a_pasted_log_with_markup_comes_back_escaped():
    # The "check your cluster" demo echoes the GPU name it reads from a pasted nccl-tests
    # log (when it differs from the hardware chosen); a log is anything a reader pastes
    demo = widgets.get("check_cluster")
    log = demo.controls["log"].default.replace("NVIDIA H100 80GB HBM3", f"NVIDIA {HOSTILE}")
    assert HOSTILE in log
    r = json.loads(live.frame("check_cluster", json.dumps(
        {"log": log, "hardware": "NVIDIA DGX A100"})))
    assert r["ok"], r
    assert f"the log's GPUs are 'NVIDIA {HOSTILE}'" in r["summary"]   # plain text
    doc = _assert_inert(r["summary_html"], {"pre"})
    assert HOSTILE in doc.text and HOSTILE not in r["alt"]
