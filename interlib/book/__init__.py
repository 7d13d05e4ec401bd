"""The book's apparatus: what only the book's pages need, above the models, plots and demos.

- :mod:`~interlib.book.quiz` (the quiz machinery and answer checks) and
  :mod:`~interlib.book.quizzes` (each chapter's quiz);
- :mod:`~interlib.book.problems` (the problem sets and their checks) and
  :mod:`~interlib.book.worked` (worked solutions, shown folded);
- :mod:`~interlib.book.errata` (Appendix B: published claims checked against the
  catalogue), built from :mod:`~interlib.book.errata_base` and
  :mod:`~interlib.book.errata_claims`;
- :mod:`~interlib.book.notation` (the notation tables).

Nothing below this package imports it (``[tool.importlinter]`` in ``pyproject.toml``).
Import the modules you need, e.g. ``from interlib.book import worked``.
"""
