import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { httpCall, startRouteBridge, type RouteBridge } from "@/test/harness/route-bridge";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation } from "@/test/harness/rollout-scenario";
import type { SessionView } from "@/lib/contracts/session";

/*
 * Issue 12, "Also": where cookies carry the `__Host-` prefix (an https public URL), a cookie of the same name
 * without it is refused. The prefix is what stops a sibling subdomain or a plain-http page planting a cookie for
 * this origin; reading the unprefixed name as a fallback throws that away. Mode oidc with an https baseUrl.
 */

const BASE_URL = "https://rollscope.example.com";
let sim: SimulationHandle;
let bridge: RouteBridge;
let sealedSession: string;

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_SESSION_SECRET = randomBytes(32).toString("base64url");
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod" }],
    auth: { mode: "oidc", baseUrl: BASE_URL, oidc: { issuer: "http://127.0.0.1:9/realms/none", clientId: "rollscope" } },
  });
  const rolloutsRoute = await import("@/app/api/rollouts/route");
  bridge = await startRouteBridge();
  bridge.add([
    { path: "/api/rollouts", module: rolloutsRoute },
    { path: "/api/session", module: await import("@/app/api/session/route") },
    { path: "/api/auth/signout", module: await import("@/app/api/auth/signout/route") },
  ]);
  // A session as the callback would open and seal it, with the key the server derives from the same secret.
  const { getAuthSettings } = await import("@/lib/auth/settings");
  const { sealCookie } = await import("@/lib/auth/session-cookie");
  const { SESSION_AUDIENCE } = await import("@/lib/auth/resolve-user");
  const { getSessionStore } = await import("@/lib/server/app-context");
  const session = await getSessionStore().open({ user: "alice@example.com", groups: [], ttlSeconds: 3600 });
  sealedSession = await sealCookie(
    { sub: "alice@example.com", groups: [], sid: session.id },
    SESSION_AUDIENCE,
    getAuthSettings().keys.sessionKey,
    3600,
  );
});

afterAll(async () => {
  await bridge?.stop();
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

const get = (path: string, cookie: string) => httpCall(`${bridge.url}${path}`, { headers: { cookie } });

describe("__Host- cookies", () => {
  it("the session is read only under its __Host- name", async () => {
    expect((await get("/api/rollouts", `__Host-rollscope_session=${sealedSession}`)).status).toBe(200);
    expect((await get("/api/rollouts", `rollscope_session=${sealedSession}`)).status).toBe(401);
  });

  it("the CSRF token is accepted only from the __Host- cookie", async () => {
    const session = await get("/api/session", `__Host-rollscope_session=${sealedSession}`);
    const issued = session.headers["set-cookie"]?.find((c) => c.startsWith("__Host-rollscope_csrf="));
    expect(issued).toBeDefined();
    const token = session.json<SessionView>().csrfToken;
    const signOut = (csrfCookieName: string) =>
      httpCall(`${bridge.url}/api/auth/signout`, {
        method: "POST",
        headers: {
          cookie: `__Host-rollscope_session=${sealedSession}; ${csrfCookieName}=${token}`,
          "x-csrf-token": token,
          origin: BASE_URL,
        },
      });
    expect((await signOut("rollscope_csrf")).status).toBe(403);
    expect((await signOut("__Host-rollscope_csrf")).status).toBe(200);
  });
});
