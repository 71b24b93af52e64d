import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RbacBinding } from "@/sim/apiserver";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { httpCall, startRouteBridge, type RouteBridge } from "@/test/harness/route-bridge";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { isPausedAt, readRollout, startActionsSimulation, startCanary, waitForRollout } from "@/test/harness/rollout-scenario";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { SessionView } from "@/lib/contracts/session";
import { waitFor } from "@/test/harness/free-port";

/*
 * A user named system:serviceaccount:<ns>:<name> (a CI job signed in through the proxy) is a service account to
 * the API server: impersonated, it is in groups system:serviceaccounts and system:serviceaccounts:<ns>, and RBAC
 * bound to those groups applies. Rollscope's access reviews and impersonation must agree with that. Mode proxy
 * over real HTTP, route handlers in this process; the trusted proxy is 127.0.0.2.
 */

const TRUSTED = "127.0.0.2";
const DEPLOYER = "system:serviceaccount:ci:deployer";
/** Every service account of namespace ci may promote and abort in shop; nobody else gained anything. */
const CI_DEPLOYERS: RbacBinding = {
  name: "ci-deployers",
  subjects: [{ kind: "Group", name: "system:serviceaccounts:ci" }],
  rules: [
    {
      verbs: ["get", "list", "watch", "patch"],
      apiGroups: ["argoproj.io"],
      resources: ["rollouts", "rollouts/status"],
      namespaces: ["shop"],
    },
  ],
};

let sim: SimulationHandle;
let bridge: RouteBridge;

const as = (user: string, groups = "") => ({ "x-forwarded-user": user, ...(groups ? { "x-forwarded-groups": groups } : {}) });
const actionsPath = (name: string) => `/api/clusters/prod/rollouts/shop/${name}/actions`;

async function view(name: string, user: string, groups?: string): Promise<RolloutActionsView> {
  const reply = await httpCall(`${bridge.url}${actionsPath(name)}`, { from: TRUSTED, headers: as(user, groups) });
  expect(reply.status).toBe(200);
  return reply.json<RolloutActionsView>();
}

/** A view at the simulator's current version (the dashboard's watch has caught up). */
function currentView(name: "checkout" | "cart", user: string, groups?: string): Promise<RolloutActionsView> {
  return waitFor(`${name} at the simulator's version`, async () => {
    const v = await view(name, user, groups);
    return v.expected.resourceVersion === readRollout(sim, "prod", "shop", name).metadata.resourceVersion ? v : null;
  });
}

async function promote(name: string, user: string, groups: string | undefined, expected: RolloutActionsView["expected"]) {
  const session = await httpCall(`${bridge.url}/api/session`, { from: TRUSTED, headers: as(user, groups) });
  const cookie = String(session.headers["set-cookie"]?.[0] ?? "").split(";")[0];
  const headers = { ...as(user, groups), cookie, "x-csrf-token": session.json<SessionView>().csrfToken, origin: bridge.url };
  return httpCall(`${bridge.url}${actionsPath(name)}`, { method: "POST", from: TRUSTED, headers, body: { action: "promote", expected } });
}

beforeAll(async () => {
  sim = await startActionsSimulation(undefined, [CI_DEPLOYERS]);
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod" }],
    // Service-account names from the proxy are refused unless listed (docs/security.md): these two are.
    auth: {
      mode: "proxy",
      proxy: { trustedProxies: [`${TRUSTED}/32`], allowedSystemUsers: [DEPLOYER, "system:serviceaccount:other:deployer"] },
    },
    authorization: { auditReaders: { users: ["auditor"], groups: [] } },
  });
  const actionsRoute = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  bridge = await startRouteBridge();
  bridge.add([
    { path: "/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions", module: actionsRoute },
    { path: "/api/session", module: await import("@/app/api/session/route") },
    { path: "/api/audit", module: await import("@/app/api/audit/route") },
  ]);
  await Promise.all([startCanary(sim, "prod", "checkout"), startCanary(sim, "prod", "cart")]);
});

afterAll(async () => {
  await bridge?.stop();
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("service-account users", () => {
  it("get the permissions RBAC gives their service-account groups, and their action goes through", async () => {
    const options = await currentView("checkout", DEPLOYER);
    expect(options.actions.promote).toMatchObject({ enabled: true, permitted: true });
    const reply = await promote("checkout", DEPLOYER, undefined, options.expected);
    expect(reply.status).toBe(200);
    await waitForRollout(sim, "prod", "shop", "checkout", "paused at 60 %", isPausedAt(3));
    const audit = (await httpCall(`${bridge.url}/api/audit?rollout=checkout`, { from: TRUSTED, headers: as("auditor") })).json<AuditPage>();
    expect(audit.entries[0]).toMatchObject({ user: DEPLOYER, action: "promote", outcome: "done" });
  });

  it("keep their service-account groups when the proxy also names groups", async () => {
    const options = await currentView("cart", DEPLOYER, "ci-bots");
    expect(options.actions.promote).toMatchObject({ enabled: true, permitted: true });
    const reply = await promote("cart", DEPLOYER, "ci-bots", options.expected);
    expect(reply.status).toBe(200);
    await waitForRollout(sim, "prod", "shop", "cart", "paused at 60 %", isPausedAt(3));
  });

  it("a service account of another namespace gets nothing from that binding: it cannot even see the Rollout", async () => {
    const reply = await httpCall(`${bridge.url}${actionsPath("checkout")}`, {
      from: TRUSTED,
      headers: as("system:serviceaccount:other:deployer"),
    });
    expect(reply.status).toBe(404);
  });
});
