#!/usr/bin/env bash
# Everything on the real cluster (real kube-apiserver and Argo Rollouts controller built from Go modules): the
# simulator vs the real controller (conformance, docs/fidelity.md), Rollscope's own suites with the CLI oracle and the
# Helm chart on one cluster, and one Chromium pass; before them the plugin meter's Go tests (plugin-meter/go-test.ts).
# `npm test` runs it beside the simulator's e2e stages; alone: `bash scripts/test-real-cluster.sh`. Each stage skips
# itself, saying why, without Go.
#   --go-build-status FILE   wait until FILE holds the exit status of a Go build running elsewhere (npm test's)
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
# Started alone or by npm test (which has already put Node 24 first on PATH: then this changes nothing).
source scripts/ensure-node.sh

if [ "${1:-}" = "--go-build-status" ]; then
  echo "── Go binaries: waiting for the build started with the tests"
  until [ -s "$2" ]; do sleep 2; done
  if [ "$(cat "$2")" != "0" ]; then echo "the Go build failed (exit $(cat "$2"))"; exit 1; fi
else
  echo "── Go binaries"; npx tsx scripts/build-go-binaries.ts
fi
echo "── plugin meter (go test)";  npx tsx plugin-meter/go-test.ts
echo "── conformance";             npx vitest run --project conformance
echo "── real-cluster suites";      npx vitest run --project real-cluster
echo "── e2e on the real cluster"; npx playwright test -c playwright.real-cluster.config.ts
