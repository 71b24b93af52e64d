import { expect, test, type Browser, type Page, type Request } from "@playwright/test";
import type { AuditPage } from "../lib/audit/schema";
import type { SessionView } from "@/lib/contracts/session";
import { startAppInstance, type AppInstance } from "../test/harness/app-instance";
import { createTestRollout, promoteTestRollout, requireEnv, TEST_STEPS } from "../test/harness/fleet";

/*
 * Rollout actions in Chromium against the demo fleet, through a Rollscope in auth mode proxy: the "auth proxy" is
 * the browser context itself (identity headers on every request from 127.0.0.1, the one trusted proxy address).
 * The simulated clusters grant group sre-operators patch on rollouts(/status) and viewers read only.
 */

const OPERATOR = { "x-forwarded-user": "alice", "x-forwarded-groups": "sre-operators" };
const VIEWER = { "x-forwarded-user": "bob", "x-forwarded-groups": "viewers" };

let app: AppInstance;

// Each file starts its own app instance (and the OIDC spec a provider): allow for a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  app = await startAppInstance({
    kubeconfigPath: requireEnv("ROLLSCOPE_E2E_KUBECONFIG"),
    clusters: [
      { name: "prod-eu", label: "production" },
      { name: "prod-us", label: "production" },
      { name: "staging", label: "staging" },
    ],
    auth: { mode: "proxy", proxy: { trustedProxies: ["127.0.0.1/32"] } },
    // Both read the audit log here: the specs check what each one's attempts left in it.
    authorization: { auditReaders: { groups: ["sre-operators", "viewers"] } },
  });
});

test.afterAll(async () => {
  await app?.stop();
});

/** The applied canary weight (percent) in the detail page's weights panel. */
function appliedCanary(page: Page) {
  return page.getByTestId("applied-weight").locator("[data-value]");
}

async function pageAs(browser: Browser, identity: Record<string, string>): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url, extraHTTPHeaders: identity });
  return context.newPage();
}

async function openRollout(page: Page, cluster: string, name: string, weight: string): Promise<void> {
  await page.goto(`/rollouts/${cluster}/shop/${name}`);
  await expect(appliedCanary(page)).toHaveAttribute("data-value", weight, { timeout: 30_000 });
  await expect(page.getByTestId("rollout-actions")).toBeVisible();
}

async function auditOf(page: Page, query: string): Promise<AuditPage["entries"]> {
  const res = await page.request.get(`/api/audit?${query}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as AuditPage).entries;
}

test.describe("rollout actions", () => {
  test("an operator promotes a paused rollout and the chart moves to the next weight", async ({ browser }) => {
    await createTestRollout("staging", "shop", "e2e-act-promote", TEST_STEPS);
    const page = await pageAs(browser, OPERATOR);
    await openRollout(page, "staging", "e2e-act-promote", "20");
    await expect(page.getByTestId("rollout-actions-acting-as")).toHaveText(
      "Actions run as alice (impersonated): the cluster's RBAC decides",
    );

    await page.getByTestId("action-promote").click();
    const dialog = page.getByTestId("confirm-action-dialog");
    await expect(dialog.getByTestId("action-effect")).toHaveText("Canary 20 % → 60 % (skips pause at step 2 of 6; next: pause)");
    await dialog.getByTestId("confirm-action").click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("rollout-action-done")).toHaveText("Promote sent: status patched");
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "60", { timeout: 20_000 });

    const chart = page.getByTestId("weight-chart");
    await expect.poll(async () => Number(await chart.getAttribute("data-points")), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect(chart.locator('[data-testid="chart-marker"][data-kind="action"]')).toHaveCount(1, { timeout: 30_000 });
    const [entry] = await auditOf(page, "cluster=staging&rollout=e2e-act-promote");
    expect(entry).toMatchObject({
      user: "alice",
      action: "promote",
      outcome: "done",
      before: { canaryPercent: 20, stepIndex: 1 },
      after: { paused: false },
    });
    await page.goto("/audit?rollout=e2e-act-promote");
    await expect(page.getByTestId("audit-row").first().getByTestId("audit-after")).toContainText("unpaused");
  });

  test("abort in a production cluster needs the name typed, returns the canary weight to 0 and shows Degraded", async ({ browser }) => {
    await createTestRollout("prod-eu", "shop", "e2e-act-abort", TEST_STEPS);
    const page = await pageAs(browser, OPERATOR);
    await openRollout(page, "prod-eu", "e2e-act-abort", "20");

    await page.getByTestId("action-abort").click();
    const dialog = page.getByTestId("confirm-action-dialog");
    await expect(dialog.getByTestId("action-effect")).toHaveText("Abort: canary 20 % → 0 %; the Rollout becomes Degraded");
    const confirm = dialog.getByTestId("confirm-action");
    await expect(confirm).toBeDisabled();
    await dialog.getByTestId("typed-confirmation").fill("e2e-act-abor");
    await expect(confirm).toBeDisabled();
    await dialog.getByTestId("typed-confirmation").fill("e2e-act-abort");
    await confirm.click();

    await expect(page.getByTestId("rollout-header").getByTestId("phase")).toHaveAttribute("data-phase", "Degraded", { timeout: 20_000 });
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "0", { timeout: 20_000 });
    await expect(page.getByTestId("action-retry")).toBeEnabled();
    await expect(page.getByTestId("action-abort")).toBeDisabled();
  });

  test("a viewer sees the buttons disabled with the reason; a direct POST gets 403 and is audited as denied", async ({ browser }) => {
    await createTestRollout("staging", "shop", "e2e-act-viewer", TEST_STEPS);
    const page = await pageAs(browser, VIEWER);
    await openRollout(page, "staging", "e2e-act-viewer", "20");
    const reason = "Your Kubernetes permissions (bob, groups viewers) do not allow patch rollouts/status in namespace shop";
    await expect(page.getByTestId("action-promote")).toBeDisabled();
    await expect(page.getByTestId("action-promote-wrapper")).toHaveAttribute("title", reason);
    await expect(page.getByTestId("rollout-actions-denied")).toHaveText(reason);
    for (const action of ["promote-full", "abort", "pause", "restart"]) await expect(page.getByTestId(`action-${action}`)).toBeDisabled();

    const session = (await (await page.request.get("/api/session")).json()) as SessionView;
    const view = (await (await page.request.get("/api/clusters/staging/rollouts/shop/e2e-act-viewer/actions")).json()) as {
      expected: unknown;
    };
    const res = await page.request.post("/api/clusters/staging/rollouts/shop/e2e-act-viewer/actions", {
      headers: { "x-csrf-token": session.csrfToken, origin: app.url },
      data: { action: "promote", expected: view.expected },
    });
    expect(res.status()).toBe(403);

    await page.goto("/audit?rollout=e2e-act-viewer");
    const row = page.getByTestId("audit-row").first();
    await expect(row).toHaveAttribute("data-outcome", "denied");
    await expect(row).toContainText("bob");
    await expect(row).toContainText("do not allow patch rollouts/status");
  });

  test("a stale confirmation is refused: the rollout changed — review and retry", async ({ browser }) => {
    await createTestRollout("staging", "shop", "e2e-act-stale", TEST_STEPS);
    const page = await pageAs(browser, OPERATOR);
    await openRollout(page, "staging", "e2e-act-stale", "20");

    await page.getByTestId("action-promote").click();
    const dialog = page.getByTestId("confirm-action-dialog");
    await expect(dialog.getByTestId("action-effect")).toContainText("Canary 20 % → 60 %");
    // Someone else promotes while the dialog is open.
    await promoteTestRollout("staging", "shop", "e2e-act-stale");
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "60", { timeout: 20_000 });
    await expect(dialog).toBeVisible();
    // The dialog keeps what the user reviewed, and says it is no longer so.
    await expect(dialog.getByTestId("action-effect")).toContainText("Canary 20 % → 60 %");
    await expect(dialog.getByTestId("action-effect-changed")).toContainText("confirming will be refused");
    await dialog.getByTestId("confirm-action").click();

    await expect(page.getByTestId("rollout-action-error")).toContainText("the rollout changed — review and retry");
    // Only the other promote went through: the canary stays at 60 %, not 90 %.
    await page.waitForTimeout(1_000);
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "60");
    const entries = await auditOf(page, "rollout=e2e-act-stale");
    expect(entries.map((e) => e.outcome)).toStrictEqual(["stale"]);
  });

  test("a dialog opened before the buttons caught up with the page reads the current state before stating an effect", async ({
    browser,
  }) => {
    await createTestRollout("staging", "shop", "e2e-act-behind", TEST_STEPS);
    const page = await pageAs(browser, OPERATOR);
    // The buttons' reads of the current state are held once `holding` is set, until the test lets them through. A read
    // sent before that and answered after the promote below would let the buttons catch up before the dialog opens, so
    // the promote waits until every read under way is a held one.
    const isRead = (request: Request) => request.method() === "GET" && new URL(request.url()).pathname.endsWith("/e2e-act-behind/actions");
    let reading = 0;
    let heldReads = 0;
    let holding = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    page.on("request", (request) => void (isRead(request) && reading++));
    page.on("requestfinished", (request) => void (isRead(request) && reading--));
    page.on("requestfailed", (request) => void (isRead(request) && reading--));
    await page.route("**/e2e-act-behind/actions", async (route) => {
      if (holding && route.request().method() === "GET") {
        heldReads++;
        await held;
      }
      await route.continue();
    });
    await openRollout(page, "staging", "e2e-act-behind", "20");
    holding = true;
    await expect.poll(() => reading - heldReads, { timeout: 30_000 }).toBe(0);
    // Someone else promotes: the page follows over the live stream, the buttons' refresh is held.
    await promoteTestRollout("staging", "shop", "e2e-act-behind");
    await expect(page.getByTestId("current-step-position")).toHaveText("step 4 of 6", { timeout: 30_000 });

    await page.getByTestId("action-promote").click();
    const dialog = page.getByTestId("confirm-action-dialog");
    await expect(dialog.getByTestId("action-effect")).toHaveText("Reading the rollout's current state…");
    await expect(dialog.getByTestId("confirm-action")).toBeDisabled();
    release();
    await expect(dialog.getByTestId("action-effect")).toContainText("Canary 60 % → 90 %", { timeout: 20_000 });
    await expect(dialog.getByTestId("action-effect-changed")).toHaveCount(0);
    await dialog.getByTestId("confirm-action").click();
    await expect(page.getByTestId("rollout-action-done")).toHaveText("Promote sent: status patched");
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "90", { timeout: 30_000 });
  });

  test("a double click sends one patch", async ({ browser }) => {
    await createTestRollout("staging", "shop", "e2e-act-double", TEST_STEPS);
    const page = await pageAs(browser, OPERATOR);
    await openRollout(page, "staging", "e2e-act-double", "20");
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/rollouts/shop/e2e-act-double/actions")) posts++;
    });

    await page.getByTestId("action-promote").click();
    await page.getByTestId("confirm-action").dblclick();
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "60", { timeout: 20_000 });
    await page.waitForTimeout(1_500);
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "60");
    expect(posts).toBe(1);
    const entries = await auditOf(page, "rollout=e2e-act-double");
    expect(entries.map((e) => `${e.action}:${e.outcome}`)).toStrictEqual(["promote:done"]);
  });

  test("a POST without the CSRF token is rejected", async ({ browser }) => {
    await createTestRollout("staging", "shop", "e2e-act-csrf", TEST_STEPS);
    const page = await pageAs(browser, OPERATOR);
    await page.goto("/signin");
    const view = (await (await page.request.get("/api/clusters/staging/rollouts/shop/e2e-act-csrf/actions")).json()) as {
      expected: unknown;
    };
    const res = await page.request.post("/api/clusters/staging/rollouts/shop/e2e-act-csrf/actions", {
      data: { action: "abort", expected: view.expected },
    });
    expect(res.status()).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "csrf" } });
    expect(await auditOf(page, "rollout=e2e-act-csrf")).toStrictEqual([]);
  });
});
