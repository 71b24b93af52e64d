import { expect, test, type Page } from "@playwright/test";
import { createTestRollout, promoteTestRollout, TEST_STEPS } from "../../test/harness/fleet";

/*
 * Everything under the sub-path: pages, assets, API routes, the live stream and actions answer at /rollscope/…, and
 * nothing the browser asks for goes to the root.
 */

const origin = () => process.env.ROLLSCOPE_E2E_URL!;
const prefix = () => process.env.ROLLSCOPE_E2E_BASE_PATH!;
const at = (path: string) => `${origin()}${prefix()}${path}`;

/** Every request the page makes to this server outside the prefix, and every answer ≥ 400 from it. */
function watchRequests(page: Page): { outside: string[]; failed: string[] } {
  const outside: string[] = [];
  const failed: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === origin() && !url.pathname.startsWith(`${prefix()}/`) && url.pathname !== prefix()) outside.push(url.pathname);
  });
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin === origin() && response.status() >= 400) failed.push(`${response.status()} ${url.pathname}`);
  });
  return { outside, failed };
}

test("the overview loads under the prefix, with its assets, rows and live indicator", async ({ page }) => {
  const seen = watchRequests(page);
  await page.goto(at("/"));
  await expect(page.getByTestId("rollout-row").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 30_000 });
  // A link inside the app keeps the prefix.
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(new RegExp(`^${origin()}${prefix()}/activity`));
  await expect(page.getByRole("heading", { name: "Activity" })).toBeVisible();
  expect(seen.outside).toEqual([]);
  expect(seen.failed).toEqual([]);
  // Nothing is served at the root.
  expect((await page.request.get(`${origin()}/api/rollouts`)).status()).toBe(404);
});

test("a detail page streams under the prefix, and an action goes through", async ({ page }) => {
  const name = "e2e-base-path";
  await createTestRollout("staging", "shop", name, TEST_STEPS);
  const seen = watchRequests(page);
  await page.goto(at(`/rollouts/staging/shop/${name}`));
  const applied = page.getByTestId("applied-weight").locator("[data-value]");
  await expect(applied).toHaveAttribute("data-value", "20", { timeout: 30_000 });
  // A change made in the cluster arrives over the stream.
  await promoteTestRollout("staging", "shop", name);
  await expect(applied).toHaveAttribute("data-value", "60", { timeout: 30_000 });
  // The weight is applied a moment before the controller pauses at the next step: promote from the pause.
  await expect(page.getByTestId("current-step-position")).toHaveText("step 4 of 6", { timeout: 30_000 });

  await page.getByTestId("action-promote").click();
  const dialog = page.getByTestId("confirm-action-dialog");
  await expect(dialog.getByTestId("action-effect")).toContainText("Canary 60 % → 90 %");
  await dialog.getByTestId("confirm-action").click();
  await expect(page.getByTestId("rollout-action-done")).toHaveText("Promote sent: status patched");
  await expect(applied).toHaveAttribute("data-value", "90", { timeout: 30_000 });

  const stream = seen.outside.filter((p) => p.startsWith("/api/stream"));
  expect(stream).toEqual([]);
  expect(seen.outside).toEqual([]);
  expect(seen.failed).toEqual([]);
});
