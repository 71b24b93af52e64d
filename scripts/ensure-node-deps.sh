#!/usr/bin/env bash
# Installs node_modules from the lock file when they are missing or older than it, then generates the Prisma client.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --prefer-offline --no-audit --no-fund
fi
[ -f lib/db/generated/client.ts ] && [ -f lib/db/generated-postgres/client.ts ] || npm run db:generate >/dev/null
