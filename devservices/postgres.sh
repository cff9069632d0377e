#!/usr/bin/env bash
# Dev/test PostgreSQL: a private cluster in the state folder on a non-default loopback port,
# trust auth for the local service user. Not used when DATABASE_URL is set (that server is yours).
# Usage: postgres.sh start|stop|status|url
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PG_BIN="${PG_BIN:-$(dirname "$(readlink -f "$(command -v pg_ctl || echo /usr/lib/postgresql/15/bin/pg_ctl)")")}"
[ -x "$PG_BIN/pg_ctl" ] || PG_BIN=/usr/lib/postgresql/15/bin
PG_USER="$SERVICE_USER"; [ "$(id -u)" = 0 ] || PG_USER="$(id -un)"

url() { echo "postgres://$PG_USER@127.0.0.1:$PG_PORT/$PG_DB"; }

# DATABASE_URL names someone else's server unless it is our own cluster's URL (the Makefile
# exports that one as the default).
external() { [ -n "${DATABASE_URL:-}" ] && [ "$DATABASE_URL" != "$(url)" ]; }

start() {
  if external; then log "DATABASE_URL points at another server: using it, starting none"; return 0; fi
  [ -x "$PG_BIN/initdb" ] || die "PostgreSQL server binaries not found (looked in $PG_BIN); install Debian's postgresql-15"
  ensure_service_user
  local dir; dir="$(service_dir postgres)"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    log "initialising a private PostgreSQL cluster in $dir/data"
    rm -rf "$dir/data"
    as_service "$PG_BIN/initdb" -D "$dir/data" -U "$PG_USER" --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || die "initdb failed; see $dir/initdb.log"
    cat >> "$dir/data/postgresql.conf" <<CONF
# devservices/postgres.sh: loopback only, socket in the state folder, tuned for tests not durability.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 100
CONF
  fi
  if as_service "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    log "PostgreSQL already running on port $PG_PORT"
  else
    log "starting PostgreSQL on 127.0.0.1:$PG_PORT"
    as_service "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 start >/dev/null \
      || die "PostgreSQL failed to start; see $dir/postgres.log"
  fi
  if ! psql -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -tAc "select 1 from pg_database where datname='$PG_DB'" | grep -q 1; then
    log "creating database $PG_DB"
    psql -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -qc "create database \"$PG_DB\""
  fi
}

# Stops the postmaster whose pid is in the cluster's postmaster.pid, the one this script started.
stop() {
  external && { log "DATABASE_URL points at another server: nothing of ours to stop"; return 0; }
  local dir pid; dir="$(service_dir postgres)"
  pid="$(head -1 "$dir/data/postmaster.pid" 2>/dev/null || true)"
  if ! pid_alive "$pid"; then log "PostgreSQL is not running"; return 0; fi
  log "stopping PostgreSQL (pid $pid)"
  as_service "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}

status() {
  external && { echo "postgres: external (DATABASE_URL)"; return 0; }
  psql -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d "$PG_DB" -tAc 'select 1' >/dev/null 2>&1 \
    && echo "postgres: up on 127.0.0.1:$PG_PORT" || { echo "postgres: down"; return 1; }
}

case "${1:-}" in
  start) start ;; stop) stop ;; status) status ;; url) url ;;
  *) echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
