#!/usr/bin/env bash
# Installs the Debian packages the tests need (Chromium for Playwright, Prometheus for the metrics tests, PostgreSQL
# for the integration-postgres project)
# when they are missing and we are root. Never downloads a browser build of its own.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/prometheus ] || missing+=(prometheus)
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "Missing ${missing[*]}; run as root or: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 0
fi
echo "Installing ${missing[*]} from Debian…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The package starts a system Prometheus on :9090; the tests run their own.
if [[ " ${missing[*]} " == *" prometheus "* ]]; then
  (systemctl stop prometheus 2>/dev/null || service prometheus stop 2>/dev/null || pkill -x prometheus || true) >/dev/null 2>&1
fi
# Likewise the package's own cluster on :5432; the tests start throw-away servers (test/harness/postgres.ts).
if [[ " ${missing[*]} " == *" postgresql "* ]]; then
  (systemctl stop postgresql 2>/dev/null || service postgresql stop 2>/dev/null || true) >/dev/null 2>&1
fi
