#!/usr/bin/env bash
# Installs what the test suite needs and a fresh machine lacks: Debian's Chromium (Playwright
# drives it; it never downloads a browser) and Debian's PostgreSQL server (tests start a
# throwaway cluster on loopback). Needs root (or passwordless sudo) only when something is missing.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "Installing missing test dependencies: ${need[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
# Debian starts a default cluster on install; the tests use their own throwaway ones.
if command -v pg_lsclusters >/dev/null 2>&1; then
  $SUDO pg_ctlcluster --force "$(ls /usr/lib/postgresql | sort -n | tail -1)" main stop >/dev/null 2>&1 || true
fi
