#!/usr/bin/env bash
# Installs node_modules from the lock file when they are missing or older than it, then generates the Prisma client,
# under the Node that scripts/ensure-node.sh puts first on PATH. better-sqlite3, the one native module, ships Node-API
# binaries for Linux, macOS and Windows on x64 and arm64, which load under any Node of the engines' range; where none
# loads (another platform), it is compiled from source, once, against that Node's headers (npm_config_nodedir).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --prefer-offline --no-audit --no-fund
fi
loads_sqlite() { node -e "require('better-sqlite3')(':memory:').close()" 2>/dev/null; }
if ! loads_sqlite; then
  echo "better-sqlite3 has no binary that loads under Node $(node --version) on $(uname -sm): compiling it (python3, make, g++)…"
  started=$SECONDS
  # Its own build script: node-gyp, whose binary (build/Release) better-sqlite3 prefers over the shipped ones.
  log="$(mktemp)"
  npm run build-release --prefix node_modules/better-sqlite3 >"$log" 2>&1 || { tail -40 "$log"; exit 1; }
  rm -f "$log"
  loads_sqlite || { node -e "require('better-sqlite3')(':memory:')"; exit 1; }
  echo "better-sqlite3 compiled for Node $(node --version) in $((SECONDS - started)) s"
fi
[ -f lib/db/generated/client.ts ] && [ -f lib/db/generated-postgres/client.ts ] || npm run db:generate >/dev/null
