#!/usr/bin/env bash
# Starts the production server (`next start`) with a bounded heap. Node sizes its heap from the machine's memory
# (about 4 GB on a 24 GB host) and defers full garbage collection until the heap nears that size, so a busy server's
# RSS climbs to several times what it keeps alive. Rollscope's V8 heap after a full collection is about 100 MB with 20
# clusters and no Rollouts, and 7–9 KiB more per watched Rollout (about 140 MB at 5,000; `npm run bench --
# --only memory`); the default cap keeps RSS about 450 MB there. Beyond about 15,000 Rollouts raise
# ROLLSCOPE_MAX_HEAP_MB to about 100 MB + 15 KiB per Rollout.
#
# The young generation is capped too (ROLLSCOPE_SEMI_SPACE_MB, 16 MB per semi-space). Node lets it grow to 64 MB per
# semi-space under a busy server's allocation, and each scavenge then copies more survivors: at 5,000 Rollouts the
# default held the event loop in garbage collection for up to 104 ms at a time (60 ms at 16 MB), cost 637 µs of server
# CPU per Rollout change against 287 µs, and about 50 MB more RSS (`npm run bench`, BENCHMARKS.md).
#
# Before Next starts, scripts/preflight.ts checks the configuration (a bad one stops here, naming the field) and picks
# the listen address: -H if given, else ROLLSCOPE_LISTEN, else server.listen, else 127.0.0.1 in auth mode none.
#
# ROLLSCOPE_NODE_FLAGS are passed to node itself, for flags NODE_OPTIONS refuses, e.g. a CPU profile of the server:
# ROLLSCOPE_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (written when the server exits; BENCHMARKS.md).
#
# Idle keep-alive connections stay open 65 s (Node's default is 5 s), longer than the idle timeout of the load balancer
# or proxy in front (ALB and nginx: 60 s): a proxy reusing a connection the server is closing gets a reset (a 502).
#
# --migrate (`npm start`) applies the database's migrations first, under the same Node as the server (ensure-node.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
if [ "${1:-}" = "--migrate" ]; then
  shift
  node_modules/.bin/prisma migrate deploy
fi
export NODE_OPTIONS="--max-old-space-size=${ROLLSCOPE_MAX_HEAP_MB:-320} --max-semi-space-size=${ROLLSCOPE_SEMI_SPACE_MB:-16} ${NODE_OPTIONS:-}"
listen="$(node --conditions=react-server --import tsx scripts/preflight.ts "$@")" || exit 1
args=(--keepAliveTimeout "${ROLLSCOPE_KEEP_ALIVE_TIMEOUT_MS:-65000}" "$@")
if [ -n "$listen" ]; then args+=(-H "$listen"); fi
# shellcheck disable=SC2086 # the flags are words of their own
exec node ${ROLLSCOPE_NODE_FLAGS:-} node_modules/next/dist/bin/next start "${args[@]}"
