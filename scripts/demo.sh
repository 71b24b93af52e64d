#!/usr/bin/env bash
# Installs what is missing, starts the simulated demo clusters and the app, and prints the URL.
#
#   npm run demo                      real time, no sign-in, on 127.0.0.1 only
#   npm run demo -- --speed 30        simulated time runs 30× faster (the header says so)
#   npm run demo -- --sign-in         sign in as alice (operator) or bob (viewer), any password
#
# When Prometheus is installed (`command -v prometheus`), it is started too, scraping the simulated controllers, so
# measured traffic, the stuck-router finding and per-RPC figures appear. ROLLSCOPE_LISTEN=0.0.0.0 opens the app to
# the network (it listens on 127.0.0.1 otherwise, with or without sign-in).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
PORT="${PORT:-3000}"
speed=1
sign_in=""
while [ $# -gt 0 ]; do
  case "$1" in
    --speed) speed="${2:?--speed needs a number, e.g. --speed 30}"; shift 2 ;;
    --sign-in) sign_in="http://127.0.0.1:$PORT"; shift ;;
    -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
[[ "$speed" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "--speed must be a number, got $speed" >&2; exit 2; }
source scripts/ensure-node.sh
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
sim_args=(--scenario demo --time-scale "$speed" --kubeconfig "$kubeconfig" --rollscope-config "$config")
if command -v prometheus >/dev/null 2>&1; then
  export PROMETHEUS_BIN="$(command -v prometheus)"
  sim_args+=(--prometheus)
fi
if [ -n "$sign_in" ]; then sim_args+=(--sign-in "$sign_in"); fi
npx tsx sim/cli.ts "${sim_args[@]}" >.rollscope/sim.log 2>&1 &
sim_pid=$!
trap 'kill $sim_pid 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 450); do [ -s "$config" ] && break; sleep 0.2; done
[ -s "$config" ] || { cat .rollscope/sim.log; echo "the demo clusters did not start" >&2; exit 1; }

echo
# 127.0.0.1 only unless asked (ROLLSCOPE_LISTEN=0.0.0.0 opens it to the network), with or without sign-in.
export ROLLSCOPE_LISTEN="${ROLLSCOPE_LISTEN:-127.0.0.1}"
# The header shows "simulated time ×N" when the demo runs faster than real time.
export ROLLSCOPE_DEMO_TIME_SCALE="$speed"
echo "Rollscope demo: http://127.0.0.1:$PORT   (3 simulated clusters; kubeconfig: $kubeconfig)"
if [ "$speed" != "1" ]; then echo "Simulated time runs ×$speed."; else echo "Real time (npm run demo -- --speed 30 runs it 30× faster)."; fi
grep -E '^(prometheus|sign-in):' .rollscope/sim.log || true
echo "Stop with Ctrl-C."
ROLLSCOPE_CONFIG="$config" KUBECONFIG="$kubeconfig" bash scripts/start-server.sh -p "$PORT"
