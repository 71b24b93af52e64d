import { expect, test, type Browser, type Page } from "@playwright/test";
import { startAppInstance, type AppInstance } from "../test/harness/app-instance";
import { requireEnv } from "../test/harness/fleet";

/*
 * Reading is authorized per user, in Chromium: a Rollscope in auth mode proxy (the browser context is the proxy,
 * 127.0.0.1 the trusted address) over the demo fleet. The simulated clusters let group shop-readers read namespace
 * shop only; sre-operators read everything and are the audit readers here.
 */

const SHOP_READER = { "x-forwarded-user": "carol", "x-forwarded-groups": "shop-readers" };
const AUDITOR = { "x-forwarded-user": "alice", "x-forwarded-groups": "sre-operators" };

let app: AppInstance;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  app = await startAppInstance({
    kubeconfigPath: requireEnv("ROLLSCOPE_E2E_KUBECONFIG"),
    clusters: [{ name: "prod-eu" }, { name: "prod-us" }, { name: "staging" }],
    auth: { mode: "proxy", proxy: { trustedProxies: ["127.0.0.1/32"] } },
    authorization: { auditReaders: { groups: ["sre-operators"] } },
  });
});

test.afterAll(async () => {
  await app?.stop();
});

async function pageAs(browser: Browser, identity: Record<string, string>): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url, extraHTTPHeaders: identity });
  return context.newPage();
}

test("a reader of one namespace sees only its Rollouts and no audit link; an audit reader sees the link", async ({ browser }) => {
  const reader = await pageAs(browser, SHOP_READER);
  await reader.goto("/");
  const rows = reader.getByTestId("rollout-row");
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  const keys = await rows.evaluateAll((elements) => elements.map((e) => e.getAttribute("data-key") ?? ""));
  expect(keys.length).toBeGreaterThan(0);
  expect(keys.filter((key) => key.split("/")[1] !== "shop")).toEqual([]);
  // The header knows who this is (the session has loaded) before the audit link's absence means anything.
  await expect(reader.getByTestId("session-status")).toContainText("Signed in as carol");
  const nav = reader.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Plugins" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Audit" })).toHaveCount(0);

  const auditor = await pageAs(browser, AUDITOR);
  await auditor.goto("/");
  await expect(auditor.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" })).toBeVisible();
});
