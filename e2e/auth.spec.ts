import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { findFreePort } from "../test/harness/free-port";
import { startOidcProvider, type OidcProviderHandle } from "../test/harness/oidc-provider";
import { startAppInstance, type AppInstance } from "../test/harness/app-instance";
import { createTestRollout, requireEnv, TEST_STEPS } from "../test/harness/fleet";

/*
 * Sign-in with OIDC in Chromium against a real OpenID Provider (oidc-provider, started here on 127.0.0.1), and the
 * security headers every page is served with.
 */

let provider: OidcProviderHandle;
let app: AppInstance;

// Each file starts its own app instance (and the OIDC spec a provider): allow for a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({
    redirectUris: [`${baseUrl}/api/auth/callback`],
    accounts: { alice: { email: "alice@example.com", groups: ["sre-operators"] }, bob: { email: "bob@example.com", groups: ["viewers"] } },
  });
  app = await startAppInstance({
    port,
    kubeconfigPath: requireEnv("ROLLSCOPE_E2E_KUBECONFIG"),
    clusters: [
      { name: "prod-eu", label: "production" },
      { name: "staging", label: "staging" },
    ],
    auth: { mode: "oidc", baseUrl, oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret } },
    authorization: { auditReaders: { groups: ["sre-operators"] } },
    env: { ROLLSCOPE_SESSION_SECRET: randomBytes(32).toString("base64url") },
  });
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

/** The applied canary weight (percent) in the detail page's weights panel. */
function appliedCanary(page: Page) {
  return page.getByTestId("applied-weight").locator("[data-value]");
}

async function signInThroughProvider(page: Page, login: string, returnTo: string): Promise<void> {
  await page.goto(`${app.url}/signin?returnTo=${encodeURIComponent(returnTo)}`);
  await page.getByTestId("signin-oidc").click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.origin === app.url && url.pathname === new URL(returnTo, app.url).pathname, { timeout: 30_000 });
}

test.describe("sign-in and security headers", () => {
  test("signs in with OIDC, acts with the user's own permissions, and signs out", async ({ page }) => {
    await createTestRollout("staging", "shop", "e2e-auth-oidc", TEST_STEPS);
    expect((await page.request.get(`${app.url}/api/rollouts`)).status()).toBe(401);
    // With sign-in on, the overview's HTML carries no rows either (only the no-auth mode renders them on the server).
    expect(await (await page.request.get(`${app.url}/`)).text()).not.toContain('data-testid="rollout-row"');

    await signInThroughProvider(page, "alice", "/signin");
    await expect(page.getByTestId("signed-in-as")).toContainText("Signed in as alice@example.com (sre-operators)");
    const cookies = await page.context().cookies(app.url);
    const session = cookies.find((c) => c.name === "rollscope_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(await page.evaluate(() => document.cookie)).toBe("");

    await page.goto(`${app.url}/rollouts/staging/shop/e2e-auth-oidc`);
    await expect(appliedCanary(page)).toHaveAttribute("data-value", "20", { timeout: 30_000 });
    await expect(page.getByTestId("rollout-actions-acting-as")).toHaveText(
      "Actions run as alice@example.com (impersonated): the cluster's RBAC decides",
    );
    await expect(page.getByTestId("action-promote")).toBeEnabled();

    const token = ((await (await page.request.get(`${app.url}/api/session`)).json()) as { csrfToken: string }).csrfToken;
    expect((await page.request.post(`${app.url}/api/auth/signout`, { headers: { "x-csrf-token": token, origin: app.url } })).status()).toBe(
      200,
    );
    expect((await page.request.get(`${app.url}/api/rollouts`)).status()).toBe(401);
  });

  test("signed out, the overview goes to the sign-in page and comes back after signing in", async ({ page }) => {
    await page.goto(`${app.url}/?q=checkout`);
    await page.waitForURL((url) => url.pathname === "/signin", { timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get("returnTo")).toBe("/?q=checkout");
    // Once the page knows the browser is signed out: the sign-in button, and no error from the 401s of the
    // cluster list or the live stream (the header shows neither while signed out).
    await expect(page.getByTestId("signin-oidc")).toBeVisible();
    await expect(page.getByRole("list", { name: "Clusters" })).toHaveCount(0);
    await expect(page.getByTestId("live-status")).toHaveCount(0);
    // (Next.js's route announcer is an empty, invisible role="alert" region: not an error.)
    await expect(page.locator('[role="alert"]:not(#__next-route-announcer__)')).toHaveCount(0);
  });

  test("a viewer signed in with OIDC sees why the buttons are disabled", async ({ page }) => {
    await createTestRollout("staging", "shop", "e2e-auth-viewer", TEST_STEPS);
    await signInThroughProvider(page, "bob", "/rollouts/staging/shop/e2e-auth-viewer");
    await expect(page.getByTestId("action-promote")).toBeDisabled({ timeout: 30_000 });
    await expect(page.getByTestId("rollout-actions-denied")).toContainText("bob@example.com, groups viewers");
  });

  test("pages carry the security headers and load without CSP violations", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    const response = await page.goto(`${app.url}/signin`);
    const headers = response?.headers() ?? {};
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toContain("script-src 'self'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("same-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    expect(headers["x-frame-options"]).toBe("DENY");
    await expect(page.getByTestId("signin-oidc")).toBeVisible();

    await signInThroughProvider(page, "alice", "/audit");
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
    await page.goto(`${app.url}/`);
    await expect(page.getByTestId("rollout-row").first()).toBeVisible({ timeout: 30_000 });
    expect(violations).toStrictEqual([]);
  });
});
