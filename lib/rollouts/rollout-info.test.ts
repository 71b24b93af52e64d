import { describe, expect, it } from "vitest";
import { deriveActualWeight, deriveCliStep, deriveRolloutInfo, toPodInfo } from "./rollout-info";
import { parseRollout, type RolloutResource } from "./schema";
import type { PodResource, ReplicaSetResource } from "./workload-schema";

/*
 * Ports of upstream's `pkg/kubectl-argo-rollouts/info/info_test.go` (v1.9.1) cases, on objects built here in the
 * shape of its testdata: a canary at step 1/3 with a stable, a canary and an old ReplicaSet; a blue-green with
 * active, preview and old ReplicaSets; ping-pong; an aborted and an invalid Rollout.
 */

const UID = "ro-uid";
const STEPS = [{ setWeight: 10 }, { pause: {} }, { setWeight: 50 }];

function rollout(spec: Record<string, unknown>, status: Record<string, unknown>, extra: Record<string, unknown> = {}): RolloutResource {
  const parsed = parseRollout({
    metadata: { name: "demo", namespace: "ns", uid: UID, generation: 1, ...extra },
    spec,
    status: { observedGeneration: "1", ...status },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rollout;
}

function rs(
  hash: string,
  revision: number,
  image: string,
  counts: { desired: number; available: number; replicas?: number },
): ReplicaSetResource {
  return {
    metadata: {
      name: `demo-${hash}`,
      uid: `rs-${hash}`,
      generation: 1,
      annotations: { "rollout.argoproj.io/revision": String(revision) },
      labels: { "rollouts-pod-template-hash": hash },
      ownerReferences: [{ uid: UID, kind: "Rollout", name: "demo" }],
    },
    spec: { replicas: counts.desired, template: { spec: { containers: [{ name: "app", image }] } } },
    status: {
      replicas: counts.replicas ?? counts.desired,
      readyReplicas: counts.available,
      availableReplicas: counts.available,
      observedGeneration: 1,
    },
  };
}

function pod(hash: string, i: number, status: PodResource["status"], extra: Partial<PodResource["metadata"]> = {}): PodResource {
  return {
    metadata: {
      name: `demo-${hash}-${i}`,
      creationTimestamp: `2026-01-01T00:00:0${i}Z`,
      ownerReferences: [{ uid: `rs-${hash}` }],
      ...extra,
    },
    spec: { nodeName: "node-1", containers: [{ name: "app" }] },
    status,
  };
}

const running = { phase: "Running", containerStatuses: [{ name: "app", ready: true, restartCount: 2, state: { running: {} } }] };

const canaryReplicaSets = [
  rs("stable1", 2, "argoproj/rollouts-demo:green", { desired: 4, available: 4 }),
  rs("canary1", 3, "argoproj/rollouts-demo:does-not-exist", { desired: 1, available: 1 }),
  rs("old0001", 1, "argoproj/rollouts-demo:blue", { desired: 0, available: 0, replicas: 0 }),
];
const canaryStatus = {
  currentStepIndex: 1,
  stableRS: "stable1",
  currentPodHash: "canary1",
  availableReplicas: 5,
  phase: "Paused",
  message: "CanaryPauseStep",
};

describe("deriveRolloutInfo: canary (TestCanaryRolloutInfo)", () => {
  const info = deriveRolloutInfo(rollout({ replicas: 5, strategy: { canary: { steps: STEPS } } }, canaryStatus), canaryReplicaSets, [
    pod("canary1", 1, running),
  ]);

  it("prints status, step and set weight as the CLI does", () => {
    expect(info).toMatchObject({
      status: "Paused",
      message: "CanaryPauseStep",
      strategy: "Canary",
      step: "1/3",
      setWeight: 10,
      revision: 3,
    });
  });

  it("lists revisions newest first and tags images of ReplicaSets with replicas by role", () => {
    expect(info.replicaSets.map((r) => [r.revision, r.roles])).toEqual([
      [3, ["canary"]],
      [2, ["stable"]],
      [1, []],
    ]);
    expect(info.images).toEqual([
      { image: "argoproj/rollouts-demo:does-not-exist", tags: ["canary"] },
      { image: "argoproj/rollouts-demo:green", tags: ["stable"] },
    ]);
  });

  it("without traffic routing the actual weight is the canary's share of available pods (1 × 100 ÷ 5)", () => {
    expect(info.actualWeight).toBe(20);
  });

  it("attaches pods to their ReplicaSet with ready, restarts and node", () => {
    expect(info.replicaSets[0].pods).toEqual([
      { name: "demo-canary1-1", status: "Running", ready: "1/1", restarts: 2, createdAt: "2026-01-01T00:00:01Z", node: "node-1" },
    ]);
  });

  it("ignores ReplicaSets another owner controls", () => {
    const foreign = {
      ...rs("other01", 9, "x", { desired: 1, available: 1 }),
      metadata: { ...rs("other01", 9, "x", { desired: 1, available: 1 }).metadata, ownerReferences: [{ uid: "someone-else" }] },
    };
    expect(deriveRolloutInfo(rollout({ strategy: { canary: { steps: STEPS } } }, canaryStatus), [foreign], []).replicaSets).toEqual([]);
  });
});

describe("deriveActualWeight (TestCanaryRolloutInfoWeights and the other cases)", () => {
  const routed = (status: Record<string, unknown>) =>
    rollout(
      { strategy: { canary: { steps: STEPS, trafficRouting: { plugins: { "argoproj/sample-nginx": {} } } } } },
      { ...canaryStatus, ...status },
    );

  it("with traffic routing takes status.canary.weights.canary.weight", () => {
    expect(deriveActualWeight(routed({ canary: { weights: { canary: { weight: 7 }, stable: { weight: 93 } } } }), null)).toBe(7);
  });

  it("with traffic routing but no weights in status falls back to the set weight", () => {
    expect(deriveActualWeight(routed({}), null)).toBe(10);
  });

  it("is the maximum when there is no current step (all steps done), in maxTrafficWeight units", () => {
    const done = rollout(
      { strategy: { canary: { steps: STEPS, trafficRouting: { maxTrafficWeight: 1000, plugins: {} } } } },
      { ...canaryStatus, currentStepIndex: 3 },
    );
    expect(deriveActualWeight(done, null)).toBe(1000);
  });

  it("is 0 while no pod is available", () => {
    expect(
      deriveActualWeight(routed({ availableReplicas: 0, canary: { weights: { canary: { weight: 7 }, stable: { weight: 93 } } } }), null),
    ).toBe(0);
  });

  it("without traffic routing needs the ReplicaSets (null without them) and truncates like Go (1 × 100 ÷ 3 = 33)", () => {
    const basic = rollout({ strategy: { canary: { steps: STEPS } } }, { ...canaryStatus, availableReplicas: 3 });
    expect(deriveActualWeight(basic, null)).toBeNull();
    expect(deriveRolloutInfo(basic, canaryReplicaSets, []).actualWeight).toBe(33);
  });

  it("is null for blue-green", () => {
    expect(deriveActualWeight(rollout({ strategy: { blueGreen: { activeService: "a" } } }, {}), null)).toBeNull();
  });
});

describe("deriveCliStep", () => {
  it("is empty before the controller set currentStepIndex and for Rollouts without steps", () => {
    expect(deriveCliStep(rollout({ strategy: { canary: { steps: STEPS } } }, {}))).toBe("");
    expect(deriveCliStep(rollout({ strategy: { canary: {} } }, { currentStepIndex: 0 }))).toBe("");
  });
  it("is the raw index over the step count, so 3/3 once complete", () => {
    expect(deriveCliStep(rollout({ strategy: { canary: { steps: STEPS } } }, { currentStepIndex: 3 }))).toBe("3/3");
  });
});

describe("ping-pong (TestPingPongCanaryRolloutInfo)", () => {
  it("tags the canary ping and the stable pong when the stable is pong", () => {
    const ro = rollout(
      { strategy: { canary: { steps: STEPS, pingPong: { pingService: "ping", pongService: "pong" }, trafficRouting: { plugins: {} } } } },
      { ...canaryStatus, canary: { stablePingPong: "pong" } },
    );
    expect(deriveRolloutInfo(ro, canaryReplicaSets, []).images).toEqual([
      { image: "argoproj/rollouts-demo:does-not-exist", tags: ["canary", "ping"] },
      { image: "argoproj/rollouts-demo:green", tags: ["stable", "pong"] },
    ]);
  });
});

describe("blue-green (TestBlueGreenRolloutInfo)", () => {
  const ro = rollout(
    { strategy: { blueGreen: { activeService: "active", previewService: "preview" } } },
    {
      stableRS: "blue001",
      blueGreen: { activeSelector: "blue001", previewSelector: "green01" },
      phase: "Paused",
      message: "BlueGreenPause",
    },
  );
  const info = deriveRolloutInfo(
    ro,
    [
      rs("blue001", 10, "argoproj/rollouts-demo:blue", { desired: 3, available: 3 }),
      rs("green01", 11, "argoproj/rollouts-demo:green", { desired: 3, available: 3 }),
      rs("old0001", 8, "argoproj/rollouts-demo:red", { desired: 0, available: 0, replicas: 0 }),
    ],
    [],
  );

  it("has no step or weights and tags active, preview and stable", () => {
    expect(info).toMatchObject({ strategy: "BlueGreen", step: "", setWeight: null, actualWeight: null, revision: 11 });
    expect(info.replicaSets.map((r) => [r.revision, r.roles, r.status])).toEqual([
      [11, ["preview"], "Healthy"],
      [10, ["stable", "active"], "Healthy"],
      [8, [], "ScaledDown"],
    ]);
    expect(info.images).toEqual([
      { image: "argoproj/rollouts-demo:blue", tags: ["stable", "active"] },
      { image: "argoproj/rollouts-demo:green", tags: ["preview"] },
    ]);
  });
});

describe("status and message (TestRolloutAborted, TestRolloutStatusInvalidSpec)", () => {
  it("an aborted Rollout is Degraded with the controller's message and sets weight 0", () => {
    const ro = rollout(
      { strategy: { canary: { steps: STEPS } } },
      {
        ...canaryStatus,
        abort: true,
        phase: "Degraded",
        message: 'RolloutAborted: metric "web" assessed Failed due to failed (1) > failureLimit (0)',
      },
    );
    expect(deriveRolloutInfo(ro, [], [])).toMatchObject({
      status: "Degraded",
      message: 'RolloutAborted: metric "web" assessed Failed due to failed (1) > failureLimit (0)',
      setWeight: 0,
    });
  });
  it("a spec the controller has not observed yet is Progressing, waiting for it", () => {
    const ro = rollout({ strategy: { canary: { steps: STEPS } } }, { ...canaryStatus }, { generation: 2 });
    expect(deriveRolloutInfo(ro, [], [])).toMatchObject({
      status: "Progressing",
      message: "waiting for rollout spec update to be observed",
    });
  });
});

describe("deriveImages (Images, mergeImageAndTags)", () => {
  it("merges an image two ReplicaSets run: tags united and sorted", () => {
    const ro = rollout({ strategy: { canary: { steps: STEPS } } }, canaryStatus);
    const same = [rs("stable1", 2, "same:v1", { desired: 4, available: 4 }), rs("canary1", 3, "same:v1", { desired: 1, available: 1 })];
    expect(deriveRolloutInfo(ro, same, []).images).toEqual([{ image: "same:v1", tags: ["canary", "stable"] }]);
  });
});

describe("toPodInfo (pod_info.go)", () => {
  const base = { metadata: { name: "p" }, spec: { containers: [{ name: "a" }, { name: "b" }] } };
  it.each([
    [
      "a waiting container's reason",
      {
        phase: "Running",
        containerStatuses: [
          { ready: false, state: { waiting: { reason: "CrashLoopBackOff" } }, restartCount: 4 },
          { ready: true, state: { running: {} } },
        ],
      },
      "CrashLoopBackOff",
      "1/2",
      4,
    ],
    ["an init container still running", { phase: "Pending", initContainerStatuses: [{ state: { running: {} } }] }, "Init:0/0", "0/2", 0],
    [
      "a terminated container without reason",
      { phase: "Running", containerStatuses: [{ state: { terminated: { exitCode: 3 } } }] },
      "ExitCode:3",
      "0/2",
      0,
    ],
  ])("shows %s", (_label, status, expected, ready, restarts) => {
    expect(toPodInfo({ ...base, status } as PodResource)).toMatchObject({ status: expected, ready, restarts });
  });
  it("a pod being deleted is Terminating", () => {
    expect(
      toPodInfo({ ...base, metadata: { name: "p", deletionTimestamp: "2026-01-01T00:00:00Z" }, status: running } as PodResource).status,
    ).toBe("Terminating");
  });
});
