import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { readRollout, startActionsSimulation, startCanary } from "@/test/harness/rollout-scenario";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { AuditPage } from "@/lib/audit/schema";
import type { SessionView } from "@/lib/contracts/session";

/* `readOnly: true` (argoproj/argo-rollouts#2391): no action is offered and the server refuses every one. */

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

let sim: SimulationHandle;
const params = { cluster: "prod", namespace: "shop", name: "checkout" };
const url = "http://127.0.0.1:3000/api/clusters/prod/rollouts/shop/checkout/actions";

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }], readOnly: true });
  await startCanary(sim, "prod", "checkout");
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("read-only mode", () => {
  it("offers nothing and refuses a direct POST, which is audited as denied", async () => {
    const actions = (await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route")) as unknown as Record<
      string,
      Handler
    >;
    const session = (await import("@/app/api/session/route")) as unknown as Record<string, Handler>;
    const audit = (await import("@/app/api/audit/route")) as unknown as Record<string, Handler>;
    const { getAppContext } = await import("@/lib/server/app-context");
    for (let i = 0; i < 100 && !getAppContext().fleet.cluster("prod")?.rollout("shop", "checkout"); i++)
      await new Promise((r) => setTimeout(r, 50));

    const sessionRes = await session.GET(new Request("http://127.0.0.1:3000/api/session", { headers: { host: "127.0.0.1:3000" } }), {
      params: Promise.resolve({}),
    });
    const { csrfToken, readOnly } = (await sessionRes.json()) as SessionView;
    expect(readOnly).toBe(true);
    const cookie = (sessionRes.headers.get("set-cookie") ?? "").split(";")[0];

    const viewRes = await actions.GET(new Request(url, { headers: { host: "127.0.0.1:3000" } }), { params: Promise.resolve(params) });
    const view = (await viewRes.json()) as RolloutActionsView;
    expect(view.readOnly).toBe(true);
    expect(
      Object.values(view.actions).every((a) => !a.enabled && a.reason === "Rollscope is in read-only mode: actions are disabled"),
    ).toBe(true);

    const before = readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion;
    const post = await actions.POST(
      new Request(url, {
        method: "POST",
        headers: {
          host: "127.0.0.1:3000",
          origin: "http://127.0.0.1:3000",
          cookie,
          "x-csrf-token": csrfToken,
          "content-type": "application/json",
        },
        body: JSON.stringify({ action: "promote", expected: view.expected }),
      }),
      { params: Promise.resolve(params) },
    );
    expect(post.status).toBe(403);
    expect(readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion).toBe(before);
    const page = (await (
      await audit.GET(new Request("http://127.0.0.1:3000/api/audit", { headers: { host: "127.0.0.1:3000" } }), {
        params: Promise.resolve({}),
      })
    ).json()) as AuditPage;
    expect(page.entries[0]).toMatchObject({
      action: "promote",
      outcome: "denied",
      message: "Rollscope is in read-only mode: actions are disabled",
    });
  });
});
