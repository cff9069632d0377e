#!/usr/bin/env bash
# Scale benchmark: grow the corpus FACTOR-fold (10 by default; issue 40 measures 100), load it into
# its own database and index prefix, then measure, in one run each:
#   - `reindex` of 1x and FACTORx interleaved (ROUNDS rounds): wall time, docs/s, the command's
#     peak RSS (/usr/bin/time) and the dictionary's size it prints;
#   - Elasticsearch's heap and the indices' disk after it (the admin user: `_cat` and node stats);
#   - the dictionary a fresh process loads (words, bytes held, its RSS growth);
#   - search latency on 1x and FACTORx in one load run (bench/load.py --scale-*: correctly spelled,
#     misspelled and keystroke, fresh queries), extra arguments passed to bench/load.py.
#   make bench-scale                 FACTOR=100 ROUNDS=2 make bench-scale
source "$(dirname "$0")/scale_common.sh"
ES_HOST="$(es_base)"

echo "== reindex, 1x and ${FACTOR}x interleaved, ${ROUNDS} rounds"
reindex_rounds

echo "== Elasticsearch after the ${FACTOR}x reindex (single node: ${ES_HOST})"
curl_admin "${ES_HOST}/_cat/indices/${BASE_PREFIX}-*,${SCALE_PREFIX}-*?v&h=index,docs.count,store.size,pri.store.size&s=index" -s
curl_admin "${ES_HOST}/_nodes/stats/jvm,indices?filter_path=nodes.*.jvm.mem.heap_used_in_bytes,nodes.*.jvm.mem.heap_max_in_bytes,nodes.*.indices.segments.memory_in_bytes,nodes.*.indices.store.size_in_bytes" -s
echo

echo "== the dictionary a fresh process loads (1x, ${FACTOR}x)"
for which in 1x "${FACTOR}x"; do
  if [ "$which" = 1x ]; then env=(DATABASE_URL="$BASE_URL"); else env=(DATABASE_URL="$SCALE_URL" SEARCH_INDEX_PREFIX="$SCALE_PREFIX"); fi
  env "${env[@]}" $PY bench/dictionary_size.py --label "$which"
done

echo "== search latency, 1x and ${FACTOR}x in one run"
$PY bench/load.py --scale-database-url "$SCALE_URL" --scale-prefix "$SCALE_PREFIX" --scale-factor "$FACTOR" --label "scaled corpus = ${FACTOR}x" "$@"
