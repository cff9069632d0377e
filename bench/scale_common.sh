# Shared by bench/scale.sh and bench/scale_cluster.sh; sourced, not run. Grows and loads the corpus
# (bench/scaled_corpus.sh: SCALE_URL, SCALE_PREFIX, SCALE_CORPUS) and defines reindex_rounds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source devservices/common.sh
PY=.venv/bin/python
FACTOR="${FACTOR:-10}"
ROUNDS="${ROUNDS:-3}"
# The checkout's .env.dev (written by make) when run by hand, as config/settings.py reads it.
if [ -z "${DATABASE_URL:-}" ] && [ -f .env.dev ]; then set -a; source .env.dev; set +a; fi
BASE_URL="${DATABASE_URL:?run make run once (it writes .env.dev), or set DATABASE_URL}"
BASE_PREFIX="${SEARCH_INDEX_PREFIX:-blog}"
eval "$(FACTOR="$FACTOR" bash bench/scaled_corpus.sh)"

# `reindex` of 1x and FACTORx interleaved, ROUNDS rounds: wall time, the command's last line and
# dictionary size, its peak RSS (/usr/bin/time). Arguments: extra environment (e.g. the cluster's URL).
reindex_rounds() {
  local round which out start end env
  for round in $(seq "$ROUNDS"); do
    for which in 1x "${FACTOR}x"; do
      if [ "$which" = 1x ]; then env=(DATABASE_URL="$BASE_URL"); else env=(DATABASE_URL="$SCALE_URL" SEARCH_INDEX_PREFIX="$SCALE_PREFIX"); fi
      out=$(mktemp)
      start=$(date +%s.%N)
      env "${env[@]}" "$@" /usr/bin/time -f 'peak RSS %M KiB' $PY manage.py reindex --no-progress >"$out" 2>&1
      end=$(date +%s.%N)
      printf '%s round %s: %.1f s wall; %s; %s; %s\n' "$which" "$round" "$(echo "$end - $start" | bc)" \
        "$(grep -m1 'dictionary:' "$out" | sed 's/^ *//')" "$(grep -m1 '^Reindexed' "$out")" "$(grep -m1 'peak RSS' "$out")"
      rm -f "$out"
    done
  done
}
