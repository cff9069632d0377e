#!/usr/bin/env bash
# Dev/test Elasticsearch: the integ-test distribution from Maven Central plus this repo's
# analysis plugin, single node on loopback, security off. Usage: elasticsearch.sh start|stop|status
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ARTIFACT="org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip"
M2_REPO="${M2_REPO:-$HOME/.m2/repository}"
ZIP="$M2_REPO/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$ES_VERSION/elasticsearch-$ES_VERSION.zip"
HOST="$(es_host)"; PORT="$(es_port)"

find_java_home() {
  if [ -n "${ES_JAVA_HOME:-}" ]; then echo "$ES_JAVA_HOME"; return; fi
  local javac; javac="$(command -v javac)" || die "javac not found: a JDK 17+ is needed to build the analysis plugin"
  dirname "$(dirname "$(readlink -f "$javac")")"
}

es_up() { curl -fsS -o /dev/null "$ELASTICSEARCH_URL/_cluster/health" 2>/dev/null; }

install_es() {
  local dir="$1" home="$1/elasticsearch-$ES_VERSION"
  if [ ! -f "$ZIP" ]; then
    log "downloading Elasticsearch $ES_VERSION from Maven Central (cached in $M2_REPO)"
    mvn -q -B dependency:get -Dartifact="$ARTIFACT" -Dtransitive=false -Dmaven.repo.local="$M2_REPO" \
      || die "could not fetch $ARTIFACT"
  fi
  if [ ! -x "$home/bin/elasticsearch" ]; then
    log "unpacking Elasticsearch into $dir"
    rm -rf "$home.tmp" && mkdir -p "$home.tmp"
    unzip -q "$ZIP" -d "$home.tmp"
    mv "$home.tmp/elasticsearch-$ES_VERSION" "$home" && rm -rf "$home.tmp"
  fi
  build_plugin "$home"
  configure "$dir" "$home"
  [ "$(id -u)" = 0 ] && chown -R "$SERVICE_USER:" "$dir"
  return 0
}

# Compile the analysis plugin against the unpacked jars; rebuilt when its source changes.
build_plugin() {
  local home="$1" src="$ROOT/devservices/es-plugin" out="$1/plugins/blogsearch-analysis"
  local stamp; stamp="$(cat "$src"/src/org/blogsearch/analysis/*.java "$src/plugin-descriptor.properties.in" | sha1sum | cut -c1-16)-$ES_VERSION"
  [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] && return 0
  log "building the analysis plugin"
  local java_home classes; java_home="$(find_java_home)"; classes="$(mktemp -d)"
  "$java_home/bin/javac" -nowarn -d "$classes" -cp "$home/lib/*" "$src"/src/org/blogsearch/analysis/*.java
  rm -rf "$out" && mkdir -p "$out"
  "$java_home/bin/jar" cf "$out/blogsearch-analysis.jar" -C "$classes" .
  sed "s/@ES_VERSION@/$ES_VERSION/g" "$src/plugin-descriptor.properties.in" > "$out/plugin-descriptor.properties"
  rm -rf "$classes"
  echo "$stamp" > "$out/.stamp"
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
    rm -f "$pidfile"
    ( cd "$home" && as_service setsid env ES_JAVA_HOME="$(find_java_home)" ES_PATH_CONF="$home/config" \
        "$home/bin/elasticsearch" -d -p "$pidfile" >"$dir/logs/console.log" 2>&1 ) || die "Elasticsearch failed to start; see $dir/logs/blogsearch-dev.log"
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

stop() {
  local dir pidfile pid; dir="$(service_dir elasticsearch)"; pidfile="$dir/es.pid"
  pid="$(cat "$pidfile" 2>/dev/null || true)"
  if ! pid_alive "$pid"; then log "Elasticsearch is not running (no live pid in $pidfile)"; rm -f "$pidfile"; return 0; fi
  log "stopping Elasticsearch (pid $pid)"
  kill "$pid"
  for _ in $(seq 1 60); do pid_alive "$pid" || { rm -f "$pidfile"; log "stopped"; return 0; }; sleep 0.5; done
  log "still running after 30 s, sending SIGKILL"; kill -9 "$pid" 2>/dev/null || true; rm -f "$pidfile"
}

status() { es_up && echo "elasticsearch: up at $ELASTICSEARCH_URL" || { echo "elasticsearch: down"; return 1; }; }

case "${1:-}" in
  start) start ;; stop) stop ;; status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
