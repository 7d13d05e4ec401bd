"""The book's apparatus: what only the book's pages need, above the models, plots and demos.

- :mod:`~interlib.book.quiz` (the quiz machinery and answer checks) and
  :mod:`~interlib.book.quizzes` (each chapter's quiz);
- :mod:`~interlib.book.problems` (the book's problem sets, seed 0, and their checks;
  read from the generated :mod:`~interlib.book.problem_data`),
  :mod:`~interlib.book.answers` (how a typed answer is read, in Python and on the page),
  :mod:`~interlib.book.assignment` (a graded notebook's student side: each student's
  variant, a check of form) and :mod:`~interlib.book.worked` (the chapters' worked
  solutions, shown folded);
- :mod:`~interlib.book.errata` (Appendix B: published claims checked against the
  catalogue), built from :mod:`~interlib.book.errata_base` and
  :mod:`~interlib.book.errata_claims`;
- :mod:`~interlib.book.notation` (the notation tables).

Nothing below this package imports it (``[tool.importlinter]`` in ``pyproject.toml``).
Import the modules you need, e.g. ``from interlib.book import worked``. The instructor's
side (variants, keys, worked solutions of the problem sets, the exam bank) is not here:
it is in ``tools/course`` of the repository.
"""
