"""QTI 1.2 export (issue 35 item 6): the chapters' quizzes and the exam bank, written by
text2qti (tools/course/qti.py), parsed back here with the standard library's XML parser.

What each export must hold comes from the quizzes and the bank themselves: one item per
question or part; a multiple-choice item's right response is the quiz's right option; a
numerical item accepts exactly the answer ± its tolerance (the quiz's, read independently
of text2qti's own text); an essay item per short answer.
"""

from __future__ import annotations

import html
import sys
import zipfile
import xml.etree.ElementTree as ET

import pytest

from conftest import REPO
from interlib.book import quizzes
from interlib.book.quiz import Choice

sys.path.insert(0, str(REPO / "tools"))
from course import exam_bank, problems, qti  # noqa: E402

NS = {"q": "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("qti")
    return {p.stem: p for p in qti.export(out, seed=3)}


def _items(path):
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert "imsmanifest.xml" in names
        ET.fromstring(z.read("imsmanifest.xml"))  # well-formed
        (xml,) = [n for n in names if n.endswith(".xml") and "/" in n
                  and not n.endswith("assessment_meta.xml")]
        root = ET.fromstring(z.read(xml))
    assert root.tag == f"{{{NS['q']}}}questestinterop"
    (assessment,) = root.findall("q:assessment", NS)
    return assessment.get("title"), assessment.findall(".//q:item", NS)


def _meta(item, label):
    for f in item.iter(f"{{{NS['q']}}}qtimetadatafield"):
        if f.find("q:fieldlabel", NS).text == label:
            return f.find("q:fieldentry", NS).text
    return None


def _bounds(item):
    ge = item.find(".//q:vargte", NS)
    le = item.find(".//q:varlte", NS)
    eq = item.find(".//q:varequal", NS)
    return (float(ge.text) if ge is not None else None,
            float(le.text) if le is not None else None, float(eq.text))


@pytest.mark.parametrize("name", list(quizzes.QUIZZES))
def test_each_quiz_exports_with_its_answers(exported, name):
    qz = quizzes.show(name)
    title, items = _items(exported[f"quiz-{name}"])
    assert title == f"Interconnects: {qz.title}"
    assert len(items) == len(qz.questions)
    for item, q in zip(items, qz.questions):
        text = item.find(".//q:presentation/q:material/q:mattext", NS).text
        if isinstance(q, Choice):
            assert _meta(item, "question_type") == "multiple_choice_question"
            labels = item.findall(".//q:response_label", NS)
            assert len(labels) == len(q.options)
            (right,) = [rc.find("q:conditionvar/q:varequal", NS).text
                        for rc in item.findall(".//q:respcondition", NS)
                        if (sv := rc.find("q:setvar", NS)) is not None
                        and sv.get("varname") == "SCORE" and sv.text == "100"]
            ident = [lab.get("ident") for lab in labels]
            shown = [html.unescape(lab.find(".//q:mattext", NS).text).replace("\u2019", "'")
                     for lab in labels]
            assert q.options[q.correct] in shown[ident.index(right)]
        else:
            assert _meta(item, "question_type") == "numerical_question"
            lo, hi, eq = _bounds(item)
            assert eq == pytest.approx(q.answer, abs=6e-5)
            if q.exact:
                assert lo is None or lo == pytest.approx(q.answer)
            else:
                assert lo == pytest.approx(q.answer * (1 - q.tolerance), abs=6e-5)
                assert hi == pytest.approx(q.answer * (1 + q.tolerance), abs=6e-5)
            assert q.unit in text or not q.unit


def test_the_exam_bank_exports_every_part(exported):
    title, items = _items(exported["exam-bank"])
    assert title == "Interconnects: exam bank"
    parts = [(it, p) for it in exam_bank.bank() for p in it.parts]
    assert len(items) == len(parts) and len(exam_bank.bank()) >= 40
    essays = 0
    for item, (it, part) in zip(items, parts):
        text = item.find(".//q:presentation/q:material/q:mattext", NS).text
        assert it.id in text
        assert _meta(item, "points_possible") == str(part.points)
        if part.problem:
            q = problems.get(part.problem, exam_bank.exam_seed(3, part.problem)).numeric
            assert _meta(item, "question_type") == "numerical_question"
            lo, hi, eq = _bounds(item)
            assert eq == pytest.approx(q.answer, abs=6e-5)
            if not q.exact:
                assert (lo, hi) == (pytest.approx(q.answer * (1 - q.tolerance), abs=6e-5),
                                    pytest.approx(q.answer * (1 + q.tolerance), abs=6e-5))
            assert "$" not in text or "\\$" not in text  # text2qti's LaTeX escape resolved
        else:
            essays += 1
            assert _meta(item, "question_type") == "essay_question"
    assert essays == sum(1 for it in exam_bank.bank() for p in it.parts if not p.problem)


def test_dollar_amounts_survive_the_latex_escape(exported):
    title, items = _items(exported["exam-bank"])
    texts = [i.find(".//q:presentation/q:material/q:mattext", NS).text for i in items]
    assert any("$3.00 per GPU-hour" in t or "per GPU-hour" in t for t in texts)
    assert not any("\\$" in t for t in texts)
