#!/usr/bin/env bash
# Grow the corpus FACTOR-fold (bench/grow_corpus.py) and load it into its own database and index
# prefix, idempotently; prints the shell assignments SCALE_URL=... SCALE_PREFIX=... SCALE_CORPUS=...
# Used by bench/scale.sh (latency and reindex at scale) and `make relevance-scale`.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
FACTOR="${FACTOR:-10}"
if [ -z "${DATABASE_URL:-}" ] && [ -f .env.dev ]; then set -a; source .env.dev; set +a; fi  # run by hand
BASE_URL="${DATABASE_URL:?run make run once (it writes .env.dev), or set DATABASE_URL}"
SCALE_DB="blogsearch_${FACTOR}x"
SCALE_URL="${BASE_URL%/*}/$SCALE_DB"
SCALE_PREFIX="blog${FACTOR}x"
SCALE_CORPUS=".state/corpus-${FACTOR}x"

# Seeded: the files of an earlier run are the same, kept (at 100x they are 2 GB).
[ -s "$SCALE_CORPUS/comments.ndjson" ] || $PY bench/grow_corpus.py --factor "$FACTOR" --out "$SCALE_CORPUS" >&2
psql "${BASE_URL%/*}/postgres" -tAc "select 1 from pg_database where datname='$SCALE_DB'" | grep -q 1 \
  || psql "${BASE_URL%/*}/postgres" -qc "create database \"$SCALE_DB\"" >&2
# The site's Elasticsearch user reaches only its roles' prefixes: both, this prefix and the grown one's.
$PY manage.py search_security --prefix "${SEARCH_INDEX_PREFIX:-blog}" --prefix "$SCALE_PREFIX" >&2
DATABASE_URL="$SCALE_URL" $PY manage.py migrate -v 0 >&2
# Imported once: the importer is idempotent, but checking 900,000 rows again takes minutes.
rows="$(psql "$SCALE_URL" -tAc "select (select count(*) from blog_post) + (select count(*) from blog_comment)")"
lines="$(cat "$SCALE_CORPUS/posts.ndjson" "$SCALE_CORPUS/comments.ndjson" | grep -c .)"
[ "$rows" = "$lines" ] || DATABASE_URL="$SCALE_URL" $PY manage.py import_corpus "$SCALE_CORPUS" --no-progress >&2
DATABASE_URL="$SCALE_URL" SEARCH_INDEX_PREFIX="$SCALE_PREFIX" $PY manage.py reindex --if-missing --no-progress >&2
echo "SCALE_URL=$SCALE_URL SCALE_PREFIX=$SCALE_PREFIX SCALE_CORPUS=$SCALE_CORPUS"
