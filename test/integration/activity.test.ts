import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation, startCanary, waitForRollout } from "@/test/harness/rollout-scenario";
import type { ActivityItem, ActivityPage } from "@/lib/contracts/activity";
import type { SimulationHandle } from "@/sim/cluster";

/*
 * `GET /api/activity` against the simulator with the recorder running: a change made outside Rollscope (the CLI's
 * abort, sent as `kubectl argo rollouts abort` sends it) shows with who made it, from the Rollout's managedFields.
 */

type Handler = (request: Request, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;

const ORIGIN = "http://127.0.0.1:3000";
/** The user agent client-go sends for the CLI; the API server names the field manager after its first part. */
const CLI_USER_AGENT = "kubectl-argo-rollouts/v1.9.1 (linux/amd64) argoproj/argo-rollouts";
let sim: SimulationHandle;
let activity: { GET: Handler };
let exported: { GET: Handler };

async function read(path: string, route: { GET: Handler } = activity): Promise<Response> {
  return route.GET(new Request(`${ORIGIN}${path}`, { headers: { host: "127.0.0.1:3000" } }), { params: Promise.resolve({}) });
}

async function waitForItem(path: string, what: string, predicate: (item: ActivityItem) => boolean): Promise<ActivityItem> {
  const { getAppContext } = await import("@/lib/server/app-context");
  let last: ActivityPage | null = null;
  for (let i = 0; i < 300; i++) {
    await getAppContext().recorder.flush();
    const res = await read(path);
    expect(res.status).toBe(200);
    last = (await res.json()) as ActivityPage;
    const found = last.items.find(predicate);
    if (found) return found;
    await delay(100);
  }
  throw new Error(`no ${what} in ${JSON.stringify(last?.items.slice(0, 10))}`);
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }] });
  activity = await import("@/app/api/activity/route");
  exported = await import("@/app/api/activity/export/route");
  const { getAppContext } = await import("@/lib/server/app-context");
  const app = getAppContext();
  await app.recorder.start(app.fleet);
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().recorder.stop();
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("GET /api/activity", () => {
  it("shows an abort made with the CLI in the last 15 minutes, by kubectl-argo-rollouts", async () => {
    await startCanary(sim, "prod", "checkout");
    const res = await fetch(`${sim.cluster("prod").url}/apis/argoproj.io/v1alpha1/namespaces/shop/rollouts/checkout/status`, {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${sim.users.admin.token}`,
        "content-type": "application/merge-patch+json",
        "user-agent": CLI_USER_AGENT,
      },
      body: JSON.stringify({ status: { abort: true } }),
    });
    expect(res.status).toBe(200);
    await waitForRollout(sim, "prod", "shop", "checkout", "Degraded", (r) => r.status?.phase === "Degraded");

    const abort = await waitForItem("/api/activity?window=15m", "abort of checkout", (i) => i.rollout === "checkout" && i.kind === "abort");
    expect(abort).toMatchObject({ cluster: "prod", namespace: "shop", actor: { name: "kubectl-argo-rollouts", via: "field-manager" } });
    // The new revision that started the canary is there too, and the controller's step advance with its Event.
    const page = (await (await read("/api/activity?window=15m&cluster=prod&namespace=shop")).json()) as ActivityPage;
    const kinds = new Set(page.items.filter((i) => i.rollout === "checkout").map((i) => i.kind));
    expect(kinds).toEqual(expect.objectContaining(new Set(["abort", "update"])));
    expect(page.items.map((i) => i.at)).toEqual([...page.items.map((i) => i.at)].sort().reverse());

    // Filters: the kind of change, and a namespace with nothing in it.
    const aborts = (await (await read("/api/activity?window=15m&kind=abort")).json()) as ActivityPage;
    expect(aborts.items.length).toBeGreaterThan(0);
    expect(aborts.items.every((i) => i.kind === "abort")).toBe(true);
    const none = (await (await read("/api/activity?window=15m&namespace=elsewhere")).json()) as ActivityPage;
    expect(none.items).toEqual([]);

    // The CSV carries the same rows and the actor.
    const csv = await (await read("/api/activity/export?window=15m&kind=abort", exported)).text();
    expect(csv.split("\r\n")[0]).toBe("at,cluster,namespace,rollout,kind,summary,actor,actorVia,detail");
    expect(csv).toMatch(/prod,shop,checkout,abort,aborted,kubectl-argo-rollouts,field-manager/);
  }, 90_000);

  it("refuses an unknown window", async () => {
    expect((await read("/api/activity?window=2d")).status).toBe(400);
  });
});
