import type { KnipConfig } from "knip";

/**
 * The dead-code check of `npm run lint`: files nothing reaches, exports nothing imports, and dependencies package.json
 * lists but nothing uses (or uses but does not list). Next.js (app/), Vitest, Playwright, ESLint, PostCSS, Prisma and
 * the package.json scripts (sim/cli.ts, bench/run.ts, …) give most entries through knip's plugins; listed here are the
 * programs a shell script, the image or a person starts instead. Exported types are not checked: many only name the
 * shape of an exported function's arguments or result. The generated Prisma clients (lib/db/generated*) are
 * git-ignored, and knip leaves out what git ignores.
 */
const config: KnipConfig = {
  entry: [
    // Started with tsx from scripts/*.sh, BENCHMARKS.md, realcluster/README.md and plugin-meter/README.md.
    "bench/probe-latency.ts",
    "bench/recorder-rate.ts",
    "bench/sim-load.ts",
    "bench/watch-memory.ts",
    "scripts/build-go-binaries.ts",
    "scripts/postgres-schema.ts",
    "scripts/preflight.ts",
    "scripts/screenshots-real-cluster.ts",
    "realcluster/cli.ts",
    "plugin-meter/go-test.ts",
    // Preloaded into the benchmark's server (`node --import`, bench/stack.ts).
    "bench/event-loop-probe.mjs",
    // Copied into the image and run by node (scripts/build-standalone.sh, scripts/image/entrypoint.sh).
    "scripts/image/*.mjs",
    // vitest.config.ts aliases `server-only` to it.
    "test/server-only-stub.ts",
    // The PostgreSQL schema, which prisma.config.ts picks when DATABASE_URL is a postgresql:// one.
    "prisma/postgres/schema.prisma",
  ],
  playwright: { config: ["playwright.config.ts", "playwright.base-path.config.ts", "playwright.real-cluster.config.ts"] },
  // Installed on the machine, not from npm: the tests and the real cluster start them.
  ignoreBinaries: ["kubectl", "go", "openssl", "renice"],
  exclude: ["types", "nsTypes"],
};

export default config;
