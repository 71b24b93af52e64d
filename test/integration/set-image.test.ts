import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { readRollout, startActionsSimulation, waitForRollout } from "@/test/harness/rollout-scenario";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutActionResult, RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { SimulationHandle } from "@/sim/cluster";

/*
 * Set image against the simulator: `kubectl argo rollouts set image`'s requests (GET, then an Update of the whole
 * Rollout with the image replaced), the controller starting a new revision, and an audit entry that says what changed.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };

const ORIGIN = "http://127.0.0.1:3000";
const params = { params: Promise.resolve({ cluster: "prod", namespace: "shop", name: "search" }) };
const path = `${ORIGIN}/api/clusters/prod/rollouts/shop/search/actions`;
let sim: SimulationHandle;
let actions: { GET: Handler<RolloutParams>; POST: Handler<RolloutParams> };
let audit: { GET: Handler<Record<string, never>> };
let headers: Record<string, string>;

function templateImage(): string | undefined {
  const ro = readRollout(sim, "prod", "shop", "search") as unknown as {
    spec: { template: { spec: { containers: Array<{ image: string }> } } };
  };
  return ro.spec.template.spec.containers[0]?.image;
}

async function view(): Promise<RolloutActionsView> {
  const { getAppContext } = await import("@/lib/server/app-context");
  const simVersion = readRollout(sim, "prod", "shop", "search").metadata.resourceVersion;
  for (let i = 0; i < 400 && getAppContext().fleet.cluster("prod")?.rollout("shop", "search")?.resourceVersion !== simVersion; i++)
    await delay(50);
  return (await (await actions.GET(new Request(path, { headers: { host: "127.0.0.1:3000" } }), params)).json()) as RolloutActionsView;
}

async function post(body: unknown): Promise<Response> {
  return actions.POST(new Request(path, { method: "POST", headers, body: JSON.stringify(body) }), params);
}

async function auditEntries(): Promise<AuditPage["entries"]> {
  const res = await audit.GET(new Request(`${ORIGIN}/api/audit?rollout=search&action=set-image`, { headers: { host: "127.0.0.1:3000" } }), {
    params: Promise.resolve({}),
  });
  return ((await res.json()) as AuditPage).entries;
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }] });
  actions = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  audit = await import("@/app/api/audit/route");
  const session = (await import("@/app/api/session/route")) as { GET: Handler<Record<string, never>> };
  const res = await session.GET(new Request(`${ORIGIN}/api/session`, { headers: { host: "127.0.0.1:3000" } }), {
    params: Promise.resolve({}),
  });
  const csrf = {
    token: ((await res.json()) as { csrfToken: string }).csrfToken,
    cookie: (res.headers.get("set-cookie") ?? "").split(";")[0],
  };
  headers = { host: "127.0.0.1:3000", "content-type": "application/json", origin: ORIGIN, cookie: csrf.cookie, "x-csrf-token": csrf.token };
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("set image", () => {
  it("offers the template's containers and says what it will send", async () => {
    await waitForRollout(sim, "prod", "shop", "search", "Healthy", (r) => r.status?.phase === "Healthy");
    const current = await view();
    expect(current.containers).toEqual([{ name: "search", image: templateImage() }]);
    expect(current.actions["set-image"]).toMatchObject({ enabled: true, permitted: true });
    expect(current.actions["set-image"].requests).toEqual([
      "GET rollouts/search",
      "PUT rollouts/search (the Rollout as read, with the container's image replaced; again on 409, up to 5 times)",
    ]);
  });

  it("sends GET then an Update with the new image; the controller starts a new revision; the audit says what changed", async () => {
    const before = templateImage();
    const revisionBefore = readRollout(sim, "prod", "shop", "search").metadata.annotations?.["rollout.argoproj.io/revision"];
    const res = await post({
      action: "set-image",
      expected: (await view()).expected,
      container: "search",
      image: "example.com/search:9.9.9",
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as RolloutActionResult;
    expect(result.requests).toEqual([{ kind: "get" }, { kind: "put", target: "main", attempt: 1, outcome: "ok" }]);
    expect(result.message).toBe(`image search: ${before} → example.com/search:9.9.9 (Update)`);
    expect(templateImage()).toBe("example.com/search:9.9.9");
    await waitForRollout(
      sim,
      "prod",
      "shop",
      "search",
      "on a new revision",
      (r) => r.metadata.annotations?.["rollout.argoproj.io/revision"] !== revisionBefore,
    );
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({ action: "set-image", outcome: "done", message: result.message });
  }, 60_000);

  it("refuses a container the template does not have with upstream's message, audited as a conflict", async () => {
    // The new revision of the test before is still moving through its steps: a request the controller overtook is
    // refused as stale ("the rollout changed — review and retry"), and is sent again on a fresh view, as a person would.
    let message = "";
    for (let attempt = 0; attempt < 20; attempt++) {
      const res = await post({ action: "set-image", expected: (await view()).expected, container: "sidecar", image: "nginx" });
      expect(res.status).toBe(409);
      message = ((await res.json()) as { error: { message: string } }).error.message;
      if (!message.startsWith("the rollout changed")) break;
    }
    expect(message).toBe('unable to find container named "sidecar"');
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({ action: "set-image", outcome: "conflict", message: 'unable to find container named "sidecar"' });
  });

  it("refuses a request without an image before reading the cluster", async () => {
    expect((await post({ action: "set-image", expected: (await view()).expected, container: "search" })).status).toBe(400);
  });
});
