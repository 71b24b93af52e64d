#!/usr/bin/env bash
# Installs what is missing, starts the simulated demo clusters and the app, and prints the URL.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
PORT="${PORT:-3000}"
bash scripts/ensure-node-deps.sh
mkdir -p .rollscope
export DATABASE_URL="${DATABASE_URL:-file:./data/rollscope.db}"
npx prisma migrate deploy >/dev/null

if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib -newer .next/BUILD_ID -type f -print -quit)" ]; then
  echo "Building the app (about a minute the first time)…"
  npx next build >.rollscope/build.log 2>&1 || { tail -40 .rollscope/build.log; exit 1; }
fi

kubeconfig="$PWD/.rollscope/kubeconfig"
config="$PWD/.rollscope/rollscope.yaml"
rm -f "$kubeconfig" "$config"
npx tsx sim/cli.ts --scenario demo --kubeconfig "$kubeconfig" --rollscope-config "$config" >.rollscope/sim.log 2>&1 &
sim_pid=$!
trap 'kill $sim_pid 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 150); do [ -s "$config" ] && break; sleep 0.2; done
[ -s "$config" ] || { cat .rollscope/sim.log; echo "the demo clusters did not start" >&2; exit 1; }

echo
# No sign-in in the demo, so it listens on 127.0.0.1 only (ROLLSCOPE_LISTEN=0.0.0.0 opens it to the network).
echo "Rollscope demo: http://127.0.0.1:$PORT   (3 simulated clusters; kubeconfig: $kubeconfig)"
echo "Stop with Ctrl-C."
ROLLSCOPE_CONFIG="$config" KUBECONFIG="$kubeconfig" bash scripts/start-server.sh -p "$PORT"
