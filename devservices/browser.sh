#!/usr/bin/env bash
# Make sure Debian's Chromium is present for the browser tests (Playwright drives it; its own
# browser download cannot work on our machines). Installs it when running as root.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  log "installing Debian's chromium for the browser tests"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null || die "apt-get install chromium failed"
else
  log "WARNING: $CHROMIUM not found and not root: the browser tests will be skipped (CI=true fails them)"
fi
