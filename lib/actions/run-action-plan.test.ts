import { describe, expect, it } from "vitest";
import type { ActionRolloutState } from "./action-rollout-state";
import { planActionRequests } from "./plan";
import { runActionPlan, type ActionPlanClient, type WirePatch } from "./run-action-plan";

class NotFoundError extends Error {}

/** A fake at the client boundary: records calls; `/status` can answer 404 like a CRD without the subresource. */
function fakeClient(rollout: ActionRolloutState, options: { statusNotFound?: boolean; failWith?: Error } = {}) {
  const calls: (["get"] | ["patch", WirePatch])[] = [];
  const client: ActionPlanClient = {
    async getRollout() {
      calls.push(["get"]);
      return rollout;
    },
    async patchRollout(patch) {
      calls.push(["patch", patch]);
      if (options.failWith) throw options.failWith;
      if (options.statusNotFound && patch.target === "status") throw new NotFoundError("the server could not find");
    },
    isNotFound: (error) => error instanceof NotFoundError,
  };
  return { client, calls };
}

const NOW = new Date("2026-11-30T01:02:03Z");
const stale: ActionRolloutState = {};
const pausedAtStep: ActionRolloutState = {
  spec: { paused: true, strategy: { canary: { steps: [{ setWeight: 30 }, { pause: {} }, { setWeight: 60 }] } } },
  status: { currentStepIndex: 1, controllerPause: true, pauseConditions: [{ reason: "CanaryPauseStep" }] },
};

describe("runActionPlan", () => {
  it("promote: GET, /status patch, then spec patch", async () => {
    const { client, calls } = fakeClient(pausedAtStep);
    const sent = await runActionPlan(planActionRequests("promote", stale, NOW), client);
    expect(calls).toStrictEqual([
      ["get"],
      ["patch", { target: "status", patchType: "merge", body: { status: { pauseConditions: null } } }],
      ["patch", { target: "main", patchType: "merge", body: { spec: { paused: false } } }],
    ]);
    expect(sent.map((r) => (r.kind === "get" ? "get" : `${r.target}:${r.outcome}`))).toStrictEqual(["get", "status:ok", "main:ok"]);
  });

  it("promote: a 404 on /status sends the unified patch instead of the spec patch", async () => {
    const { client, calls } = fakeClient(pausedAtStep, { statusNotFound: true });
    const sent = await runActionPlan(planActionRequests("promote", stale, NOW), client);
    expect(calls).toStrictEqual([
      ["get"],
      ["patch", { target: "status", patchType: "merge", body: { status: { pauseConditions: null } } }],
      ["patch", { target: "main", patchType: "merge", body: { spec: { paused: false }, status: { pauseConditions: null } } }],
    ]);
    expect(sent.map((r) => (r.kind === "get" ? "get" : `${r.target}:${r.outcome}`))).toStrictEqual(["get", "status:not-found", "main:ok"]);
  });

  it("promote case C: a 404 on /status sends the unified patch with the step index", async () => {
    const analysing: ActionRolloutState = {
      spec: { ...pausedAtStep.spec, paused: false },
      status: { currentStepIndex: 0 },
    };
    const { client, calls } = fakeClient(analysing, { statusNotFound: true });
    await runActionPlan(planActionRequests("promote", stale, NOW), client);
    expect(calls.at(-1)).toStrictEqual([
      "patch",
      {
        target: "main",
        patchType: "merge",
        body: { spec: { paused: false }, status: { pauseConditions: null, currentStepIndex: 1 } },
      },
    ]);
  });

  it("promote-full: a 404 on /status sends the unified promoteFull patch", async () => {
    const ro: ActionRolloutState = { ...pausedAtStep, status: { currentPodHash: "b", stableRS: "a" } };
    const { client, calls } = fakeClient(ro, { statusNotFound: true });
    await runActionPlan(planActionRequests("promote-full", stale, NOW), client);
    expect(calls).toStrictEqual([
      ["get"],
      ["patch", { target: "status", patchType: "merge", body: { status: { promoteFull: true } } }],
      ["patch", { target: "main", patchType: "merge", body: { spec: { paused: false }, status: { promoteFull: true } } }],
    ]);
  });

  it("promote with nothing to patch only GETs", async () => {
    const healthyBlueGreen: ActionRolloutState = { spec: { strategy: { blueGreen: {} } }, status: {} };
    const { client, calls } = fakeClient(healthyBlueGreen);
    expect(await runActionPlan(planActionRequests("promote", stale, NOW), client)).toStrictEqual([{ kind: "get" }]);
    expect(calls).toStrictEqual([["get"]]);
  });

  it("abort: a 404 on /status retries the same body on main", async () => {
    const { client, calls } = fakeClient(stale, { statusNotFound: true });
    await runActionPlan(planActionRequests("abort", stale, NOW), client);
    expect(calls).toStrictEqual([
      ["patch", { target: "status", patchType: "merge", body: { status: { abort: true } } }],
      ["patch", { target: "main", patchType: "merge", body: { status: { abort: true } } }],
    ]);
  });

  it("retry: a 404 on /status retries the same body on main", async () => {
    const { client, calls } = fakeClient(stale, { statusNotFound: true });
    await runActionPlan(planActionRequests("retry", stale, NOW), client);
    expect(calls).toStrictEqual([
      ["patch", { target: "status", patchType: "merge", body: { status: { abort: false } } }],
      ["patch", { target: "main", patchType: "merge", body: { status: { abort: false } } }],
    ]);
  });

  it("rethrows errors other than NotFound without a fallback", async () => {
    const forbidden = new Error("forbidden");
    const { client, calls } = fakeClient(stale, { failWith: forbidden });
    await expect(runActionPlan(planActionRequests("abort", stale, NOW), client)).rejects.toBe(forbidden);
    expect(calls).toHaveLength(1);
  });

  it("rethrows a 404 on a patch without a fallback (pause on a deleted Rollout)", async () => {
    const gone = new NotFoundError('rollouts.argoproj.io "x" not found');
    const { client } = fakeClient(stale, { failWith: gone });
    await expect(runActionPlan(planActionRequests("pause", stale, NOW), client)).rejects.toBe(gone);
  });
});
