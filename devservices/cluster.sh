#!/usr/bin/env bash
# A three-node dev/test Elasticsearch cluster on loopback, from the same distribution and analysis
# plugin as elasticsearch.sh (one shared home; each node has its own config, data and logs under
# .state/cluster/node-N), run as the same non-root user and stopped by PID. Security is on as on the
# single node (superuser `elastic` with ELASTIC_PASSWORD; no TLS: loopback only). It exists to show
# the app survives losing a node (make test-cluster) and to measure a cluster's overhead.
#
# Usage: cluster.sh start|stop|status|url
#        cluster.sh start-node N | stop-node N | restart-node N | upgrade-node N VERSION | pid N | versions
# restart-node is one step of a rolling restart: replica allocation paused, flush, stop, start,
# wait for the node to join, allocation back on, wait for green. upgrade-node is the same step
# with the node started again by Elasticsearch VERSION on the same data (a rolling upgrade,
# Elastic's documented procedure: each node in turn, a newer version never followed by an older).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/es-dist.sh"

CLUSTER_NODES="${CLUSTER_NODES:-3}"
CLUSTER_HTTP_PORT="${CLUSTER_HTTP_PORT:-9201}"            # node N answers HTTP on CLUSTER_HTTP_PORT+N-1
CLUSTER_TRANSPORT_PORT="${CLUSTER_TRANSPORT_PORT:-9301}"  # and talks to its peers on CLUSTER_TRANSPORT_PORT+N-1
CLUSTER_NAME="${CLUSTER_NAME:-blogsearch-cluster}"
CLUSTER_HEAP="${CLUSTER_HEAP:-512m}"
CLUSTER_WAIT_SECONDS="${CLUSTER_WAIT_SECONDS:-240}"
HOST=127.0.0.1

http_port() { echo $((CLUSTER_HTTP_PORT + $1 - 1)); }
transport_port() { echo $((CLUSTER_TRANSPORT_PORT + $1 - 1)); }
node_url() { echo "http://$HOST:$(http_port "$1")"; }
nodes() { seq 1 "$CLUSTER_NODES"; }
url() { local n out=""; for n in $(nodes); do out="$out${out:+,}$(node_url "$n")"; done; echo "$out"; }
node_dir() { service_dir "cluster/node-$1"; }
pidfile() { echo "$(node_dir "$1")/es.pid"; }
node_pid() { cat "$(pidfile "$1")" 2>/dev/null || true; }
check_node() { [[ "${1:-}" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$CLUSTER_NODES" ] || die "no node '${1:-}' (1..$CLUSTER_NODES)"; }

# Any live node's answer to a GET (the first one that answers).
api() {
  local n
  for n in $(nodes); do curl_admin "$(node_url "$n")$1" -fsS --max-time 5 2>/dev/null && return 0; done
  return 1
}
api_put() {
  local n
  for n in $(nodes); do
    curl_admin "$(node_url "$n")$1" -fsS --max-time 10 -X PUT -H 'Content-Type: application/json' -d "$2" >/dev/null 2>&1 && return 0
  done
  return 1
}

port_taken() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

configure_node() {
  local n="$1" dir home="$2" seeds="" m masters=""
  dir="$(node_dir "$n")"
  mkdir -p "$dir/config/jvm.options.d" "$dir/data" "$dir/logs"
  cp "$home/config/jvm.options" "$home/config/log4j2.properties" "$dir/config/"
  for m in $(nodes); do seeds="$seeds${seeds:+, }\"$HOST:$(transport_port "$m")\""; masters="$masters${masters:+, }node-$m"; done
  {
    echo "# Written by devservices/cluster.sh: node $n of a private $CLUSTER_NODES-node dev/test cluster."
    echo "cluster.name: $CLUSTER_NAME"
    echo "node.name: node-$n"
    echo "network.host: $HOST"
    echo "http.port: $(http_port "$n")"
    echo "transport.port: $(transport_port "$n")"
    echo "discovery.seed_hosts: [$seeds]"
    # Only for the very first start: a formed cluster must not be bootstrapped again.
    [ -d "$dir/data/_state" ] || echo "cluster.initial_master_nodes: [$masters]"
    echo "xpack.security.enabled: true"
    echo "xpack.security.http.ssl.enabled: false"
    echo "xpack.security.transport.ssl.enabled: false"
    echo "xpack.security.enrollment.enabled: false"
    echo "path.data: $dir/data"
    echo "path.logs: $dir/logs"
    echo "# A nearly full dev disk must not turn the indices read-only under the tests."
    echo "cluster.routing.allocation.disk.threshold_enabled: false"
  } > "$dir/config/elasticsearch.yml"
  printf -- '-Xms%s\n-Xmx%s\n' "$CLUSTER_HEAP" "$CLUSTER_HEAP" > "$dir/config/jvm.options.d/heap.options"
  write_keystore "$home" "$dir/config"
  [ "$(id -u)" = 0 ] && chown -R "$SERVICE_USER:" "$dir"
  return 0
}

# Launch node N unless it runs already; returns at once (joining is waited for elsewhere).
launch() {
  local n="$1" dir home pid
  dir="$(node_dir "$n")"; home="$(service_dir elasticsearch)/elasticsearch-$ES_VERSION"; pid="$(node_pid "$n")"
  if pid_alive "$pid"; then log "node-$n already running (pid $pid)"; return 0; fi
  for port in "$(http_port "$n")" "$(transport_port "$n")"; do
    port_taken "$port" && die "port $port is in use by another process; set CLUSTER_HTTP_PORT / CLUSTER_TRANSPORT_PORT"
  done
  configure_node "$n" "$home"
  log "starting node-$n on $(node_url "$n") (transport $(transport_port "$n"), logs: $dir/logs)"
  launch_node "$home" "$dir/config" "$dir/es.pid" "$dir/logs/console.log" || die "node-$n failed to start; see $dir/logs/$CLUSTER_NAME.log"
}

# Whether every node authenticates the superuser. A node of a new cluster answers the health
# check (on another node) before it can read the security index ("failed to retrieve password
# hash for reserved user [elastic]": a 401), and a client's first request may go to any node.
all_authenticate() {
  local n
  for n in $(nodes); do
    curl_admin "$(node_url "$n")/_security/_authenticate" -fsS -o /dev/null --max-time 5 2>/dev/null || return 1
  done
}

# Wait until the cluster has all its nodes, is green (or $1 = yellow) and every node authenticates.
wait_health() {
  local want="${1:-green}" started=$SECONDS
  while [ $((SECONDS - started)) -lt "$CLUSTER_WAIT_SECONDS" ]; do
    if api "/_cluster/health?wait_for_status=$want&wait_for_nodes=$CLUSTER_NODES&timeout=2s" | grep -q '"timed_out":false' && all_authenticate; then
      log "cluster $CLUSTER_NAME is $want with $CLUSTER_NODES nodes at $(url)"; return 0
    fi
    for n in $(nodes); do
      [ -f "$(pidfile "$n")" ] && ! pid_alive "$(node_pid "$n")" && die "node-$n exited; see $(node_dir "$n")/logs/$CLUSTER_NAME.log"
    done
    sleep 1
  done
  die "cluster not $want with $CLUSTER_NODES nodes after $CLUSTER_WAIT_SECONDS s; see .state/cluster/node-*/logs"
}

start() {
  ensure_service_user
  install_distribution "$(service_dir elasticsearch)"
  local n
  for n in $(nodes); do launch "$n" & done
  wait
  for n in $(nodes); do pid_alive "$(node_pid "$n")" || die "node-$n did not start; see $(node_dir "$n")/logs"; done
  wait_health green
}

stop() { local n; for n in $(nodes); do stop_pidfile "$(pidfile "$n")" "node-$n" & done; wait; }

start_node() { check_node "$1"; launch "$1"; wait_health "${2:-green}"; }
stop_node() { check_node "$1"; stop_pidfile "$(pidfile "$1")" "node-$1"; }

# One step of a rolling restart (Elasticsearch's documented procedure).
restart_node() {
  check_node "$1"
  local n="$1" started=$SECONDS
  install_distribution "$(service_dir elasticsearch)"  # ES_VERSION's, when upgrade-node asked for another
  wait_health green
  api_put /_cluster/settings '{"persistent": {"cluster.routing.allocation.enable": "primaries"}}' || die "could not pause replica allocation"
  curl_admin "$(node_url "$n")/_flush" -fsS --max-time 30 -X POST >/dev/null 2>&1 || log "flush on node-$n failed; continuing"
  stop_pidfile "$(pidfile "$n")" "node-$n"
  launch "$n"
  until api "/_cat/nodes?h=name" | grep -qx "node-$n"; do
    [ $((SECONDS - started)) -lt "$CLUSTER_WAIT_SECONDS" ] || die "node-$n did not rejoin"
    pid_alive "$(node_pid "$n")" || die "node-$n exited; see $(node_dir "$n")/logs"
    sleep 1
  done
  api_put /_cluster/settings '{"persistent": {"cluster.routing.allocation.enable": null}}' || die "could not resume allocation"
  wait_health green
  log "node-$n restarted in $((SECONDS - started)) s (Elasticsearch $ES_VERSION)"
}

# ES_VERSION is read when the scripts are sourced: the upgrade's step runs as a new process.
upgrade_node() {
  check_node "$1"
  [[ "${2:-}" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "upgrade-node N VERSION: no version given (e.g. 9.2.4)"
  ES_VERSION="$2" exec bash "${BASH_SOURCE[0]}" restart-node "$1"
}

# Each node's name and Elasticsearch version, one a line.
versions() { api "/_cat/nodes?h=name,version&s=name"; }

status() {
  local n rc=0
  for n in $(nodes); do
    if pid_alive "$(node_pid "$n")"; then echo "node-$n: running (pid $(node_pid "$n")) at $(node_url "$n")"; else echo "node-$n: down"; rc=1; fi
  done
  api "/_cluster/health" && echo || rc=1
  return $rc
}

case "${1:-}" in
  start) start ;; stop) stop ;; status) status ;; url) url ;;
  start-node) start_node "${2:-}" ;; stop-node) stop_node "${2:-}" ;; restart-node) restart_node "${2:-}" ;;
  upgrade-node) upgrade_node "${2:-}" "${3:-}" ;; versions) versions ;;
  pid) check_node "${2:-}"; node_pid "$2" ;;
  *) echo "usage: $0 start|stop|status|url|start-node N|stop-node N|restart-node N|upgrade-node N VERSION|pid N|versions" >&2; exit 2 ;;
esac
