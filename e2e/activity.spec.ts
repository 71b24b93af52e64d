import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { createTestRollout, requireEnv, TEST_STEPS, waitForAppliedWeight } from "../test/harness/fleet";

/*
 * "What changed in the last 30 minutes, and who?" from the root URL in one click: the header's Activity link lists
 * every change of every Rollout, newest first, each with who made it — here an abort made with kubectl (its field
 * manager, from the Rollout's managedFields) and a promote made through Rollscope (its user, from the audit log).
 */

const NAME = "e2e-activity";

/** A real kubectl, as an operator would abort by hand: the API server records it as field manager kubectl-patch. */
function kubectlAbort(cluster: string, namespace: string, name: string): void {
  execFileSync("kubectl", [
    "--kubeconfig",
    requireEnv("ROLLSCOPE_E2E_KUBECONFIG"),
    "--context",
    `${cluster}-admin`,
    "-n",
    namespace,
    "patch",
    "rollouts.argoproj.io",
    name,
    "--subresource=status",
    "--type=merge",
    "-p",
    '{"status":{"abort":true}}',
  ]);
}

test("the header's Activity link answers what changed in the last 30 minutes, and who", async ({ page }) => {
  await createTestRollout("staging", "shop", NAME, TEST_STEPS);
  await waitForAppliedWeight("staging", "shop", NAME, 20);

  // A promote through Rollscope, from the detail page.
  await page.goto(`/rollouts/staging/shop/${NAME}`);
  await page.getByTestId("action-promote").click();
  await page.getByTestId("confirm-action").click();
  await expect(page.getByTestId("rollout-action-done")).toContainText("Promote sent");
  await waitForAppliedWeight("staging", "shop", NAME, 60);
  // Then an abort with kubectl, outside Rollscope. The API server stamps managedFields to the second, and at the demo's
  // ×30 the create, the promote and this can fall in one second, where no one can tell the writers apart: a second
  // later, as any operator's would be.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  kubectlAbort("staging", "shop", NAME);

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(/\/activity/);
  // The default window (1 h) covers the last 30 minutes; the presets are one click away.
  await expect(page.getByTestId("activity-window-1h")).toHaveAttribute("aria-pressed", "true");

  const rows = page.getByTestId("activity-item").filter({ hasText: NAME });
  const abort = rows.and(page.locator('[data-kind="abort"]')).first();
  await expect(abort.getByTestId("activity-actor")).toContainText("kubectl-patch", { timeout: 60_000 });
  await expect(abort.getByTestId("activity-actor")).toContainText("field manager");
  const promote = rows.and(page.locator('[data-kind="promote"]')).first();
  await expect(promote.getByTestId("activity-actor")).toContainText("Rollscope user");
  // Newest first: the abort came after the promote.
  const kinds = await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-kind")));
  expect(kinds.indexOf("abort")).toBeLessThan(kinds.lastIndexOf("promote"));

  // Filters narrow it; the audit log (Rollscope's own actions) is one link away, and links back.
  await page.getByLabel("Kind of change").selectOption("abort");
  await expect(page.getByTestId("activity-item").first()).toHaveAttribute("data-kind", "abort");
  await expect(page.getByTestId("activity-export-csv")).toHaveAttribute("href", /\/api\/activity\/export\?.*kind=abort/);
  await page.getByTestId("activity-audit-link").click();
  await expect(page).toHaveURL(/\/audit/);
  await expect(page.getByTestId("audit-activity-link")).toBeVisible();
});
