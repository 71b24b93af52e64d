import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/e2e/support/database";
import type { RolloutActionResult, RolloutActionsView } from "@/lib/contracts/rollout-actions";
import { goMissingReason } from "@/realcluster/build";
import { CLUSTER_NAME, startRealCluster, type RealCluster } from "@/realcluster/cluster";
import { CANARY_WEIGHT_ANNOTATION, DEMO_ROLLOUTS, routedCanaryIngress } from "@/realcluster/demo-workloads";
import { DEMO_NAMESPACE } from "@/realcluster/manifests";
import { waitUntil } from "@/realcluster/net";
import { openInProcessSession, stopInProcessApp } from "@/test/harness/in-process-session";

/*
 * The real control plane (etcd, kube-apiserver, controller manager, scheduler, kwok) with the real Argo Rollouts
 * controller and a real traffic-router plugin: Rollscope's promote (route handler in-process, as the other
 * integration tests call it) must make the real controller advance the canary and the plugin shift the route.
 * The first run builds the binaries from their Go modules (15–40 minutes on 2 cores, hence the hour for beforeAll);
 * later runs take them from the cache.
 */

const skipReason = goMissingReason();
if (skipReason) console.log(`real-cluster smoke test skipped: ${skipReason}`);

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };
interface RolloutJson {
  metadata: { resourceVersion: string };
  status?: { currentStepIndex?: number; pauseConditions?: unknown[]; phase?: string; canary?: { weights?: { canary?: { weight?: number } } } };
}

const ORIGIN = "http://127.0.0.1:3000";
const ROUTED = DEMO_ROLLOUTS.routed;
const target: RolloutParams = { cluster: CLUSTER_NAME, namespace: DEMO_NAMESPACE, name: ROUTED };
const actionsPath = `/api/clusters/${CLUSTER_NAME}/rollouts/${DEMO_NAMESPACE}/${ROUTED}/actions`;

let cluster: RealCluster;
let workDir: string;
let actions: { GET: Handler<RolloutParams>; POST: Handler<RolloutParams> };
let csrf: { token: string; cookie: string };
let cachedVersion: () => string | null;

const request = (method: string, headers: Record<string, string> = {}, body?: unknown) =>
  new Request(`${ORIGIN}${actionsPath}`, { method, headers: { host: "127.0.0.1:3000", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });

async function readRollout(): Promise<RolloutJson> {
  return JSON.parse(await cluster.kubectl(["get", "rollouts.argoproj.io", ROUTED, "-n", DEMO_NAMESPACE, "-o", "json"])) as RolloutJson;
}

async function canaryIngressWeight(): Promise<string | undefined> {
  const out = await cluster.kubectl(["get", "ingress", routedCanaryIngress, "-n", DEMO_NAMESPACE, "-o", "json"]);
  return (JSON.parse(out) as { metadata: { annotations?: Record<string, string> } }).metadata.annotations?.[CANARY_WEIGHT_ANNOTATION];
}

describe.skipIf(skipReason !== null)("real cluster: Argo Rollouts controller and traffic-router plugin", () => {
  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), "rollscope-realcluster-"));
    cluster = await startRealCluster({ workDir, demo: "once", log: (line) => console.log(`[real cluster] ${line}`) });
    process.env.DATABASE_URL = createMigratedDatabase();
    process.env.ROLLSCOPE_CONFIG = cluster.rollscopeConfigPath;
    actions = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
    const { getAppContext } = await import("@/lib/server/app-context");
    cachedVersion = () => getAppContext().fleet.cluster(CLUSTER_NAME)?.rollout(DEMO_NAMESPACE, ROUTED)?.resourceVersion ?? null;
    csrf = await openInProcessSession(ORIGIN);
  }, 60 * 60_000);

  afterAll(async () => {
    await stopInProcessApp();
    await cluster?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it("the routed canary reaches its first pause, the plugin having set the route to 20 %", async () => {
    await waitUntil(
      `${ROUTED} did not pause at step 1 with the canary Ingress at 20 %`,
      async () => {
        const r = await readRollout();
        return r.status?.currentStepIndex === 1 && (r.status.pauseConditions?.length ?? 0) > 0 && (await canaryIngressWeight()) === "20";
      },
      180_000,
    );
    expect((await readRollout()).status?.canary?.weights?.canary?.weight).toBe(20);
  }, 200_000);

  it("promote through Rollscope: the real controller advances and the plugin moves the route to 50 %", async () => {
    const rollout = await readRollout();
    await waitUntil("Rollscope's watch did not catch up with the cluster", async () => cachedVersion() === rollout.metadata.resourceVersion, 30_000);
    const viewRes = await actions.GET(request("GET"), { params: Promise.resolve(target) });
    expect(viewRes.status).toBe(200);
    const view = (await viewRes.json()) as RolloutActionsView;
    expect(view.actions.promote.enabled).toBe(true);

    const headers = { "content-type": "application/json", origin: ORIGIN, cookie: csrf.cookie, "x-csrf-token": csrf.token };
    const res = await actions.POST(request("POST", headers, { action: "promote", expected: view.expected }), { params: Promise.resolve(target) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as RolloutActionResult).requests.map((r) => r.kind)).toStrictEqual(["get", "patch"]);

    await waitUntil(
      `${ROUTED} did not move past step 1 with the canary Ingress at 50 %`,
      async () => ((await readRollout()).status?.currentStepIndex ?? 0) >= 2 && (await canaryIngressWeight()) === "50",
      60_000,
    );
    expect((await readRollout()).status?.canary?.weights?.canary?.weight).toBe(50);
  }, 120_000);

  it("Prometheus scrapes the real controller's metrics", async () => {
    const url = `${cluster.prometheusUrl}/api/v1/query?query=${encodeURIComponent(`rollout_info{name="${ROUTED}"}`)}`;
    await waitUntil("Prometheus has no rollout_info for the routed canary", async () => {
      const body = (await (await fetch(url)).json()) as { data: { result: unknown[] } };
      return body.data.result.length > 0;
    }, 30_000);
  }, 40_000);
});
