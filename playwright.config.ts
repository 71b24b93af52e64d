import { defineConfig } from "@playwright/test";

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "e2e",
  // The real-cluster and sub-path passes have set-ups of their own: playwright.real-cluster.config.ts and
  // playwright.base-path.config.ts.
  testIgnore: ["real-cluster/**", "base-path/**"],
  // Generous bounds: CI shares two cores with the app, the simulator and Prometheus; latency is the benchmark's.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: process.env.ROLLSCOPE_E2E_URL,
    trace: "retain-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium", viewport: { width: 1280, height: 800 } } }],
});
