import { expect, test, type Page } from "@playwright/test";
import { createTestRollout, promoteTestRollout, TEST_STEPS, waitForAppliedWeight } from "../test/harness/fleet";

/*
 * A tab's stream carries what its pages show: on a detail page alone, that Rollout's changes and the cluster states,
 * not the fleet's (about 500 changes a second at 5,000 Rollouts, each parsed and applied by a page that shows none of
 * them). Back on the overview, what changed meanwhile is there without a reload.
 */

/** Counts, in the page, the Rollout deltas each of its streams delivers, by key. */
async function countStreamDeltas(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __streamDeltas: string[] }).__streamDeltas = seen;
    const Original = window.EventSource;
    window.EventSource = class extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener("delta", (e) => {
          const delta = JSON.parse((e as MessageEvent<string>).data) as { type: string; key?: string; rollout?: { key: string } };
          if (delta.type !== "cluster") seen.push(delta.rollout?.key ?? delta.key ?? "");
        });
      }
    };
  });
}

const deltasSeen = (page: Page) => page.evaluate(() => [...(window as unknown as { __streamDeltas: string[] }).__streamDeltas]);
const clearDeltas = (page: Page) =>
  page.evaluate(() => void ((window as unknown as { __streamDeltas: string[] }).__streamDeltas.length = 0));

const row = (page: Page, key: string) => page.locator(`[data-testid="rollout-row"][data-key="${key}"]`);

test("a detail page's stream carries its Rollout alone; back on the overview, another Rollout's change made meanwhile shows", async ({
  page,
}) => {
  const shown = "e2e-scope-shown";
  const other = "e2e-scope-other";
  await createTestRollout("prod-eu", "shop", shown, TEST_STEPS);
  await createTestRollout("prod-eu", "shop", other, TEST_STEPS);
  await countStreamDeltas(page);
  await page.goto("/");
  await expect(row(page, `prod-eu/shop/${other}`).getByTestId("canary-weight")).toHaveText(/20\s*%/, { timeout: 30_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 20_000 });

  // Into the detail page, in the same tab (no reload: the stream is the tab's). Its stream opens without rows.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const detailStream = page.waitForRequest(
    (r) => new URL(r.url()).pathname === "/api/stream" && new URL(r.url()).searchParams.get("rows") === "-",
  );
  await row(page, `prod-eu/shop/${shown}`).getByRole("link", { name: shown }).click();
  await expect(page).toHaveURL(new RegExp(`/rollouts/prod-eu/shop/${shown}$`));
  await detailStream;
  await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "20", { timeout: 30_000 });
  // The overview's stream was closed before the detail page's opened: every delta from here on is the new stream's.
  await clearDeltas(page);

  await promoteTestRollout("prod-eu", "shop", other);
  await waitForAppliedWeight("prod-eu", "shop", other, 60);
  await promoteTestRollout("prod-eu", "shop", shown);
  await waitForAppliedWeight("prod-eu", "shop", shown, 60);
  await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "60", { timeout: 30_000 });
  const onDetail = await deltasSeen(page);
  expect(onDetail).toContain(`prod-eu/shop/${shown}`);
  expect(onDetail.filter((key) => key !== `prod-eu/shop/${shown}`)).toEqual([]);

  // Back on the overview: the other Rollout's weight moved while the page did not get its changes.
  await page.goBack();
  await expect(row(page, `prod-eu/shop/${other}`).getByTestId("canary-weight")).toHaveText(/60\s*%/, { timeout: 30_000 });
  // And the overview's stream carries the fleet again.
  await clearDeltas(page);
  await promoteTestRollout("prod-eu", "shop", other);
  await waitForAppliedWeight("prod-eu", "shop", other, 90);
  await expect(row(page, `prod-eu/shop/${other}`).getByTestId("canary-weight")).toHaveText(/90\s*%/, { timeout: 30_000 });
  expect(await deltasSeen(page)).toContain(`prod-eu/shop/${other}`);
  // All of it in the same document: no reload brought the overview up to date.
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});
