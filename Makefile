# Interconnects: build, test and run the book. Every target creates .venv first if needed.
#   make book      build the static site into _build/html (warnings are errors)
#   make test      all tests: interlib, notebook hygiene, strict nbval, book build, browser
#   make execute   re-run every notebook top to bottom on a fresh kernel, in place
#   make lab       open the repository in JupyterLab
#   make bench     benchmarks (tools/bench.py): table, _build/bench.json, README section
#   make vendor    re-vendor the site's JavaScript (tools/vendor_assets.sh; needs npm)

SHELL  := /bin/bash
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# The venv as a file target: (re)installed only when requirements.txt changes.
VENV_STAMP := $(VENV)/.requirements-installed
# pytest-xdist: two workers; --dist loadfile keeps all cells of one notebook in one worker.
PYTEST_ARGS ?= -n 2 --dist loadfile
# JupyterLab refuses to run as root without --allow-root (containers, CI).
LAB_ARGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: book test execute lab bench vendor clean help

help:
	@sed -n '2,8p' Makefile | sed 's/^# //'

$(VENV_STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -r requirements.txt
	touch $@

book: $(VENV_STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going

test: $(VENV_STAMP)
	env -u MPLBACKEND $(BIN)/pytest $(PYTEST_ARGS)

execute: $(VENV_STAMP)
	env -u MPLBACKEND $(BIN)/python tools/execute_notebooks.py

lab: $(VENV_STAMP)
	env -u MPLBACKEND $(BIN)/jupyter lab --notebook-dir=. $(LAB_ARGS)

# Builds the site first (page weights are measured on it); BENCH_ARGS e.g. --moves 20.
BENCH_ARGS ?= --readme
bench: $(VENV_STAMP)
	env -u MPLBACKEND $(BIN)/python tools/bench.py $(BENCH_ARGS)

vendor: $(VENV_STAMP)
	bash tools/vendor_assets.sh

clean:
	rm -rf _build
