import { expect, test } from "@playwright/test";
import { installCommitFailure, type CommitFailure } from "../test/harness/failing-commits";
import { startAppInstance, type AppInstance } from "../test/harness/app-instance";
import { requireEnv } from "../test/harness/fleet";

/*
 * When the database refuses the recorder's writes (a full disk), every page says that history is not being saved;
 * the notice goes once writes succeed again. The demo fleet keeps changing, so the recorder keeps writing.
 */

let app: AppInstance;
let failure: CommitFailure;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  app = await startAppInstance({
    kubeconfigPath: requireEnv("ROLLSCOPE_E2E_KUBECONFIG"),
    clusters: [{ name: "prod-eu", label: "production" }],
  });
  failure = installCommitFailure(app.databaseUrl);
});

test.afterAll(async () => {
  failure?.close();
  await app?.stop();
});

test("a notice says history is not being saved while writes fail, and goes when they succeed again", async ({ page }) => {
  await page.goto(app.url);
  await expect(page.getByRole("list", { name: "Clusters" })).toBeVisible();
  const notice = page.getByTestId("recorder-notice");
  await expect(notice).toHaveCount(0);

  failure.start();
  await expect(notice).toContainText("History is not being saved", { timeout: 30_000 });
  await expect(notice).toContainText("SQLITE_CONSTRAINT");

  failure.stop();
  await expect(notice).toHaveCount(0, { timeout: 30_000 });
});
