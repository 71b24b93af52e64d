import { expect, test, type Page } from "@playwright/test";

/**
 * The plugins page against the demo fleet (three simulated clusters, no Prometheus: Rollscope scrapes each
 * controller's /metrics through the API server proxy). Staging references hashicorp/consul without registering it;
 * prod-us downloads glooplatform without a sha256; prod-eu's contour fails 30 % of SetWeight calls.
 */

function healthCard(page: Page, cluster: string, plugin: string) {
  return page.locator(`[data-testid="plugin-health-card"][data-cluster="${cluster}"][data-plugin="${plugin}"]`);
}

test.describe("plugins page", () => {
  test("shows the fleet matrix and the findings with their fixes", async ({ page }) => {
    await page.goto("/plugins");
    const matrix = page.getByTestId("plugin-matrix");
    await expect(matrix).toBeVisible({ timeout: 30_000 });
    for (const cluster of ["prod-eu", "prod-us", "staging"]) await expect(matrix.getByRole("columnheader", { name: cluster })).toBeVisible();
    const consul = matrix.locator('[data-testid="plugin-matrix-row"][data-plugin="hashicorp/consul"]');
    await expect(consul.locator('[data-cluster="staging"]')).toHaveAttribute("data-state", "referenced-not-registered");
    await expect(consul.locator('[data-cluster="prod-eu"]')).toHaveAttribute("data-state", "registered");
    await expect(matrix.locator('[data-testid="plugin-matrix-row"][data-plugin="argoproj-labs/gatewayAPI"] [data-cluster="prod-eu"]')).toContainText("v0.15.0");

    const unregistered = page.locator('[data-testid="plugin-finding"][data-kind="referenced-not-registered"]').first();
    await expect(unregistered).toContainText("hashicorp/consul is used but not registered");
    await expect(unregistered).toContainText("platform/notifications");
    await expect(unregistered).toContainText("Fix:");
    await expect(page.locator('[data-testid="plugin-finding"][data-kind="missing-sha256"]').first()).toContainText("solo-io/glooplatform");
    await expect(page.getByTestId("plugin-registry-staging")).toContainText("referenced but not registered");
  });

  test("draws health charts with derived success rates, SLO burn badges and signals", async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto("/plugins");
    const contour = healthCard(page, "prod-eu", "argoproj-labs/contour");
    // Increases need two scrapes (every 15 s) of the controller; the page refetches health every 30 s by itself.
    await expect(contour.getByTestId("success-rate-chart")).toBeVisible({ timeout: 180_000 });
    await expect(contour).toContainText("Success rate (derived)");
    await expect(contour).toContainText("Signal: DERIVED (upstream has no per-plugin RPC metric)");
    await expect(contour.getByTestId("slo-badges")).toContainText("1h:");
    await expect(contour.getByTestId("slo-badges")).toContainText("24h:");
    await expect(contour).toContainText("Latency proxy: reconcile duration");

    // Staging's consul is referenced but not registered: every reconcile fails without an event.
    const consul = healthCard(page, "staging", "hashicorp/consul");
    await expect(consul).toContainText("no event (see controller log)", { timeout: 30_000 });
    await expect(consul.getByTestId("affected-rollouts")).toContainText("platform/notifications", { timeout: 30_000 });

    await page.getByTestId("range-15m").click();
    await expect(page.getByTestId("range-15m")).toHaveAttribute("aria-pressed", "true");
    await expect(healthCard(page, "prod-eu", "argoproj-labs/contour").getByTestId("success-rate-chart")).toBeVisible({ timeout: 30_000 });
  });
});
