import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * One Chromium pass against the real cluster (real kube-apiserver and Argo Rollouts controller, built from Go
 * modules): its own global set-up starts the cluster and a Rollscope pointed at it. `npx playwright test -c
 * playwright.real-cluster.config.ts`; skipped, saying why, without Go.
 */
export default defineConfig({
  ...base,
  testDir: "e2e/real-cluster",
  testIgnore: [],
  globalSetup: "./e2e/real-cluster/global-setup.ts",
  // Its own folder: npm test runs it beside the simulator's pass, which empties test-results/ when it starts.
  outputDir: "test-results-real-cluster",
});
