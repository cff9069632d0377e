# Shared settings of the dev-services scripts; sourced, not run.
# Everything lives in the repo's ignored state folder (.state/) unless told otherwise.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE_DIR="${STATE_DIR:-$ROOT/.state}"
# The newest line by default; `make test-oldest` runs 8.19.21 (docs/testing.md#versions).
ES_VERSION="${ES_VERSION:-9.2.4}"
ELASTICSEARCH_URL="${ELASTICSEARCH_URL:-http://127.0.0.1:9200}"
ES_HEAP="${ES_HEAP:-768m}"
# The dev nodes run with security on, as the official image does. Their superuser `elastic` gets
# this password at first start (bootstrap.password); it is only used to create the site's role and
# user (manage.py search_security) and by the tests' administrator client. Loopback, dev only.
ELASTIC_PASSWORD="${ELASTIC_PASSWORD:-blogsearch-dev-elastic}"
# The dev cluster's default; DATABASE_URL, when set, means "use that server, start nothing".
PG_PORT="${PG_PORT:-54329}"
PG_DB="${PG_DB:-blogsearch}"
SERVICE_USER="${SERVICE_USER:-blogsearch}"

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# host and port of ELASTICSEARCH_URL
es_host() { local h="${ELASTICSEARCH_URL#*://}"; h="${h%%/*}"; h="${h##*@}"; echo "${h%%:*}"; }
es_port() { local h="${ELASTICSEARCH_URL#*://}"; h="${h%%/*}"; h="${h##*@}"; [[ "$h" == *:* ]] && echo "${h##*:}" || echo 9200; }

# ELASTICSEARCH_URL's scheme, host and port without the user name and password it may carry.
es_base() { local s="${ELASTICSEARCH_URL%%://*}"; echo "$s://$(es_host):$(es_port)"; }

# curl as the superuser (the password reaches curl on stdin, never on its command line); $1 the
# URL, then curl's options.
curl_admin() { local url="$1"; shift; printf 'user = "elastic:%s"\n' "$ELASTIC_PASSWORD" | curl -K - "$@" "$url"; }

is_loopback() { [[ "$1" == 127.* || "$1" == localhost || "$1" == "::1" ]]; }

# Elasticsearch and initdb refuse to run as root: as root, run them as a system user.
ensure_service_user() {
  [ "$(id -u)" = 0 ] || return 0
  if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    log "creating system user $SERVICE_USER (Elasticsearch and PostgreSQL refuse to run as root)"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
  fi
}

# Run a command as the service user when root, as ourselves otherwise.
as_service() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid="$SERVICE_USER" --regid="$SERVICE_USER" --init-groups -- "$@"
  else
    "$@"
  fi
}

# The folder the services write to. Normally $STATE_DIR; when the service user cannot reach it
# (a clone under /root, say) a private folder under /var/tmp named after the repo path instead.
service_dir() {
  local name="$1" dir="$STATE_DIR/$1"
  mkdir -p "$STATE_DIR"
  if [ "$(id -u)" = 0 ] && ! setpriv --reuid="$SERVICE_USER" --regid="$SERVICE_USER" --init-groups -- test -x "$STATE_DIR"; then
    dir="/var/tmp/blogsearch-$(printf '%s' "$ROOT" | sha1sum | cut -c1-12)/$name"
  fi
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown "$SERVICE_USER:" "$dir" "$(dirname "$dir")" 2>/dev/null || true
  echo "$dir"
}

pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
