#!/usr/bin/env bash
# Scale benchmark: grow the corpus 10x, load it into its own database and index prefix, then
# measure reindex time (1x and 10x interleaved) and search latency on both in one load run.
#   make bench-scale
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
FACTOR="${FACTOR:-10}"
BASE_URL="${DATABASE_URL:?run through make (it sets DATABASE_URL)}"
eval "$(FACTOR="$FACTOR" bash bench/scaled_corpus.sh)"

echo "== reindex, 1x and ${FACTOR}x interleaved"
for round in 1 2 3; do
  for which in 1x "${FACTOR}x"; do
    if [ "$which" = 1x ]; then env=(DATABASE_URL="$BASE_URL"); else env=(DATABASE_URL="$SCALE_URL" SEARCH_INDEX_PREFIX="$SCALE_PREFIX"); fi
    start=$(date +%s.%N)
    line=$(env "${env[@]}" $PY manage.py reindex --no-progress | tail -1)
    end=$(date +%s.%N)
    printf '%s round %s: %.1f s wall; %s\n' "$which" "$round" "$(echo "$end - $start" | bc)" "$line"
  done
done

echo "== search latency, 1x and ${FACTOR}x in one run"
$PY bench/load.py --scale-database-url "$SCALE_URL" --scale-prefix "$SCALE_PREFIX" --label "scaled corpus = ${FACTOR}x" "$@"
