#!/usr/bin/env bash
# Prints the path of a CPython whose version is at least $1 (e.g. 3.12) and below $2 when given
# (e.g. 3.12: "3.11 only"), the newest first: $PYTHON when set, then python3.13, python3.12 ...
# on PATH, then pyenv's installed versions. pyenv's shims exist for versions not selected and fail
# when run, so each candidate is run, not just looked up. Exits 1 with what to install when none fits.
# `python.sh --check PATH MIN [BELOW]` only says (exit status) whether PATH fits.
set -euo pipefail
check=""; [ "${1:-}" = --check ] && { check="$2"; shift 2; }
min="${1:?usage: python.sh [--check PATH] MIN [BELOW]}" below="${2:-}"

fits() {
  "$1" -c "import sys
lo = tuple(map(int, '$min'.split('.'))); hi = tuple(map(int, '${below:-99}'.split('.')))
sys.exit(0 if lo <= sys.version_info[:2] < hi else 1)" >/dev/null 2>&1
}

if [ -n "$check" ]; then fits "$check"; exit; fi

candidates() {
  [ -n "${PYTHON:-}" ] && echo "$PYTHON"
  local v
  for v in 3.14 3.13 3.12 3.11; do echo "python$v"; done
  echo python3
  local root; root="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"
  ls -d "$root"/versions/3.*/bin/python3 2>/dev/null | sort -V -r || true
}

while read -r c; do
  path="$(command -v "$c" 2>/dev/null || true)"
  [ -n "$path" ] && fits "$path" && { "$path" -c 'import sys; print(sys.executable)'; exit 0; }
done < <(candidates)

want="Python $min or newer"; [ -n "$below" ] && want="Python $min (below $below)"
echo "No $want found (tried \$PYTHON, python3.1x on PATH and pyenv's versions)." >&2
echo "Install one, e.g. 'pyenv install $min' or Debian's python$min and python$min-venv, or set PYTHON=/path/to/python$min." >&2
exit 1
