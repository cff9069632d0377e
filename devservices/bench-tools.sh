#!/usr/bin/env bash
# Make sure the load benchmark's tools are present: wrk (the load generator) and redis-server (the
# shared result cache candidate), from Debian's packages. Installs them when running as root, as
# devservices/browser.sh does for Chromium; otherwise says what is missing and how to get it.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v msgfmt >/dev/null || missing+=(gettext)  # the catalogues' checks (tests/test_translations.py)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  log "installing Debian's ${missing[*]} for the benchmarks"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
elif [[ " ${missing[*]} " == *" wrk "* ]]; then
  die "wrk not found and not root: install Debian's package (apt-get install wrk)"
else
  log "WARNING: ${missing[*]} not found and not root: the Redis candidate is skipped, the catalogues unchecked (apt-get install ${missing[*]})"
fi
