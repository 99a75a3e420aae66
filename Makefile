# paohuzi-audit: `make run` serves the demo on SQLite, `make test` runs every test.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
export PAOHUZI_TEST_POSTGRES_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test

.PHONY: install native run test test-fast fuzz lint typecheck bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The rules core's hot modules compiled with mypyc, in place (scripts/build_native.py;
# replay/native.py runs the sources instead when they are newer). NATIVE=0 skips it.
NATIVE ?= 1
NATIVE_STAMP := build/native/.built
ifeq ($(NATIVE),1)
BUILT := $(NATIVE_STAMP)
endif
$(NATIVE_STAMP): $(STAMP) $(wildcard replay/*.py replay/fairplay/*.py) scripts/build_native.py
	$(PY) scripts/build_native.py
	touch $(NATIVE_STAMP)

native: $(NATIVE_STAMP)

install: $(STAMP) $(BUILT)

run: $(STAMP) $(BUILT)
	$(VENV)/bin/paohuzi-audit migrate
	$(VENV)/bin/paohuzi-audit demo --if-empty
	$(VENV)/bin/paohuzi-audit keys create --scope ingest --scope read --scope operate --scope admin --name demo
	@echo "Replay pages: http://$(HOST):$(PORT)/    API: http://$(HOST):$(PORT)/api/v1/docs"
	PAOHUZI_DEV_MODE=$${PAOHUZI_DEV_MODE:-true} $(VENV)/bin/paohuzi-audit serve --host $(HOST) --port $(PORT)

test: $(STAMP) $(BUILT)
	PAOHUZI_EXPECT_NATIVE=$(NATIVE) $(PY) -m pytest -n 2 -p no:cacheprovider

test-fast: $(STAMP) $(BUILT)
	$(PY) -m pytest -n 2 -m "not slow and not browser"

# Schemathesis over the whole API on SQLite and PostgreSQL, with many more examples than
# `make test` runs (same checks, same derandomized generation).
FUZZ_EXAMPLES ?= 300
fuzz: $(STAMP) $(BUILT)
	PAOHUZI_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -n 2 -p no:cacheprovider -q tests/service/test_schemathesis.py

lint: $(STAMP)
	$(VENV)/bin/ruff check replay app tests
	$(VENV)/bin/mypy

bench: $(STAMP) $(BUILT)
	$(PY) -m replay bench --games 2000

clean:
	-$(PY) scripts/build_native.py --clean
	rm -rf build/native $(VENV) .pytest_cache .mypy_cache .ruff_cache
