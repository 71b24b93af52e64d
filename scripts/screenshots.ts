/**
 * Regenerates the README's screenshots from the current UI: starts the demo fleet and the built app (run
 * `npx next build` first), lets the demo run for a while at ×30 so the fleet shows rollouts in every state, and
 * writes docs/screenshots/*.png with Debian's Chromium (CHROMIUM_PATH overrides /usr/bin/chromium).
 *
 *   npm run screenshots
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { startDemoStack } from "../test/harness/demo-stack";

const OUT = path.join(process.cwd(), "docs", "screenshots");
/** Simulated time the demo runs before the first picture (real seconds = this / 30). */
const WARM_UP_MS = 45_000;

interface Shot {
  file: string;
  path: string;
  /** A test id that is on screen once the page shows what the picture is about. */
  ready: string;
  /** Scroll this test id into view first. */
  scrollTo?: string;
}

const SHOTS: Shot[] = [
  { file: "overview.png", path: "/", ready: "attention-item" },
  { file: "rollout-detail.png", path: "/rollouts/prod-eu/shop/checkout", ready: "weights" },
  { file: "needs-attention-detail.png", path: "/rollouts/staging/platform/notifications", ready: "rollout-attention" },
  { file: "activity.png", path: "/activity?window=1h", ready: "activity-item" },
  { file: "rollout-experiments.png", path: "/rollouts/prod-eu/shop/recommendations", ready: "experiment", scrollTo: "experiments-section" },
];

async function shoot(page: Page, baseUrl: string, shot: Shot): Promise<void> {
  await page.goto(`${baseUrl}${shot.path}`);
  await page.getByTestId(shot.ready).first().waitFor({ timeout: 60_000 });
  await page.getByTestId("live-status").and(page.locator('[data-status="live"]')).waitFor({ timeout: 30_000 });
  if (shot.scrollTo) await page.getByTestId(shot.scrollTo).scrollIntoViewIfNeeded();
  // Let charts and relative times settle after the first live update.
  await page.waitForTimeout(1_500);
  await page.screenshot({ path: path.join(OUT, shot.file), animations: "disabled" });
  console.log(`wrote docs/screenshots/${shot.file}`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const stack = await startDemoStack({ timeScale: 30, seed: 7 });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    console.log(`demo running at ${stack.app.url}; warming up for ${WARM_UP_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    // One CSS pixel per pixel keeps the files small; 1440 × 900 is a common laptop screen.
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: "light" });
    for (const shot of SHOTS) await shoot(page, stack.app.url, shot);
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
