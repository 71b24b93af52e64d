/**
 * The overview's first load: once in the main stack and at each size of the cost curve (the first rollout row, the
 * JavaScript transferred), and `--only first-row`, N loads taken apart (bench/first-row.ts).
 */
import { chromium } from "@playwright/test";
import type { AppProcess } from "../../test/harness/app-process";
import {
  CHROMIUM_ARGS,
  FIRST_ROW_OBSERVER,
  firstRowRows,
  measureFirstRows,
  measureOtherFirstLoads,
  otherFirstLoadRows,
} from "../first-row";
import { sleep, type Row } from "../measure";
import { startStack, waitForFleet, type BenchRun } from "../stack";

export async function measureFirstLoad(app: AppProcess): Promise<{ firstRowMs: number; jsBytes: number }> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    // What went on, for the report when no row shows.
    const trace: string[] = [];
    const start = Date.now();
    const note = (what: string) => trace.length < 40 && trace.push(`${Date.now() - start} ms ${what}`);
    page.on("crash", () => note("renderer crashed"));
    page.on("pageerror", (e) => note(`page error: ${e.message.slice(0, 160)}`));
    page.on("console", (m) => m.type() === "error" && note(`console: ${m.text().slice(0, 160)}`));
    page.on("response", (r) => !r.url().includes("/_next/") && note(`${r.status()} ${new URL(r.url()).pathname}`));
    page.on("requestfailed", (r) => note(`failed ${new URL(r.url()).pathname}: ${r.failure()?.errorText}`));
    // The page notes, itself, when a rollout row is first shown (attached, visible, then the next frame): Playwright's
    // own polling runs on the page's main thread too and would add its delays on a busy machine.
    await page.addInitScript({
      // A string, not a function: the bench runs through tsx, whose helpers do not exist in the page.
      content: FIRST_ROW_OBSERVER,
    });
    await page.goto(app.url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    note("DOMContentLoaded");
    try {
      // The page's own note (performance.now(): from the start of navigation) once a row has been shown.
      await page.waitForFunction(() => ((window as unknown as { __firstRowAt?: number }).__firstRowAt ?? -1) >= 0, undefined, {
        timeout: 60_000,
        polling: 100,
      });
    } catch (err) {
      const rows = await page.evaluate(() => document.querySelectorAll('[data-testid="rollout-row"]').length).catch(() => "unknown");
      const shown = (
        await page
          .locator("main")
          .innerText({ timeout: 5_000 })
          .catch(() => "")
      )
        .replace(/\s+/g, " ")
        .slice(0, 200);
      throw new Error(`${String(err).split("\n")[0]}; rows in the DOM: ${rows}; the page showed: ${shown}; ${trace.join("; ")}`);
    }
    const firstRowMs = await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
    const jsBytes = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((e) => (e as PerformanceResourceTiming).initiatorType === "script" || e.name.endsWith(".js"))
        .reduce((sum, e) => sum + ((e as PerformanceResourceTiming).transferSize || (e as PerformanceResourceTiming).encodedBodySize), 0),
    );
    return { firstRowMs, jsBytes };
  } finally {
    await browser.close();
  }
}

/** The scale scenario under its churn, the production app, `--loads` first loads of the overview in Chromium. */
export async function addFirstRowRows(run: BenchRun, rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const { P } = run;
  const stack = await startStack(run, { rollouts: P.rollouts, rate: P.rate });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    await sleep(3_000);
    const firstRow = await measureFirstRows(stack.app, run.loads);
    rows.push(...firstRowRows(firstRow));
    figures.firstRow = firstRow;
    const otherPages = await measureOtherFirstLoads(stack.app, run.loads);
    rows.push(...otherFirstLoadRows(otherPages));
    figures.firstContent = otherPages;
  } finally {
    await stack.stop();
  }
}
