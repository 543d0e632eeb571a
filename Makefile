# Two entry points for a fresh machine (see README): `make serve` and `make test`.
# Everything they need is installed here: a virtualenv from constraints.txt, the npm assets,
# and (for the browser tests) Debian's chromium + fonts-noto-cjk.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build check lint test test-fast fuzz bench system-deps lock clean readme-shots

$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test,pagefind]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

setup: $(VENV)/.installed node_modules/.installed

# Debian's chromium and CJK fonts (Chinese renders as boxes without them).
system-deps:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

serve: setup
	$(BIN)/mkdocs serve --dirty --livereload

build: setup
	$(BIN)/mkdocs build --strict

check: setup
	$(BIN)/duizhao check --strict

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The whole suite: lint, types, the project's own checks, a strict build, unit and browser tests.
# pytest runs on PYTEST_WORKERS workers (pytest-xdist), each given whole files (a module's
# fixtures are set up once), the longest first (tests/conftest.py: LONGEST_FILES).
# Bytecode is written (__pycache__/, ignored by git) even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): else every worker and every CLI or `mkdocs serve` subprocess a
# test starts compiles the package and rewrites the tests' asserts again (collection alone:
# 8.1 s of CPU a process without the cache, 2.6 s with it).
PYTEST_WORKERS ?= 2
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder
test test-fast: export PYTHONDONTWRITEBYTECODE :=
test: setup system-deps lint
	$(BIN)/duizhao check --strict
	$(BIN)/mkdocs build --strict --site-dir "$$(mktemp -d)"
	$(BIN)/pytest $(PYTEST_PARALLEL)

test-fast: setup
	$(BIN)/pytest $(PYTEST_PARALLEL) -m "not browser"

# The long fuzz run: tests/test_fuzz.py (hostile authoring files) and every property test with
# ten to thirty times the suite's examples (tests/budget.py; the suite runs a short slice), and the
# reader's whole screenshot matrix (the suite takes seven of its twelve shots).
# tests/test_scaling.py's build family builds every class at 10-160 KB within BUILD_BUDGET
# (240 s of CPU a class, duizhao's builds and plain Material's; the longest, emphasis, 111 s).
# The held-out PDF corpora are held to their detection floors here (the suite scores the
# tuned corpus and checks the held-out sets' form). tests/test_neutral.py compares every site's
# pages with duizhao's vendored packages and switched off (the suite: CleanRL and Hatch).
FUZZ_TESTS := tests/test_fuzz.py tests/test_reader_browser.py tests/test_properties.py tests/test_escape.py tests/test_detect.py \
	tests/test_neutral.py \
	tests/test_import_markdown.py tests/test_import_dialects.py tests/test_update_properties.py \
	tests/test_pdfcorpus_heldout.py
fuzz: setup
	DUIZHAO_FUZZ=long $(BIN)/pytest $(FUZZ_TESTS) tests/test_scaling.py -q --tb=native

# Refresh the README's screenshots of the three reading modes (the example site's syntax demo,
# examples/demo/docs/example.md).
readme-shots: setup system-deps
	mkdir -p readme
	DUIZHAO_README_SHOTS=readme $(BIN)/pytest tests/test_reader_browser.py -k screenshots

# Benchmarks (bench/README.md); e.g. make bench BENCH_ARGS="--articles 20 --repeat 1"
bench: setup
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# Refresh constraints.txt from the current virtualenv (commit the result).
lock:
	$(BIN)/pip freeze --exclude-editable | grep -v '^duizhao' > constraints.txt

clean:
	rm -rf site .cache $(VENV) node_modules
