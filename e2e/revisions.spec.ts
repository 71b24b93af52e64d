import { expect, test, type Browser, type Page } from "@playwright/test";
import type { AuditPage } from "../lib/audit/schema";
import { startAppInstance, type AppInstance } from "../test/harness/app-instance";
import { createTestRollout, createTestRolloutWithStrategy, requireEnv, TEST_STEPS } from "../test/harness/fleet";

/*
 * The detail page's revisions: each ReplicaSet with its role and Pods, live from the cluster, the numbers
 * `kubectl argo rollouts get rollout` prints, and a rollback to a revision with its red confirmation and audit entry.
 */

const OPERATOR = { "x-forwarded-user": "alice", "x-forwarded-groups": "sre-operators" };

let app: AppInstance;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  app = await startAppInstance({
    kubeconfigPath: requireEnv("ROLLSCOPE_E2E_KUBECONFIG"),
    clusters: [{ name: "staging", label: "staging" }],
    auth: { mode: "proxy", proxy: { trustedProxies: ["127.0.0.1/32"] } },
    authorization: { auditReaders: { groups: ["sre-operators"] } },
  });
});

test.afterAll(async () => {
  await app?.stop();
});

async function operatorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url, extraHTTPHeaders: OPERATOR });
  return context.newPage();
}

const row = (page: Page, revision: number) => page.locator(`[data-testid="replicaset-row"][data-revision="${revision}"]`);

test("revisions show their ReplicaSets and Pods live, and a rollback to revision 1 is confirmed in red and audited", async ({
  browser,
}) => {
  const name = "e2e-revisions";
  await createTestRollout("staging", "shop", name, TEST_STEPS);
  const page = await operatorPage(browser);
  await page.goto(`/rollouts/staging/shop/${name}`);

  const card = page.getByTestId("replicasets-card");
  await expect(row(page, 2)).toHaveAttribute("data-roles", "canary");
  await expect(row(page, 1)).toHaveAttribute("data-roles", "stable");
  await expect(row(page, 2)).toContainText(`example.com/${name}:2.0.0`);
  await expect(row(page, 2).getByTestId("pod")).toHaveCount(1);
  await expect(row(page, 2).getByTestId("pod").first()).toHaveAttribute("data-status", "Running");
  await expect(row(page, 1).getByTestId("pod")).toHaveCount(2);
  // As the CLI prints it: paused on the second step (index 1 of 6), 20 % set and applied.
  await expect(card.getByTestId("cli-step")).toHaveText("step 2 of 6 · kubectl index 1");
  await expect(card.getByTestId("set-weight")).toHaveText("20%");
  await expect(card.getByTestId("actual-weight")).toHaveText("20%");

  // The current revision has no rollback; the older one has.
  await expect(row(page, 2).getByTestId("undo-revision")).toHaveCount(0);
  await row(page, 1).getByTestId("undo-revision").click();
  const dialog = page.getByTestId("confirm-action-dialog");
  await expect(dialog).toContainText(`Roll back ${name} to revision 1`);
  await expect(dialog.getByTestId("confirm-action")).toHaveAttribute("data-destructive", "true");
  await dialog.getByTestId("confirm-action").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("undo-done")).toContainText("pod template replaced");

  // Revision 1's template is the Rollout's again: the controller makes its ReplicaSet revision 3, the stable one.
  await expect(row(page, 3)).toHaveAttribute("data-roles", "stable", { timeout: 30_000 });
  await expect(row(page, 3)).toContainText(`example.com/${name}:1.0.0`);

  const res = await page.request.get(`/api/audit?cluster=staging&rollout=${name}&action=undo`);
  const [entry] = ((await res.json()) as AuditPage).entries;
  expect(entry).toMatchObject({ user: "alice", action: "undo", outcome: "done", before: { revision: 2 } });

  // The Rollout's audit entries, one click away, and back.
  await page.getByTestId("rollout-audit-link").click();
  await expect(page).toHaveURL(/\/audit\?cluster=staging&namespace=shop&rollout=e2e-revisions/);
  await expect(page.locator('[data-testid="audit-row"][data-action="undo"]')).toHaveCount(1);
  await page.locator('[data-testid="audit-row"][data-action="undo"]').getByTestId("audit-rollout-link").click();
  await expect(page).toHaveURL(new RegExp(`/rollouts/staging/shop/${name}$`));
});

test("a blue-green waiting for promotion shows active and preview apart, with no empty steps card or weight chart", async ({ browser }) => {
  const name = "e2e-revisions-bg";
  await createTestRolloutWithStrategy("staging", "shop", name, {
    blueGreen: { activeService: `${name}-active`, previewService: `${name}-preview`, autoPromotionEnabled: false },
  });
  const page = await operatorPage(browser);
  await page.goto(`/rollouts/staging/shop/${name}`);

  await expect(row(page, 2)).toHaveAttribute("data-roles", "preview");
  await expect(row(page, 1)).toHaveAttribute("data-roles", "stable active");
  const card = page.getByTestId("replicasets-card");
  await expect(card.getByTestId("active-replicas")).toHaveText("2/2 ready (rev 1)");
  await expect(card.getByTestId("preview-replicas")).toHaveText("2/2 ready (rev 2)", { timeout: 30_000 });
  await expect(page.getByTestId("blue-green-replicas")).toContainText("2 per stack");
  await expect(page.getByRole("region", { name: "Steps" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Traffic weight" })).toHaveCount(0);
});
