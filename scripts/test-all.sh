#!/usr/bin/env bash
# The one command that runs every test: lint, typecheck, unit, integration, e2e in Chromium, the benchmark's short
# mode, and everything on the real cluster (conformance, Rollscope's suites, one Chromium pass). Installs what is
# missing first.
#
# Time on a 2-core machine: the Go binaries of the real cluster build in the background from the start (a cold build
# takes many minutes; cached, seconds), and the PostgreSQL and real-cluster stages, which mostly wait, run beside the
# simulator's integration tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
start=$(date +%s)
# Node 24 first on PATH for every stage below, fetched from the npm registry when the machine's Node is older.
source scripts/ensure-node.sh
bash scripts/ensure-system-deps.sh
bash scripts/ensure-node-deps.sh

step() { echo; echo "── $1 ($(($(date +%s) - start)) s)"; }
logs=$(mktemp -d /tmp/rollscope-test-XXXXXX)

# Background jobs run in sessions of their own: if a stage fails, the exit trap stops them with all their processes.
background=()
trap 'for pid in "${background[@]}"; do kill -- -"$pid" 2>/dev/null || true; done' EXIT

# Cached Go builds live outside the repository (~/.cache/rollscope, Go's own caches); without Go this says why and the
# real-cluster stages skip themselves.
setsid -w bash -c 'npx tsx scripts/build-go-binaries.ts >"$1/go-build.log" 2>&1; echo $? >"$1/go-build.status"' _ "$logs" &
background+=($!)

step "lint";        npm run lint
step "typecheck";   npx tsc --noEmit -p .
step "unit";        npx vitest run --project unit
# The build comes first: the security suite (test/integration/security) starts the built app.
step "build";       npx next build >"$logs/next-build.log" 2>&1 || { tail -50 "$logs/next-build.log"; exit 1; }
# Beside the simulator's integration tests (which mostly wait on Prometheus scrapes and app start-ups): the
# database-facing tests on PostgreSQL and the real cluster's stages (scripts/test-real-cluster.sh: conformance,
# Rollscope's suites on one real cluster, one Chromium pass), which mostly wait on the real controller. The e2e pass
# in Chromium runs after them on a quieter machine: it is the most CPU-bound stage.
step "integration on PostgreSQL and the real-cluster stages (in the background; their output follows when they end)"
# With the Go binaries ready (cached) the real cluster goes first, so that its Chromium pass is over before the
# simulator's starts; while a cold Go build is still running, PostgreSQL goes first.
if [ -s "$logs/go-build.status" ]; then
  background_stages='bash scripts/test-real-cluster.sh --go-build-status "$1/go-build.status" && npx vitest run --project integration-postgres'
else
  background_stages='npx vitest run --project integration-postgres && bash scripts/test-real-cluster.sh --go-build-status "$1/go-build.status"'
fi
setsid -w bash -c "$background_stages" _ "$logs" >"$logs/background.log" 2>&1 &
real=$!
background+=("$real")

step "integration"; npx vitest run --project integration
step "e2e";         npx playwright test
# The same app built for and served under a sub-path (server.basePath): its own build, into .next-rollscope.
step "e2e under a sub-path"; npx playwright test -c playwright.base-path.config.ts
if [ -f bench/run.ts ]; then step "bench (short)"; npx tsx bench/run.ts --short; fi

step "PostgreSQL and real-cluster stages: waiting for them"
if wait "$real"; then real_status=0; else real_status=$?; fi
cat "$logs/background.log"
if [ "$real_status" -ne 0 ]; then
  echo "The PostgreSQL or real-cluster stages failed (exit $real_status). The Go build's log:"; tail -40 "$logs/go-build.log"
  exit "$real_status"
fi
echo; echo "All tests passed in $(($(date +%s) - start)) s"
