# Interconnects: build, test and run the book. Every target creates .venv first if needed.
#   make book      build the student edition into _build/html, with its JupyterLite edition
#                  in _build/html/lite (warnings are errors); EDITION=instructor: as below
#   make instructor  the instructor edition (worked solutions, keys; SEED=n for a variant)
#                  into _build/instructor/_build/html
#   make assignments SEED=n [ROSTER=class.csv]  graded problem sets, a variant per student
#                  (otter-grader) into assignments/seed-n; refuses to run without SEED
#   make exam SEED=n   a midterm and a final drawn from the exam bank into _build/exams,
#                  their keys into the instructor edition (make instructor SEED=n)
#   make qti       the quizzes and the exam bank as QTI 1.2 zips (Canvas, Moodle,
#                  Blackboard) into _build/qti
#   make handouts SEED=n     one PDF per session plan into _build/handouts
#   make slides      one deck per session plan (HTML + PDF) into _build/slides
#   make test      all tests: interlib, notebook hygiene, strict nbval, book build, browser
#                  (Hypothesis draws the same examples every run: tests/conftest.py)
#   make test-random  the property tests (Hypothesis) with fresh random examples each run
#   make test-grading  the autograder's full matrix in a fresh environment (slow; make test
#                  grades a representative subset)
#   make pdf       the whole book as one PDF: _build/pdf/interconnects.pdf
#   make release   an edition's archives (site, PDF, notebooks) in _build/release/
#   make execute   re-run every notebook top to bottom on a fresh kernel, in place
#   make lab       open the repository in JupyterLab (the reader's environment only)
#   make bench     benchmarks (tools/bench.py): table, _build/bench.json, CONTRIBUTING.md section
#   make mutation  mutation score of the models (tools/mutation.py, mutmut; slow, not in test)
#   make lock      re-resolve requirements.txt and requirements-dev.txt from their .in files
#   make vendor    re-vendor the site's JavaScript (tools/vendor_assets.sh; needs npm)

SHELL  := /bin/bash
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two locked environments in one venv (CONTRIBUTING.md, "Locks"): the reader's (requirements.txt,
# what Binder installs) and the developer's on top of it (requirements-dev.txt). Stamps:
# each is (re)installed only when its lock changes. Both locks carry hashes, so pip checks
# every download. interlib itself is installed editable, without dependencies (they are
# all in the lock).
READER_STAMP := $(VENV)/.reader-installed
VENV_STAMP := $(VENV)/.dev-installed
PIP := $(BIN)/python -m pip --disable-pip-version-check
# pytest-xdist: three workers on CI's two cores (much of the run waits on Chromium, JupyterLab
# and subprocesses, not on this CPU); --dist loadgroup with every test in its file's group
# (tests/conftest.py: a notebook's cells stay in order on one worker; a few long files run
# in parts side by side), longest groups first (--no-loadscope-reorder keeps that order).
PYTEST_ARGS ?= -n 3 --dist loadgroup --no-loadscope-reorder
# JupyterLab refuses to run as root without --allow-root (containers, CI).
LAB_ARGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: book instructor assignments exam qti handouts slides lite test test-random test-grading pdf release execute lab bench mutation lock vendor clean help

help:
	@sed -n '2,26p' Makefile | sed 's/^# //'

$(READER_STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install -r requirements.txt
	$(PIP) install --no-deps -e .
	touch $@

# The developer's lock is complete (every transitive pin, with hashes), so pip installs it
# without resolving (--no-deps): its resolver in hash-checking mode rejects a package that one
# dependent asks for with an extra (textual: markdown-it-py[linkify]) and another without.
# pip check then proves the installed set is consistent.
$(VENV_STAMP): $(READER_STAMP) requirements-dev.txt
	$(PIP) install --no-deps -r requirements.txt -r requirements-dev.txt
	$(PIP) check
	touch $@

# The site, then (book/_ext/lite_launch.py) its JupyterLite edition in _build/html/lite.
EDITION ?= student
SEED ?= 0
ifeq ($(EDITION),instructor)
book: instructor
else
book: $(VENV_STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going
endif

# The instructor edition: generates and executes book/problems_solutions.ipynb (never
# committed), checks every key answer, builds into _build/instructor/_build/html.
instructor: $(VENV_STAMP)
	env -u MPLBACKEND $(BIN)/python tools/instructor_edition.py --seed $(SEED)

# One graded assignment per problem set (otter-grader, developer's lock; tools/course/
# grading.py): the student's notebook (a variant per student id) and the autograder zip
# (frozen keys, the edition's interlib wheel). SEED is the term's and must be given.
ROSTER ?=
assignments: $(VENV_STAMP)
	@if [ "$(origin SEED)" = "file" ]; then echo "make assignments needs the term's seed: make assignments SEED=n [ROSTER=class.csv] (n from 1; keep it to yourself)" >&2; exit 2; fi
	env -u MPLBACKEND $(BIN)/python tools/assignments.py --seed $(SEED) $(if $(ROSTER),--roster $(ROSTER),)

# A midterm and a final drawn from the exam bank (tools/exam.py) for SEED: student papers
# into _build/exams/seed-n; the keys go into the instructor edition (make instructor SEED=n).
exam: $(VENV_STAMP)
	@if [ "$(origin SEED)" = "file" ]; then echo "make exam needs a seed: make exam SEED=n" >&2; exit 2; fi
	$(BIN)/python tools/exam.py --seed $(SEED)

# The chapters' quizzes and the exam bank as QTI 1.2 zips (tools/qti.py, text2qti).
qti: $(VENV_STAMP)
	$(BIN)/python tools/qti.py

# Per-session handouts (tools/handouts.py; Debian's Chromium): reading, exit tickets and
# the session's problems without answers, for variant SEED.
handouts: $(VENV_STAMP)
	$(BIN)/python tools/handouts.py --seed $(SEED)

# Slides (tools/slides.py; Debian's Chromium): one deck per session plan of
# book/instructors.md, from the plan and the chapters' stored outputs, offline.
slides: $(VENV_STAMP)
	$(BIN)/python tools/slides.py

# Rebuild only the JupyterLite edition into the built site (make book does it too).
lite: $(VENV_STAMP)
	$(BIN)/python tools/build_lite.py

# Prints the built site's pages with Debian's Chromium (tools/build_pdf.py).
pdf: book
	$(BIN)/python tools/build_pdf.py

# An edition's versioned artefacts (tools/release.py; CONTRIBUTING.md, "Cutting an edition"): the
# site, the PDFs and the notebooks, named with the version, in _build/release/. Refuses
# uncommitted changes; RELEASE_ARGS=--allow-modified for a trial run.
RELEASE_ARGS ?=
release: pdf
	$(BIN)/python tools/release.py $(RELEASE_ARGS)

# Needs the package index. Then commit requirements*.txt.
lock: $(VENV_STAMP)
	UV=$(BIN)/uv bash tools/lock.sh

# The project's own modules compiled once, up front: every notebook kernel, JupyterLab kernel
# and test worker imports interlib, and where PYTHONDONTWRITEBYTECODE is set (containers, CI
# images) each of those processes compiled it again (compileall writes regardless). Measured:
# tests/test_eval_expressions.py alone 84 -> 70 CPU-s.
PYC := $(BIN)/python -m compileall -q -j 0 interlib tests tools book/_ext

test: $(VENV_STAMP)
	$(PYC)
	env -u MPLBACKEND $(BIN)/pytest $(PYTEST_ARGS)

# The property tests (every test file that uses Hypothesis) with random examples, a new draw
# each run (make test's are derandomized, see tests/conftest.py). A failure prints the
# example and a seed (--hypothesis-seed=N) that replays it.
HYPOTHESIS_TESTS = $(shell grep -l "^from hypothesis import" tests/test_*.py)
test-random: $(VENV_STAMP)
	env -u MPLBACKEND HYPOTHESIS_PROFILE=random $(BIN)/pytest $(PYTEST_ARGS) -o addopts= \
	    -p no:nbval --hypothesis-show-statistics $(HYPOTHESIS_TESTS)

# The autograder's whole matrix (every set x solution, 1s, typical mistakes, tampered) in
# a fresh Python 3.11 environment built from the zip (tests/test_assignments.py; minutes).
test-grading: $(VENV_STAMP)
	env -u MPLBACKEND GRADING_MATRIX=1 $(BIN)/pytest -n 0 -p no:cacheprovider -s tests/test_assignments.py

execute: $(VENV_STAMP)
	env -u MPLBACKEND $(BIN)/python tools/execute_notebooks.py

lab: $(READER_STAMP)
	env -u MPLBACKEND $(BIN)/jupyter lab --notebook-dir=. $(LAB_ARGS)

# Builds the site first (page weights are measured on it); BENCH_ARGS e.g. --moves 20.
BENCH_ARGS ?= --readme
bench: $(VENV_STAMP)
	env -u MPLBACKEND $(BIN)/python tools/bench.py $(BENCH_ARGS)

# Not part of `make test` (CPU-heavy: hours on two cores). MUTATION_ARGS e.g.
# --modules nvlink pcie, or --ref main for another revision's tests and code.
MUTATION_ARGS ?= --readme
mutation: $(VENV_STAMP)
	env -u MPLBACKEND nice -n 10 $(BIN)/python tools/mutation.py $(MUTATION_ARGS)

vendor: $(VENV_STAMP)
	bash tools/vendor_assets.sh

clean:
	rm -rf _build
