import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { isPausedAt, readRollout, startActionsSimulation, startCanary, waitForRollout } from "@/test/harness/rollout-scenario";
import type { RolloutActionsView, RolloutActionResult } from "@/lib/contracts/rollout-actions";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutHistory } from "@/lib/rollouts/detail-types";
import { findResourceTypeByKind } from "@/sim/resources";

/*
 * Mode none against the simulator over real HTTP: the route handlers are called in-process (route → lib/http →
 * service → lib/k8s | lib/db), the cluster is the stateful simulator, the database a migrated SQLite file.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };

const ORIGIN = "http://127.0.0.1:3000";
let sim: SimulationHandle;
let actions: { GET: Handler<RolloutParams>; POST: Handler<RolloutParams> };
let session: { GET: Handler<Record<string, never>> };
let audit: { GET: Handler<Record<string, never>> };
let auditExport: { GET: Handler<Record<string, never>> };
let history: { GET: Handler<RolloutParams> };
let csrf: { token: string; cookie: string };
let fleetRolloutVersion: (cluster: string, name: string) => string | null;

function request(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? "GET",
    headers: { host: "127.0.0.1:3000", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const params = <P>(p: P) => ({ params: Promise.resolve(p) });
const target = (name: string, cluster = "prod"): RolloutParams => ({ cluster, namespace: "shop", name });

async function getView(name: string, cluster = "prod"): Promise<RolloutActionsView> {
  const res = await actions.GET(request(`/api/clusters/${cluster}/rollouts/shop/${name}/actions`), params(target(name, cluster)));
  expect(res.status).toBe(200);
  return (await res.json()) as RolloutActionsView;
}

function postAction(
  name: string,
  body: unknown,
  headers: Record<string, string> = { origin: ORIGIN, cookie: csrf.cookie, "x-csrf-token": csrf.token },
  cluster = "prod",
) {
  return actions.POST(
    request(`/api/clusters/${cluster}/rollouts/shop/${name}/actions`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    }),
    params(target(name, cluster)),
  );
}

/** Waits until the dashboard's watch cache has caught up with the simulator. */
async function waitForCache(name: string, cluster = "prod"): Promise<void> {
  const simVersion = () => readRollout(sim, cluster, "shop", name).metadata.resourceVersion ?? null;
  for (let i = 0; i < 200 && fleetRolloutVersion(cluster, name) !== simVersion(); i++) await delay(50);
  expect(fleetRolloutVersion(cluster, name)).toBe(simVersion());
}

async function auditEntries(query: string): Promise<AuditPage["entries"]> {
  const res = await audit.GET(request(`/api/audit?${query}`), params({}));
  expect(res.status).toBe(200);
  return ((await res.json()) as AuditPage).entries;
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod", label: "production" }, { name: "legacy" }],
  });
  actions = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  session = await import("@/app/api/session/route");
  audit = await import("@/app/api/audit/route");
  auditExport = await import("@/app/api/audit/export/route");
  history = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/history/route");
  const { getAppContext } = await import("@/lib/server/app-context");
  fleetRolloutVersion = (cluster, name) => getAppContext().fleet.cluster(cluster)?.rollout("shop", name)?.resourceVersion ?? null;

  const res = await session.GET(request("/api/session"), params({}));
  const body = (await res.json()) as { csrfToken: string; mode: string; identityNote: string };
  expect(body.mode).toBe("none");
  const setCookie = res.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(/^rollscope_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
  csrf = { token: body.csrfToken, cookie: setCookie.split(";")[0] };
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("rollout actions (auth mode none)", () => {
  it("offers the actions the paused canary allows, with their effect and plan", async () => {
    await startCanary(sim, "prod", "checkout");
    await waitForCache("checkout");
    const view = await getView("checkout");
    expect(view.actingAs).toBe("No sign-in: actions run as the dashboard's kubeconfig identity");
    expect(view.production).toBe(true);
    expect(view.expected).toMatchObject({ revision: "2", stepIndex: 1 });
    expect(view.actions.promote).toMatchObject({
      enabled: true,
      permitted: true,
      typedConfirmation: false,
      effect: "Canary 20 % → 60 % (skips pause at step 2 of 4; next: pause)",
      requests: ["GET rollouts/checkout", 'PATCH rollouts/checkout/status {"status":{"pauseConditions":null}}'],
    });
    expect(view.actions["promote-full"]).toMatchObject({ enabled: true, typedConfirmation: true });
    expect(view.actions.abort).toMatchObject({
      enabled: true,
      typedConfirmation: true,
      effect: "Abort: canary 20 % → 0 %; the Rollout becomes Degraded",
    });
    expect(view.actions.retry).toStrictEqual(expect.objectContaining({ enabled: false, reason: "Retry is only available after an abort" }));
    expect(view.actions.resume.enabled).toBe(false);
  });

  it("refuses a POST without the CSRF token or from another origin, and changes nothing", async () => {
    const before = readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion;
    const view = await getView("checkout");
    const body = { action: "promote", expected: view.expected };
    const attempts: Record<string, string>[] = [
      { origin: ORIGIN },
      { origin: ORIGIN, cookie: csrf.cookie },
      { origin: ORIGIN, "x-csrf-token": csrf.token },
      { origin: ORIGIN, cookie: csrf.cookie, "x-csrf-token": `${csrf.token}x` },
      { origin: "http://evil.example", cookie: csrf.cookie, "x-csrf-token": csrf.token },
    ];
    for (const headers of attempts) {
      const res = await postAction("checkout", body, headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("csrf");
    }
    expect(readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion).toBe(before);
  });

  it("promote sends upstream's requests and the canary moves on to 60 %", async () => {
    const view = await getView("checkout");
    const res = await postAction("checkout", {
      action: "promote",
      expected: { resourceVersion: view.expected.resourceVersion, revision: "2", stepIndex: 1 },
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as RolloutActionResult;
    expect(result.requests).toStrictEqual([
      { kind: "get" },
      { kind: "patch", target: "status", patchType: "merge", body: { status: { pauseConditions: null } }, outcome: "ok" },
    ]);
    const after = await waitForRollout(sim, "prod", "shop", "checkout", "paused at 60 %", isPausedAt(3));
    expect(after.status?.canary?.weights?.canary?.weight).toBe(60);
    const [entry] = await auditEntries("rollout=checkout&action=promote&outcome=done");
    expect(entry).toMatchObject({
      user: "anonymous (kubeconfig identity)",
      cluster: "prod",
      namespace: "shop",
      outcome: "done",
      message: "status patched",
    });
    expect(entry.before).toMatchObject({ revision: 2, stepIndex: 1, totalSteps: 4, phase: "Paused", canaryPercent: 20 });
    // The state the PATCH answered with: unpaused, not yet moved on by the controller, a newer resourceVersion.
    expect(entry.after).toMatchObject({ stepIndex: 1, paused: false, aborted: false, canaryPercent: 20 });
    expect(entry.after?.resourceVersion).toBeTruthy();
    expect(entry.after?.resourceVersion).not.toBe(entry.before?.resourceVersion);
    expect(entry.requestId).toBeTruthy();
  });

  it("refuses an action on a Rollout that moved on, and audits it as stale", async () => {
    await waitForCache("checkout");
    const res = await postAction("checkout", { action: "promote", expected: { resourceVersion: "1", revision: "2", stepIndex: 1 } });
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("stale");
    expect(error.message).toMatch(/^the rollout changed — review and retry \(step 2 → 4/);
    expect(readRollout(sim, "prod", "shop", "checkout").status?.currentStepIndex).toBe(3);
    const [entry] = await auditEntries("rollout=checkout&outcome=stale");
    expect(entry.message).toContain("the rollout changed");
  });

  it("a double click sends one action: the second is refused as stale", async () => {
    await startCanary(sim, "prod", "cart");
    await waitForCache("cart");
    const view = await getView("cart");
    const body = { action: "promote", expected: view.expected };
    const [a, b] = await Promise.all([postAction("cart", body), postAction("cart", body)]);
    expect([a.status, b.status].sort()).toStrictEqual([200, 409]);
    await waitForRollout(sim, "prod", "shop", "cart", "paused at 60 %", isPausedAt(3));
    const done = await auditEntries("rollout=cart&action=promote&outcome=done");
    const stale = await auditEntries("rollout=cart&action=promote&outcome=stale");
    expect([done.length, stale.length]).toStrictEqual([1, 1]);
  });

  it("accepts a newer resourceVersion that changed nothing the action depends on, and refuses a wrong fingerprint", async () => {
    await startCanary(sim, "prod", "search");
    await waitForCache("search");
    const view = await getView("search");
    // A label edit: a new resourceVersion, same step, weight and generation.
    const rollouts = findResourceTypeByKind("argoproj.io/v1alpha1", "Rollout")!;
    sim.cluster("prod").store.update(rollouts, "shop", "search", (draft) => {
      draft.metadata.labels = { ...(draft.metadata.labels ?? {}), "rollscope.test/touched": "yes" };
    });
    await waitForCache("search");
    expect(readRollout(sim, "prod", "shop", "search").metadata.resourceVersion).not.toBe(view.expected.resourceVersion);
    const forged = await postAction("search", { action: "promote", expected: { ...view.expected, fingerprint: "AAAAAAAAAAAAAAAAAAAAAA" } });
    expect(forged.status).toBe(409);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("stale");
    const res = await postAction("search", { action: "promote", expected: view.expected });
    expect(res.status).toBe(200);
    await waitForRollout(sim, "prod", "shop", "search", "paused at 60 %", isPausedAt(3));
  });

  it("acts on and reports the API server's state when the watch lags behind it", async () => {
    await waitForRollout(sim, "prod", "shop", "payments", "Healthy", (r) => r.status?.phase === "Healthy");
    await waitForCache("payments");
    const { getAppContext } = await import("@/lib/server/app-context");
    const watcher = getAppContext().fleet.clusterOrThrow("prod");
    const healthy = watcher.rollout("shop", "payments")!;
    expect(healthy.phase).toBe("Healthy");
    // The watch stays at the Healthy Rollout while the API server has a new canary paused at 20 %.
    const watched = watcher.rollout.bind(watcher);
    const lagging = vi
      .spyOn(watcher, "rollout")
      .mockImplementation((namespace, name) => (name === "payments" ? healthy : watched(namespace, name)));
    try {
      await startCanary(sim, "prod", "payments");
      const view = await getView("payments");
      expect(view.expected).toMatchObject({ revision: "2", stepIndex: 1 });
      expect(view.expected.resourceVersion).not.toBe(healthy.resourceVersion);
      expect(view.actions.promote).toMatchObject({ enabled: true, effect: "Canary 20 % → 60 % (skips pause at step 2 of 4; next: pause)" });
      const res = await postAction("payments", { action: "promote", expected: view.expected });
      expect(res.status).toBe(200);
      await waitForRollout(sim, "prod", "shop", "payments", "paused at 60 %", isPausedAt(3));
      const [entry] = await auditEntries("rollout=payments&action=promote&outcome=done");
      expect(entry.before).toMatchObject({ revision: 2, stepIndex: 1, phase: "Paused", canaryPercent: 20 });
      expect(entry.before?.resourceVersion).not.toBe(healthy.resourceVersion);
    } finally {
      lagging.mockRestore();
    }
  });

  it("abort returns the canary weight to 0 and the Rollout is Degraded; retry is then offered", async () => {
    await startCanary(sim, "prod", "catalog");
    await waitForCache("catalog");
    const view = await getView("catalog");
    const res = await postAction("catalog", { action: "abort", expected: view.expected });
    expect(res.status).toBe(200);
    expect(((await res.json()) as RolloutActionResult).requests).toStrictEqual([
      { kind: "patch", target: "status", patchType: "merge", body: { status: { abort: true } }, outcome: "ok" },
    ]);
    const aborted = await waitForRollout(
      sim,
      "prod",
      "shop",
      "catalog",
      "Degraded",
      (r) => r.status?.phase === "Degraded" && r.status.canary?.weights?.canary?.weight === 0,
    );
    expect(aborted.status?.abort).toBe(true);
    await waitForCache("catalog");
    const afterView = await getView("catalog");
    expect(afterView.actions.retry.enabled).toBe(true);
    expect(afterView.actions.abort).toMatchObject({ enabled: false, reason: "Rollout is already aborted" });
  });

  it("refuses an action the state does not allow (conflict) and one without the state the user saw", async () => {
    const view = await getView("catalog");
    const conflict = await postAction("catalog", { action: "promote", expected: view.expected });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: { code: string; message: string } }).error).toStrictEqual({
      code: "conflict",
      message: "Rollout is aborted; retry it before promoting",
    });
    const missing = await postAction("catalog", { action: "abort", expected: {} });
    expect(missing.status).toBe(400);
    const invalid = await postAction("catalog", { action: "undo", expected: {} });
    expect(invalid.status).toBe(400);
  });

  it("pause and resume flip spec.paused only", async () => {
    await waitForCache("checkout");
    let view = await getView("checkout");
    const paused = await postAction("checkout", { action: "pause", expected: view.expected });
    expect(((await paused.json()) as RolloutActionResult).requests).toStrictEqual([
      { kind: "patch", target: "main", patchType: "merge", body: { spec: { paused: true } }, outcome: "ok" },
    ]);
    expect(readRollout(sim, "prod", "shop", "checkout").spec?.paused).toBe(true);
    await waitForCache("checkout");
    view = await getView("checkout");
    expect(view.actions.resume.enabled).toBe(true);
    const resumed = await postAction("checkout", { action: "resume", expected: view.expected });
    expect(resumed.status).toBe(200);
    expect(readRollout(sim, "prod", "shop", "checkout").spec?.paused).toBe(false);
    expect(readRollout(sim, "prod", "shop", "checkout").status?.currentStepIndex).toBe(3);
  });

  it("exports the audit log as CSV and JSON and marks done actions on the weight chart", async () => {
    const csv = await auditExport.GET(request("/api/audit/export?format=csv&cluster=prod"), params({}));
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="rollscope-audit-.*\.csv"$/);
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^id,at,user,groups,cluster,namespace,rollout,action,outcome,message,/);
    expect(lines.length).toBeGreaterThan(5);
    const json = await auditExport.GET(request("/api/audit/export?format=json&outcome=denied"), params({}));
    expect(await json.json()).toStrictEqual([]);

    const res = await history.GET(request("/api/clusters/prod/rollouts/shop/checkout/history?range=1h"), params(target("checkout")));
    const { markers } = (await res.json()) as RolloutHistory;
    expect(markers.filter((m) => m.kind === "action").map((m) => m.label)).toStrictEqual([
      "promote by anonymous (kubeconfig identity)",
      "pause by anonymous (kubeconfig identity)",
      "resume by anonymous (kubeconfig identity)",
    ]);
  });
});
