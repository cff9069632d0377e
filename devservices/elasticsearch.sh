#!/usr/bin/env bash
# Dev/test Elasticsearch: the integ-test distribution from Maven Central plus this repo's
# analysis plugin, single node on loopback, security on (HTTP without TLS: loopback only). The
# superuser `elastic` has ELASTIC_PASSWORD; the site's user is made by `manage.py search_security`
# (make setup runs it). Usage: elasticsearch.sh start|stop|status
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/es-dist.sh"
HOST="$(es_host)"; PORT="$(es_port)"

BASE="$(es_base)"

# The HTTP status a request without credentials gets (000: nothing answers).
anonymous_status() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$BASE/_cluster/health" 2>/dev/null || true; }
# The native realm answers: a user lookup is 200 or 404, not 5xx. A restarted node reports yellow
# and lets the superuser in (the bootstrap password) before its .security index has recovered;
# meanwhile the site's user gets 401 "failed to retrieve password hash", so "up" waits for this.
security_index_readable() {
  local code; code="$(curl_admin "$BASE/_security/user/readiness-probe" -s -o /dev/null -w '%{http_code}' --max-time 5 2>/dev/null || true)"
  [ "$code" = 200 ] || [ "$code" = 404 ]
}
es_up() { curl_admin "$BASE/_cluster/health" -fsS -o /dev/null --max-time 5 2>/dev/null; }

# A node that answers on our port but not as we configure ours: say so rather than start another.
check_running_node() {
  case "$(anonymous_status)" in
    000) return 1 ;;
    401) es_up || die "Elasticsearch at $BASE refuses the superuser's password: set ELASTIC_PASSWORD to the one it was started with" ;;
    *) log "WARNING: Elasticsearch at $BASE answers without credentials (security off: started by an older script?); restart it: $0 stop && $0 start" ;;
  esac
}

install_es() {
  local dir="$1"
  install_distribution "$dir"
  configure "$dir" "$dir/elasticsearch-$ES_VERSION"
  [ "$(id -u)" = 0 ] && chown -R "$SERVICE_USER:" "$dir"
  return 0
}

configure() {
  local dir="$1" home="$2"
  mkdir -p "$dir/data" "$dir/logs" "$home/config/jvm.options.d"
  cat > "$home/config/elasticsearch.yml" <<YML
# Written by devservices/elasticsearch.sh: a private single-node dev/test cluster.
cluster.name: blogsearch-dev
node.name: dev
network.host: $HOST
http.port: $PORT
transport.port: $((PORT + 100))
discovery.type: single-node
# Security on, as in the official image; no TLS on HTTP and transport (loopback only; production:
# docs/operations.md#security). No automatic enrollment or TLS set-up on first start.
xpack.security.enabled: true
xpack.security.http.ssl.enabled: false
xpack.security.transport.ssl.enabled: false
xpack.security.enrollment.enabled: false
path.data: $dir/data
path.logs: $dir/logs
# A nearly full dev disk must not turn the indices read-only under the tests.
cluster.routing.allocation.disk.threshold_enabled: false
YML
  printf -- '-Xms%s\n-Xmx%s\n' "$ES_HEAP" "$ES_HEAP" > "$home/config/jvm.options.d/heap.options"
  write_keystore "$home" "$home/config"
}

start() {
  is_loopback "$HOST" || die "ELASTICSEARCH_URL ($BASE) is not on loopback; the dev scripts only start a local node. Unset it or point it at a server you run yourself."
  if check_running_node; then log "Elasticsearch already answering at $BASE"; return 0; fi
  ensure_service_user
  local dir home pidfile; dir="$(service_dir elasticsearch)"; home="$dir/elasticsearch-$ES_VERSION"; pidfile="$dir/es.pid"
  if pid_alive "$(cat "$pidfile" 2>/dev/null || true)"; then
    log "Elasticsearch (pid $(cat "$pidfile")) is starting; waiting"
  else
    install_es "$dir"
    log "starting Elasticsearch $ES_VERSION on $BASE (logs: $dir/logs)"
    launch_node "$home" "$home/config" "$pidfile" "$dir/logs/console.log" || die "Elasticsearch failed to start; see $dir/logs/blogsearch-dev.log"
  fi
  for _ in $(seq 1 180); do
    if curl_admin "$BASE/_cluster/health?wait_for_status=yellow&timeout=1s" -fsS -o /dev/null 2>/dev/null && security_index_readable; then
      log "Elasticsearch is up (pid $(cat "$pidfile"))"; return 0
    fi
    pid_alive "$(cat "$pidfile" 2>/dev/null || true)" || [ ! -f "$pidfile" ] || die "Elasticsearch exited; see $dir/logs/blogsearch-dev.log"
    sleep 1
  done
  die "Elasticsearch did not become healthy in 180 s; see $dir/logs/blogsearch-dev.log"
}

stop() { local dir; dir="$(service_dir elasticsearch)"; stop_pidfile "$dir/es.pid" Elasticsearch; }

status() { es_up && echo "elasticsearch: up at $BASE" || { echo "elasticsearch: down"; return 1; }; }

case "${1:-}" in
  start) start ;; stop) stop ;; status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
