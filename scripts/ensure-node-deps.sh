#!/usr/bin/env bash
# Installs node_modules from the lock file when they are missing or older than it, then generates the Prisma client.
# Under the Node that scripts/ensure-node.sh puts first on PATH; better-sqlite3, the one dependency built for a Node
# ABI, is compiled again when its binary does not load under that Node (node_modules installed by another Node).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --prefer-offline --no-audit --no-fund
fi
loads_sqlite() { node -e "require('better-sqlite3')(':memory:').close()" 2>/dev/null; }
if ! loads_sqlite; then
  echo "better-sqlite3 does not load under Node $(node --version) (built for another Node): compiling it…"
  # Its install script tries a prebuilt binary first (unreachable here: it fails at once), then node-gyp compiles it
  # against the headers of npm_config_nodedir (ensure-node.sh) or of the Node installation.
  started=$SECONDS
  npm rebuild better-sqlite3 >/dev/null
  loads_sqlite || { node -e "require('better-sqlite3')(':memory:')"; exit 1; }
  echo "better-sqlite3 compiled for Node $(node --version) in $((SECONDS - started)) s"
fi
[ -f lib/db/generated/client.ts ] && [ -f lib/db/generated-postgres/client.ts ] || npm run db:generate >/dev/null
