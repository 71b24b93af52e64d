import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { startActionsSimulation, startCanary } from "@/test/harness/rollout-scenario";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import type { RolloutActionsBatch, RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { SimulationHandle } from "@/sim/cluster";

/* `GET /api/rollouts/actions?key=…`: the queue's cards' buttons in one answer, each as its own endpoint gives it. */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };

const ORIGIN = "http://127.0.0.1:3000";
const headers = { host: "127.0.0.1:3000" };
let sim: SimulationHandle;
let batch: { GET: Handler<Record<string, never>> };
let single: { GET: Handler<RolloutParams> };

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }] });
  batch = await import("@/app/api/rollouts/actions/route");
  single = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("GET /api/rollouts/actions", () => {
  it("answers every card's buttons in one response, and says which Rollout could not be read", async () => {
    await startCanary(sim, "prod", "orders");
    const { getAppContext } = await import("@/lib/server/app-context");
    const seen = () => getAppContext().fleet.cluster("prod")?.rollout("shop", "orders")?.phase === "Paused";
    for (let i = 0; i < 200 && !seen(); i++) await new Promise((r) => setTimeout(r, 50));
    const keys = ["prod/shop/orders", "prod/shop/ledger", "prod/shop/no-such-rollout"];
    const res = await batch.GET(
      new Request(`${ORIGIN}/api/rollouts/actions?${keys.map((k) => `key=${encodeURIComponent(k)}`).join("&")}`, { headers }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as RolloutActionsBatch;
    expect(Object.keys(body.views).sort(), JSON.stringify(body.errors)).toEqual(["prod/shop/ledger", "prod/shop/orders"]);
    expect(body.errors).toEqual({ "prod/shop/no-such-rollout": { code: "not_found", message: expect.any(String) } });
    // The same as each Rollout's own endpoint says.
    const own = (await (
      await single.GET(new Request(`${ORIGIN}/api/clusters/prod/rollouts/shop/orders/actions`, { headers }), {
        params: Promise.resolve({ cluster: "prod", namespace: "shop", name: "orders" }),
      })
    ).json()) as RolloutActionsView;
    expect(body.views["prod/shop/orders"].actions.promote).toEqual(own.actions.promote);
    expect(body.views["prod/shop/orders"].actions.promote.enabled).toBe(true);
  });

  it("refuses an empty or oversized batch", async () => {
    const ask = (query: string) =>
      batch.GET(new Request(`${ORIGIN}/api/rollouts/actions${query}`, { headers }), { params: Promise.resolve({}) });
    expect((await ask("")).status).toBe(400);
    expect((await ask(`?${Array.from({ length: 40 }, (_, i) => `key=prod/shop/r${i}`).join("&")}`)).status).toBe(400);
  });
});
