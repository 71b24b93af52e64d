#!/usr/bin/env bash
# Starts the production server (`next start`) with a bounded heap. Node sizes its heap from the machine's memory
# (about 4 GB on a 24 GB host) and defers full garbage collection until the heap nears that size, so a busy server's
# RSS climbs to several times what it keeps alive. Rollscope keeps about 40 KB per watched Rollout alive (about 200 MB
# at 5,000); the default cap keeps RSS under 500 MB there. Raise ROLLSCOPE_MAX_HEAP_MB for larger fleets.
set -euo pipefail
export NODE_OPTIONS="--max-old-space-size=${ROLLSCOPE_MAX_HEAP_MB:-320} ${NODE_OPTIONS:-}"
cd "$(dirname "$0")/.."
exec node node_modules/next/dist/bin/next start "$@"
