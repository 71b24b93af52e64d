import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { readRollout, startActionsSimulation, startCanary } from "@/test/harness/rollout-scenario";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutActionResult, RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { RolloutWorkload } from "@/lib/contracts/rollout-workload";
import type { SimulationHandle } from "@/sim/cluster";

/*
 * `GET …/replicasets` against the simulator: the Rollout's ReplicaSets per revision with roles and Pods, and the
 * numbers `kubectl argo rollouts get rollout` prints, read from the cluster on each request.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };

const ORIGIN = "http://127.0.0.1:3000";
let sim: SimulationHandle;
let route: { GET: Handler<RolloutParams> };
let actions: { GET: Handler<RolloutParams>; POST: Handler<RolloutParams> };
let audit: { GET: Handler<Record<string, never>> };
let csrf: { token: string; cookie: string };
let cachedVersion: (name: string) => string | null;

async function getWorkload(name: string): Promise<{ status: number; body: RolloutWorkload }> {
  const res = await route.GET(
    new Request(`${ORIGIN}/api/clusters/prod/rollouts/shop/${name}/replicasets`, { headers: { host: "127.0.0.1:3000" } }),
    {
      params: Promise.resolve({ cluster: "prod", namespace: "shop", name }),
    },
  );
  return { status: res.status, body: (await res.json()) as RolloutWorkload };
}

function readRolloutImage(): string | undefined {
  const ro = readRollout(sim, "prod", "shop", "catalog") as unknown as {
    spec: { template: { spec: { containers: Array<{ image: string }> } } };
  };
  return ro.spec.template.spec.containers[0]?.image;
}

async function waitForCache(name: string): Promise<void> {
  const simVersion = () => readRollout(sim, "prod", "shop", name).metadata.resourceVersion ?? null;
  for (let i = 0; i < 400 && cachedVersion(name) !== simVersion(); i++) await delay(50);
  expect(cachedVersion(name)).toBe(simVersion());
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }] });
  route = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/replicasets/route");
  actions = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  audit = await import("@/app/api/audit/route");
  const session = (await import("@/app/api/session/route")) as { GET: Handler<Record<string, never>> };
  const res = await session.GET(new Request(`${ORIGIN}/api/session`, { headers: { host: "127.0.0.1:3000" } }), {
    params: Promise.resolve({}),
  });
  csrf = { token: ((await res.json()) as { csrfToken: string }).csrfToken, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
  const { getAppContext } = await import("@/lib/server/app-context");
  cachedVersion = (name) => getAppContext().fleet.cluster("prod")?.rollout("shop", name)?.resourceVersion ?? null;
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("GET …/replicasets", () => {
  it("shows a paused canary's two revisions with roles, replica counts and pods, and the CLI's step and weights", async () => {
    await startCanary(sim, "prod", "catalog");
    await waitForCache("catalog");
    let workload: RolloutWorkload | null = null;
    // Pods become ready on the simulator's clock: wait for the canary's pod to be available.
    for (let i = 0; i < 300; i++) {
      const { status, body } = await getWorkload("catalog");
      expect(status).toBe(200);
      workload = body;
      if (body.info.replicaSets[0]?.available === 1) break;
      await delay(100);
    }
    const info = workload!.info;
    expect(info).toMatchObject({
      status: "Paused",
      message: "CanaryPauseStep",
      strategy: "Canary",
      step: "1/4",
      setWeight: 20,
      actualWeight: 20,
      revision: 2,
    });
    expect(info.replicaSets.map((rs) => ({ revision: rs.revision, roles: rs.roles, desired: rs.desired, pods: rs.pods.length }))).toEqual([
      { revision: 2, roles: ["canary"], desired: 1, pods: 1 },
      { revision: 1, roles: ["stable"], desired: 4, pods: 4 },
    ]);
    const pod = info.replicaSets[0].pods[0];
    expect(pod).toMatchObject({ status: "Running", ready: "1/1", restarts: 0 });
    expect(pod.node).toBeTruthy();
    expect(info.images.map((i) => i.tags)).toEqual(expect.arrayContaining([["canary"], ["stable"]]));
  }, 60_000);

  it("undo to revision 1 from the revisions table: upstream's requests, the old template back, and an audit entry", async () => {
    const params = { params: Promise.resolve({ cluster: "prod", namespace: "shop", name: "catalog" }) };
    const path = `${ORIGIN}/api/clusters/prod/rollouts/shop/catalog/actions`;
    await waitForCache("catalog");
    const view = (await (
      await actions.GET(new Request(path, { headers: { host: "127.0.0.1:3000" } }), params)
    ).json()) as RolloutActionsView;
    expect(view.actions.undo).toMatchObject({ enabled: true, permitted: true });
    expect(view.actions.undo.requests[2]).toMatch(/^PATCH rollouts\/catalog \(JSON Patch\) \[\{"op":"replace","path":"\/spec\/template"/);
    const headers = {
      host: "127.0.0.1:3000",
      "content-type": "application/json",
      origin: ORIGIN,
      cookie: csrf.cookie,
      "x-csrf-token": csrf.token,
    };
    const image = (await getWorkload("catalog")).body.info.replicaSets.find((rs) => rs.revision === 1)?.images[0];
    expect(image).toBeTruthy();
    expect(readRolloutImage()).not.toBe(image);
    const body = JSON.stringify({ action: "undo", expected: view.expected, toRevision: 1 });
    const res = await actions.POST(new Request(path, { method: "POST", headers, body }), params);
    expect(res.status).toBe(200);
    const result = (await res.json()) as RolloutActionResult;
    expect(result.requests.map((r) => r.kind)).toStrictEqual(["get", "list", "json-patch"]);

    for (let i = 0; i < 200 && readRolloutImage() !== image; i++) await delay(50);
    expect(readRolloutImage()).toBe(image);

    const auditRes = await audit.GET(
      new Request(`${ORIGIN}/api/audit?rollout=catalog&action=undo`, { headers: { host: "127.0.0.1:3000" } }),
      { params: Promise.resolve({}) },
    );
    const [entry] = ((await auditRes.json()) as AuditPage).entries;
    // The audit names the revision the template went back to and its image.
    expect(entry).toMatchObject({
      action: "undo",
      outcome: "done",
      rollout: "catalog",
      message: `pod template replaced (JSON Patch) to revision 1 (catalog=${image})`,
    });
  }, 60_000);

  it("answers 404 for a Rollout the cluster does not have", async () => {
    expect((await getWorkload("no-such-rollout")).status).toBe(404);
  });
});
