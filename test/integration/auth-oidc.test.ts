import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { startRouteBridge, type RouteBridge } from "@/test/harness/route-bridge";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation, startCanary } from "@/test/harness/rollout-scenario";
import { Browser, signIn as signInAt } from "@/test/harness/oidc-browser";
import { startOidcProvider, type OidcProviderHandle } from "@/test/harness/oidc-provider";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { SessionView } from "@/lib/contracts/session";

/*
 * Mode oidc against a real OpenID Provider (oidc-provider on 127.0.0.1): the authorization code flow with PKCE,
 * driven by plain HTTP with one cookie jar per origin, as a browser would follow the redirects.
 */

let sim: SimulationHandle;
let provider: OidcProviderHandle;
let bridge: RouteBridge;

/** Signs in at the bridge through the provider's login form. */
const signIn = (login: string, returnTo?: string) => signInAt(bridge.url, provider, login, returnTo);

beforeAll(async () => {
  sim = await startActionsSimulation();
  // A route module first: it installs the peer stamp before the bridge starts listening.
  const actionsRoute = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  bridge = await startRouteBridge();
  provider = await startOidcProvider({
    redirectUris: [`${bridge.url}/api/auth/callback`],
    accounts: { alice: { email: "alice@example.com", groups: ["sre-operators"] }, bob: { email: "bob@example.com", groups: ["viewers"] } },
  });
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_SESSION_SECRET = randomBytes(32).toString("base64url");
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod", label: "production" }],
    auth: {
      mode: "oidc",
      baseUrl: bridge.url,
      oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
    },
  });
  bridge.add([
    { path: "/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions", module: actionsRoute },
    { path: "/api/session", module: await import("@/app/api/session/route") },
    { path: "/api/auth/signin", module: await import("@/app/api/auth/signin/route") },
    { path: "/api/auth/callback", module: await import("@/app/api/auth/callback/route") },
    { path: "/api/auth/signout", module: await import("@/app/api/auth/signout/route") },
    { path: "/api/rollouts", module: await import("@/app/api/rollouts/route") },
  ]);
  await startCanary(sim, "prod", "checkout");
});

afterAll(async () => {
  await bridge?.stop();
  await provider?.stop();
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("auth mode oidc", () => {
  it("a signed-out browser gets 401 from the API and no user from /api/session", async () => {
    const browser = new Browser();
    expect((await browser.request(`${bridge.url}/api/rollouts`)).status).toBe(401);
    const session = (await browser.request(`${bridge.url}/api/session`)).json<SessionView>();
    expect(session).toMatchObject({ mode: "oidc", user: null, signInUrl: "/signin" });
  });

  it("signs in with the authorization code flow (PKCE, state, nonce) and comes back where it started", async () => {
    const { browser, hops } = await signIn("alice");
    const start = hops[0];
    expect(start.status).toBe(303);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.origin).toBe(provider.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: "rollscope",
      response_type: "code",
      redirect_uri: `${bridge.url}/api/auth/callback`,
      scope: "openid profile email groups",
      code_challenge_method: "S256",
    });
    expect(authorize.searchParams.get("state")).toBeTruthy();
    expect(authorize.searchParams.get("nonce")).toBeTruthy();
    expect(String(start.headers["set-cookie"])).toMatch(/^rollscope_signin=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600/);

    const callback = hops.find((h) => h.headers.location === "/rollouts/prod/shop/checkout");
    expect(callback?.status).toBe(303);
    expect(
      callback?.headers["set-cookie"]?.some((c) => /^rollscope_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/.test(c)),
    ).toBe(true);

    const session = (await browser.request(`${bridge.url}/api/session`)).json<SessionView>();
    expect(session).toMatchObject({
      mode: "oidc",
      user: { name: "alice@example.com", groups: ["sre-operators"] },
      identityNote: "Signed in as alice@example.com",
      identityLabel: "Signed in as alice@example.com",
    });
    expect((await browser.request(`${bridge.url}/api/rollouts`)).status).toBe(200);

    const view = (await browser.request(`${bridge.url}/api/clusters/prod/rollouts/shop/checkout/actions`)).json<RolloutActionsView>();
    expect(view.actingAs).toBe("Actions run as alice@example.com (impersonated): the cluster's RBAC decides");
    expect(view.actions.promote.enabled).toBe(true);
  });

  it("a viewer's session gets the viewer's permissions", async () => {
    const { browser } = await signIn("bob");
    const view = (await browser.request(`${bridge.url}/api/clusters/prod/rollouts/shop/checkout/actions`)).json<RolloutActionsView>();
    expect(view.actions.promote).toMatchObject({ enabled: false, reason: expect.stringContaining("bob@example.com, groups viewers") });
  });

  it("refuses a callback whose state does not match, a tampered session and a foreign return path", async () => {
    const browser = new Browser();
    await browser.request(`${bridge.url}/api/auth/signin?returnTo=/`);
    const forged = await browser.request(
      `${bridge.url}/api/auth/callback?code=abc&state=not-the-state&iss=${encodeURIComponent(provider.issuer)}`,
    );
    expect(forged.status).toBe(303);
    expect(String(forged.headers.location)).toMatch(/^\/signin\?error=/);
    expect(browser.cookies(bridge.url).has("rollscope_session")).toBe(false);

    const stranger = new Browser();
    stranger.cookies(bridge.url).set("rollscope_session", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC");
    expect((await stranger.request(`${bridge.url}/api/rollouts`)).status).toBe(401);

    const { hops } = await signIn("alice", "//evil.example/x");
    expect(hops.some((h) => h.headers.location === "/")).toBe(true);
    expect(hops.some((h) => String(h.headers.location ?? "").includes("evil.example"))).toBe(false);
  });

  it("signs out with a CSRF-checked POST", async () => {
    const { browser } = await signIn("alice");
    const session = (await browser.request(`${bridge.url}/api/session`)).json<SessionView>();
    expect((await browser.request(`${bridge.url}/api/auth/signout`, { method: "POST", headers: { origin: bridge.url } })).status).toBe(403);
    const out = await browser.request(`${bridge.url}/api/auth/signout`, {
      method: "POST",
      headers: { origin: bridge.url, "x-csrf-token": session.csrfToken },
    });
    expect(out.status).toBe(200);
    expect(browser.cookies(bridge.url).has("rollscope_session")).toBe(false);
    expect((await browser.request(`${bridge.url}/api/rollouts`)).status).toBe(401);
  });
});
