#!/usr/bin/env bash
# Installs what the test suite needs and a fresh machine lacks: Debian's Chromium and its headless
# shell (Playwright drives it; it never downloads a browser), Debian's PostgreSQL server (tests start a
# throwaway cluster on loopback), Debian's Prometheus (its promtool checks /metrics) and Debian's
# nginx (the proxy configuration of docs/operations/reverse-proxy.md runs in it).
# Needs root (or passwordless sudo) only when something is missing.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# the end-to-end tests' browser (playwright.config.ts); browser checks use the full Chromium
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
lean=()
command -v promtool >/dev/null 2>&1 || lean+=(prometheus)
[ -x /usr/sbin/nginx ] || lean+=(nginx)
# ping checks run Debian's ping; their loss tests black-hole a loopback address with nft.
command -v ping >/dev/null 2>&1 || lean+=(iputils-ping)
command -v nft >/dev/null 2>&1 || lean+=(nftables)
# The database kinds' tests start their own throwaway MariaDB and Redis on loopback (issue 28).
[ -x /usr/sbin/mariadbd ] || lean+=(mariadb-server)
[ -x /usr/bin/redis-server ] || lean+=(redis-server)
if [ ${#need[@]} -eq 0 ] && [ ${#lean[@]} -eq 0 ]; then exit 0; fi
echo "Installing missing test dependencies: ${need[*]} ${lean[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
if [ ${#need[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# Without recommends: promtool is wanted, not the exporters Debian would add and start.
if [ ${#lean[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${lean[@]}" >/dev/null
fi
# Debian starts a default cluster on install; the tests use their own throwaway ones.
if command -v pg_lsclusters >/dev/null 2>&1; then
  $SUDO pg_ctlcluster --force "$(ls /usr/lib/postgresql | sort -n | tail -1)" main stop >/dev/null 2>&1 || true
fi
# The tests start their own nginx; the one the package may have started is not used.
if command -v service >/dev/null 2>&1 && [ -x /etc/init.d/nginx ]; then
  $SUDO service nginx stop >/dev/null 2>&1 || true
fi
# Only promtool is used; the Prometheus server the package may have started is not.
if command -v service >/dev/null 2>&1 && [ -x /etc/init.d/prometheus ]; then
  $SUDO service prometheus stop >/dev/null 2>&1 || true
fi
# The tests start their own MariaDB and Redis; the servers the packages may have started are not used.
for svc in mariadb redis-server; do
  if command -v service >/dev/null 2>&1 && [ -x "/etc/init.d/$svc" ]; then
    $SUDO service "$svc" stop >/dev/null 2>&1 || true
  fi
done
