#!/usr/bin/env bash
# Dev/test Elasticsearch: the integ-test distribution from Maven Central plus this repo's
# analysis plugin, single node on loopback, security off. Usage: elasticsearch.sh start|stop|status
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/es-dist.sh"
HOST="$(es_host)"; PORT="$(es_port)"

es_up() { curl -fsS -o /dev/null "$ELASTICSEARCH_URL/_cluster/health" 2>/dev/null; }

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
xpack.security.enabled: false
path.data: $dir/data
path.logs: $dir/logs
# A nearly full dev disk must not turn the indices read-only under the tests.
cluster.routing.allocation.disk.threshold_enabled: false
YML
  printf -- '-Xms%s\n-Xmx%s\n' "$ES_HEAP" "$ES_HEAP" > "$home/config/jvm.options.d/heap.options"
}

start() {
  is_loopback "$HOST" || die "ELASTICSEARCH_URL ($ELASTICSEARCH_URL) is not on loopback; the dev scripts only start a local node. Unset it or point it at a server you run yourself."
  if es_up; then log "Elasticsearch already answering at $ELASTICSEARCH_URL"; return 0; fi
  ensure_service_user
  local dir home pidfile; dir="$(service_dir elasticsearch)"; home="$dir/elasticsearch-$ES_VERSION"; pidfile="$dir/es.pid"
  if pid_alive "$(cat "$pidfile" 2>/dev/null || true)"; then
    log "Elasticsearch (pid $(cat "$pidfile")) is starting; waiting"
  else
    install_es "$dir"
    log "starting Elasticsearch $ES_VERSION on $ELASTICSEARCH_URL (logs: $dir/logs)"
    launch_node "$home" "$home/config" "$pidfile" "$dir/logs/console.log" || die "Elasticsearch failed to start; see $dir/logs/blogsearch-dev.log"
  fi
  for _ in $(seq 1 180); do
    if curl -fsS "$ELASTICSEARCH_URL/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null 2>&1; then
      log "Elasticsearch is up (pid $(cat "$pidfile"))"; return 0
    fi
    pid_alive "$(cat "$pidfile" 2>/dev/null || true)" || [ ! -f "$pidfile" ] || die "Elasticsearch exited; see $dir/logs/blogsearch-dev.log"
    sleep 1
  done
  die "Elasticsearch did not become healthy in 180 s; see $dir/logs/blogsearch-dev.log"
}

stop() { local dir; dir="$(service_dir elasticsearch)"; stop_pidfile "$dir/es.pid" Elasticsearch; }

status() { es_up && echo "elasticsearch: up at $ELASTICSEARCH_URL" || { echo "elasticsearch: down"; return 1; }; }

case "${1:-}" in
  start) start ;; stop) stop ;; status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
