import { promote, setImage, simpleAction, undo } from "./actions";
import { image, ingress, rollout, routedCanary, service, webAnalysisTemplate } from "./manifests";
import type { Scenario, ScenarioContext } from "./runner";
import type { RolloutJson } from "./snapshot";

/** The conformance scenarios, most valuable first. Pauses are a few seconds so the whole project stays short. */

const paused = (ro: RolloutJson, reason = "CanaryPauseStep") => (ro.status?.pauseConditions ?? []).some((p) => p.reason === reason);
const atStep = (ro: RolloutJson, index: number) => ro.status?.currentStepIndex === index;
const healthyAndPromoted = (ro: RolloutJson) =>
  ro.status?.phase === "Healthy" &&
  !!ro.status.currentPodHash &&
  ro.status.currentPodHash === ro.status.stableRS &&
  ro.status.availableReplicas === ro.spec.replicas;
const degraded = (ro: RolloutJson) => ro.status?.phase === "Degraded";
/**
 * Aborted, and the canary scaled back down with its pods gone (no pod beyond the stable ReplicaSet's). The real
 * controller reports the scale-down only when the ReplicaSet's pods are gone, which under load can stay unchanged
 * longer than a settle (a clean-clone run recorded `updated: 1`); and it can write Degraded and the abort before it
 * counts a canary pod that was already starting, so `updatedReplicas` alone can be unset for a moment and then read 1
 * (another clean-clone run: `desired: 3, updated: 1` against the simulator's 2 and none).
 */
const abortedAndScaledDown = (ro: RolloutJson) =>
  degraded(ro) && !!ro.status?.abort && !ro.status.updatedReplicas && ro.status.replicas === ro.spec.replicas;
const newImage = (version: number) => (ctx: ScenarioContext) => setImage(ctx.kube, ctx.ns, ctx.rollout, image(version));

const ROUTED_STEPS = [{ setWeight: 20 }, { pause: {} }, { setWeight: 50 }, { pause: { duration: "3s" } }, { pause: {} }];

/*
 * Each Rollout stays under client-go's spam filter (25 events per object, then one per 5 minutes): past it, which
 * events the Events API keeps depends on how many came before, so scenarios are kept short and split.
 */
const promoteTo = (full: boolean) => (c: ScenarioContext) => promote(c.kube, c.ns, c.rollout, full);
const action = (name: "abort" | "retry" | "restart") => (c: ScenarioContext) => simpleAction(c.kube, c.ns, c.rollout, name);
const routedObjects = () => [service("web-stable", "web"), service("web-canary", "web"), ingress("web"), routedCanary("web", ROUTED_STEPS)];

const routedCanaryScenario: Scenario = {
  name: "routed-canary",
  rollout: "web",
  objects: routedObjects,
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    { name: "set image v2 → indefinite pause at step 1 (20 %)", act: newImage(2), until: (ro) => atStep(ro, 1) && paused(ro) },
    {
      name: "promote → 50 %, through the timed pause to the pause at step 4",
      act: promoteTo(false),
      until: (ro) => atStep(ro, 4) && paused(ro),
    },
    { name: "promote --full → Healthy at v2", act: promoteTo(true), until: healthyAndPromoted },
  ],
};

const routedAbortScenario: Scenario = {
  name: "routed-abort-retry",
  rollout: "web",
  objects: routedObjects,
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    { name: "set image v2 → indefinite pause at step 1 (20 %)", act: newImage(2), until: (ro) => atStep(ro, 1) && paused(ro) },
    {
      name: "abort → Degraded, weight back to 0",
      act: action("abort"),
      until: (ro) => degraded(ro) && ro.status?.canary?.weights?.canary.weight === 0,
    },
    {
      name: "retry → from step 0 again, paused at step 1",
      act: action("retry"),
      until: (ro) => !ro.status?.abort && atStep(ro, 1) && paused(ro),
    },
  ],
};

const BASIC_STEPS = [{ setWeight: 25 }, { pause: { duration: "2s" } }, { setWeight: 50 }, { pause: {} }];

const basicCanaryScenario: Scenario = {
  name: "basic-canary",
  rollout: "web",
  objects: () => [rollout("web", 4, { canary: { steps: BASIC_STEPS } })],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    {
      name: "set image v2 → timed pause, then paused at step 3 (50 %)",
      act: newImage(2),
      until: (ro) => atStep(ro, 3) && paused(ro) && ro.status?.availableReplicas === 4,
    },
    { name: "promote → Healthy at v2", act: promoteTo(false), until: healthyAndPromoted },
  ],
};

const restartedAt = (ro: RolloutJson) => (ro.status as { restartedAt?: string } | undefined)?.restartedAt;
const restartAt = (ro: RolloutJson) => (ro.spec as { restartAt?: string }).restartAt;

const restartUndoScenario: Scenario = {
  name: "restart-undo",
  rollout: "web",
  objects: () => [rollout("web", 2, { canary: { steps: [{ setWeight: 50 }, { pause: {} }] } })],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    {
      name: "restart → pods restarted, Healthy",
      act: action("restart"),
      until: (ro) => !!restartAt(ro) && restartedAt(ro) === restartAt(ro) && healthyAndPromoted(ro),
    },
    { name: "set image v2 → paused at step 1", act: newImage(2), until: (ro) => atStep(ro, 1) && paused(ro) },
    {
      name: "undo → back to the v1 template: rollback to stable, Healthy",
      act: (c) => undo(c.kube, c.ns, c.rollout),
      until: healthyAndPromoted,
    },
  ],
};

const blueGreenScenario: Scenario = {
  name: "blue-green",
  rollout: "web",
  objects: () => [
    service("web-active", "web"),
    service("web-preview", "web"),
    rollout("web", 2, { blueGreen: { activeService: "web-active", previewService: "web-preview", autoPromotionEnabled: false } }),
  ],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    {
      name: "set image v2 → preview on v2, paused for promotion",
      act: newImage(2),
      until: (ro) => paused(ro, "BlueGreenPause") && ro.status?.blueGreen?.previewSelector === ro.status?.currentPodHash,
    },
    {
      name: "promote → active on v2, Healthy",
      act: (c) => promote(c.kube, c.ns, c.rollout),
      until: (ro) => healthyAndPromoted(ro) && ro.status?.blueGreen?.activeSelector === ro.status?.currentPodHash,
    },
  ],
};

const blueGreenAutoScenario: Scenario = {
  name: "blue-green-auto",
  rollout: "web",
  objects: () => [
    service("web-active", "web"),
    service("web-preview", "web"),
    rollout("web", 2, { blueGreen: { activeService: "web-active", previewService: "web-preview", autoPromotionSeconds: 3 } }),
  ],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    {
      name: "set image v2 → paused, promoted after 3 s, Healthy",
      act: newImage(2),
      until: (ro) => healthyAndPromoted(ro) && ro.status?.blueGreen?.activeSelector === ro.status?.currentPodHash,
    },
  ],
};

const analysisRollout = (canary: Record<string, unknown>) => rollout("web", 2, { canary });

const analysisSuccessScenario: Scenario = {
  name: "analysis-success",
  rollout: "web",
  objects: (ctx) => [
    webAnalysisTemplate("web-check", ctx.backend.analysis.checkUrl, "Successful"),
    analysisRollout({ steps: [{ setWeight: 50 }, { analysis: { templates: [{ templateName: "web-check" }] } }, { pause: {} }] }),
  ],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    { name: "set image v2 → analysis succeeds, paused at step 2", act: newImage(2), until: (ro) => atStep(ro, 2) && paused(ro) },
  ],
};

const analysisFailureScenario: Scenario = {
  name: "analysis-failure",
  rollout: "web",
  objects: (ctx) => [
    webAnalysisTemplate("web-check", ctx.backend.analysis.checkUrl, "Failed"),
    analysisRollout({ steps: [{ setWeight: 50 }, { analysis: { templates: [{ templateName: "web-check" }] } }, { pause: {} }] }),
  ],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    { name: "set image v2 → analysis fails, aborted (Degraded)", act: newImage(2), until: abortedAndScaledDown },
  ],
};

const analysisInconclusiveScenario: Scenario = {
  name: "analysis-inconclusive",
  rollout: "web",
  objects: (ctx) => [
    webAnalysisTemplate("web-check", ctx.backend.analysis.checkUrl, "Inconclusive"),
    analysisRollout({ steps: [{ setWeight: 50 }, { analysis: { templates: [{ templateName: "web-check" }] } }, { setWeight: 100 }] }),
  ],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    {
      name: "set image v2 → analysis inconclusive, paused by the controller",
      act: newImage(2),
      until: (ro) => paused(ro, "InconclusiveAnalysisRun") && !!ro.status?.controllerPause,
    },
    { name: "promote (skips the analysis step) → Healthy at v2", act: promoteTo(false), until: healthyAndPromoted },
  ],
};

const backgroundAnalysisScenario: Scenario = {
  name: "background-analysis-failure",
  rollout: "web",
  objects: (ctx) => [
    webAnalysisTemplate("web-check", ctx.backend.analysis.checkUrl, "Failed"),
    // From the start of the update: it fails long before the canary pods are up, so the pause step is never reached.
    analysisRollout({ analysis: { templates: [{ templateName: "web-check" }] }, steps: [{ setWeight: 50 }, { pause: {} }] }),
  ],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    {
      name: "set image v2 → background analysis fails, aborted (Degraded)",
      act: newImage(2),
      until: abortedAndScaledDown,
    },
  ],
};

const unregisteredPluginScenario: Scenario = {
  name: "unregistered-plugin",
  rollout: "web",
  objects: () => [
    service("web-stable", "web"),
    service("web-canary", "web"),
    routedCanary("web", ROUTED_STEPS, "argoproj-labs/gatewayAPI"),
  ],
  steps: [
    {
      name: "create → the plugin cannot start: reconcile errors, never Healthy",
      until: async (ro, ctx) =>
        (await ctx.kube.list("apps/v1", "ReplicaSet", ctx.ns)).length > 0 &&
        (ro.status?.conditions ?? []).some((c) => c.type === "Progressing"),
    },
  ],
};

/** A new template whose pods no node can take (nodeSelector), so the update never becomes available. */
const unschedulableImage = (version: number) => (ctx: ScenarioContext) =>
  ctx.kube.patchRollout(
    ctx.ns,
    ctx.rollout,
    [
      { op: "replace", path: "/spec/template/spec/containers/0/image", value: image(version) },
      { op: "add", path: "/spec/template/spec/nodeSelector", value: { "rollscope.dev/no-such-node": "true" } },
    ],
    { json: true },
  );

const progressDeadlineScenario: Scenario = {
  name: "progress-deadline",
  rollout: "web",
  objects: () => [rollout("web", 1, { canary: { steps: [{ setWeight: 50 }, { pause: {} }] } }, { progressDeadlineSeconds: 5 })],
  steps: [
    { name: "create → Healthy at v1", until: healthyAndPromoted },
    {
      name: "set image v2 with unschedulable pods → ProgressDeadlineExceeded after 5 s",
      act: unschedulableImage(2),
      until: (ro) => (ro.status?.conditions ?? []).some((c) => c.type === "Progressing" && c.reason === "ProgressDeadlineExceeded"),
    },
  ],
};

const invalidSpecScenario: Scenario = {
  name: "invalid-spec",
  rollout: "web",
  objects: () => [rollout("web", 1, { canary: { steps: [{ setWeight: 120 }] } })],
  steps: [
    { name: "create with setWeight 120 → InvalidSpec", until: (ro) => (ro.status?.conditions ?? []).some((c) => c.type === "InvalidSpec") },
  ],
};

const routingErrorSeen = async (_ro: RolloutJson, ctx: ScenarioContext) =>
  (await ctx.kube.list<{ reason: string }>("v1", "Event", ctx.ns)).some((e) => e.reason === "TrafficRoutingError");

const pluginFailureScenario: Scenario = {
  name: "plugin-failure",
  rollout: "web",
  objects: () => [service("web-stable", "web"), service("web-canary", "web"), routedCanary("web", ROUTED_STEPS)],
  steps: [
    { name: "create without the Ingress the plugin edits → SetWeight fails (TrafficRoutingError)", until: routingErrorSeen },
    {
      name: "create the Ingress → recovers, Healthy at v1",
      act: (c) => c.kube.create(c.ns, ingress("web")).then(() => {}),
      until: healthyAndPromoted,
    },
  ],
};

export const SCENARIOS: Scenario[] = [
  routedCanaryScenario,
  routedAbortScenario,
  basicCanaryScenario,
  restartUndoScenario,
  blueGreenScenario,
  blueGreenAutoScenario,
  analysisSuccessScenario,
  analysisFailureScenario,
  analysisInconclusiveScenario,
  backgroundAnalysisScenario,
  unregisteredPluginScenario,
  invalidSpecScenario,
  pluginFailureScenario,
  progressDeadlineScenario,
];
