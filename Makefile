# rankflavor: every target builds what it needs from nothing (a virtual environment in .venv).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
# the compiled readers: a changed C source makes pip build the editable install again
CSOURCES := $(wildcard src/rankflavor/*/*.c src/rankflavor/*/*.h)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORE   := $(VENV)/.installed-core
LIGHT  := $(VENV)/.installed-test

.PHONY: demo test test-fast lint bench bench-spark docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# the demo needs the package alone; test-fast the light test tools (no browser, JRE, Spark or peers);
# test the test tools, the peer tools (and beir, with --no-deps: pyproject.toml's beir extra), the browser and Spark too
$(CORE): $(BIN)/python pyproject.toml $(CSOURCES)
	$(BIN)/python -m pip install --quiet -e .
	touch $(CORE)

$(LIGHT): $(BIN)/python pyproject.toml $(CSOURCES)
	$(BIN)/python -m pip install --quiet -e ".[test,report]"
	touch $(LIGHT)

# the report page's browser test drives Debian's chromium, the Spark tests a JRE: each installed with apt-get when missing
# (never `playwright install`)
$(STAMP): $(BIN)/python pyproject.toml $(CSOURCES)
	$(BIN)/python -m pip install --quiet -e ".[test,browser,peers,report,spark]"
	$(BIN)/python -m pip install --quiet --no-deps "$$($(BIN)/python -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["beir"][0])')"
	[ -x /usr/bin/chromium ] || { apt-get update && apt-get install -y chromium; }
	command -v java > /dev/null || { apt-get update && apt-get install -y openjdk-17-jre-headless; }
	touch $(STAMP) $(LIGHT)

demo: $(CORE)
	$(BIN)/rankflavor demo

lint: $(LIGHT)
	$(BIN)/ruff check src tests tools benchmarks

# the whole suite, as CI runs it: with CI set, a missing heavy install fails instead of skipping (tests/heavy.py)
test: $(STAMP) lint
	CI=$${CI:-true} $(BIN)/python -m pytest -q -n 2

# the inner loop: the light install, no slow test, a quarter of each property test's examples (the fast
# hypothesis profile), 5 s of atheris; the tests that need a heavy install are skipped, one line of reason per
# group (tests/heavy.py). Measured: 1 to 1.5 min on 2 cores (docs/testing.md)
test-fast: $(LIGHT)
	HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-fast} RANKFLAVOR_FUZZ_SECONDS=$${RANKFLAVOR_FUZZ_SECONDS:-5} \
	$(BIN)/python -m pytest -q -x -n 2 -m "not slow"

# side-by-side timing and memory against the installed peers; the workload is generated into
# bench-data/ (git-ignored) when absent. BENCH_ARGS=--repeat 5, --skip-peers, --queries 700 ...
# The peers' modules were compiled to bytecode by pip; rankflavor's editable install is compiled here, as a
# wheel's would be (this machine sets PYTHONDONTWRITEBYTECODE: each run would compile every module again).
# C trec_eval 10.0 is TREC_EVAL (default: trec_eval on PATH, else /tmp/te/trec_eval, built from its source with
# `git archive HEAD | tar -x -C /tmp/te && make -C /tmp/te` in a clone of usnistgov/trec_eval); its test/ folder
# beside it gives the trec_eval test-files row
TREC_EVAL ?= $(firstword $(shell command -v trec_eval) /tmp/te/trec_eval)
bench: $(STAMP)
	$(BIN)/python -m compileall -q src/rankflavor > /dev/null
	TREC_EVAL=$(TREC_EVAL) $(BIN)/python benchmarks/bench.py $(BENCH_ARGS)

# rankflavor's Spark engine on a standalone cluster of this machine (a master, two workers: benchmarks/spark_cluster.py)
# against the local engine, on the synthetic workload at 1x, 4x, 10x (1M rows at 1x): rows/s/core, the growth from
# 4x to 10x, the driver's and the executors' memory. BENCH_ARGS=--queries 2000 --sizes 1,2,4 ... (--cluster 0: local[2])
bench-spark: $(STAMP)
	$(BIN)/python benchmarks/bench_spark.py --cluster 2 $(BENCH_ARGS)

# the generated tables (docs/flavors.md, docs/metrics.md) and pages (docs/axes.md, docs/input-catalogue.md), then a
# check of every relative link in README.md, ARCHITECTURE.md and docs/ (tests/test_docs.py fails when either is off)
docs: $(CORE)
	$(BIN)/python tools/docs.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
