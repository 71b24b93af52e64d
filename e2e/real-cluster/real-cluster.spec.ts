import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  isPausedAt,
  readRollout,
  realBackendOf,
  ROUTER_PLUGIN,
  startPausedCanary,
  TEST_NAMESPACE,
  UNREGISTERED_PLUGIN,
  type Backend,
} from "../../test/harness/backend";

/*
 * One pass in Chromium over Rollscope against the real Argo Rollouts controller (e2e/real-cluster/global-setup.ts):
 * the overview and the detail page of a canary the real controller paused, promote and abort from the page (as
 * alice, impersonated, so the real API server's RBAC decides), and the plugins page with the real controller's
 * argo-rollouts-config. The demo workloads of the real cluster (namespace demo) are there too; gateway-canary
 * references the Gateway API plugin, which nobody registered.
 */

const ALICE = { "x-forwarded-user": "alice", "x-forwarded-groups": "sre-operators" };
const skipReason = process.env.ROLLSCOPE_REAL_SKIP;
let backend: Backend;

test.describe.configure({ mode: "serial", timeout: 180_000 });
test.skip(Boolean(skipReason), skipReason);

test.beforeAll(async () => {
  backend = realBackendOf(JSON.parse(process.env.ROLLSCOPE_REAL_CLUSTER ?? "null") as Parameters<typeof realBackendOf>[0]);
  // Both canaries walk to their first pause at once: the real controller takes seconds for each.
  await Promise.all([startPausedCanary(backend, "e2e-real-promote"), startPausedCanary(backend, "e2e-real-abort")]);
});

async function pageAsAlice(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.ROLLSCOPE_E2E_URL, extraHTTPHeaders: ALICE });
  return context.newPage();
}

const appliedCanary = (page: Page) => page.getByTestId("applied-weight").locator("[data-value]");
const row = (page: Page, name: string) =>
  page.locator(`[data-testid="rollout-row"][data-key="${backend.cluster}/${TEST_NAMESPACE}/${name}"]`);

async function openDetail(page: Page, name: string): Promise<void> {
  await page.goto(`/rollouts/${backend.cluster}/${TEST_NAMESPACE}/${name}`);
  await expect(page.getByTestId("rollout-detail")).toBeVisible({ timeout: 30_000 });
}

test.describe("Rollscope on the real cluster", () => {
  test("the overview lists the real controller's paused canary at 20 % and the demo workloads", async ({ browser }) => {
    const page = await pageAsAlice(browser);
    await page.goto("/");
    await expect(page.locator('[data-testid="cluster-chip"]', { hasText: backend.cluster })).toHaveAttribute(
      "data-connection",
      "connected",
      { timeout: 30_000 },
    );
    await expect(row(page, "e2e-real-promote").getByTestId("canary-weight")).toHaveText(/20\s*%/, { timeout: 30_000 });
    await expect(page.locator(`[data-testid="rollout-row"][data-key="${backend.cluster}/demo/routed-canary"]`)).toBeVisible();
  });

  test("the detail page shows phase, step and weights, and promote moves the real canary to 60 %", async ({ browser }) => {
    const page = await pageAsAlice(browser);
    await openDetail(page, "e2e-real-promote");
    await expect(page.getByTestId("rollout-header").getByTestId("phase")).toHaveAttribute("data-phase", "Paused");
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "20", { timeout: 30_000 });
    await expect(page.getByTestId("rollout-actions-acting-as")).toHaveText(
      "Actions run as alice (impersonated): the cluster's RBAC decides",
    );

    await page.getByTestId("action-promote").click();
    const dialog = page.getByTestId("confirm-action-dialog");
    await expect(dialog.getByTestId("action-effect")).toHaveText("Canary 20 % → 60 % (skips pause at step 2 of 4; next: pause)");
    await dialog.getByTestId("confirm-action").click();
    await expect(page.getByTestId("rollout-action-done")).toHaveText("Promote sent: status patched");
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "60", { timeout: 60_000 });
    expect(isPausedAt(3)(await readRollout(backend, "e2e-real-promote"))).toBe(true);
  });

  test("abort from the page brings the real canary back to 0 % and Degraded", async ({ browser }) => {
    const page = await pageAsAlice(browser);
    await openDetail(page, "e2e-real-abort");
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "20", { timeout: 30_000 });
    await page.getByTestId("action-abort").click();
    const dialog = page.getByTestId("confirm-action-dialog");
    await expect(dialog.getByTestId("action-effect")).toHaveText("Abort: canary 20 % → 0 %; the Rollout becomes Degraded");
    await dialog.getByTestId("confirm-action").click();
    await expect(page.getByTestId("rollout-header").getByTestId("phase")).toHaveAttribute("data-phase", "Degraded", { timeout: 60_000 });
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "0");
    await expect(page.getByTestId("action-retry")).toBeEnabled();
    expect((await readRollout(backend, "e2e-real-abort")).status?.abort).toBe(true);
  });

  test("the plugins page shows the registered sample plugin, the unregistered Gateway API plugin and its finding", async ({ browser }) => {
    const page = await pageAsAlice(browser);
    await page.goto("/plugins");
    const matrix = page.getByTestId("plugin-matrix");
    await expect(matrix).toBeVisible({ timeout: 30_000 });
    const cell = (plugin: string) =>
      matrix.locator(`[data-testid="plugin-matrix-row"][data-plugin="${plugin}"] [data-cluster="${backend.cluster}"]`);
    await expect(cell(ROUTER_PLUGIN)).toHaveAttribute("data-state", "registered");
    await expect(cell(UNREGISTERED_PLUGIN)).toHaveAttribute("data-state", "referenced-not-registered");
    const finding = page.locator('[data-testid="plugin-finding"][data-kind="referenced-not-registered"]').first();
    await expect(finding).toContainText(`${UNREGISTERED_PLUGIN} is used but not registered`);
    await expect(finding).toContainText("demo/gateway-canary");
    // Health: a row per plugin and cluster on /plugins, the full card on the plugin's own page.
    await expect(
      page.locator(`[data-testid="plugin-health-row"][data-cluster="${backend.cluster}"][data-plugin="${ROUTER_PLUGIN}"]`),
    ).toBeVisible({ timeout: 30_000 });
    await page.goto(`/plugins/${ROUTER_PLUGIN}`);
    await expect(
      page.locator(`[data-testid="plugin-health-card"][data-cluster="${backend.cluster}"][data-plugin="${ROUTER_PLUGIN}"]`),
    ).toBeVisible({ timeout: 30_000 });
  });
});
