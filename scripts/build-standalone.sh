#!/usr/bin/env bash
# Assembles the image's server directory in .next/standalone after `next build` (output: "standalone"): Next's
# traced server and node_modules, plus what it leaves out — the browser assets, the migrations of both databases
# (prisma/migrations for SQLite, prisma/postgres/migrations for PostgreSQL) and the entrypoint.
# Usage: npx next build && bash scripts/build-standalone.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=.next/standalone
[ -f "$out/server.js" ] || { echo "no $out/server.js: run \`npx next build\` first" >&2; exit 1; }
rm -rf "$out/.next/static" "$out/prisma/migrations" "$out/prisma/postgres" "$out/scripts/image"
cp -r .next/static "$out/.next/static"
if [ -d public ]; then rm -rf "$out/public" && cp -r public "$out/public"; fi
mkdir -p "$out/prisma/postgres" "$out/scripts/image"
cp -r prisma/migrations "$out/prisma/migrations"
cp -r prisma/postgres/migrations "$out/prisma/postgres/migrations"
# migrate.mjs loads the driver of the database it migrates: better-sqlite3, or pg (traced for the pg adapter).
for driver in better-sqlite3 pg; do
  [ -f "$out/node_modules/$driver/package.json" ] || { echo "$out/node_modules/$driver missing: migrate.mjs needs it" >&2; exit 1; }
done
cp scripts/image/entrypoint.sh scripts/image/migrate.mjs scripts/image/healthcheck.mjs scripts/image/json-console.mjs "$out/scripts/image/"
# Next's build cache is not needed to serve; the server writes nothing under its own directory.
rm -rf "$out/.next/cache"
# Next copies @prisma/client whole (44 MB of it unused): the generated client (engineType "client") loads only its
# runtime and the query compiler of its database; the query engines and the other databases' compilers go.
runtime="$out/node_modules/@prisma/client/runtime"
rm -f "$runtime"/query_engine_bg.* "$runtime"/query_compiler_bg.{mysql,sqlserver,cockroachdb}.*
# better-sqlite3 ships a binary per platform and Next copies several: the server runs where it was built (the image's
# build stage has the runtime's base), so only the one this machine loads stays.
prebuild="$(node -p "require('./node_modules/better-sqlite3/lib/binding.js').getPrebuildPath() ?? ''")"
if [ -n "$prebuild" ]; then
  find "$out/node_modules/better-sqlite3/prebuilds" -name '*.node' ! -name "$(basename "$prebuild")" -delete
fi
echo "standalone server in $out ($(du -sh "$out" | cut -f1))"
