import { expect, test, type Page } from "@playwright/test";
import { PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { adminClient, createTestRollout, promoteTestRollout, TEST_STEPS, waitForAppliedWeight } from "../test/harness/fleet";
import { holdScriptsAndWatchHydration, openWithoutScripts } from "../test/harness/late-hydration";

/*
 * The live stream is the state of an open detail page: the Rollout's live view arrives as the stream's `rollout`
 * event and is written into the page's query with no request; records (events, revisions, history) and the action
 * buttons are asked for again only when a recorded field or their state changed.
 */

const ROLLOUT = { group: "argoproj.io", version: "v1alpha1", plural: "rollouts" };
const CLUSTER = "prod-eu";
const NAME = "e2e-detail-stream";

/** Every request the page makes to the API, but the stream itself and the timers of the chart's two range queries. */
function recordApiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (!pathname.startsWith("/api/") || pathname === "/api/stream") return;
    // History (every 60 s), measured traffic (30 s), the ReplicaSets and Pods (5 s: pods change without the Rollout)
    // and the server's readiness notice (15 s) poll on timers of their own, whatever the stream says.
    const timed = ["/history", "/measured-traffic", "/replicasets"].some((suffix) => pathname.endsWith(suffix));
    if (timed || pathname === "/api/readyz") return;
    seen.push(`${request.method()} ${pathname}`);
  });
  return seen;
}

async function waitForQuiet(requests: string[], quietMs: number): Promise<void> {
  let count = -1;
  await expect
    .poll(
      async () => {
        const before = requests.length;
        await new Promise((r) => setTimeout(r, quietMs));
        const quiet = requests.length === before && before === count;
        count = requests.length;
        return quiet;
      },
      { timeout: 60_000, intervals: [0] },
    )
    .toBe(true);
}

/** How much of the weights bar the canary's fill covers once it has slid into place (the share the user sees). */
async function filledShare(page: Page): Promise<number> {
  return page.getByTestId("applied-weight-fill").evaluate((fill) => {
    const track = fill.parentElement!.getBoundingClientRect();
    const covered = Math.min(fill.getBoundingClientRect().right, track.right) - track.left;
    return Math.round((Math.max(0, covered) / track.width) * 100) / 100;
  });
}

/** Adds (or replaces) a condition of a type the controller does not manage: a status change of live fields only. */
async function setProbeCondition(message: string): Promise<void> {
  const client = adminClient(CLUSTER);
  const ro = (await client.getNamespacedCustomObject({ ...ROLLOUT, namespace: "shop", name: NAME })) as {
    status?: { conditions?: Array<{ type: string }> };
  };
  const conditions = (ro.status?.conditions ?? []).filter((c) => c.type !== "E2EProbe");
  const now = new Date().toISOString();
  conditions.push({ type: "E2EProbe", status: "True", reason: "LiveOnly", message, lastTransitionTime: now, lastUpdateTime: now } as {
    type: string;
  });
  await client.patchNamespacedCustomObjectStatus(
    { ...ROLLOUT, namespace: "shop", name: NAME, body: { status: { conditions } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}

test("an open detail page takes a live-only status change from the stream, with no request", async ({ page }) => {
  await createTestRollout(CLUSTER, "shop", NAME, TEST_STEPS);
  const requests = recordApiRequests(page);
  await page.goto(`/rollouts/${CLUSTER}/shop/${NAME}`);
  await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "20", { timeout: 30_000 });
  await expect(page.getByTestId("rollout-actions")).toBeVisible();
  // Let the first load and the refreshes of the canary's first steps settle.
  await waitForQuiet(requests, 7_000);
  const settled = requests.length;

  const probe = page.locator('[data-testid="condition"][data-type="E2EProbe"]');
  await setProbeCondition("probe one");
  await expect(probe).toContainText("probe one", { timeout: 30_000 });
  await setProbeCondition("probe two");
  await expect(probe).toContainText("probe two", { timeout: 30_000 });
  // Longer than the 5-s records throttle: a request the change triggered would have gone out by now.
  await page.waitForTimeout(6_000);
  expect(requests.slice(settled)).toEqual([]);
});

test("a recorded change (the next step) refreshes the records and the action buttons", async ({ page }) => {
  const name = `${NAME}-step`;
  await createTestRollout(CLUSTER, "shop", name, TEST_STEPS);
  const requests = recordApiRequests(page);
  await page.goto(`/rollouts/${CLUSTER}/shop/${name}`);
  await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "20", { timeout: 30_000 });
  await waitForQuiet(requests, 7_000);
  const settled = requests.length;
  await expect.poll(() => filledShare(page)).toBe(0.2);

  await promoteTestRollout(CLUSTER, "shop", name);
  await waitForAppliedWeight(CLUSTER, "shop", name, 60);
  await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "60", { timeout: 30_000 });
  // The bar's fill slides to the new share.
  await expect.poll(() => filledShare(page), { timeout: 10_000 }).toBe(0.6);
  const detailPath = `/api/clusters/${CLUSTER}/rollouts/shop/${name}`;
  await expect
    .poll(() => requests.slice(settled), { timeout: 30_000 })
    .toEqual(expect.arrayContaining([`GET ${detailPath}`, `GET ${detailPath}/actions`]));
});

test("the detail page's HTML already holds the Rollout, shows it without scripts, hydrates as it is, and asks for no detail of its own", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `${NAME}-first`;
  await createTestRollout(CLUSTER, "shop", name, TEST_STEPS);
  await waitForAppliedWeight(CLUSTER, "shop", name, 20);
  const path = `/rollouts/${CLUSTER}/shop/${name}`;
  // The weights are in the server's HTML: they show before any JavaScript has run.
  const html = await (await page.request.get(path)).text();
  expect(html).toContain(`data-key="${CLUSTER}/shop/${name}"`);
  expect(html).toContain('data-testid="weights"');
  const noScripts = await openWithoutScripts(browser, `${baseURL}${path}`);
  try {
    await expect(noScripts.page.getByTestId("applied-weight").locator("[data-value]").first()).toBeVisible();
    await expect(noScripts.page.getByText("Loading rollout…")).toHaveCount(0);
  } finally {
    await noScripts.close();
  }
  const requests = recordApiRequests(page);
  const hydrationErrors = await holdScriptsAndWatchHydration(page);
  await page.goto(path);
  await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "20");
  await expect(page.getByTestId("rollout-actions")).toBeVisible({ timeout: 30_000 });
  expect(hydrationErrors()).toEqual([]);
  // The page started from what the server rendered: the browser did not read the detail again to show it.
  expect(requests).not.toContain(`GET /api/clusters/${CLUSTER}/rollouts/shop/${name}`);
});

test("a page opened before its Rollout exists shows it once it is created, without a reload", async ({ page }) => {
  const name = `${NAME}-late`;
  await page.goto(`/rollouts/${CLUSTER}/shop/${name}`);
  await expect(page.getByText("Rollout not found")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 20_000 });
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await createTestRollout(CLUSTER, "shop", name, TEST_STEPS);
  await expect(page.getByTestId("applied-weight").locator("[data-value]").first()).toHaveAttribute("data-value", "20", { timeout: 30_000 });
  await expect(page.getByText("Rollout not found")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});
