#!/usr/bin/env bash
# `reindex` of this checkout against an earlier commit's, on the 10x corpus, interleaved:
#   bash bench/compare_reindex.sh <commit> [rounds]
# The earlier commit runs from a git worktree (sharing .venv) on its own copy of the 10x database
# and index prefix, so each side reads its own schema; run `make bench-scale` (or
# bench/scaled_corpus.sh) first. Prints each round's wall time and reindex's own summary.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD="${1:?usage: compare_reindex.sh <commit> [rounds]}"
ROUNDS="${2:-3}"
BASE="$(bash devservices/postgres.sh url)"
BASE="${BASE%/*}"
CORPUS="$PWD/.state/corpus-10x"
TREE=".state/compare-$OLD"
[ -d "$CORPUS" ] || { echo "no 10x corpus: run make bench-scale first" >&2; exit 1; }
[ -d "$TREE" ] || git worktree add -f "$TREE" "$OLD" -q
ln -sfn "$PWD/.venv" "$TREE/.venv"
psql "$BASE/postgres" -tAc "select 1 from pg_database where datname='blogsearch_10x_old'" | grep -q 1 || psql "$BASE/postgres" -qc 'create database blogsearch_10x_old'
(cd "$TREE" && ENV_FILE= DEBUG=1 DATABASE_URL="$BASE/blogsearch_10x_old" .venv/bin/python manage.py migrate -v0 \
  && ENV_FILE= DEBUG=1 DATABASE_URL="$BASE/blogsearch_10x_old" .venv/bin/python manage.py import_corpus "$CORPUS" --no-progress >/dev/null)
run() {  # label dir database prefix
  local start end
  start=$(date +%s.%N)
  line=$(cd "$2" && ENV_FILE= DEBUG=1 DATABASE_URL="$BASE/$3" SEARCH_INDEX_PREFIX="$4" .venv/bin/python manage.py reindex --no-progress 2>&1 | grep -E 'Reindexed|words' | tr '\n' ' ')
  end=$(date +%s.%N)
  printf '%s: %.1f s wall; %s\n' "$1" "$(echo "$end - $start" | bc)" "$line"
}
for round in $(seq "$ROUNDS"); do
  run "$OLD round $round" "$TREE" blogsearch_10x_old blog10xold
  run "this checkout round $round" . blogsearch_10x blog10x
done
