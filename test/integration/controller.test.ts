import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { startController, type ControllerHandle, type EventLogEntry, type PluginProfileInput } from "@/sim/controller";
import { getRolloutPhase } from "@/sim/controller/conditions";
import { T } from "@/sim/controller/resource-types";
import type { CanaryStep, ReplicaSet, Rollout } from "@/sim/controller/types";
import { analysisTemplates, rollout, servicesFor, type RolloutBlueprint } from "@/sim/scenarios/builders";
import { bumpImage } from "@/sim/scenarios";
import { Prng } from "@/sim/controller/prng";
import { ObjectStore, type KubeObject } from "@/sim/store/object-store";

/**
 * Controller fidelity: every CLI action is applied with the exact merge patch `kubectl argo rollouts` sends
 * (reference §2), through the store's /status or main-resource write rules, and the simulated controller must
 * answer with upstream's transitions, events and metrics. A fake clock and tick() make each run deterministic.
 */

const TIME_SCALE = 10;
const NS = "shop";

const REGISTERED = [
  {
    name: "argoproj-labs/gatewayAPI",
    location:
      "https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi/releases/download/v0.15.0/gatewayapi-plugin-linux-amd64",
  },
  {
    name: "argoproj-labs/contour",
    location: "https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-contour/releases/download/v0.5.0/contour-plugin-linux-amd64",
  },
];

const STEPS: CanaryStep[] = [
  { setWeight: 10 },
  { pause: { duration: "1m" } },
  { setHeaderRoute: { name: "header-canary", match: [{ headerName: "X-Canary", headerValue: { exact: "true" } }] } },
  { setWeight: 30 },
  { pause: {} },
  { setWeight: 60 },
  { pause: { duration: "1m" } },
];

interface Env {
  store: ObjectStore;
  ctl: ControllerHandle;
  now(): number;
  /** Advances the fake clock by one real second (10 simulated seconds) and runs one pass. */
  step(): void;
  settle(what: string, pred: () => boolean, maxSteps?: number): void;
  ro(name?: string): Rollout;
  events(reason?: string, name?: string): KubeObject[];
  /**
   * What the controller recorded, before client-go's spam filter (25 events per Rollout, then one per 5 minutes)
   * dropped any: a Rollout taken through many steps has more events than the Events API keeps, as upstream's has.
   */
  recorded(reason: string, name?: string): EventLogEntry[];
  patchStatus(body: unknown, name?: string): void;
  patchMain(body: unknown, name?: string): void;
  newRevision(name?: string): void;
}

const handles: ControllerHandle[] = [];
afterEach(async () => {
  while (handles.length) await handles.pop()?.stop();
});

function configMap(data: Record<string, string>): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "argo-rollouts-config", namespace: "argo-rollouts" }, data };
}

async function setup(
  opts: { blueprints?: RolloutBlueprint[]; config?: Record<string, string>; profiles?: Record<string, PluginProfileInput> } = {},
): Promise<Env> {
  let clock = Date.parse("2026-08-18T09:00:00Z");
  const store = new ObjectStore({ now: () => new Date(clock) });
  store.ensureNamespace("argo-rollouts");
  store.ensureNamespace(NS);
  store.create(T.configMaps, "argo-rollouts", configMap(opts.config ?? { trafficRouterPlugins: stringify(REGISTERED) }));
  for (const t of analysisTemplates(NS)) store.create(T.analysisTemplates, NS, t);
  const blueprints = opts.blueprints ?? [checkout()];
  for (const bp of blueprints) {
    for (const svc of servicesFor(bp)) store.create(T.services, NS, svc);
    store.create(T.rollouts, NS, rollout(bp));
  }
  const ctl = await startController({
    store,
    clusterName: "test",
    seed: 7,
    timeScale: TIME_SCALE,
    now: () => clock,
    autoReconcile: false,
    pluginProfiles: opts.profiles,
  });
  handles.push(ctl);
  const first = blueprints[0].name;
  const env: Env = {
    store,
    ctl,
    now: () => clock,
    step() {
      clock += 1000;
      ctl.tick();
    },
    settle(what, pred, maxSteps = 300) {
      for (let i = 0; i < maxSteps; i++) {
        if (pred()) return;
        env.step();
      }
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(env.ro().status)}`);
    },
    ro: (name = first) => store.get(T.rollouts, NS, name) as Rollout,
    events: (reason, name = first) =>
      store
        .list(T.events, { namespace: NS })
        .items.filter((e) => (e.involvedObject as { name: string }).name === name && (!reason || e.reason === reason)),
    recorded: (reason, name = first) => ctl.eventLog.filter((e) => e.name === name && e.reason === reason),
    patchStatus: (body, name = first) => void store.patch(T.rollouts, NS, name, "merge", body, { subresource: "status" }),
    patchMain: (body, name = first) => void store.patch(T.rollouts, NS, name, "merge", body),
    newRevision: (name = first) => void bumpImage(store, NS, name, new Prng(1)),
  };
  env.settle("the initial deploy", () => env.ro().status?.phase === "Healthy");
  return env;
}

function checkout(extra: Partial<RolloutBlueprint> = {}): RolloutBlueprint {
  return {
    namespace: NS,
    name: "checkout",
    version: "1.4.0",
    replicas: 4,
    router: { plugin: "argoproj-labs/gatewayAPI", config: { httpRoute: "checkout-route", namespace: NS } },
    managedRoutes: ["header-canary"],
    steps: STEPS,
    ...extra,
  };
}

function atIndefinitePause(env: Env): void {
  env.newRevision();
  env.settle("the indefinite pause", () => env.ro().status?.currentStepIndex === 4 && env.ro().status?.phase === "Paused");
}

/** Watches the ReplicaSets: the most pods ever asked for and the fewest ever available, and their current sizes. */
function trackPods(env: Env) {
  const replicaSets = () => env.store.list(T.replicaSets, { namespace: NS }).items as ReplicaSet[];
  const sum = (f: (rs: ReplicaSet) => number) => replicaSets().reduce((n, rs) => n + f(rs), 0);
  const extremes = { maxPods: 0, minAvailable: Infinity };
  const unsubscribe = env.store.subscribe((e) => {
    if (e.resource !== T.replicaSets) return;
    extremes.maxPods = Math.max(
      extremes.maxPods,
      sum((rs) => rs.spec.replicas),
    );
    extremes.minAvailable = Math.min(
      extremes.minAvailable,
      sum((rs) => rs.status?.availableReplicas ?? 0),
    );
  });
  return {
    specs: () =>
      replicaSets()
        .map((rs) => rs.spec.replicas)
        .sort((a, b) => a - b),
    stop() {
      unsubscribe();
      return extremes;
    },
  };
}

function messages(events: KubeObject[]): string[] {
  return events.map((e) => String(e.message));
}

async function scrape(ctl: ControllerHandle): Promise<string> {
  return (await fetch(ctl.metricsUrl)).text();
}

/** The plugin meter's endpoint (rollscope-plugin-meter's family), apart from the controller's own metrics. */
async function scrapeMeter(ctl: ControllerHandle): Promise<string> {
  return (await fetch(ctl.pluginMeterUrl)).text();
}

function sample(text: string, metric: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${metric}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) total += Number(line.split(" ").pop());
  }
  return total;
}

describe("simulated controller: CLI actions", () => {
  it("initial deploy: stable = current hash, all steps done, weights 0/100 verified by gatewayAPI", async () => {
    const env = await setup();
    const status = env.ro().status!;
    expect(status.stableRS).toBe(status.currentPodHash);
    expect(status.currentStepIndex).toBe(STEPS.length);
    expect(status.observedGeneration).toBe("1");
    expect(status.canary?.weights).toMatchObject({
      canary: { weight: 0 },
      stable: { weight: 100, serviceName: "checkout-stable" },
      verified: true,
    });
    expect(env.ro().metadata.annotations?.["rollout.argoproj.io/revision"]).toBe("1");
    const rs = env.store.get(T.replicaSets, NS, `checkout-${status.currentPodHash}`);
    expect(rs.metadata.labels?.["rollouts-pod-template-hash"]).toBe(status.currentPodHash);
    expect(rs.metadata.ownerReferences?.[0]).toMatchObject({ kind: "Rollout", name: "checkout", controller: true });
    expect(
      env.store.list(T.pods, { namespace: NS, labelSelector: `rollouts-pod-template-hash=${status.currentPodHash}` }).items,
    ).toHaveLength(4);
    expect(messages(env.events("RolloutCompleted"))).toEqual([
      `Rollout completed update to revision 1 (${status.currentPodHash}): Initial deploy`,
    ]);
  });

  it("a new revision walks the steps: weights follow setWeight once the canary is scaled, pauses end on time", async () => {
    const env = await setup();
    const stableHash = env.ro().status!.stableRS!;
    env.newRevision();
    env.settle("step 1 (timed pause)", () => env.ro().status?.currentStepIndex === 1 && env.ro().status?.phase === "Paused");
    const status = env.ro().status!;
    expect(env.ro().metadata.annotations?.["rollout.argoproj.io/revision"]).toBe("2");
    expect(status.message).toBe("CanaryPauseStep");
    expect(status.pauseConditions?.[0].reason).toBe("CanaryPauseStep");
    expect(status.controllerPause).toBe(true);
    expect(status.canary?.weights?.canary).toEqual({ weight: 10, serviceName: "checkout-canary", podTemplateHash: status.currentPodHash });
    expect(status.canary?.weights?.stable).toEqual({ weight: 90, serviceName: "checkout-stable", podTemplateHash: stableHash });
    expect(env.store.get(T.replicaSets, NS, `checkout-${status.currentPodHash}`).spec).toMatchObject({ replicas: 1 });
    // 1m at ×10 is 6 real seconds.
    for (let i = 0; i < 4; i++) env.step();
    expect(env.ro().status?.currentStepIndex).toBe(1);
    env.settle("the indefinite pause", () => env.ro().status?.currentStepIndex === 4 && env.ro().status?.phase === "Paused");
    expect(messages(env.events("RolloutUpdated"))).toContain("Rollout updated to revision 2");
    expect(messages(env.events("RolloutStepCompleted"))).toEqual(
      expect.arrayContaining([
        "Rollout step 1/7 completed (setWeight: 10)",
        "Rollout step 2/7 completed (pause: 1m0s)",
        "Rollout step 4/7 completed (setWeight: 30)",
      ]),
    );
    expect(messages(env.events("TrafficWeightUpdated"))).toEqual(
      expect.arrayContaining(["Traffic weight updated from 0 to 10", "Traffic weight updated from 10 to 30"]),
    );
    expect(messages(env.events("RolloutPaused"))).toContain("Rollout is paused (CanaryPauseStep)");
  });

  it("promote on an indefinite pause clears pauseConditions and the controller runs the next step", async () => {
    const env = await setup();
    atIndefinitePause(env);
    const before = env.recorded("RolloutStepCompleted").length;
    env.patchStatus({ status: { pauseConditions: null } });
    expect(getRolloutPhase(env.ro())).toEqual({ phase: "Progressing", message: "waiting for rollout to unpause" });
    env.step();
    expect(env.ro().status?.currentStepIndex).toBe(5);
    expect(env.ro().status?.controllerPause).toBeUndefined();
    expect(
      env
        .recorded("RolloutStepCompleted")
        .slice(before)
        .map((e) => e.message),
    ).toContain("Rollout step 5/7 completed (pause)");
    env.settle("weight 60", () => env.ro().status?.canary?.weights?.canary.weight === 60);
    expect(env.recorded("TrafficWeightUpdated").map((e) => e.message)).toContain("Traffic weight updated from 30 to 60");
    env.settle("completion", () => env.ro().status?.phase === "Healthy" && env.ro().status?.stableRS === env.ro().status?.currentPodHash);
    expect(env.ro().status?.currentStepIndex).toBe(STEPS.length);
  });

  it("promote with no pause condition (client sets currentStepIndex+1) skips the current step", async () => {
    const steps: CanaryStep[] = [
      { setWeight: 10 },
      { analysis: { templates: [{ templateName: "success-rate" }] } },
      { setWeight: 50 },
      { pause: {} },
    ];
    const env = await setup({ blueprints: [checkout({ steps, annotations: { "sim.rollscope.dev/analysis-duration-seconds": "3600" } })] });
    env.newRevision();
    env.settle(
      "the analysis step",
      () => env.ro().status?.currentStepIndex === 1 && env.ro().status?.canary?.currentStepAnalysisRunStatus?.status === "Running",
    );
    const runName = env.ro().status!.canary!.currentStepAnalysisRunStatus!.name;
    expect(runName).toBe(`checkout-${env.ro().status!.currentPodHash}-2-1`);
    expect(env.ro().status?.message).toBe("more replicas need to be updated");
    const completedBefore = env.events("RolloutStepCompleted").length;
    // getPatches case C: canary, no pause conditions.
    env.patchStatus({ status: { pauseConditions: null, currentStepIndex: 2 } });
    env.step();
    expect(env.ro().status?.currentStepIndex).toBeGreaterThanOrEqual(2);
    expect(env.ro().status?.canary?.currentStepAnalysisRunStatus).toBeUndefined();
    expect((env.store.get(T.analysisRuns, NS, runName).spec as { terminate?: boolean }).terminate).toBe(true);
    expect(messages(env.events("RolloutStepCompleted")).slice(completedBefore)).not.toContain("Rollout step 2/4 completed (analysis)");
    env.settle("weight 50", () => env.ro().status?.canary?.weights?.canary.weight === 50);
  });

  it("abort: canary weight 0, step 0, Degraded with RolloutAborted; retry resumes from step 0", async () => {
    const env = await setup();
    atIndefinitePause(env);
    const revision = env.ro().metadata.annotations?.["rollout.argoproj.io/revision"];
    const resumedBefore = env.events("RolloutResumed").length;
    env.patchStatus({ status: { abort: true } });
    env.step();
    let status = env.ro().status!;
    expect(status.abort).toBe(true);
    expect(status.abortedAt).toBeDefined();
    expect(status.currentStepIndex).toBe(0);
    expect(status.phase).toBe("Degraded");
    expect(status.message).toBe(`RolloutAborted: Rollout aborted update to revision ${revision}`);
    expect(status.pauseConditions).toBeUndefined();
    expect(status.canary?.weights?.canary.weight).toBe(0);
    expect(status.canary?.weights?.stable.weight).toBe(100);
    expect(status.conditions?.find((c) => c.type === "Progressing")).toMatchObject({ status: "False", reason: "RolloutAborted" });
    const aborted = env.recorded("RolloutAborted");
    expect(aborted.map((e) => [e.type, e.message])).toEqual([["Warning", `Rollout aborted update to revision ${revision}`]]);
    expect(env.events()[0].source).toEqual({ component: "rollouts-controller" });
    expect(env.events("RolloutResumed")).toHaveLength(resumedBefore);
    // The canary ReplicaSet goes after abortScaleDownDelaySeconds (30 s).
    const canaryRS = () => env.store.get(T.replicaSets, NS, `checkout-${status.currentPodHash}`) as ReplicaSet;
    expect(canaryRS().spec.replicas).toBeGreaterThan(0);
    env.settle("canary scaled down", () => canaryRS().spec.replicas === 0);
    const metrics = await scrape(env.ctl);
    expect(sample(metrics, "rollout_events_total", { name: "checkout", type: "Warning", reason: "RolloutAborted" })).toBe(1);
    expect(sample(metrics, "rollout_info", { name: "checkout", phase: "Abort", traffic_router: "" })).toBe(1);

    env.patchStatus({ status: { abort: false } });
    env.step();
    status = env.ro().status!;
    expect(status.abort).toBeUndefined();
    expect(status.abortedAt).toBeUndefined();
    expect(status.phase).not.toBe("Degraded");
    expect(status.conditions?.find((c) => c.type === "Progressing")?.reason).toMatch(/RolloutRetry|ReplicaSetUpdated/);
    env.settle("weight 10 again", () => env.ro().status?.canary?.weights?.canary.weight === 10);
    env.settle("back at the indefinite pause", () => env.ro().status?.currentStepIndex === 4 && env.ro().status?.phase === "Paused");
  });

  it("promote --full: all steps skipped, managed routes removed, the new revision takes all traffic, Healthy", async () => {
    const env = await setup();
    atIndefinitePause(env);
    const newHash = env.ro().status!.currentPodHash!;
    const rpcBefore = sample(await scrapeMeter(env.ctl), "rollscope_plugin_calls_total", { method: "RemoveManagedRoutes", outcome: "ok" });
    env.patchStatus({ status: { promoteFull: true } });
    env.step();
    expect(env.ro().status?.currentStepIndex).toBe(STEPS.length);
    expect(env.ro().status?.pauseConditions).toBeUndefined();
    env.settle("full promotion", () => env.ro().status?.stableRS === newHash && env.ro().status?.phase === "Healthy");
    env.step();
    const status = env.ro().status!;
    expect(status.promoteFull).toBeUndefined();
    expect(status.canary?.weights?.stable).toMatchObject({ weight: 100, podTemplateHash: newHash });
    expect(status.canary?.weights?.canary.weight).toBe(0);
    expect(env.recorded("RolloutCompleted").map((e) => e.message)).toContain(
      `Rollout completed update to revision 2 (${newHash}): Full promotion requested`,
    );
    expect(
      sample(await scrapeMeter(env.ctl), "rollscope_plugin_calls_total", { method: "RemoveManagedRoutes", outcome: "ok" }),
    ).toBeGreaterThan(rpcBefore);
    env.settle("Healthy condition", () => env.ro().status?.conditions?.some((c) => c.type === "Healthy" && c.status === "True") === true);
  });

  it("pause (spec.paused) shows Paused / manually paused without a pause condition; restart sets restartedAt", async () => {
    const env = await setup();
    env.patchMain({ spec: { paused: true } });
    env.step();
    expect(env.ro().status).toMatchObject({ phase: "Paused", message: "manually paused", observedGeneration: "2" });
    expect(env.ro().status?.pauseConditions).toBeUndefined();
    expect(env.ro().status?.conditions?.find((c) => c.type === "Paused")).toMatchObject({ status: "True", reason: "RolloutPaused" });
    env.patchMain({ spec: { paused: false } });
    env.step();
    expect(env.ro().status?.phase).toBe("Healthy");
    const restartAt = new Date(env.now() + 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const podsBefore = env.store.list(T.pods, { namespace: NS }).items.map((p) => p.metadata.name);
    env.patchMain({ spec: { restartAt } });
    env.settle("restartedAt", () => env.ro().status?.restartedAt === restartAt);
    const podsAfter = env.store.list(T.pods, { namespace: NS }).items.map((p) => p.metadata.name);
    expect(podsAfter.some((p) => podsBefore.includes(p))).toBe(false);
  });
});

describe("simulated controller: traffic-router plugins", () => {
  it("SetWeight failures: TrafficRoutingError events, no weight change, rollout_reconcile_error grows", async () => {
    const env = await setup({
      blueprints: [
        checkout({
          router: { plugin: "argoproj-labs/contour", config: { httpProxies: ["checkout"] } },
          managedRoutes: undefined,
          steps: [{ setWeight: 20 }, { pause: {} }],
        }),
      ],
    });
    env.ctl.setPluginProfile("argoproj-labs/contour", {
      setWeightFailureRate: 1,
      setWeightError: 'HTTPProxy.projectcontour.io "checkout" is invalid',
    });
    env.newRevision();
    for (let i = 0; i < 20; i++) env.step();
    const status = env.ro().status!;
    expect(status.canary?.weights?.canary.weight).toBe(0);
    const errors = env.events("TrafficRoutingError");
    expect(errors).toHaveLength(1);
    expect(errors[0].type).toBe("Warning");
    expect(errors[0].message).toBe('failed to set weight via plugin: HTTPProxy.projectcontour.io "checkout" is invalid');
    expect(Number(errors[0].count)).toBeGreaterThan(1);
    const metrics = await scrape(env.ctl);
    expect(sample(metrics, "rollout_reconcile_error", { name: "checkout" })).toBeGreaterThan(1);
    expect(sample(metrics, "rollout_events_total", { reason: "TrafficRoutingError" })).toBeGreaterThanOrEqual(Number(errors[0].count));

    env.ctl.setPluginProfile("argoproj-labs/contour", "healthy");
    env.settle("weight 20 once the plugin recovers", () => env.ro().status?.canary?.weights?.canary.weight === 20);
    expect(env.ro().status?.canary?.weights?.verified).toBe(true);
  });

  it("VerifyWeight: false blocks the step and requeues; an RPC error is WeightVerifyError; NotImplemented leaves verified absent", async () => {
    const env = await setup({ blueprints: [checkout({ steps: [{ setWeight: 20 }, { pause: {} }], managedRoutes: undefined })] });
    env.ctl.setPluginProfile("argoproj-labs/gatewayAPI", { verifyWeight: "notVerified" });
    env.newRevision();
    env.settle("weight 20", () => env.ro().status?.canary?.weights?.canary.weight === 20);
    for (let i = 0; i < 5; i++) env.step();
    expect(env.ro().status?.canary?.weights?.verified).toBe(false);
    expect(env.ro().status?.currentStepIndex).toBe(0);
    expect(env.events("WeightVerifyError")).toHaveLength(0);

    env.ctl.setPluginProfile("argoproj-labs/gatewayAPI", { verifyWeight: "error", verifyError: "connection refused" });
    env.step();
    expect(messages(env.events("WeightVerifyError"))).toEqual([
      "Failed to verify weight: failed to verify weight via plugin: connection refused",
    ]);
    expect(env.ro().status?.canary?.weights?.verified).toBeUndefined();

    env.ctl.setPluginProfile("argoproj-labs/gatewayAPI", { verifyWeight: "notImplemented" });
    env.settle("step advance", () => env.ro().status?.currentStepIndex === 1);
    expect(env.ro().status?.canary?.weights?.verified).toBeUndefined();
  });

  it("plugin start and ping failures: no event, only rollout_reconcile_error; simulated RPC latency shows in rollout_reconcile", async () => {
    const env = await setup({ blueprints: [checkout({ steps: [{ setWeight: 20 }, { pause: {} }], managedRoutes: undefined })] });
    const errors = async () => sample(await scrape(env.ctl), "rollout_reconcile_error", { name: "checkout" });
    env.ctl.setPluginProfile("argoproj-labs/gatewayAPI", {
      startFailure: "fork/exec /home/argo-rollouts/plugin-bin/argoproj-labs/gatewayAPI: exec format error",
    });
    env.ctl.restart();
    env.newRevision();
    for (let i = 0; i < 10; i++) env.step();
    expect(await errors()).toBeGreaterThan(0);
    expect(env.ro().status?.currentPodHash).not.toBe(env.ro().status?.stableRS);
    expect(env.ro().status?.canary?.weights?.canary.weight).toBe(0);
    expect(env.events().filter((e) => e.type === "Warning")).toHaveLength(0);

    env.ctl.setPluginProfile("argoproj-labs/gatewayAPI", { pingFailure: "connection is shut down" });
    const before = await errors();
    for (let i = 0; i < 5; i++) env.step();
    expect(await errors()).toBeGreaterThan(before);
    expect(env.events().filter((e) => e.type === "Warning")).toHaveLength(0);

    env.ctl.setPluginProfile("argoproj-labs/gatewayAPI", { latencyMs: 400 });
    const slowBefore =
      sample(await scrape(env.ctl), "rollout_reconcile_count", { name: "checkout" }) -
      sample(await scrape(env.ctl), "rollout_reconcile_bucket", { name: "checkout", le: "1" });
    env.settle("weight 20", () => env.ro().status?.canary?.weights?.canary.weight === 20);
    const metrics = await scrape(env.ctl);
    // Four RPCs (Type, UpdateHash, SetWeight, VerifyWeight) at 400 ms each put a pass above the 1 s bucket.
    expect(
      sample(metrics, "rollout_reconcile_count", { name: "checkout" }) -
        sample(metrics, "rollout_reconcile_bucket", { name: "checkout", le: "1" }),
    ).toBeGreaterThan(slowBefore);
  });

  it("a stuck router: the weight is written, but the measured mesh traffic does not follow (contour's VerifyWeight notices)", async () => {
    const env = await setup({
      blueprints: [
        checkout({ steps: [{ setWeight: 50 }, { pause: {} }], managedRoutes: undefined }),
        checkout({
          name: "catalog",
          router: { plugin: "argoproj-labs/contour", config: { httpProxies: ["catalog"] } },
          steps: [{ setWeight: 30 }, { pause: {} }],
          managedRoutes: undefined,
        }),
      ],
      profiles: { "argoproj-labs/gatewayAPI": { stuckRouter: "old" }, "argoproj-labs/contour": { stuckRouter: "half" } },
    });
    env.newRevision();
    env.newRevision("catalog");
    env.settle("weight 50 on checkout", () => env.ro().status?.canary?.weights?.canary.weight === 50);
    for (let i = 0; i < 10; i++) env.step();
    const metrics = await scrape(env.ctl);
    // gatewayAPI always answers Verified, so only traffic shows the problem.
    expect(env.ro().status?.canary?.weights?.verified).toBe(true);
    expect(env.ro().status?.phase).toBe("Paused");
    expect(sample(metrics, "istio_requests_total", { destination_service_name: "checkout-canary" })).toBe(0);
    expect(sample(metrics, "istio_requests_total", { destination_service_name: "checkout-stable" })).toBeGreaterThan(0);
    // contour really checks its HTTPProxy weights: 30 applied but 50 % measured (stuck at half) is not verified.
    expect(env.ro("catalog").status?.canary?.weights).toMatchObject({ canary: { weight: 30 }, verified: false });
    expect(env.ro("catalog").status?.currentStepIndex).toBe(0);
    for (let i = 0; i < 10; i++) env.step();
    const later = await scrape(env.ctl);
    // contour's data plane is Envoy: its requests are Envoy cluster stats named <namespace>_<service>_<port>.
    const ns = env.ro("catalog").metadata.namespace;
    const delta = (svc: string) =>
      sample(later, "envoy_cluster_upstream_rq_total", { envoy_cluster_name: `${ns}_${svc}_80` }) -
      sample(metrics, "envoy_cluster_upstream_rq_total", { envoy_cluster_name: `${ns}_${svc}_80` });
    const share = delta("catalog-canary") / (delta("catalog-canary") + delta("catalog-stable"));
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
  });

  it("a plugin referenced but not registered: reconcile errors, no event, status not persisted", async () => {
    const env = await setup({
      blueprints: [
        checkout(),
        checkout({
          name: "notifications",
          router: { plugin: "hashicorp/consul", config: { serviceName: "notifications" } },
          managedRoutes: undefined,
        }),
      ],
    });
    const ro = () => env.ro("notifications");
    for (let i = 0; i < 10; i++) env.step();
    const rv = ro().metadata.resourceVersion;
    const errorsBefore = sample(await scrape(env.ctl), "rollout_reconcile_error", { name: "notifications" });
    for (let i = 0; i < 10; i++) env.step();
    expect(sample(await scrape(env.ctl), "rollout_reconcile_error", { name: "notifications" })).toBeGreaterThan(errorsBefore);
    expect(ro().metadata.resourceVersion).toBe(rv);
    expect(ro().status?.stableRS).toBeUndefined();
    expect(env.events(undefined, "notifications").filter((e) => e.type === "Warning")).toHaveLength(0);
    expect(env.events("TrafficRoutingError", "notifications")).toHaveLength(0);
  });

  it("a ConfigMap edit takes effect only after restart(): a new controller Pod reads it", async () => {
    const env = await setup({
      blueprints: [
        checkout(),
        checkout({
          name: "notifications",
          router: { plugin: "hashicorp/consul", config: { serviceName: "notifications" } },
          managedRoutes: undefined,
        }),
      ],
    });
    const podBefore = env.ctl.state.podName;
    env.store.update(T.configMaps, "argo-rollouts", "argo-rollouts-config", (cm) => {
      cm.data = {
        trafficRouterPlugins: stringify([
          ...REGISTERED,
          {
            name: "hashicorp/consul",
            location:
              "https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-consul/releases/download/v0.0.1/rollouts-plugin-trafficrouter-consul-linux-amd64",
          },
        ]),
      };
    });
    for (let i = 0; i < 10; i++) env.step();
    expect(env.ro("notifications").status?.stableRS).toBeUndefined();
    env.ctl.restart();
    expect(env.ctl.state.podName).not.toBe(podBefore);
    const pod = env.store.get(T.pods, "argo-rollouts", env.ctl.state.podName);
    expect(pod.metadata.labels?.["app.kubernetes.io/name"]).toBe("argo-rollouts");
    expect((pod.status as { startTime: string }).startTime).toBe(env.ctl.state.podStartTime);
    expect(env.store.tryGet(T.pods, "argo-rollouts", podBefore)).toBeUndefined();
    env.settle("notifications reconciles", () => env.ro("notifications").status?.phase === "Healthy", 50);
    // Consul does not implement VerifyWeight.
    expect(env.ro("notifications").status?.canary?.weights?.verified).toBeUndefined();
  });

  it("an invalid ConfigMap crash-loops the controller: nothing is reconciled, the Pod shows CrashLoopBackOff", async () => {
    const env = await setup();
    env.store.update(T.configMaps, "argo-rollouts", "argo-rollouts-config", (cm) => {
      cm.data = { trafficRouterPlugins: stringify([{ name: "gatewayAPI", location: "https://example.invalid/plugin" }]) };
    });
    env.ctl.restart();
    expect(env.ctl.state.status).toBe("CrashLoopBackOff");
    expect(env.ctl.state.reason).toBe(
      "Failed to init config: validation of config due to (plugin repository (gatewayAPI) must be in the format of <namespace>/<name>)",
    );
    const rv = env.ro().metadata.resourceVersion;
    env.newRevision();
    const generation = env.ro().metadata.generation;
    for (let i = 0; i < 120; i++) env.step();
    expect(env.ro().status?.observedGeneration).not.toBe(String(generation));
    expect(getRolloutPhase(env.ro()).message).toBe("waiting for rollout spec update to be observed");
    expect(Number(env.ro().metadata.resourceVersion)).toBeGreaterThan(Number(rv));
    expect(env.ctl.state.restartCount).toBeGreaterThanOrEqual(2);
    const pod = env.store.get(T.pods, "argo-rollouts", env.ctl.state.podName);
    const container = (
      pod.status as {
        containerStatuses: Array<{
          restartCount: number;
          state: { waiting?: { reason: string } };
          lastState: { terminated?: { message: string } };
        }>;
      }
    ).containerStatuses[0];
    expect(container.state.waiting?.reason).toBe("CrashLoopBackOff");
    expect(container.restartCount).toBe(env.ctl.state.restartCount);
    expect(container.lastState.terminated?.message).toContain("must be in the format of <namespace>/<name>");

    // A crash-looping container re-reads the ConfigMap on its next start: fixing it is enough.
    env.store.update(T.configMaps, "argo-rollouts", "argo-rollouts-config", (cm) => {
      cm.data = { trafficRouterPlugins: stringify(REGISTERED) };
    });
    env.settle("recovery", () => env.ctl.state.status === "Running", 400);
    env.settle("the new revision is observed", () => env.ro().status?.observedGeneration === String(generation));
  });

  it("malformed YAML and unknown schemes are fatal too", async () => {
    const env = await setup();
    env.store.update(T.configMaps, "argo-rollouts", "argo-rollouts-config", (cm) => {
      cm.data = { trafficRouterPlugins: "argoproj-labs/gatewayAPI" };
    });
    env.ctl.restart();
    expect(env.ctl.state.reason).toMatch(
      /^Failed to init config: failed to unmarshal traffic router plugins while initializing: .*cannot unmarshal string into Go value of type \[\]types\.PluginItem$/,
    );
    env.store.update(T.configMaps, "argo-rollouts", "argo-rollouts-config", (cm) => {
      cm.data = { trafficRouterPlugins: stringify([{ name: "argoproj-labs/gatewayAPI", location: "s3://bucket/plugin" }]) };
    });
    env.ctl.restart();
    expect(env.ctl.state.reason).toBe("Failed to download plugins: plugin location must be of http(s) or file scheme");
  });
});

describe("simulated controller: analysis, routers, blue-green, log", () => {
  it("a Failed step analysis aborts with the run's message; Inconclusive pauses with InconclusiveAnalysisRun", async () => {
    const steps: CanaryStep[] = [{ setWeight: 10 }, { analysis: { templates: [{ templateName: "success-rate" }] } }, { setWeight: 50 }];
    const env = await setup({
      blueprints: [
        checkout({ steps, analysisOutcome: "Failed" }),
        checkout({ name: "ledger", steps, analysisOutcome: "Inconclusive", managedRoutes: undefined }),
      ],
    });
    env.newRevision();
    env.newRevision("ledger");
    env.settle("abort", () => env.ro().status?.abort === true && env.ro().status?.phase === "Degraded");
    expect(env.ro().status?.message).toMatch(
      /^RolloutAborted: Rollout aborted update to revision 2: Step-based analysis phase error\/failed: Metric "success-rate" assessed Failed due to failed \(1\) > failureLimit \(0\)$/,
    );
    // The run fails at its first measurement, before the rollout saw it Running (as on the real controller).
    expect(env.events("AnalysisRunFailed")[0]).toMatchObject({ type: "Warning" });
    expect(env.events("AnalysisRunFailed")[0].message).toMatch(/^Step Analysis Run 'checkout-\w+-2-1' Status New: 'Failed' Previous: ''$/);
    env.settle("inconclusive pause", () => env.ro("ledger").status?.phase === "Paused", 100);
    const ledger = env.ro("ledger").status!;
    expect(ledger.message).toBe("InconclusiveAnalysisRun");
    expect(ledger.pauseConditions?.[0].reason).toBe("InconclusiveAnalysisRun");
    expect(ledger.canary?.currentStepAnalysisRunStatus?.status).toBe("Inconclusive");
    // getPatches case A: inconclusive step analysis.
    env.patchStatus({ status: { pauseConditions: null, controllerPause: false, currentStepIndex: 2 } }, "ledger");
    env.settle("ledger done", () => env.ro("ledger").status?.phase === "Healthy", 100);
    const metrics = await scrape(env.ctl);
    expect(sample(metrics, "analysis_run_info", { phase: "Failed" })).toBe(1);
    expect(
      sample(metrics, "analysis_run_metric_phase", { metric: "success-rate", type: "Prometheus", dry_run: "false", phase: "Failed" }),
    ).toBe(1);
  });

  it("built-in routers emit their own events and leave verified absent; rollout_info names them", async () => {
    const env = await setup({
      blueprints: [
        checkout({
          name: "cart",
          router: { istio: { virtualService: "cart-vsvc" } },
          managedRoutes: undefined,
          steps: [{ setWeight: 25 }, { pause: {} }],
        }),
        checkout({
          name: "edge",
          router: { nginx: { stableIngress: "edge" } },
          managedRoutes: undefined,
          steps: [{ setWeight: 25 }, { pause: {} }],
        }),
      ],
    });
    env.newRevision("cart");
    env.newRevision("edge");
    env.settle("both paused", () => env.ro("cart").status?.phase === "Paused" && env.ro("edge").status?.phase === "Paused");
    env.step();
    expect(messages(env.events("Updated VirtualService", "cart"))).toContain("VirtualService `cart-vsvc` set to desiredWeight '25'");
    expect(messages(env.events("PatchingCanaryIngress", "edge"))).toContain("Updating Ingress `edge-edge-canary` to desiredWeight '25'");
    expect(env.ro("cart").status?.canary?.weights?.verified).toBeUndefined();
    const metrics = await scrape(env.ctl);
    expect(sample(metrics, "rollout_info", { name: "cart", traffic_router: "Istio", strategy: "canary", phase: "Paused" })).toBe(1);
    expect(sample(metrics, "rollout_info", { name: "edge", traffic_router: "Nginx" })).toBe(1);
  });

  it("blue-green: preview first, BlueGreenPause without auto-promotion, promote switches active", async () => {
    const env = await setup({
      blueprints: [{ namespace: NS, name: "indexer", version: "4.2.1", replicas: 2, blueGreen: { autoPromotionEnabled: false } }],
    });
    const oldHash = env.ro("indexer").status!.stableRS!;
    expect(env.ro("indexer").status?.blueGreen?.activeSelector).toBe(oldHash);
    env.newRevision("indexer");
    env.settle("BlueGreenPause", () => env.ro("indexer").status?.phase === "Paused", 100);
    const status = env.ro("indexer").status!;
    expect(status.message).toBe("BlueGreenPause");
    expect(status.blueGreen).toMatchObject({ activeSelector: oldHash, previewSelector: status.currentPodHash });
    expect(status.currentStepIndex).toBeUndefined();
    expect(status.canary?.weights).toBeUndefined();
    const preview = env.store.get(T.services, NS, "indexer-preview").spec as { selector: Record<string, string> };
    expect(preview.selector["rollouts-pod-template-hash"]).toBe(status.currentPodHash);
    env.patchStatus({ status: { pauseConditions: null } }, "indexer");
    env.settle("switch", () => env.ro("indexer").status?.stableRS === status.currentPodHash, 100);
    expect(env.ro("indexer").status?.blueGreen?.activeSelector).toBe(status.currentPodHash);
    const active = env.store.get(T.services, NS, "indexer-active").spec as { selector: Record<string, string> };
    expect(active.selector["rollouts-pod-template-hash"]).toBe(status.currentPodHash);
  });

  it("a basic canary (no traffic routing) stays within maxSurge and maxUnavailable (25 %) through the update and the promotion", async () => {
    const env = await setup({
      blueprints: [checkout({ router: { none: true }, managedRoutes: undefined, steps: [{ setWeight: 50 }, { pause: {} }] })],
    });
    const pods = trackPods(env);
    const scaledFrom = env.ctl.eventLog.length;
    env.newRevision();
    env.settle("the pause at 50 %", () => env.ro().status?.currentStepIndex === 1 && env.ro().status?.phase === "Paused");
    expect(pods.specs()).toEqual([2, 2]);
    env.patchStatus({ status: { pauseConditions: null } });
    env.settle("completion", () => env.ro().status?.phase === "Healthy" && env.ro().status?.stableRS === env.ro().status?.currentPodHash);
    env.settle("the old ReplicaSet scaled away", () => pods.specs().join() === "0,4");
    // 4 replicas: at most 4 + 1 pods, at least 4 − 1 available; upstream scales the old ReplicaSet 2 → 1 → 0.
    expect(pods.stop()).toEqual({ maxPods: 5, minAvailable: 3 });
    const scaling = env.ctl.eventLog
      .slice(scaledFrom)
      .filter((e) => e.reason === "ScalingReplicaSet")
      .map((e) => e.message.replace(/checkout-\w+ /, ""));
    // The same arithmetic on paper: 4 → 3 frees room for 2 canaries (3 + 2 = 5); the stable goes to 2 once they are available.
    expect(scaling).toEqual([
      "Scaled down ReplicaSet (revision 1) from 4 to 3",
      "Scaled up ReplicaSet (revision 2) from 0 to 2",
      "Scaled down ReplicaSet (revision 1) from 3 to 2",
      "Scaled down ReplicaSet (revision 1) from 2 to 1",
      "Scaled up ReplicaSet (revision 2) from 2 to 4",
      "Scaled down ReplicaSet (revision 1) from 1 to 0",
    ]);
  });

  it("a new revision in the middle of a basic canary scales the intermediate ReplicaSet away within maxUnavailable", async () => {
    const env = await setup({
      blueprints: [checkout({ router: { none: true }, managedRoutes: undefined, steps: [{ setWeight: 50 }, { pause: {} }] })],
    });
    env.newRevision();
    env.settle("the pause at 50 %", () => env.ro().status?.currentStepIndex === 1 && env.ro().status?.phase === "Paused");
    const pods = trackPods(env);
    const scaledFrom = env.ctl.eventLog.length;
    const revision2Hash = env.ro().status?.currentPodHash;
    env.newRevision();
    env.settle("the pause at 50 % of revision 3", () => {
      const status = env.ro().status;
      return (
        status?.currentPodHash !== revision2Hash &&
        status?.currentStepIndex === 1 &&
        status.phase === "Paused" &&
        status.availableReplicas === 4
      );
    });
    expect(pods.specs()).toEqual([0, 2, 2]);
    expect(pods.stop()).toEqual({ maxPods: 5, minAvailable: 3 });
    const revision2 = env.ctl.eventLog
      .slice(scaledFrom)
      .filter((e) => e.reason === "ScalingReplicaSet" && e.message.includes("(revision 2)"));
    expect(revision2.map((e) => e.message.replace(/checkout-\w+ /, ""))).toEqual([
      "Scaled down ReplicaSet (revision 2) from 2 to 1",
      "Scaled down ReplicaSet (revision 2) from 1 to 0",
    ]);
  });

  it("a paused Rollout (spec.paused) scales nothing: the new ReplicaSet waits at 0 until it is resumed", async () => {
    const env = await setup({
      blueprints: [checkout({ router: { none: true }, managedRoutes: undefined, steps: [{ setWeight: 50 }, { pause: {} }] })],
    });
    env.patchMain({ spec: { paused: true } });
    env.newRevision();
    for (let i = 0; i < 20; i++) env.step();
    const pods = trackPods(env);
    expect(pods.specs()).toEqual([0, 4]);
    env.patchMain({ spec: { paused: false } });
    env.settle(
      "the pause at 50 %",
      () => env.ro().status?.currentStepIndex === 1 && env.ro().status?.phase === "Paused" && pods.specs().join() === "2,2",
    );
    pods.stop();
  });

  it("a basic canary of one replica surges to 1 + 1 at setWeight 50: the stable pod stays while the canary's is not available", async () => {
    const env = await setup({
      blueprints: [checkout({ replicas: 1, router: { none: true }, managedRoutes: undefined, steps: [{ setWeight: 50 }, { pause: {} }] })],
    });
    const pods = trackPods(env);
    env.newRevision();
    env.settle("the pause at 50 %", () => env.ro().status?.currentStepIndex === 1 && env.ro().status?.phase === "Paused");
    expect(pods.specs()).toEqual([1, 1]);
    expect(pods.stop()).toEqual({ maxPods: 2, minAvailable: 1 });
  });

  it("the transition log has one entry per controller status write that changed step, phase, weight, verified or revision", async () => {
    const env = await setup();
    const seen = new Map<string, Rollout>();
    const unsubscribe = env.store.subscribe((e) => {
      if (e.resource === T.rollouts && e.object.metadata.name === "checkout")
        seen.set(e.object.metadata.resourceVersion ?? "", e.object as Rollout);
    });
    const start = env.ctl.transitions.entries.length;
    atIndefinitePause(env);
    env.patchStatus({ status: { pauseConditions: null } });
    env.settle("completion", () => env.ro().status?.phase === "Healthy" && env.ro().status?.stableRS === env.ro().status?.currentPodHash);
    unsubscribe();
    const entries = env.ctl.transitions.entries.slice(start);
    expect(entries.length).toBeGreaterThan(8);
    for (const entry of entries) {
      const obj = seen.get(entry.resourceVersion);
      expect(obj, `rv ${entry.resourceVersion}`).toBeDefined();
      expect(entry).toMatchObject({
        cluster: "test",
        namespace: NS,
        name: "checkout",
        stepIndex: obj!.status?.currentStepIndex ?? null,
        phase: obj!.status?.phase,
        canaryWeight: obj!.status?.canary?.weights?.canary.weight ?? null,
        stableWeight: obj!.status?.canary?.weights?.stable.weight ?? null,
        verified: obj!.status?.canary?.weights?.verified ?? null,
        revision: Number(obj!.metadata.annotations?.["rollout.argoproj.io/revision"]),
      });
    }
    for (let i = 1; i < entries.length; i++) {
      const [a, b] = [entries[i - 1], entries[i]];
      expect([a.stepIndex, a.phase, a.canaryWeight, a.verified, a.revision]).not.toEqual([
        b.stepIndex,
        b.phase,
        b.canaryWeight,
        b.verified,
        b.revision,
      ]);
    }
    const weights = entries.map((e) => e.canaryWeight);
    expect(weights).toEqual(expect.arrayContaining([10, 30, 60, 100, 0]));
  });
});
