import { defineConfig } from "vitest/config";
import path from "node:path";

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
          include: ["lib/**/*.test.ts", "sim/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
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
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
