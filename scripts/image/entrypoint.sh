#!/bin/sh
# The image's entrypoint, run from the standalone server's directory (also by test/integration/standalone-image.test.ts,
# exactly as the image runs it): applies the database migrations, then execs Next's standalone server. Writes nothing
# beside itself: the database lives where DATABASE_URL points (a mounted volume), and anything else under /tmp.
set -eu
cd "$(dirname "$0")/../.."
node scripts/image/migrate.mjs
# Next's standalone server listens on $HOSTNAME:$PORT. A container engine sets HOSTNAME to the container's name, so it
# is always set here: every interface of the container's own network, unless ROLLSCOPE_LISTEN says otherwise.
HOSTNAME="${ROLLSCOPE_LISTEN:-0.0.0.0}"
PORT="${PORT:-3000}"
# Idle keep-alive connections stay open 65 s, longer than the ingress or load balancer in front keeps them (ALB and
# nginx: 60 s); Node's 5-s default makes a proxy reuse a connection the server is closing, and answer 502.
KEEP_ALIVE_TIMEOUT="${ROLLSCOPE_KEEP_ALIVE_TIMEOUT_MS:-65000}"
export HOSTNAME PORT KEEP_ALIVE_TIMEOUT
# Heap limits as scripts/start-server.sh sets them (its comment says why).
exec node --max-old-space-size="${ROLLSCOPE_MAX_HEAP_MB:-320}" --max-semi-space-size="${ROLLSCOPE_SEMI_SPACE_MB:-16}" --import ./scripts/image/json-console.mjs server.js
