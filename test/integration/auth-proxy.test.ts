import type { IncomingHttpHeaders } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { httpCall, startRouteBridge, type RouteBridge } from "@/test/harness/route-bridge";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { readRollout, startActionsSimulation, startCanary } from "@/test/harness/rollout-scenario";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { AuditPage } from "@/lib/audit/schema";
import type { SessionView } from "@/lib/contracts/session";

/*
 * Mode proxy over real HTTP: a Node server in this process hands each request to the route handlers, so the
 * peer-address stamp the route module installs runs exactly as under `next start`. The trusted proxy is 127.0.0.2;
 * requests from 127.0.0.1 are "anyone else". Cluster prod impersonates; cluster legacy uses role mappings.
 */

const TRUSTED = "127.0.0.2";
let sim: SimulationHandle;
let bridge: RouteBridge;

interface Reply {
  status: number;
  body: unknown;
  headers: IncomingHttpHeaders;
}

async function call(
  method: string,
  path: string,
  options: { from?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const reply = await httpCall(`${bridge.url}${path}`, { method, ...options });
  let body: unknown = reply.text;
  try {
    body = JSON.parse(reply.text);
  } catch {
    /* not JSON */
  }
  return { status: reply.status, headers: reply.headers, body };
}

const as = (user: string, groups: string) => ({ "x-forwarded-user": user, "x-forwarded-groups": groups });

/** Signs in through the "proxy" and returns the headers a browser page would send on a POST. */
async function browserFor(user: string, groups: string): Promise<Record<string, string>> {
  const { body, headers } = await call("GET", "/api/session", { from: TRUSTED, headers: as(user, groups) });
  const cookie = String(headers["set-cookie"]?.[0] ?? "").split(";")[0];
  return { ...as(user, groups), cookie, "x-csrf-token": (body as SessionView).csrfToken, origin: bridge.url };
}

const actionsPath = (cluster: string, name: string) => `/api/clusters/${cluster}/rollouts/shop/${name}/actions`;

async function view(cluster: string, name: string, user: string, groups: string): Promise<RolloutActionsView> {
  const reply = await call("GET", actionsPath(cluster, name), { from: TRUSTED, headers: as(user, groups) });
  expect(reply.status).toBe(200);
  return reply.body as RolloutActionsView;
}

async function waitForCache(cluster: string, name: string): Promise<void> {
  const { getAppContext } = await import("@/lib/server/app-context");
  const cached = () => getAppContext().fleet.cluster(cluster)?.rollout("shop", name)?.resourceVersion;
  for (let i = 0; i < 200 && cached() !== readRollout(sim, cluster, "shop", name).metadata.resourceVersion; i++) await delay(50);
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod", label: "production" }, { name: "legacy" }],
    auth: { mode: "proxy", proxy: { trustedProxies: [`${TRUSTED}/32`] } },
    authorization: {
      clusters: { legacy: { impersonate: false } },
      roleMappings: [
        { group: "sre-operators", role: "operator", clusters: ["legacy"] },
        { group: "viewers", role: "viewer" },
      ],
      auditReaders: { groups: ["sre-operators", "viewers"] },
    },
  });
  const actionsRoute = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  // Started after a route module installed the peer stamp, as `next start` listens after loading instrumentation.
  bridge = await startRouteBridge();
  bridge.add([
    { path: "/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions", module: actionsRoute },
    { path: "/api/session", module: await import("@/app/api/session/route") },
    { path: "/api/session/permissions", module: await import("@/app/api/session/permissions/route") },
    { path: "/api/audit", module: await import("@/app/api/audit/route") },
    { path: "/api/rollouts", module: await import("@/app/api/rollouts/route") },
  ]);
  await startCanary(sim, "prod", "checkout");
  await startCanary(sim, "legacy", "checkout");
  await waitForCache("prod", "checkout");
  await waitForCache("legacy", "checkout");
});

afterAll(async () => {
  await bridge?.stop();
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("auth mode proxy", () => {
  it("ignores identity headers from anyone but the trusted proxy, however they are dressed up", async () => {
    const session = await call("GET", "/api/session", { headers: as("alice", "sre-operators") });
    expect((session.body as SessionView).user).toBeNull();
    expect((session.body as SessionView).identityNote).toBe("Not signed in: open Rollscope through the sign-in proxy");
    expect((session.body as SessionView).identityLabel).toBe("Not signed in");
    expect((await call("GET", "/api/rollouts", { headers: as("alice", "sre-operators") })).status).toBe(401);
    const forged = { ...as("alice", "sre-operators"), "x-rollscope-peer": `guess ${TRUSTED}`, "x-forwarded-for": TRUSTED };
    expect((await call("GET", actionsPath("prod", "checkout"), { headers: forged })).status).toBe(401);
    expect((await call("GET", "/api/rollouts", { from: TRUSTED })).status).toBe(401);
  });

  it("takes user and groups from the trusted proxy", async () => {
    const { body } = await call("GET", "/api/session", { from: TRUSTED, headers: as("alice", "sre-operators, team-shop") });
    expect(body).toMatchObject({
      mode: "proxy",
      user: { name: "alice", groups: ["sre-operators", "team-shop"] },
      identityNote: "Signed in as alice (via the sign-in proxy)",
      identityLabel: "Signed in as alice",
    });
    expect((await call("GET", "/api/rollouts", { from: TRUSTED, headers: as("alice", "sre-operators") })).status).toBe(200);
  });

  it("an operator (per the cluster's RBAC) may act; the action runs impersonated and is audited with the client", async () => {
    const options = await view("prod", "checkout", "alice", "sre-operators");
    expect(options.actingAs).toBe("Actions run as alice (impersonated): the cluster's RBAC decides");
    expect(options.actions.promote).toMatchObject({ enabled: true, permitted: true });
    const browser = await browserFor("alice", "sre-operators");
    const reply = await call("POST", actionsPath("prod", "checkout"), {
      from: TRUSTED,
      headers: { ...browser, "x-forwarded-for": "203.0.113.7" },
      body: { action: "pause", expected: options.expected },
    });
    expect(reply.status).toBe(200);
    expect(readRollout(sim, "prod", "shop", "checkout").spec?.paused).toBe(true);
    const audit = (await call("GET", "/api/audit?rollout=checkout&cluster=prod", { from: TRUSTED, headers: as("alice", "sre-operators") }))
      .body as AuditPage;
    expect(audit.entries[0]).toMatchObject({
      user: "alice",
      groups: ["sre-operators"],
      action: "pause",
      outcome: "done",
      clientAddress: "203.0.113.7 via 127.0.0.2",
    });
  });

  it("a viewer sees every action disabled with the reason; a direct POST is refused (403) and audited as denied", async () => {
    const options = await view("prod", "checkout", "bob", "viewers");
    expect(options.actions.promote).toMatchObject({
      enabled: false,
      permitted: false,
      reason: "Your Kubernetes permissions (bob, groups viewers) do not allow patch rollouts/status in namespace shop",
    });
    expect(Object.values(options.actions).every((o) => !o.enabled)).toBe(true);
    const permissions = await call("GET", "/api/session/permissions?cluster=prod&namespace=shop&name=checkout", {
      from: TRUSTED,
      headers: as("bob", "viewers"),
    });
    expect((permissions.body as { permissions: Record<string, { allowed: boolean }> }).permissions.pause.allowed).toBe(false);

    const before = readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion;
    const browser = await browserFor("bob", "viewers");
    const reply = await call("POST", actionsPath("prod", "checkout"), {
      from: TRUSTED,
      headers: browser,
      body: { action: "resume", expected: options.expected },
    });
    expect(reply.status).toBe(403);
    expect((reply.body as { error: { code: string } }).error.code).toBe("forbidden");
    expect(readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion).toBe(before);
    const audit = (await call("GET", "/api/audit?user=bob", { from: TRUSTED, headers: as("bob", "viewers") })).body as AuditPage;
    expect(audit.entries[0]).toMatchObject({
      user: "bob",
      action: "resume",
      outcome: "denied",
      message: expect.stringContaining("do not allow patch rollouts"),
    });
  });

  it("a CSRF token is bound to the user it was issued to", async () => {
    const alice = await browserFor("alice", "sre-operators");
    const options = await view("prod", "checkout", "alice", "sre-operators");
    const reply = await call("POST", actionsPath("prod", "checkout"), {
      from: TRUSTED,
      headers: { ...alice, ...as("mallory", "sre-operators") },
      body: { action: "resume", expected: options.expected },
    });
    expect(reply.status).toBe(403);
    expect((reply.body as { error: { code: string } }).error.code).toBe("csrf");
  });

  it("on a cluster without impersonation, the role mapping decides", async () => {
    const operator = await view("legacy", "checkout", "alice", "sre-operators");
    expect(operator.actingAs).toBe("Actions run as the dashboard's identity; your role in legacy/shop: operator");
    expect(operator.actions.promote.enabled).toBe(true);
    const viewer = await view("legacy", "checkout", "bob", "viewers");
    expect(viewer.actions.promote).toMatchObject({ enabled: false, reason: "Your role in legacy/shop is viewer" });
    // Without any role the user may not read the Rollout either: it answers as one that does not exist.
    const nobody = await call("GET", actionsPath("legacy", "checkout"), { from: TRUSTED, headers: as("carol", "devs") });
    expect(nobody.status).toBe(404);

    const browser = await browserFor("alice", "sre-operators");
    const reply = await call("POST", actionsPath("legacy", "checkout"), {
      from: TRUSTED,
      headers: browser,
      body: { action: "promote", expected: operator.expected },
    });
    expect(reply.status).toBe(200);
  });
});

describe("impersonation headers", () => {
  it("send one Impersonate-Group line per group, so the API server sees each group", async () => {
    const { KubeConfig } = await import("@kubernetes/client-node");
    const { kubeRequest } = await import("@/lib/k8s/kube-request");
    const { impersonationHeaders } = await import("@/lib/services/session");
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(sim.kubeconfigPath);
    kubeConfig.setCurrentContext("prod");
    const path = "/apis/argoproj.io/v1alpha1/namespaces/shop/rollouts/ledger";
    const patch = (groups: string[]) =>
      kubeRequest(kubeConfig, path, {
        method: "PATCH",
        body: { spec: { paused: false } },
        contentType: "application/merge-patch+json",
        headers: impersonationHeaders({ user: "dave", groups }),
      });
    await expect(patch(["viewers"])).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('User "dave" cannot patch resource "rollouts"'),
    });
    await expect(patch(["viewers", "sre-operators"])).resolves.toBeTruthy();
  });
});
