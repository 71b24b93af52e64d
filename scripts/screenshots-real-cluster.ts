/**
 * The detail page on the real cluster, as docs/screenshots/real-cluster-*.png: `npm run cluster` (real kube-apiserver,
 * the real Argo Rollouts controller with upstream's sample router through the plugin meter, Traefik carrying the load
 * generator's requests) is started on its own ports, and the demo's `routed-canary` is shot at two steps — held at its
 * 20 % pause with a few minutes of measured traffic behind it, then at 50 % after a promote from the page — with the
 * requested, applied and measured weights side by side. Stops everything it started. Run `npx next build` first.
 *
 *   npx tsx scripts/screenshots-real-cluster.ts
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, expect, type Page } from "@playwright/test";
import { findFreePort } from "../test/harness/free-port";

const OUT = path.join(process.cwd(), "docs", "screenshots");
const ROLLOUT = "/rollouts/real/demo/routed-canary";
/** Measured share is a rate over a minute of requests: this long at a step draws it settled. */
const SETTLE_MS = 100_000;

async function waitForApp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/api/clusters`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 2_000));
  }
  throw new Error(`Rollscope on the real cluster did not answer at ${url} within ${timeoutMs / 1000} s`);
}

async function shoot(page: Page, file: string): Promise<void> {
  await page.getByTestId("weight-chart").scrollIntoViewIfNeeded();
  // The cluster is minutes old: the chart's hour is mostly empty, so zoom to the revision being rolled out.
  const zoom = page.getByTestId("chart-window").getByRole("button", { name: "Current revision" });
  if (await zoom.isVisible()) await zoom.click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(OUT, file), fullPage: true, animations: "disabled" });
  console.log(`wrote docs/screenshots/${file}`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const workDir = mkdtempSync(path.join(tmpdir(), "rollscope-shots-"));
  // Not inside the cluster's work directory, which the cluster empties when it starts.
  const dataDir = mkdtempSync(path.join(tmpdir(), "rollscope-shots-db-"));
  // Its own process group: one signal stops the cluster's every process (realcluster/processes.ts).
  const cluster = spawn("bash", ["scripts/cluster.sh", "--port", String(port), "--work-dir", workDir], {
    detached: true,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DATABASE_URL: `file:${path.join(dataDir, "rollscope.db")}` },
  });
  const stop = () => {
    try {
      process.kill(-cluster.pid!, "SIGINT");
    } catch {
      // already gone
    }
  };
  process.on("SIGINT", () => (stop(), process.exit(1)));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    await waitForApp(url, 15 * 60_000);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: "light" });
    const applied = page.getByTestId("applied-weight").locator("[data-value]");
    await page.goto(`${url}${ROLLOUT}`);
    await expect(applied).toHaveAttribute("data-value", "20", { timeout: 5 * 60_000 });
    await expect(page.getByTestId("pause-callout")).toBeVisible({ timeout: 60_000 });
    await page.waitForTimeout(SETTLE_MS);
    await shoot(page, "real-cluster-step-20.png");

    await page.getByTestId("action-promote").click();
    await page.getByTestId("confirm-action").click();
    await expect(applied).toHaveAttribute("data-value", "50", { timeout: 120_000 });
    // The 50 % pause lasts 30 s: shoot near its end, with the measured line on its way up.
    await page.waitForTimeout(25_000);
    await shoot(page, "real-cluster-step-50.png");
  } finally {
    await browser.close();
    stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
