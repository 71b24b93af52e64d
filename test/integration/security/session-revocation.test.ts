import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation, startCanary } from "@/test/harness/rollout-scenario";
import type { SessionView } from "@/lib/contracts/session";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { findFreePort } from "@/test/harness/free-port";
import { signIn, type Browser } from "@/test/harness/oidc-browser";
import { startOidcProvider, type OidcProviderHandle } from "@/test/harness/oidc-provider";

/*
 * Sessions end on the server. The built app (`next start`) in mode oidc against a real OpenID Provider: after
 * sign-out the session's cookie, replayed by anyone who kept it, gets 401, and a live stream the session opened
 * before signing out ends. Needs a production build (`npx next build`).
 */

let sim: SimulationHandle;
let provider: OidcProviderHandle;
let app: AppProcess;

beforeAll(async () => {
  assertFreshBuild();
  sim = await startActionsSimulation();
  const port = await findFreePort();
  const appUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({
    redirectUris: [`${appUrl}/api/auth/callback`],
    accounts: { alice: { email: "alice@example.com", groups: ["sre-operators"] } },
  });
  const config = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod" }],
    auth: {
      mode: "oidc",
      baseUrl: appUrl,
      oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
    },
  });
  app = await startAppProcess({
    kubeconfigPath: sim.kubeconfigPath,
    port,
    readyPath: "/api/session",
    env: { ROLLSCOPE_CONFIG: config, ROLLSCOPE_SESSION_SECRET: randomBytes(32).toString("base64url") },
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await provider?.stop();
  await sim?.stop();
});

async function signOut(browser: Browser): Promise<void> {
  const session = (await browser.request(`${app.url}/api/session`)).json<SessionView>();
  const out = await browser.request(`${app.url}/api/auth/signout`, {
    method: "POST",
    headers: { origin: app.url, "x-csrf-token": session.csrfToken },
  });
  expect(out.status).toBe(200);
}

/** Opens /api/stream with these cookies and reads until the first event has arrived. */
async function openStream(cookie: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const res = await fetch(`${app.url}/api/stream`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain("event: snapshot");
  return reader;
}

/** Reads until `text` arrives; false when the stream ends or `ms` pass first. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string, ms: number): Promise<boolean> {
  const deadline = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), ms).unref());
  const decoder = new TextDecoder();
  let seen = "";
  for (;;) {
    const next = await Promise.race([reader.read().catch(() => ({ done: true as const, value: undefined })), deadline]);
    if (next === "late" || next.done) return false;
    seen = (seen + decoder.decode(next.value, { stream: true })).slice(-100_000);
    if (seen.includes(text)) return true;
  }
}

/** Reads until the server ends the stream; false when it is still open after `ms`. */
async function endsWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<boolean> {
  const deadline = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms).unref());
  for (;;) {
    const next = await Promise.race([reader.read().catch(() => ({ done: true as const })), deadline]);
    if (next === "open") {
      await reader.cancel().catch(() => undefined);
      return false;
    }
    if (next.done) return true;
  }
}

describe("server-side sessions (mode oidc)", () => {
  it("after sign-out the old cookie gets 401 and the stream it opened ends", async () => {
    const { browser } = await signIn(app.url, provider, "alice");
    const oldCookie = browser.cookieHeader(app.url);
    expect((await fetch(`${app.url}/api/rollouts`, { headers: { cookie: oldCookie } })).status).toBe(200);
    const stream = await openStream(oldCookie);

    await signOut(browser);

    expect(await endsWithin(stream, 30_000)).toBe(true);
    // Someone who kept the cookie (another tab, a copied header) is signed out too, and the stream cannot reopen.
    expect((await fetch(`${app.url}/api/rollouts`, { headers: { cookie: oldCookie } })).status).toBe(401);
    expect((await fetch(`${app.url}/api/stream`, { headers: { cookie: oldCookie } })).status).toBe(401);
    const session = (await (await fetch(`${app.url}/api/session`, { headers: { cookie: oldCookie } })).json()) as SessionView;
    expect(session.user).toBeNull();
  });

  it("signing out ends only that session: the same user's other sign-in keeps working", async () => {
    const first = await signIn(app.url, provider, "alice");
    const second = await signIn(app.url, provider, "alice");
    const stream = await openStream(second.browser.cookieHeader(app.url));

    await signOut(first.browser);
    await startCanary(sim, "prod", "cart");

    expect((await second.browser.request(`${app.url}/api/rollouts`)).status).toBe(200);
    expect(await readUntil(stream, '"key":"prod/shop/cart"', 30_000)).toBe(true);
    await stream.cancel();
  });
});
