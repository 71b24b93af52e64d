import { expect, test, type Page } from "@playwright/test";
import { control, createTestRollout, promoteTestRollout, TEST_STEPS, waitForAppliedWeight } from "../test/harness/fleet";
import { holdScriptsAndWatchHydration, openWithoutScripts } from "../test/harness/late-hydration";

function row(page: Page, key: string) {
  return page.locator(`[data-testid="rollout-row"][data-key="${key}"]`);
}

function chip(page: Page, cluster: string) {
  return page.locator(`[data-testid="cluster-chip"]`, { hasText: cluster });
}

test.describe("fleet overview", () => {
  test("shows the Rollouts of all three simulated clusters", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("cluster-chip")).toHaveCount(3);
    for (const cluster of ["prod-eu", "prod-us", "staging"]) {
      await expect(chip(page, cluster)).toHaveAttribute("data-connection", "connected");
      await expect(page.locator(`[data-testid="rollout-row"][data-key^="${cluster}/"]`).first()).toBeVisible();
    }
    await expect(row(page, "prod-eu/shop/checkout")).toBeVisible();
    await expect(row(page, "staging/shop/checkout")).toBeVisible();
    // The first page is in the server's HTML, so rows show before any JavaScript has run.
    const html = await (await page.request.get("/")).text();
    expect(html).toContain('data-key="prod-eu/shop/checkout"');
  });

  test("the server-rendered overview shows its rows without scripts and hydrates as it is, even when the scripts arrive seconds after the HTML", async ({
    page,
    browser,
    baseURL,
  }) => {
    // A rollout that changed seconds ago shows "…s ago": text that differs from one second to the next.
    await createTestRollout("prod-eu", "shop", "e2e-hydrate", TEST_STEPS);
    // Past "just now" (the first 5 s), so the row's own age reads "…s ago".
    await page.waitForTimeout(6_000);
    const noScripts = await openWithoutScripts(browser, `${baseURL}/`);
    try {
      await expect(row(noScripts.page, "prod-eu/shop/e2e-hydrate")).toBeVisible();
    } finally {
      await noScripts.close();
    }
    const hydrationErrors = await holdScriptsAndWatchHydration(page);
    await page.goto("/");
    await expect(row(page, "prod-eu/shop/e2e-hydrate")).toBeVisible();
    // The stream's status comes from JavaScript: once it is live, hydration is over.
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 20_000 });
    expect(hydrationErrors()).toEqual([]);
  });

  // How fast a change reaches the page is the benchmark's measure (write → DOM); here only that it arrives live.
  test("a weight change in the cluster appears in the open page without reload", async ({ page }) => {
    await createTestRollout("prod-eu", "shop", "e2e-live", TEST_STEPS);
    await page.goto("/");
    const weight = row(page, "prod-eu/shop/e2e-live").getByTestId("canary-weight");
    await expect(weight).toHaveText(/20\s*%/, { timeout: 30_000 });
    let navigations = 0;
    page.on("framenavigated", () => navigations++);
    await promoteTestRollout("prod-eu", "shop", "e2e-live");
    await waitForAppliedWeight("prod-eu", "shop", "e2e-live", 60);
    await expect(weight).toHaveText(/60\s*%/, { timeout: 30_000 });
    expect(navigations).toBe(0);
  });

  test("a filtered view is answered by the server and picks up a rollout that starts to match, without reload", async ({ page }) => {
    const pages: Array<{ url: string; rows: number }> = [];
    page.on("response", async (res) => {
      if (new URL(res.url()).pathname === "/api/rollouts")
        pages.push({ url: res.url(), rows: ((await res.json()) as { rows: unknown[] }).rows.length });
    });
    await page.goto("/?q=e2e-filter&phase=Paused");
    await expect(page.getByText("No rollouts match these filters")).toBeVisible();
    // The server rendered the filtered page; once the stream is open the browser asks for that page, not the fleet.
    await expect.poll(() => pages.length).toBeGreaterThan(0);
    expect(pages[0]?.url).toContain("q=e2e-filter");
    expect(pages[0]?.url).toContain("phase=Paused");

    await createTestRollout("staging", "shop", "e2e-filter", TEST_STEPS);
    await waitForAppliedWeight("staging", "shop", "e2e-filter", 20);
    // Not on the page when it changed: the page is asked for again while the fleet changes.
    await expect(row(page, "staging/shop/e2e-filter")).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('[data-testid="phase-count"][data-phase="Paused"]')).toHaveAttribute("data-count", "1");
    await expect(row(page, "staging/shop/e2e-filter").getByTestId("canary-weight")).toHaveText(/20\s*%/);
  });

  test("the detail chart keeps the history recorded before an app restart", async ({ page }) => {
    await createTestRollout("prod-us", "shop", "e2e-history", TEST_STEPS);
    await page.goto("/rollouts/prod-us/shop/e2e-history");
    await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "20", {
      timeout: 30_000,
    });
    await promoteTestRollout("prod-us", "shop", "e2e-history");
    const chart = page.getByTestId("weight-chart");
    await expect.poll(async () => Number(await chart.getAttribute("data-points")), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const before = Number(await chart.getAttribute("data-points"));

    await control("/app/restart");
    await page.reload();
    await expect
      .poll(async () => Number(await page.getByTestId("weight-chart").getAttribute("data-points")), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(before);
  });

  test("a stopped cluster shows as unreachable while the others keep updating, and recovers by itself", async ({ page }) => {
    await createTestRollout("prod-us", "shop", "e2e-outage", TEST_STEPS);
    await page.goto("/");
    const weight = row(page, "prod-us/shop/e2e-outage").getByTestId("canary-weight");
    await expect(weight).toHaveText(/20\s*%/, { timeout: 30_000 });
    try {
      await control("/clusters/staging/stop");
      await expect(chip(page, "staging")).toHaveAttribute("data-connection", "unreachable", { timeout: 30_000 });
      // The rows of the stopped cluster stay on the page, and the other clusters keep moving.
      await expect(row(page, "staging/shop/checkout")).toBeVisible();
      await promoteTestRollout("prod-us", "shop", "e2e-outage");
      await waitForAppliedWeight("prod-us", "shop", "e2e-outage", 60);
      await expect(weight).toHaveText(/60\s*%/, { timeout: 30_000 });
    } finally {
      await control("/clusters/staging/start");
    }
    await expect(chip(page, "staging")).toHaveAttribute("data-connection", "connected", { timeout: 30_000 });
  });
});
