#!/usr/bin/env bash
# The real cluster beside the simulator: builds (first time) and starts etcd, kube-apiserver, the controller
# manager, the scheduler, kwok, the real Argo Rollouts controller, Prometheus and the demo workloads as local
# processes, then Rollscope against them. Ctrl-C stops every process. See realcluster/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
source scripts/ensure-node.sh
bash scripts/ensure-node-deps.sh
mkdir -p .rollscope
export DATABASE_URL="${DATABASE_URL:-file:./data/rollscope-realcluster.db}"
npx prisma migrate deploy >/dev/null

if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib -newer .next/BUILD_ID -type f -print -quit)" ]; then
  echo "Building the app (about a minute the first time)…"
  npx next build >.rollscope/build.log 2>&1 || { tail -40 .rollscope/build.log; exit 1; }
fi
# exec, and node itself rather than the tsx wrapper (which runs it as a child): Ctrl-C reaches the one Node process,
# which stops every component it started; if it dies instead, its watchdog does (realcluster/processes.ts).
exec node --import tsx realcluster/cli.ts "$@"
