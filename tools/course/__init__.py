"""The instructor's side of the course, outside the reader's package (the site's wheel,
JupyterLite and ``pip install .`` carry ``interlib`` only): the problem builders and their
variants (:mod:`.problems`), keys and worked solutions (:mod:`.keys`), per-student variants
and the frozen autograder (:mod:`.grading`), the exam bank (:mod:`.exam_bank`) and the QTI
export (:mod:`.qti`). Used by ``tools/*.py`` (``make assignments``, ``make instructor``,
``make exam``).
"""
