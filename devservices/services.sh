#!/usr/bin/env bash
# Start, stop or report both dev services. Usage: services.sh start|stop|status
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
here="$(dirname "${BASH_SOURCE[0]}")"
case "${1:-}" in
  start) bash "$here/postgres.sh" start; bash "$here/elasticsearch.sh" start ;;
  stop) bash "$here/elasticsearch.sh" stop; bash "$here/postgres.sh" stop ;;
  status) rc=0; bash "$here/postgres.sh" status || rc=1; bash "$here/elasticsearch.sh" status || rc=1; exit $rc ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
