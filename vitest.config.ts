import { defineConfig } from "vitest/config";
import path from "node:path";

/** The integration files that read or write the database, run on SQLite (integration) and PostgreSQL. */
const POSTGRES_SUITE = [
  "test/integration/recorder-writes.test.ts",
  "test/integration/recorder.test.ts",
  "test/integration/security/session-revocation.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside a React Server bundle; tests run server modules directly.
      "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "sim/**/*.test.ts",
            "components/**/*.test.ts",
            "scripts/**/*.test.ts",
            "bench/**/*.test.ts",
            "app/**/*.test.ts",
            "realcluster/**/*.test.ts",
          ],
          environment: "node",
          // A bound, not a target: CI shares two cores with everything else, and a test that streams or loads ESLint
          // can take seconds there. Latency belongs to the benchmark.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: ["test/integration/postgres/**"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Rollscope's own suites against the real Argo Rollouts controller: one real cluster for every file.
          name: "real-cluster",
          include: ["test/real-cluster/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/harness/real-cluster-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // The database-facing integration tests again on PostgreSQL (one throw-away server, a database per file),
        // plus what only PostgreSQL has: several replicas, a server that goes away and comes back.
        extends: true,
        test: {
          name: "integration-postgres",
          include: [...POSTGRES_SUITE, "test/integration/postgres/**/*.test.ts"],
          env: { ROLLSCOPE_TEST_DATABASE: "postgresql" },
          globalSetup: ["test/harness/postgres-global-setup.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "conformance",
          include: ["test/conformance/**/*.test.ts"],
          environment: "node",
          // Scenarios wait on real controllers; the first run may build the real cluster's binaries (beforeAll).
          testTimeout: 5 * 60_000,
          hookTimeout: 60 * 60_000,
          maxConcurrency: 20,
        },
      },
    ],
  },
});
