# The Elasticsearch distribution the dev scripts run: Maven Central's integ-test zip, unpacked once
# into the state folder, plus this repo's analysis plugin. Shared by elasticsearch.sh (one node)
# and cluster.sh (three nodes from the same home, each with its own config and data folders).
# Sourced after common.sh, not run.

ARTIFACT="org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip"
M2_REPO="${M2_REPO:-$HOME/.m2/repository}"
ZIP="$M2_REPO/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$ES_VERSION/elasticsearch-$ES_VERSION.zip"

# The major version of Elasticsearch these scripts run (8 or 9).
es_major() { echo "${ES_VERSION%%.*}"; }

# The Java feature version of the JDK at $1 (17, 21, 25 ...).
jdk_version() { "$1/bin/javac" -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/'; }

# The JDK that builds the plugin and runs the node: ES_JAVA_HOME, else the one of `javac` on PATH.
# Elasticsearch 9 needs Java 21 or newer: when that javac is older, the newest JDK in
# /usr/lib/jvm that is new enough (Debian's 17 is the default here, Temurin 25 lies beside it).
find_java_home() {
  if [ -n "${ES_JAVA_HOME:-}" ]; then echo "$ES_JAVA_HOME"; return; fi
  local need=17 javac home candidate
  [ "$(es_major)" -ge 9 ] && need=21
  javac="$(command -v javac)" || die "javac not found: a JDK $need+ is needed to build the analysis plugin"
  home="$(dirname "$(dirname "$(readlink -f "$javac")")")"
  [ "$(jdk_version "$home")" -ge "$need" ] && { echo "$home"; return; }
  for candidate in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -V -r); do
    candidate="${candidate%/}"
    [ -x "$candidate/bin/javac" ] && [ "$(jdk_version "$candidate")" -ge "$need" ] && { echo "$candidate"; return; }
  done
  die "Elasticsearch $ES_VERSION needs a JDK $need+ (javac on PATH is $(jdk_version "$home")); set ES_JAVA_HOME"
}

# Unpack the distribution into $1/elasticsearch-$ES_VERSION (fetched first if needed) and build
# the plugin into it; idempotent. Prints nothing; the home is "$1/elasticsearch-$ES_VERSION".
install_distribution() {
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
}

# Compile the analysis plugin against the unpacked jars; rebuilt when its source changes. src/ is
# shared by both lines; src-es8/ or src-es9/ adds the one class whose APIs differ (Compat.java).
build_plugin() {
  local home="$1" src="$ROOT/devservices/es-plugin" out="$1/plugins/blogsearch-analysis"
  local sources=("$src"/src/org/blogsearch/analysis/*.java "$src/src-es$(es_major)"/org/blogsearch/analysis/*.java)
  [ -f "${sources[-1]}" ] || die "no plugin sources for Elasticsearch $(es_major).x ($src/src-es$(es_major))"
  local stamp; stamp="$(cat "${sources[@]}" "$src/plugin-descriptor.properties.in" | sha1sum | cut -c1-16)-$ES_VERSION"
  [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] && return 0
  log "building the analysis plugin"
  local java_home classes; java_home="$(find_java_home)"; classes="$(mktemp -d)"
  "$java_home/bin/javac" -nowarn -d "$classes" -cp "$home/lib/*" "${sources[@]}"
  rm -rf "$out" && mkdir -p "$out"
  "$java_home/bin/jar" cf "$out/blogsearch-analysis.jar" -C "$classes" .
  sed "s/@ES_VERSION@/$ES_VERSION/g" "$src/plugin-descriptor.properties.in" > "$out/plugin-descriptor.properties"
  rm -rf "$classes"
  echo "$stamp" > "$out/.stamp"
}

# Store the superuser's password in the keystore of the config folder $2 of home $1 (created anew): the
# node gives it to the reserved user `elastic` as long as no other password was set through the API.
write_keystore() {
  local home="$1" conf="$2"
  rm -f "$conf/elasticsearch.keystore"
  ES_JAVA_HOME="$(find_java_home)" ES_PATH_CONF="$conf" "$home/bin/elasticsearch-keystore" create -s >/dev/null
  printf '%s' "$ELASTIC_PASSWORD" | ES_JAVA_HOME="$(find_java_home)" ES_PATH_CONF="$conf" "$home/bin/elasticsearch-keystore" add -s -x -f bootstrap.password
}

# Start a node in the background as the service user: $1 home, $2 config folder, $3 pid file,
# $4 console log. Returns once the launcher has daemonized it (the node may still be joining).
launch_node() {
  local home="$1" conf="$2" pidfile="$3" console="$4"
  rm -f "$pidfile"
  ( cd "$home" && as_service setsid env ES_JAVA_HOME="$(find_java_home)" ES_PATH_CONF="$conf" \
      "$home/bin/elasticsearch" -d -p "$pidfile" >"$console" 2>&1 )
}

# Stop the process in pid file $1 (SIGTERM, then SIGKILL after 30 s); $2 names it in the log.
stop_pidfile() {
  local pidfile="$1" name="$2" pid
  pid="$(cat "$pidfile" 2>/dev/null || true)"
  if ! pid_alive "$pid"; then log "$name is not running (no live pid in $pidfile)"; rm -f "$pidfile"; return 0; fi
  log "stopping $name (pid $pid)"
  kill "$pid"
  for _ in $(seq 1 60); do pid_alive "$pid" || { rm -f "$pidfile"; log "$name stopped"; return 0; }; sleep 0.5; done
  log "$name still running after 30 s, sending SIGKILL"; kill -9 "$pid" 2>/dev/null || true; rm -f "$pidfile"
}
