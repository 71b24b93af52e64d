import { expect, test, type Locator } from "@playwright/test";
import { createTestRollout, promoteTestRollout, TEST_STEPS } from "../test/harness/fleet";

async function windowSpanMs(window: Locator): Promise<number> {
  return Number(await window.getAttribute("data-to")) - Number(await window.getAttribute("data-from"));
}

/** The share of the brush its selection covers (the slide between its two handles), 0–1. */
async function brushShare(chart: Locator): Promise<number> {
  return chart.evaluate((figure) => {
    const brush = figure.querySelector(".recharts-brush rect")!.getBoundingClientRect();
    const slide = figure.querySelector(".recharts-brush-slide")!.getBoundingClientRect();
    return slide.width / brush.width;
  });
}

test.describe("weight chart", () => {
  test("opens on the current revision, zooms out to the range, marks the steps and lists them in a table", async ({ page }) => {
    await createTestRollout("prod-us", "shop", "e2e-weight-table", TEST_STEPS);
    await page.goto("/rollouts/prod-us/shop/e2e-weight-table");
    await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "20", {
      timeout: 30_000,
    });
    await promoteTestRollout("prod-us", "shop", "e2e-weight-table");

    const chart = page.getByTestId("weight-chart");
    // One table row per step the Rollout stood at: the pause at 20 % and, after the promote, the pause at 60 %.
    const rowsAt = (weight: string) =>
      chart
        .getByTestId("weight-step-row")
        .filter({ has: page.getByTestId("weight-step-applied").getByText(weight, { exact: true }) })
        .filter({ has: page.getByTestId("weight-step-requested").getByText(weight, { exact: true }) });
    await expect(rowsAt("60%").first()).toBeVisible({ timeout: 30_000 });
    await expect(rowsAt("20%").first()).toBeVisible();
    const applied = await chart.getByTestId("weight-step-applied").allTextContents();
    expect(applied.lastIndexOf("60%")).toBeGreaterThan(applied.indexOf("20%"));
    await expect(chart.getByTestId("step-boundary").first()).toBeAttached();

    // "1 h" means the last hour: the chart opens on the whole range, and "Current revision" zooms to the minute since
    // the Rollout began.
    const window = chart.getByTestId("chart-window");
    await expect.poll(() => windowSpanMs(window), { timeout: 30_000 }).toBeGreaterThanOrEqual(59 * 60_000);
    // The brush's handles say the same: the whole range, then the revision's end of it, then the whole range again.
    await expect.poll(() => brushShare(chart), { timeout: 30_000 }).toBeGreaterThan(0.95);
    await window.getByRole("button", { name: "Current revision" }).click();
    await expect.poll(() => windowSpanMs(window), { timeout: 30_000 }).toBeLessThan(30 * 60_000);
    await expect.poll(() => brushShare(chart), { timeout: 30_000 }).toBeLessThan(0.6);
    await window.getByRole("button", { name: "Whole range" }).click();
    await expect.poll(() => windowSpanMs(window), { timeout: 30_000 }).toBeGreaterThanOrEqual(59 * 60_000);
    await expect.poll(() => brushShare(chart), { timeout: 30_000 }).toBeGreaterThan(0.95);
    // Dragging the right handle back zooms to an earlier stretch; "Whole range" then gives the brush all of it again.
    await chart.locator(".recharts-brush").scrollIntoViewIfNeeded();
    const handle = (await chart.locator(".recharts-brush-traveller").last().boundingBox())!;
    const brushWidth = (await chart.locator(".recharts-brush rect").first().boundingBox())!.width;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x - brushWidth * 0.4, handle.y + handle.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => windowSpanMs(window), { timeout: 30_000 }).toBeLessThan(45 * 60_000);
    await expect.poll(() => brushShare(chart), { timeout: 30_000 }).toBeLessThan(0.7);
    await window.getByRole("button", { name: "Whole range" }).click();
    await expect.poll(() => windowSpanMs(window), { timeout: 30_000 }).toBeGreaterThanOrEqual(59 * 60_000);
    // At once, not at the next refresh of the history (the chart starts afresh on the click; a parked Rollout's
    // history may not refresh for half a minute).
    await expect.poll(() => brushShare(chart), { timeout: 10_000 }).toBeGreaterThan(0.95);

    // Markers and step boundaries sit where the time axis puts their time: within a pixel of the plot's left edge
    // plus their share of the window (they are drawn in a group that moves with the range).
    await expect(chart.locator('[data-testid="chart-marker"][data-kind="step"]').first()).toBeAttached();
    const misplaced = await chart.evaluate((figure) => {
      const windowEl = figure.querySelector('[data-testid="chart-window"]')!;
      const from = Number(windowEl.getAttribute("data-from"));
      const to = Number(windowEl.getAttribute("data-to"));
      const grid = figure.querySelector(".recharts-cartesian-grid-horizontal line")!.getBoundingClientRect();
      const expectedX = (t: number) => grid.left + ((t - from) / (to - from)) * grid.width;
      const lineX = (line: Element) => {
        const r = line.getBoundingClientRect();
        return r.left + r.width / 2;
      };
      const items = [
        ...[...figure.querySelectorAll('[data-testid="chart-marker"]')].map((g) => ({
          t: Number(g.getAttribute("data-t")),
          x: lineX(g.querySelector("line")!),
        })),
        ...[...figure.querySelectorAll('[data-testid="step-boundary"]')]
          .filter((g) => g.querySelector("line"))
          .map((g) => ({ t: Number(g.getAttribute("data-from")), x: lineX(g.querySelector("line")!) })),
      ];
      return { count: items.length, off: items.filter((item) => Math.abs(item.x - expectedX(item.t)) > 1.5) };
    });
    expect(misplaced.count).toBeGreaterThan(1);
    expect(misplaced.off).toStrictEqual([]);
  });
});
