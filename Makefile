# The two commands: `make run` (site on the sample corpus) and `make test` (whole suite).
# Both set up everything they need (venv, Elasticsearch, PostgreSQL) and are idempotent.
SHELL := /bin/bash
# The newest corner of the supported matrix by default (docs/testing.md#versions): Django 6.1 and
# the client 9.x (CONSTRAINTS) on the newest Python in PY_RANGE (Django 6 needs 3.12+; PYTHON picks
# one), Elasticsearch 9.2.4 (devservices/common.sh). `make test-oldest` runs the other corner.
PY_RANGE ?= 3.12
CONSTRAINTS ?= constraints/newest.txt
VENV ?= .venv
PY := $(VENV)/bin/python
CORPUS ?= ../shared/corpus
DEMO_DATA := demo_data
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

# Development: Django's DEBUG is off unless asked for (the settings fail closed).
export DEBUG ?= 1
# Without DATABASE_URL the dev scripts' private PostgreSQL cluster is used.
export DATABASE_URL ?= $(shell bash devservices/postgres.sh url)
# The dev Elasticsearch runs with security on: the site connects as its own user (in the URL), made
# by `manage.py search_security` in `setup` with the superuser's password, which nothing else uses
# (the tests' administrator client aside). Both are the dev node's (devservices/common.sh), loopback only.
export ELASTIC_PASSWORD ?= blogsearch-dev-elastic
export ELASTICSEARCH_URL ?= http://blogsearch:blogsearch-dev-site@127.0.0.1:9200

.PHONY: run corpus bench-versions test test-oldest test-oldest-suite stop-oldest test-upgrade test-notebook test-cluster cluster cluster-stop lint services stop venv setup relevance relevance-scale relevance-languages bench bench-reindex bench-load bench-scale bench-scale-cluster fuzz compose-check clean help

help:
	@echo "make run      set up and serve the site on the sample corpus at http://$(HOST):$(PORT)"
	@echo "make test     set up and run the whole test suite against real Elasticsearch and PostgreSQL"
	@echo "make test-oldest  the tests but the browser's on the oldest corner: Python 3.11, Django 5.2, Elasticsearch 8.19"
	@echo "make services start Elasticsearch and PostgreSQL (idempotent);  make stop: stop them"
	@echo "make bench    run the benchmarks under bench/;  make relevance: the relevance table"
	@echo "make relevance-languages  the relevance table on a German and a French blog"
	@echo "make bench-versions  search's speed on Elasticsearch 9.x against 8.19, in one run"
	@echo "make cluster  start the three-node dev cluster (9201-9203);  make cluster-stop: stop it"
	@echo "make test-cluster  the node-loss, rolling-restart, reindex and two-server tests on that cluster"
	@echo "make test-upgrade  the rolling upgrade 8.19 -> 9 of a three-node cluster under load"

venv: $(VENV)/.installed $(VENV)/.package .env.dev
# A venv of a Python outside PY_RANGE (a checkout from before Django 6) is made anew.
VENV_STALE := $(shell test -x $(PY) && ! bash devservices/python.sh --check $(PY) $(PY_RANGE) && echo stale)
.PHONY: venv-stale
venv-stale:
$(VENV)/.installed: requirements.txt requirements-dev.txt $(CONSTRAINTS) $(if $(VENV_STALE),venv-stale)
	$(if $(VENV_STALE),@echo "$(VENV) runs $$($(PY) -V 2>&1); PY_RANGE=$(PY_RANGE) wants another: making it anew"; rm -rf $(VENV))
	test -x $(PY) || { py="$$(bash devservices/python.sh $(PY_RANGE))" && echo "making $(VENV) with $$py" && "$$py" -m venv $(VENV); }
	$(PY) -m pip install -q -r requirements-dev.txt -c $(CONSTRAINTS)
	touch $@

# The search app installed as a user installs it (pyproject.toml: the django-typo-search
# distribution), editable: maturin compiles the dictionary's extension (native/lexicon/: Rust
# `fst`, crates from crates.io; why: docs/benchmarks.md) into search/_lexicon.abi3.so and the
# Python code stays this checkout's. Needs cargo (rustup); about 30 s the first time, and again
# only when the crate or pyproject.toml change. The old separate `lexicon` distribution is removed.
export PATH := $(HOME)/.cargo/bin:$(PATH)
$(VENV)/.package: $(VENV)/.installed pyproject.toml native/lexicon/Cargo.toml native/lexicon/Cargo.lock native/lexicon/src/lib.rs
	@command -v cargo >/dev/null || { echo "cargo not found: install Rust (https://rustup.rs) to build native/lexicon" >&2; exit 1; }
	$(PY) -m pip uninstall -q -y lexicon 2>/dev/null || true
	$(PY) -m pip install -q -e . -c $(CONSTRAINTS)
	touch $@

# The development environment file the settings read (config/settings.py): commands typed by hand
# in this checkout (manage.py, pytest) see what make sees. Never in the image.
.env.dev: devservices/postgres.sh Makefile
	printf '# Written by make for this checkout (development only; not in the Docker image).\nDEBUG=1\nDATABASE_URL=%s\nELASTICSEARCH_URL=%s\nELASTIC_PASSWORD=%s\n' \
	  "$$(bash devservices/postgres.sh url)" "$(ELASTICSEARCH_URL)" "$(ELASTIC_PASSWORD)" > $@
	chmod 600 $@

services:
	bash devservices/services.sh start

stop:
	bash devservices/services.sh stop

setup: venv services
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py search_security

# The sample corpus imported into an empty database and indexed (else the index built if missing).
corpus: setup
	@if [ "$$($(PY) manage.py shell --no-imports -v 0 -c 'from blog.models import Post; print(Post.objects.exists())' | tail -1)" = "False" ]; then \
	  if [ -f "$(CORPUS)/posts.ndjson" ]; then $(PY) manage.py import_corpus "$(CORPUS)"; \
	  else echo "No corpus at $(CORPUS): loading the bundled demo data"; $(PY) manage.py import_corpus $(DEMO_DATA); fi; \
	  $(PY) manage.py reindex; \
	else $(PY) manage.py reindex --if-missing; fi

run: corpus
	$(PY) manage.py runserver $(HOST):$(PORT)

test: setup
	bash devservices/browser.sh
	bash devservices/bench-tools.sh
	$(PY) -m pytest $(PYTEST_ARGS)
	$(MAKE) test-notebook

# The second site (examples/notebook/): search on a schema unlike the blog's, through the
# documented API only (docs/adopting.md), with its own database and index prefix.
test-notebook: setup
	cd examples/notebook && ../../$(PY) -m pytest $(PYTEST_ARGS)

# The oldest corner of the supported matrix (docs/testing.md#versions): Python 3.11, Django 5.2 and
# the client 8.19 in a venv of its own, on an Elasticsearch 8.19.21 node of its own (the dev node's
# port + 5; its state in .state/oldest), with databases of its own on the dev PostgreSQL. It runs
# every test of tests/ but the browser ones and test_chaos.py, then the notebook site's, and stops
# its node by PID whatever the outcome. CI runs it after `make test`.
ES_PORT := $(shell echo '$(ELASTICSEARCH_URL)' | sed -E 's|^[a-z]+://([^@/]*@)?[^:/]+:?([0-9]*).*|\2|')
OLDEST_ES_PORT ?= $(shell echo $$(( $(or $(ES_PORT),9200) + 5 )))
OLDEST_STATE_DIR ?= $(or $(STATE_DIR),$(CURDIR)/.state)/oldest
OLDEST_PG = $(shell PG_DB=$(1) bash devservices/postgres.sh url)
OLDEST = VENV=.venv-oldest PY_RANGE="3.11 3.12" CONSTRAINTS=constraints/oldest.txt ES_VERSION=8.19.21 \
  STATE_DIR=$(OLDEST_STATE_DIR) ELASTICSEARCH_URL=http://blogsearch:blogsearch-dev-site@127.0.0.1:$(OLDEST_ES_PORT) \
  DATABASE_URL=$(call OLDEST_PG,blogsearch_oldest) NOTEBOOK_DATABASE_URL=$(call OLDEST_PG,notebook_oldest)

test-oldest: .env.dev
	env -u DATABASE_URL PG_DB=blogsearch_oldest bash devservices/postgres.sh start
	$(MAKE) $(OLDEST) test-oldest-suite; rc=$$?; $(MAKE) stop-oldest; exit $$rc

# test-oldest's tests, run with its variables.
test-oldest-suite: setup
	bash devservices/bench-tools.sh
	$(PY) -m pytest -m "not browser" --ignore=tests/test_chaos.py $(PYTEST_ARGS)
	$(MAKE) test-notebook

# Stops test-oldest's node and test-upgrade's cluster (by the PIDs they recorded), if running.
stop-oldest:
	STATE_DIR=$(OLDEST_STATE_DIR) ELASTICSEARCH_URL=http://127.0.0.1:$(OLDEST_ES_PORT) bash devservices/elasticsearch.sh stop
	STATE_DIR=$(OLDEST_STATE_DIR) bash devservices/cluster.sh stop

# The three-node dev cluster (devservices/cluster.sh) and the tests that kill its nodes. They use
# the dev PostgreSQL; the cluster's node list replaces ELASTICSEARCH_URL, with one replica per shard.
CLUSTER_URL = $(shell bash devservices/cluster.sh url)

cluster: venv
	bash devservices/cluster.sh start

cluster-stop:
	bash devservices/cluster.sh stop

test-cluster: venv cluster
	bash devservices/postgres.sh start
	ELASTICSEARCH_URL="$(CLUSTER_URL)" SEARCH_REPLICAS=1 $(PY) -m pytest tests_cluster --ignore=tests_cluster/test_upgrade.py $(PYTEST_ARGS)

# The rolling upgrade of the three-node cluster from 8.19.21 to UPGRADE_TO while readers search and
# an author saves (tests_cluster/test_upgrade.py; docs/upgrading.md). In the oldest corner's venv:
# a site upgrades the server first, on its client 8.19, which talks to both lines. Its cluster is
# made anew in .state/oldest/cluster on the cluster's ports (its data ends on 9.x) and stopped by PID;
# its database is its own.
UPGRADE_TO ?= 9.2.4
UPGRADE_CLUSTER = STATE_DIR=$(OLDEST_STATE_DIR) ES_VERSION=8.19.21 bash devservices/cluster.sh
test-upgrade: .env.dev
	env -u DATABASE_URL PG_DB=blogsearch_upgrade bash devservices/postgres.sh start
	$(MAKE) $(OLDEST) venv
	$(UPGRADE_CLUSTER) stop
	rm -rf $(OLDEST_STATE_DIR)/cluster
	$(UPGRADE_CLUSTER) start
	$(OLDEST) DATABASE_URL=$(call OLDEST_PG,blogsearch_upgrade) ELASTICSEARCH_URL="$$($(UPGRADE_CLUSTER) url)" SEARCH_REPLICAS=1 CLUSTER_UPGRADE_TO=$(UPGRADE_TO) \
	  .venv-oldest/bin/python -m pytest tests_cluster/test_upgrade.py $(PYTEST_ARGS); rc=$$?; $(MAKE) stop-oldest; exit $$rc

# Lint and format check (ruff, configured in pyproject.toml); CI runs it. `ruff format .` fixes the format.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

fuzz: setup
	FUZZ_EXAMPLES=10000 $(PY) -m pytest tests/test_fuzz.py -q -p no:randomly

compose-check:
	@command -v docker-compose >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null; } || { echo "docker-compose not found (apt-get install docker-compose)"; exit 1; }
	SECRET_KEY=$${SECRET_KEY:-compose-check-placeholder} ES_SITE_PASSWORD=$${ES_SITE_PASSWORD:-compose-check-placeholder} docker-compose -f docker-compose.yml config -q
	SECRET_KEY=$${SECRET_KEY:-compose-check-placeholder} ES_SITE_PASSWORD=$${ES_SITE_PASSWORD:-compose-check-placeholder} docker-compose -f docker-compose.yml --profile cluster config -q
	SECRET_KEY=$${SECRET_KEY:-compose-check-placeholder} ES_SITE_PASSWORD=$${ES_SITE_PASSWORD:-compose-check-placeholder} docker-compose -f docker-compose.yml --profile monitoring config -q

clean: stop stop-oldest
	rm -rf .state $(VENV) .venv-oldest

# Complete queries (two seeds, every system), as-you-type queries and the reader's syntax (quoted
# phrases, -exclusions, c#, versions); each fails on a never-worse regression: a correctly spelled
# or complete word, or a syntax case done worse than simple_query_string.
relevance: setup
	$(PY) bench/relevance.py --fail-on-regression
	$(PY) bench/asyoutype.py --fail-on-regression
	$(PY) bench/syntax_relevance.py --fail-on-regression

# Relevance on a German and a French blog, each in its own database and index prefix with its
# SEARCH_LANGUAGE (bench/language_blogs.sh; docs/benchmarks.md#german-and-french-blogs). Reports, no gate.
relevance-languages: setup
	bash bench/language_blogs.sh

# The same relevance run on the corpus grown 10x (its own database and index prefix).
relevance-scale: setup
	eval "$$(bash bench/scaled_corpus.sh)" && DATABASE_URL="$$SCALE_URL" SEARCH_INDEX_PREFIX="$$SCALE_PREFIX" \
	  $(PY) bench/relevance.py --corpus "$$SCALE_CORPUS" --max-expected 30 --only "this search" --only "fuzziness AUTO"

bench-reindex: setup
	$(PY) bench/reindex_bench.py

bench: bench-reindex bench-scale

bench-load: setup
	bash devservices/bench-tools.sh
	$(PY) bench/load.py

# Speed on Elasticsearch 9.x against 8.19 (issue 50; docs/benchmarks.md#speed-on-924-against-819):
# this search and multi_match on the three kinds of fresh queries, on the dev node and on the
# 8.19.21 node of test-oldest, interleaved in one run, with the gates checked on both. The servers
# of both run in the oldest corner's venv: its client 8.19 talks to both lines, so only the server
# differs. Each node holds the corpus, indexed from a database of its own. The 8.19 node is stopped
# by PID whatever the outcome. BENCH_ARGS adds bench/load.py options (--rounds, --seconds).
BENCH_ARGS ?=
VERSIONS_ONLY = --only "this search, misspelled" --only "multi_match, misspelled" --only "this search, correctly spelled" \
  --only "multi_match, correctly spelled" --only "this search, keystroke" --only "multi_match, keystroke"
bench-versions: .env.dev
	env -u DATABASE_URL PG_DB=blogsearch_oldest bash devservices/postgres.sh start
	$(MAKE) corpus
	bash devservices/bench-tools.sh
	$(MAKE) $(OLDEST) corpus && .venv-oldest/bin/python bench/load.py $(VERSIONS_ONLY) --redis-port 0 \
	  --warmup-seconds 15 \
	  --node-url http://blogsearch:blogsearch-dev-site@127.0.0.1:$(OLDEST_ES_PORT) --node-database-url $(call OLDEST_PG,blogsearch_oldest) $(BENCH_ARGS); \
	  rc=$$?; $(MAKE) stop-oldest; exit $$rc

bench-scale: setup
	bash devservices/bench-tools.sh
	bash bench/scale.sh

# The same on the three-node dev cluster (starts it; `make cluster-stop` after). FACTOR=100 for issue 40's table.
bench-scale-cluster: setup
	bash devservices/bench-tools.sh
	bash bench/scale_cluster.sh
