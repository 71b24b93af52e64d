import { expect, test, type Page } from "@playwright/test";
import { holdScriptsAndWatchHydration, openWithoutScripts } from "../test/harness/late-hydration";

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
    for (const cluster of ["prod-eu", "prod-us", "staging"])
      await expect(matrix.getByRole("columnheader", { name: cluster })).toBeVisible();
    const consul = matrix.locator('[data-testid="plugin-matrix-row"][data-plugin="hashicorp/consul"]');
    await expect(consul.locator('[data-cluster="staging"]')).toHaveAttribute("data-state", "referenced-not-registered");
    await expect(consul.locator('[data-cluster="prod-eu"]')).toHaveAttribute("data-state", "registered");
    await expect(
      matrix.locator('[data-testid="plugin-matrix-row"][data-plugin="argoproj-labs/gatewayAPI"] [data-cluster="prod-eu"]'),
    ).toContainText("v0.15.0");

    const unregistered = page.locator('[data-testid="plugin-finding"][data-kind="referenced-not-registered"]').first();
    await expect(unregistered).toContainText("hashicorp/consul is used but not registered");
    await expect(unregistered).toContainText("platform/notifications");
    await expect(unregistered).toContainText("Fix:");
    await expect(page.locator('[data-testid="plugin-finding"][data-kind="missing-sha256"]').first()).toContainText("solo-io/glooplatform");
    await expect(page.getByTestId("plugin-registry-staging")).toContainText("referenced but not registered");
  });

  test("draws health charts with derived success rates, SLO burn badges and signals on the plugin's page", async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto("/plugins/argoproj-labs/contour");
    const contour = healthCard(page, "prod-eu", "argoproj-labs/contour");
    // Increases need two scrapes (every 15 s) of the controller; the page refetches health every 30 s by itself.
    await expect(contour.getByTestId("success-rate-chart")).toBeVisible({ timeout: 180_000 });
    await expect(contour).toContainText("Success rate (derived)");
    await expect(contour).toContainText("Signal: DERIVED (upstream has no per-plugin RPC metric)");
    await expect(contour.getByTestId("slo-badges")).toContainText("1h:");
    await expect(contour.getByTestId("slo-badges")).toContainText("24h:");
    await expect(contour).toContainText("Latency proxy: reconcile duration");

    await page.getByTestId("range-15m").click();
    await expect(page).toHaveURL(/[?&]range=15m/);
    await expect(page.getByTestId("range-15m")).toHaveAttribute("aria-pressed", "true");
    await expect(healthCard(page, "prod-eu", "argoproj-labs/contour").getByTestId("success-rate-chart")).toBeVisible({ timeout: 30_000 });

    // Staging's consul is referenced but not registered: every reconcile fails without an event.
    await page.goto("/plugins/hashicorp/consul");
    const consul = healthCard(page, "staging", "hashicorp/consul");
    await expect(consul).toContainText("no event (see controller log)", { timeout: 30_000 });
    await expect(consul.getByTestId("affected-rollouts")).toContainText("platform/notifications", { timeout: 30_000 });
  });

  test("a plugin's page shows its entry per cluster, its findings and the Rollouts that use it as links", async ({ page }) => {
    await page.goto("/plugins/hashicorp/consul");
    await expect(page.getByRole("heading", { level: 1, name: "hashicorp/consul" })).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('[data-testid="plugin-entry"][data-cluster="staging"]')).toHaveAttribute(
      "data-state",
      "referenced-not-registered",
    );
    await expect(page.locator('[data-testid="plugin-entry"][data-cluster="prod-eu"]')).toHaveAttribute("data-state", "registered");
    await expect(page.locator('[data-testid="plugin-finding"][data-kind="referenced-not-registered"]')).toContainText(
      "hashicorp/consul is used but not registered",
    );

    const users = page.getByTestId("plugin-rollouts");
    for (const cluster of ["prod-eu", "prod-us"]) {
      await expect(
        users.getByRole("region", { name: `Users in ${cluster}` }).getByRole("link", { name: "platform/notifications" }),
      ).toHaveAttribute("href", `/rollouts/${cluster}/platform/notifications`);
    }
    const link = users.getByRole("region", { name: "Users in staging" }).getByRole("link", { name: "platform/notifications" });
    await expect(link).toHaveAttribute("href", "/rollouts/staging/platform/notifications");
    await link.click();
    await expect(page).toHaveURL(/\/rollouts\/staging\/platform\/notifications$/);
    await expect(page.getByTestId("rollout-detail")).toBeVisible({ timeout: 30_000 });
  });

  test("filters live in the URL: they survive a reload and the back button undoes them", async ({ page }) => {
    await page.goto("/plugins");
    const matrix = page.getByTestId("plugin-matrix");
    await expect(matrix.getByRole("columnheader", { name: "prod-us" })).toBeVisible({ timeout: 30_000 });

    await page.getByRole("combobox", { name: /^Cluster/ }).selectOption("staging");
    await expect(page).toHaveURL(/\/plugins\?cluster=staging$/);
    await page.getByRole("combobox", { name: /^Kind/ }).selectOption("trafficRouter");
    await expect(page).toHaveURL(/\/plugins\?cluster=staging&kind=trafficRouter$/);
    await expect(matrix.getByRole("columnheader", { name: "prod-us" })).toHaveCount(0);
    await expect(page.getByTestId("plugin-registry-prod-eu")).toHaveCount(0);
    await expect(page.getByTestId("summary-clusters")).toContainText("1");

    await page.reload();
    await expect(page.getByRole("combobox", { name: /^Cluster/ })).toHaveValue("staging", { timeout: 30_000 });
    await expect(page.getByRole("combobox", { name: /^Kind/ })).toHaveValue("trafficRouter");
    await expect(page.getByTestId("plugin-registry-staging")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("plugin-registry-prod-eu")).toHaveCount(0);
    await expect(page.locator('[data-testid="plugin-health-row"]:not([data-cluster="staging"])')).toHaveCount(0, { timeout: 30_000 });

    await page.goBack();
    await expect(page).toHaveURL(/\/plugins\?cluster=staging$/);
    await expect(page.getByRole("combobox", { name: /^Kind/ })).toHaveValue("");
    await page.goBack();
    await expect(page).toHaveURL(/\/plugins$/);
    await expect(page.getByRole("combobox", { name: /^Cluster/ })).toHaveValue("");
    await expect(matrix.getByRole("columnheader", { name: "prod-us" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("summary-clusters")).toContainText("3");
  });

  test("the page's HTML already holds the registry and the health rows, shows them without scripts, and hydrates as it is", async ({
    page,
    browser,
    baseURL,
  }) => {
    // The first report may take longer than the server render waits for it; once computed it is shared.
    await expect
      .poll(async () => (await (await page.request.get("/plugins")).text()).includes('data-testid="plugin-health-row"'), {
        timeout: 30_000,
      })
      .toBe(true);
    const html = await (await page.request.get("/plugins?cluster=staging")).text();
    expect(html).toContain('data-testid="plugin-matrix"');
    expect(html).toContain('data-testid="plugin-health-row"');
    expect(html).not.toMatch(/data-testid="plugin-health-row"[^>]*data-cluster="prod-eu"/);

    const noScripts = await openWithoutScripts(browser, `${baseURL}/plugins`);
    try {
      await expect(noScripts.page.getByTestId("plugin-health-row").first()).toBeVisible();
    } finally {
      await noScripts.close();
    }

    const hydrationErrors = await holdScriptsAndWatchHydration(page);
    await page.goto("/plugins");
    await expect(page.getByTestId("plugin-health-row").first()).toBeVisible();
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 20_000 });
    expect(hydrationErrors()).toEqual([]);
  });

  test("health is listed worst first and the summary counts what the page shows", async ({ page }) => {
    await page.goto("/plugins");
    const rows = page.getByTestId("plugin-health-row");
    // Staging's consul fails every reconcile: it must be listed before every healthy row once health is known.
    await expect(page.locator('[data-testid="plugin-health-row"][data-cluster="staging"][data-plugin="hashicorp/consul"]')).toHaveAttribute(
      "data-level",
      /critical|warning/,
      {
        timeout: 60_000,
      },
    );
    const severity = { critical: 0, warning: 1, ok: 2, "no-data": 3 } as Record<string, number>;
    const levels = (await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-level") ?? ""))).map((l) => severity[l]);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));

    const first = rows.first();
    const worst = page.getByTestId("summary-worst").getByRole("link");
    await expect(worst).toHaveAttribute("data-plugin", (await first.getAttribute("data-plugin"))!);
    await expect(worst).toHaveAttribute("data-cluster", (await first.getAttribute("data-cluster"))!);

    const pluginRows = await page
      .locator('[data-testid="plugin-matrix-row"]')
      .evaluateAll((els) => new Set(els.map((el) => el.getAttribute("data-plugin"))).size);
    await expect(page.getByTestId("summary-plugins")).toContainText(String(pluginRows));
    await expect(page.getByTestId("summary-clusters")).toContainText("3");
    const findings = page.locator("[data-testid=summary-findings] [data-critical]");
    for (const severityName of ["critical", "warning", "info"]) {
      const shown = await page.locator(`[data-testid="plugin-finding"][data-severity="${severityName}"]`).count();
      await expect(findings).toHaveAttribute(`data-${severityName}`, String(shown));
    }
  });

  test("the cluster page lists its plugins and the controller's version and Pod state", async ({ page }) => {
    await page.goto("/clusters/staging");
    const controller = page.getByTestId("controller-status");
    await expect(controller.getByTestId("controller-version")).toHaveText("v1.9.1", { timeout: 30_000 });
    await expect(controller.getByTestId("controller-pod")).toHaveAttribute("data-state", "Running");
    const consul = page.locator('[data-testid="cluster-plugin"][data-plugin="hashicorp/consul"]');
    await expect(consul).toContainText("referenced but not registered");
    await consul.getByRole("link", { name: "hashicorp/consul" }).click();
    await expect(page).toHaveURL(/\/plugins\/hashicorp\/consul$/);
    await expect(page.getByTestId("plugin-page")).toBeVisible({ timeout: 30_000 });
  });
});
