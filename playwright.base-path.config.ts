import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * The sub-path pass: a build made with ROLLSCOPE_BASE_PATH=/rollscope, served with `server.basePath: /rollscope`
 * (its global set-up builds it into .next-rollscope). `npx playwright test -c playwright.base-path.config.ts`.
 */
export default defineConfig({
  ...base,
  testDir: "e2e/base-path",
  testIgnore: [],
  globalSetup: "./e2e/base-path/global-setup.ts",
  // The set-up builds the app first: a few minutes on two busy cores.
  globalTimeout: 30 * 60_000,
});
