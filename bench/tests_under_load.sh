#!/usr/bin/env bash
# `make test` and `make test-cluster`, ROUNDS times in a row (default 3), each with the load
# benchmark (bench/load.py, every candidate) running beside it the whole time: issue 38's proof
# that no test depends on an idle machine.
#
#     bash bench/tests_under_load.sh            (ROUNDS=3; LOG_DIR=.state/tests-under-load)
#
# The load runs against a site of its own: its own Elasticsearch node and PostgreSQL cluster
# (STATE_DIR .state/load-site, ports 9230 and 54339), the sample corpus imported and indexed once,
# because the tests stop and start the dev node (tests/test_chaos.py) and a load benchmark on it
# would measure that instead of loading the machine. Load runs follow each other until the tests
# end; their gates are not judged here (two cores shared with the tests: they fail, by design).
# Stops the load site's services by their PIDs at the end. Exits 1 when any test run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"
LOG_DIR="${LOG_DIR:-.state/tests-under-load}"
CORPUS="${CORPUS:-../shared/corpus}"
mkdir -p "$LOG_DIR"

LOAD_STATE="$PWD/.state/load-site"
LOAD_ES_PORT=9230
LOAD_PG_PORT=54339
load_env() {
  env STATE_DIR="$LOAD_STATE" PG_PORT="$LOAD_PG_PORT" \
    ELASTICSEARCH_URL="http://blogsearch:blogsearch-dev-site@127.0.0.1:$LOAD_ES_PORT" \
    DATABASE_URL="postgres://blogsearch@127.0.0.1:$LOAD_PG_PORT/blogsearch" \
    ELASTIC_PASSWORD=blogsearch-dev-elastic DEBUG=1 SEARCH_INDEX_PREFIX=blog "$@"
}
stop_load_site() { load_env bash devservices/services.sh stop || true; }
trap stop_load_site EXIT

make venv >/dev/null
bash devservices/bench-tools.sh
load_env bash devservices/services.sh start
load_env .venv/bin/python manage.py migrate --noinput -v 0
load_env .venv/bin/python manage.py search_security >/dev/null
if [ "$(load_env .venv/bin/python manage.py shell --no-imports -v 0 -c 'from blog.models import Post; print(Post.objects.exists())' | tail -1)" = "False" ]; then
  load_env .venv/bin/python manage.py import_corpus "$CORPUS" --no-progress
fi
load_env .venv/bin/python manage.py reindex --if-missing --no-progress

failed=0
for round in $(seq 1 "$ROUNDS"); do
  (
    n=0
    while :; do
      n=$((n + 1))
      load_env .venv/bin/python bench/load.py --rounds 6 --seconds 8 > "$LOG_DIR/load-$round-$n.log" 2>&1 || true
    done
  ) &
  loader=$!
  started=$(date +%s)
  rc_test=0; make test > "$LOG_DIR/test-$round.log" 2>&1 || rc_test=$?
  rc_cluster=0; make test-cluster > "$LOG_DIR/test-cluster-$round.log" 2>&1 || rc_cluster=$?
  # The loop, then the load run in progress, by their PIDs (on SIGTERM bench/load.py stops its
  # gunicorn servers and wrk itself).
  running="$(pgrep -P "$loader" || true)"
  kill "$loader" 2>/dev/null || true
  wait "$loader" 2>/dev/null || true
  for pid in $running; do
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  done
  loads=$(ls "$LOG_DIR"/load-"$round"-*.log | wc -l)
  echo "round $round: make test rc=$rc_test ($(grep -Eo '[0-9]+ passed[^=]*' "$LOG_DIR/test-$round.log" | tail -2 | paste -sd';')), make test-cluster rc=$rc_cluster ($(grep -Eo '[0-9]+ passed[^=]*' "$LOG_DIR/test-cluster-$round.log" | tail -1)), $(( $(date +%s) - started )) s, $loads load runs beside"
  [ "$rc_test" = 0 ] && [ "$rc_cluster" = 0 ] || failed=1
done
make cluster-stop >/dev/null 2>&1 || true
exit $failed
