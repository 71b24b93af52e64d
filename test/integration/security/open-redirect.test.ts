import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { startRouteBridge, type RouteBridge } from "@/test/harness/route-bridge";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation } from "@/test/harness/rollout-scenario";
import { signInThroughProvider } from "@/test/harness/oidc-browser";
import { startOidcProvider, type OidcProviderHandle } from "@/test/harness/oidc-provider";

/*
 * Issue 12, item 4: `returnTo=/%09/evil.example` passed the filter, and after sign-in the browser went to
 * evil.example (browsers drop the tab and read `//evil.example`). Only paths on this site may come back, whatever
 * the spelling. Mode oidc against a real OpenID Provider; the /signin page's link is covered in e2e/security.spec.ts.
 */

let sim: SimulationHandle;
let provider: OidcProviderHandle;
let bridge: RouteBridge;

beforeAll(async () => {
  sim = await startActionsSimulation();
  const signinRoute = await import("@/app/api/auth/signin/route");
  bridge = await startRouteBridge();
  provider = await startOidcProvider({
    redirectUris: [`${bridge.url}/api/auth/callback`],
    accounts: { alice: { email: "alice@example.com", groups: [] } },
  });
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_SESSION_SECRET = randomBytes(32).toString("base64url");
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod" }],
    auth: {
      mode: "oidc",
      baseUrl: bridge.url,
      oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
    },
  });
  bridge.add([
    { path: "/api/auth/signin", module: signinRoute },
    { path: "/api/auth/callback", module: await import("@/app/api/auth/callback/route") },
  ]);
});

afterAll(async () => {
  await bridge?.stop();
  await provider?.stop();
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

/** Where the browser goes once the provider sends it back: the callback's Location, resolved as a browser does. */
async function landingAfterSignIn(rawReturnTo: string): Promise<URL> {
  const { hops } = await signInThroughProvider(bridge.url, provider.issuer, "alice", `returnTo=${rawReturnTo}`);
  const callback = hops.find((hop) => hop.headers["set-cookie"]?.some((c) => c.startsWith("rollscope_session=")));
  expect(callback?.status, "the sign-in completed").toBe(303);
  return new URL(String(callback?.headers.location), bridge.url);
}

describe("returnTo after sign-in", () => {
  it.each([
    ["/%09/evil.example", "a tab after the first slash"],
    ["/%0A/evil.example", "a newline after the first slash"],
    ["/%5Cevil.example", "a backslash"],
    ["%5C%5Cevil.example", "two backslashes"],
    ["//evil.example/x", "a protocol-relative URL"],
    ["https://evil.example/", "an absolute URL"],
    ["/%2F%2Fevil.example", "encoded slashes"],
  ])("%s (%s) lands on this site", async (raw) => {
    const landing = await landingAfterSignIn(raw);
    expect(landing.origin).toBe(bridge.url);
  });

  it("a path on this site, with its query, survives", async () => {
    const landing = await landingAfterSignIn(encodeURIComponent("/rollouts/prod/shop/checkout?tab=events"));
    expect(landing.href).toBe(`${bridge.url}/rollouts/prod/shop/checkout?tab=events`);
  });
});
