#!/usr/bin/env bash
# The one command that runs every test: lint, typecheck, unit, integration, e2e in Chromium, and the benchmark's
# short mode. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
start=$(date +%s)
bash scripts/ensure-system-deps.sh
bash scripts/ensure-node-deps.sh

step() { echo; echo "── $1 ($(($(date +%s) - start)) s)"; }
step "lint";        npx eslint .
step "typecheck";   npx tsc --noEmit -p .
step "unit";        npx vitest run --project unit
# The build comes first: the security suite (test/integration/security) starts the built app.
step "build";       npx next build >/tmp/rollscope-build.log 2>&1 || { tail -50 /tmp/rollscope-build.log; exit 1; }
step "integration"; npx vitest run --project integration
# Simulator vs the real Argo Rollouts controller, same scenarios on both (skipped without Go; docs/fidelity.md).
step "conformance"; npx vitest run --project conformance
# Rollscope's own suites and one Chromium pass on the real cluster (each run starts one; skipped without Go).
step "real-cluster suites"; npx vitest run --project real-cluster
step "integration on PostgreSQL"; npx vitest run --project integration-postgres
step "e2e";         npx playwright test
step "e2e on the real cluster"; npx playwright test -c playwright.real-cluster.config.ts
if [ -f bench/run.ts ]; then step "bench (short)"; npx tsx bench/run.ts --short; fi
echo; echo "All tests passed in $(($(date +%s) - start)) s"
