import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { httpCall, startRouteBridge, type CallOptions, type RouteBridge } from "@/test/harness/route-bridge";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { readRollout, startActionsSimulation, startCanary } from "@/test/harness/rollout-scenario";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { SessionView } from "@/lib/contracts/session";
import { waitFor } from "@/test/harness/free-port";

/*
 * Issue 12, "Also": a user's groups come from the identity provider or the auth proxy, and whoever controls those
 * could claim `system:masters`, which the API server lets do anything. Impersonation never passes it, nor any group
 * in authorization.privilegedGroups. Mode proxy over real HTTP against the simulator's RBAC, where system:masters is
 * the superuser group and sre-operators may act on Rollouts.
 */

const PROXY = "127.0.0.2";
let sim: SimulationHandle;
let bridge: RouteBridge;

const as = (user: string, groups: string) => ({ "x-forwarded-user": user, "x-forwarded-groups": groups });
const call = (method: string, path: string, options: CallOptions = {}) =>
  httpCall(`${bridge.url}${path}`, { method, from: PROXY, ...options });
const actionsPath = "/api/clusters/prod/rollouts/shop/checkout/actions";

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod" }],
    auth: { mode: "proxy", proxy: { trustedProxies: [`${PROXY}/32`] } },
    authorization: { privilegedGroups: ["sre-operators"] },
  });
  const actionsRoute = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  bridge = await startRouteBridge();
  bridge.add([
    { path: "/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions", module: actionsRoute },
    { path: "/api/session", module: await import("@/app/api/session/route") },
  ]);
  const { metadata } = await startCanary(sim, "prod", "checkout");
  await waitFor("the fleet to see the canary", async () => {
    const reply = await call("GET", actionsPath, { headers: as("eve", "viewers") });
    return reply.status === 200 && reply.json<RolloutActionsView>().expected.resourceVersion === metadata.resourceVersion;
  });
});

afterAll(async () => {
  await bridge?.stop();
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

async function tryPause(headers: Record<string, string>) {
  const options = await call("GET", actionsPath, { headers });
  // A user who may not even read the Rollout gets no options (404); the attempt is made with the state anyone sees.
  const expected =
    options.status === 200
      ? options.json<RolloutActionsView>().expected
      : { resourceVersion: readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion };
  const session = await call("GET", "/api/session", { headers });
  const browser = {
    cookie: String(session.headers["set-cookie"]?.[0] ?? "").split(";")[0],
    "x-csrf-token": session.json<SessionView>().csrfToken,
    origin: bridge.url,
  };
  const reply = await call("POST", actionsPath, { headers: { ...headers, ...browser }, body: { action: "pause", expected } });
  return { options, reply };
}

describe("impersonation never passes privileged groups", () => {
  it.each([
    ["system:masters", "always"],
    ["sre-operators", "listed in authorization.privilegedGroups"],
  ])("a user claiming %s (%s) gets no rights from it: not even to see the Rollout", async (group) => {
    const before = readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion;
    const { options, reply } = await tryPause(as("eve", group));
    expect(options.status).toBe(404);
    expect(reply.status).toBe(404);
    expect(readRollout(sim, "prod", "shop", "checkout").metadata.resourceVersion).toBe(before);
  });

  it("keeps the user's other groups, and says which ones the cluster judged", async () => {
    const { options, reply } = await tryPause(as("eve", "system:masters, viewers"));
    expect(reply.status).toBe(403);
    expect(options.json<RolloutActionsView>().actions.pause.reason).toBe(
      "Your Kubernetes permissions (eve, groups viewers) do not allow patch rollouts in namespace shop",
    );
  });
});
