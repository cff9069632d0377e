#!/usr/bin/env bash
# The scale benchmark on the three-node dev cluster (issue 40): the corpus and the FACTOR-fold
# grown one (bench/scaled_corpus.sh, the same database and prefix as bench/scale.sh) are indexed on
# the cluster with one replica, then:
#   - `reindex` of 1x and FACTORx on the cluster, interleaved (ROUNDS rounds): wall time, docs/s,
#     peak RSS;
#   - the cluster's heap and the indices' disk (primaries and replicas) after it;
#   - search latency on 1x and FACTORx on the cluster in one load run (correctly spelled,
#     misspelled, keystroke; fresh queries), extra arguments passed to bench/load.py.
# Starts the cluster (make cluster) if it is not running and leaves it running (make cluster-stop).
#   FACTOR=100 ROUNDS=2 bash bench/scale_cluster.sh --rounds 3
source "$(dirname "$0")/scale_common.sh"

bash devservices/cluster.sh start
NODES="$(bash devservices/cluster.sh url)"
# The site's user and password (ELASTICSEARCH_URL's) on every node of the cluster.
CLUSTER_URL="$($PY - "$NODES" <<'EOF'
import os, sys
from urllib.parse import unquote, urlsplit
from search.nodes import node_urls, with_credentials
site = urlsplit(node_urls(os.environ["ELASTICSEARCH_URL"])[0])
print(with_credentials(sys.argv[1], unquote(site.username or ""), unquote(site.password or "")))
EOF
)"
ELASTICSEARCH_URL="$CLUSTER_URL" $PY manage.py search_security --prefix "$BASE_PREFIX" --prefix "$SCALE_PREFIX"

echo "== reindex on the 3-node cluster (1 replica), 1x and ${FACTOR}x interleaved, ${ROUNDS} rounds"
reindex_rounds ELASTICSEARCH_URL="$CLUSTER_URL" SEARCH_REPLICAS=1

echo "== the cluster after the ${FACTOR}x reindex"
FIRST="${NODES%%,*}"
curl_admin "${FIRST}/_cat/indices/${BASE_PREFIX}-*,${SCALE_PREFIX}-*?v&h=index,docs.count,store.size,pri.store.size&s=index" -s
curl_admin "${FIRST}/_nodes/stats/jvm,indices?filter_path=nodes.*.name,nodes.*.jvm.mem.heap_used_in_bytes,nodes.*.jvm.mem.heap_max_in_bytes,nodes.*.indices.store.size_in_bytes" -s
echo

echo "== search latency on the cluster, 1x and ${FACTOR}x in one run"
O=()
for kind in "misspelled" "correctly spelled" "keystroke"; do
  for who in "this search" "multi_match"; do O+=(--only "$who, $kind, 3-node cluster" --only "$who, $kind, scaled corpus, 3-node cluster"); done
done
$PY bench/load.py --cluster-url "$CLUSTER_URL" --scale-database-url "$SCALE_URL" --scale-prefix "$SCALE_PREFIX" --scale-factor "$FACTOR" \
  --label "3-node cluster, scaled corpus = ${FACTOR}x" "${O[@]}" "$@"
