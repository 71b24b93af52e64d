import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { RolloutWorkload } from "@/lib/contracts/rollout-workload";
import { CLUSTER_NAME } from "@/realcluster/cluster";
import { CANARY_WEIGHT_ANNOTATION, DEMO_ROLLOUTS, imageFor, routedCanaryIngress } from "@/realcluster/demo-workloads";
import { DEMO_NAMESPACE, toYaml, type K8sObject } from "@/realcluster/manifests";
import { waitUntil } from "@/realcluster/net";
import { argoRolloutsCli, type ArgoRolloutsCli, type CliRolloutView } from "@/test/harness/cli-get-rollout";
import { openInProcessSession, stopInProcessApp } from "@/test/harness/in-process-session";
import { realBackendSkipReason, sharedRealCluster, type SharedRealCluster } from "@/test/harness/real-backend";

/*
 * Upstream's CLI as the oracle for Rollscope on the real controller (issue 14). `kubectl-argo-rollouts` is built from
 * the same argo-rollouts module as the controller (realcluster/rollouts, v1.9.1). For the demo Rollouts (a canary
 * routed by a plugin, a basic canary whose actual weight comes from its ReplicaSets, a blue-green) at several points,
 * Rollscope's view from its API (status, message, strategy, step, set and actual weight, images, revision) must equal
 * what `kubectl argo rollouts get rollout` prints. Two twin Rollouts then check that Rollscope's promote, abort and
 * undo leave the same state as the CLI's commands from the same starting state.
 *
 * Both sides read the cluster at slightly different moments, so each comparison first waits for the state it is
 * about (the CLI showing it), then for the two to agree; a lasting difference fails with both views. The three demo
 * Rollouts and the twins are independent, so their checks run at the same time (the controller's waits overlap).
 * The cluster is the `real-cluster` project's (test/harness/real-cluster-setup.ts); this file owns its namespace `demo`.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };
type ActionBody = { action: string; expected: RolloutActionsView["expected"]; toRevision?: number; container?: string; image?: string };

const ORIGIN = "http://127.0.0.1:3000";
const TWIN_ROLLSCOPE = "twin-rollscope";
const TWIN_CLI = "twin-cli";
const TWIN_STEPS = [{ setWeight: 25 }, { pause: {} }, { setWeight: 50 }, { pause: {} }];
/** A basic canary (no traffic routing) through timed pauses: long enough a first pause to compare, short later ones. */
const BASIC = "basic-timed";
const BASIC_STEPS = [
  { setWeight: 25 },
  { pause: { duration: "20s" } },
  { setWeight: 50 },
  { pause: { duration: "2s" } },
  { setWeight: 75 },
  { pause: { duration: "2s" } },
];

/** A canary whose first step runs an Experiment of the canary's template beside the stable (upstream's experiment step). */
const EXPERIMENT = "experiment-step";
const EXPERIMENT_STEPS = [
  { experiment: { duration: "60s", templates: [{ name: "canary-preview", specRef: "canary", replicas: 1 }] } },
  { pause: {} },
];

let cluster: SharedRealCluster;
let cli: ArgoRolloutsCli;
let workloadRoute: { GET: Handler<RolloutParams> };
let actionsRoute: { GET: Handler<RolloutParams>; POST: Handler<RolloutParams> };
let csrf: { token: string; cookie: string };
let fleetRollout: (name: string) => { cliStep: string; actualWeight: number | null; resourceVersion: string | null } | undefined;

const target = (name: string): RolloutParams => ({ cluster: CLUSTER_NAME, namespace: DEMO_NAMESPACE, name });
const apiRequest = (name: string, suffix: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  new Request(`${ORIGIN}/api/clusters/${CLUSTER_NAME}/rollouts/${DEMO_NAMESPACE}/${name}${suffix}`, {
    method: init.method ?? "GET",
    headers: { host: "127.0.0.1:3000", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

function canaryRollout(name: string, steps: readonly object[]): K8sObject {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name, namespace: DEMO_NAMESPACE },
    spec: {
      replicas: 4,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "web", image: imageFor(1) }] } },
      strategy: { canary: { steps } },
    },
  };
}

/** Rollscope's answer in the CLI's terms: the `…/replicasets` API, with the fleet row's step and actual weight checked against it. */
async function rollscopeView(name: string): Promise<CliRolloutView> {
  const res = await workloadRoute.GET(apiRequest(name, "/replicasets"), { params: Promise.resolve(target(name)) });
  if (res.status !== 200) throw new Error(`GET …/replicasets answered ${res.status}`);
  const { info } = (await res.json()) as RolloutWorkload;
  const canary = info.strategy === "Canary";
  const row = fleetRollout(name);
  if (row && row.cliStep !== info.step) throw new Error(`the fleet row's step ${row.cliStep} differs from the detail's ${info.step}`);
  if (row?.actualWeight != null && row.actualWeight !== info.actualWeight)
    throw new Error(`the fleet row's actual weight ${row.actualWeight} differs from ${info.actualWeight}`);
  return {
    status: info.status,
    message: info.message,
    strategy: info.strategy,
    step: canary ? info.step : "",
    setWeight: canary ? String(info.setWeight) : "",
    actualWeight: canary ? String(info.actualWeight) : "",
    images: info.images.map((i) => (i.tags.length > 0 ? `${i.image} (${i.tags.join(", ")})` : i.image)),
    revision: info.revision,
  };
}

/** Waits until the CLI shows `expected`, then until Rollscope's view equals the CLI's; fails with both when they never agree. */
async function expectSameAsCli(name: string, expected: Partial<CliRolloutView>, timeoutMs = 90_000): Promise<CliRolloutView> {
  const last: { cli?: CliRolloutView; rollscope?: CliRolloutView | string } = {};
  try {
    await waitUntil(
      `${name}: the CLI did not show ${JSON.stringify(expected)}`,
      async () => {
        const seen = await cli.get(name);
        return isDeepStrictEqual({ ...seen, ...expected }, seen);
      },
      timeoutMs,
    );
    await waitUntil(
      `${name}: Rollscope's view never equalled the CLI's`,
      async () => {
        const seen = await cli.get(name);
        const rollscope = await rollscopeView(name).catch((err: unknown) => String(err));
        const again = await cli.get(name);
        Object.assign(last, { cli: again, rollscope });
        return isDeepStrictEqual(seen, again) && isDeepStrictEqual(rollscope, again);
      },
      30_000,
    );
  } catch (err) {
    const current = last.cli ?? (await cli.get(name));
    expect(last.rollscope, `${(err as Error).message}; the CLI shows ${JSON.stringify(current)}`).toStrictEqual(current);
    throw err;
  }
  if (!last.cli) throw new Error("unreachable: the comparison ended without a CLI view");
  return last.cli;
}

async function waitForCache(name: string): Promise<void> {
  const version = async () =>
    (
      JSON.parse(await cluster.kubectl(["get", "rollouts.argoproj.io", name, "-n", DEMO_NAMESPACE, "-o", "json"])) as {
        metadata: { resourceVersion: string };
      }
    ).metadata.resourceVersion;
  await waitUntil(
    `Rollscope's watch did not catch up with ${name}`,
    async () => fleetRollout(name)?.resourceVersion === (await version()),
    30_000,
  );
}

/** One action through Rollscope's action API, as the detail page sends it. */
async function rollscopeAction(name: string, action: string, extra: Partial<ActionBody> = {}): Promise<void> {
  await waitForCache(name);
  const viewRes = await actionsRoute.GET(apiRequest(name, "/actions"), { params: Promise.resolve(target(name)) });
  const view = (await viewRes.json()) as RolloutActionsView;
  const headers = { "content-type": "application/json", origin: ORIGIN, cookie: csrf.cookie, "x-csrf-token": csrf.token };
  const res = await actionsRoute.POST(
    apiRequest(name, "/actions", { method: "POST", headers, body: { action, expected: view.expected, ...extra } }),
    { params: Promise.resolve(target(name)) },
  );
  expect(res.status, await res.clone().text()).toBe(200);
}

async function setImage(name: string, revision: number): Promise<void> {
  const patch = [{ op: "replace", path: "/spec/template/spec/containers/0/image", value: imageFor(revision) }];
  await cluster.kubectl(["patch", "rollouts.argoproj.io", name, "-n", DEMO_NAMESPACE, "--type=json", "-p", JSON.stringify(patch)]);
}

/** The weight the traffic-router plugin wrote on the routed canary's Ingress. */
async function canaryIngressWeight(): Promise<string | undefined> {
  const out = await cluster.kubectl(["get", "ingress", routedCanaryIngress, "-n", DEMO_NAMESPACE, "-o", "json"]);
  return (JSON.parse(out) as { metadata: { annotations?: Record<string, string> } }).metadata.annotations?.[CANARY_WEIGHT_ANNOTATION];
}

interface StatusSubset {
  phase?: string;
  message?: string;
  currentStepIndex?: number;
  abort?: boolean;
  controllerPause?: boolean;
  pauseReasons: string[];
  promoted: boolean;
  image: string;
}

async function statusOf(name: string): Promise<StatusSubset> {
  const ro = JSON.parse(await cluster.kubectl(["get", "rollouts.argoproj.io", name, "-n", DEMO_NAMESPACE, "-o", "json"])) as {
    spec: { template: { spec: { containers: Array<{ image: string }> } } };
    status: {
      phase?: string;
      message?: string;
      currentStepIndex?: number;
      abort?: boolean;
      controllerPause?: boolean;
      pauseConditions?: Array<{ reason: string }>;
      stableRS?: string;
      currentPodHash?: string;
    };
  };
  const s = ro.status;
  return {
    phase: s.phase,
    message: s.message,
    currentStepIndex: s.currentStepIndex,
    abort: s.abort,
    controllerPause: s.controllerPause,
    pauseReasons: (s.pauseConditions ?? []).map((p) => p.reason),
    promoted: s.stableRS === s.currentPodHash,
    image: ro.spec.template.spec.containers[0].image,
  };
}

/** Both twins reach the same settled state (the CLI shows `expected` for each), with the same status fields and CLI view. */
async function expectTwinsAgree(expected: Partial<CliRolloutView>): Promise<void> {
  await Promise.all([expectSameAsCli(TWIN_ROLLSCOPE, expected), expectSameAsCli(TWIN_CLI, expected)]);
  // ReplicaSets keep scaling for a moment after the status settles (an aborted canary's pods go away one by one), so
  // the twins may pass through different actual weights: wait until the CLI shows them alike, then Rollscope must too.
  const last: { viaRollscope?: CliRolloutView; viaCli?: CliRolloutView } = {};
  await waitUntil(
    "the twins' CLI views did not agree",
    async () => {
      [last.viaRollscope, last.viaCli] = await Promise.all([cli.get(TWIN_ROLLSCOPE), cli.get(TWIN_CLI)]);
      return isDeepStrictEqual(last.viaRollscope, last.viaCli);
    },
    60_000,
  ).catch((err: unknown) => {
    expect(last.viaRollscope).toStrictEqual(last.viaCli);
    throw err;
  });
  await expectSameAsCli(TWIN_ROLLSCOPE, last.viaCli ?? {});
  await waitUntil(
    "the twins' status fields did not agree",
    async () => isDeepStrictEqual(await statusOf(TWIN_ROLLSCOPE), await statusOf(TWIN_CLI)),
    30_000,
  );
}

/** The Experiments of `get rollout`'s tree (`Σ <name>  Experiment  <icon> <status>`), by name. */
async function cliExperiments(name: string): Promise<Record<string, string>> {
  const text = await cli.run(["get", "rollout", name, "--no-color"]);
  return Object.fromEntries([...text.matchAll(/Σ (\S+)\s+Experiment\s+\S+\s+(\w+)/g)].map((m) => [m[1], m[2]]));
}

/** The Experiments on Rollscope's revisions card (the `…/replicasets` API), by name. */
async function rollscopeExperiments(name: string): Promise<Record<string, string>> {
  const res = await workloadRoute.GET(apiRequest(name, "/replicasets"), { params: Promise.resolve(target(name)) });
  const { info, experimentsError } = (await res.json()) as RolloutWorkload;
  if (experimentsError) throw new Error(experimentsError);
  return Object.fromEntries(info.experiments.map((e) => [e.name, e.status]));
}

/** Until the CLI lists an Experiment in `status`, then until Rollscope lists the same Experiments in the same states. */
async function expectSameExperimentsAsCli(name: string, status: string): Promise<Record<string, string>> {
  await waitUntil(
    `${name}: the CLI never listed an Experiment ${status}`,
    async () => Object.values(await cliExperiments(name)).includes(status),
    120_000,
  );
  const last: { cli?: Record<string, string>; rollscope?: Record<string, string> | string } = {};
  await waitUntil(
    `${name}: Rollscope's Experiments never equalled the CLI's`,
    async () => {
      last.cli = await cliExperiments(name);
      last.rollscope = await rollscopeExperiments(name).catch((err: unknown) => String(err));
      return isDeepStrictEqual(last.rollscope, last.cli);
    },
    30_000,
  ).catch((err: unknown) => {
    expect(last.rollscope).toStrictEqual(last.cli);
    throw err;
  });
  return last.cli!;
}

describe.skipIf(realBackendSkipReason() !== null)("Rollscope vs upstream's CLI on the real controller", () => {
  beforeAll(async () => {
    cluster = sharedRealCluster();
    cli = argoRolloutsCli(cluster.binDir, cluster.kubeconfigPath, "real-admin", DEMO_NAMESPACE);
    const own = [
      canaryRollout(TWIN_ROLLSCOPE, TWIN_STEPS),
      canaryRollout(TWIN_CLI, TWIN_STEPS),
      canaryRollout(BASIC, BASIC_STEPS),
      canaryRollout(EXPERIMENT, EXPERIMENT_STEPS),
    ];
    await cluster.kubectl(["apply", "--server-side", "-f", "-"], toYaml(own));
    process.env.DATABASE_URL = createMigratedDatabase();
    process.env.ROLLSCOPE_CONFIG = cluster.rollscopeConfigPath;
    workloadRoute = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/replicasets/route");
    actionsRoute = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
    const { getAppContext } = await import("@/lib/server/app-context");
    fleetRollout = (name) => getAppContext().fleet.cluster(CLUSTER_NAME)?.rollout(DEMO_NAMESPACE, name);
    csrf = await openInProcessSession(ORIGIN);
  }, 120_000);

  afterAll(async () => {
    await stopInProcessApp();
  }, 60_000);

  it.concurrent(
    "routed canary: initially, after an image update, after a promote and after an abort through Rollscope",
    async () => {
      const name = DEMO_ROLLOUTS.routed;
      expect(await expectSameAsCli(name, { status: "Healthy", revision: 1 })).toMatchObject({
        strategy: "Canary",
        step: "6/6",
        setWeight: "100",
        actualWeight: "100",
        images: [`${imageFor(1)} (stable)`],
      });
      await setImage(name, 2);
      expect(await expectSameAsCli(name, { status: "Paused", step: "1/6", actualWeight: "20" })).toMatchObject({
        message: "CanaryPauseStep",
        revision: 2,
      });
      // The plugin, not only the controller's status: the canary Ingress carries the step's weight.
      await waitUntil("the plugin did not set the canary Ingress to 20 %", async () => (await canaryIngressWeight()) === "20", 30_000);
      await rollscopeAction(name, "promote");
      // The next pause is timed (30 s): the abort follows at once.
      await expectSameAsCli(name, { status: "Paused", step: "3/6", setWeight: "50", actualWeight: "50" });
      await waitUntil(
        "the plugin did not move the canary Ingress to 50 % after Rollscope's promote",
        async () => (await canaryIngressWeight()) === "50",
        30_000,
      );
      await rollscopeAction(name, "abort");
      await expectSameAsCli(name, { status: "Degraded", step: "0/6", setWeight: "0" });
    },
    400_000,
  );

  it.concurrent(
    "basic canary without traffic routing: the actual weight from its ReplicaSets, through timed pauses to Healthy",
    async () => {
      const name = BASIC;
      await expectSameAsCli(name, { status: "Healthy", revision: 1 });
      await setImage(name, 2);
      // 1 of 4 available pods is the canary's: 25 (there is no status.canary.weights without traffic routing).
      await expectSameAsCli(name, { status: "Paused", step: "1/6", actualWeight: "25" });
      await expectSameAsCli(name, { status: "Healthy", step: "6/6", revision: 2 }, 180_000);
    },
    400_000,
  );

  it.concurrent(
    "experiment step: the Experiment, its state and its images (Σ:<template>) as the CLI shows them, running and after",
    async () => {
      const name = EXPERIMENT;
      await expectSameAsCli(name, { status: "Healthy", revision: 1 });
      await setImage(name, 2);
      const running = await expectSameExperimentsAsCli(name, "Running");
      expect(Object.keys(running)).toHaveLength(1);
      // While it runs, the images carry the Experiment's template tag on both sides.
      await waitUntil(
        `${name}: the CLI never tagged an image Σ:canary-preview`,
        async () => (await cli.get(name)).images.some((i) => i.includes("Σ:canary-preview")),
        60_000,
      );
      expect((await expectSameAsCli(name, {})).images.join(" ")).toContain("Σ:canary-preview");
      // After its minute: Successful, and the Rollout paused at the next step, alike.
      expect(Object.values(await expectSameExperimentsAsCli(name, "Successful"))).toStrictEqual(["Successful"]);
      await expectSameAsCli(name, { status: "Paused", step: "1/2", revision: 2 }, 120_000);
    },
    400_000,
  );

  it.concurrent(
    "blue-green: initially, waiting with a preview, after a promote, and after an abort of the next revision",
    async () => {
      const name = DEMO_ROLLOUTS.blueGreen;
      expect(await expectSameAsCli(name, { status: "Healthy", revision: 1 })).toMatchObject({
        strategy: "BlueGreen",
        images: [`${imageFor(1)} (stable, active)`],
      });
      await setImage(name, 2);
      expect(await expectSameAsCli(name, { status: "Paused", revision: 2 })).toMatchObject({
        images: [`${imageFor(1)} (stable, active)`, `${imageFor(2)} (preview)`],
      });
      await rollscopeAction(name, "promote");
      await expectSameAsCli(name, { status: "Healthy", revision: 2, images: [`${imageFor(2)} (stable, active)`] });
      await setImage(name, 3);
      await expectSameAsCli(name, { status: "Paused", revision: 3 });
      await rollscopeAction(name, "abort");
      await expectSameAsCli(name, { status: "Degraded", revision: 3 });
    },
    400_000,
  );

  // The twins' two sequences are one test: the second starts from the state the first leaves.
  it.concurrent(
    "twin canaries: Rollscope's promote, abort, undo, undo --to-revision and set image leave the same state as the CLI's commands",
    async () => {
      // From a canary paused at step 1: promote, abort, then undo.
      await Promise.all([setImage(TWIN_ROLLSCOPE, 2), setImage(TWIN_CLI, 2)]);
      await expectTwinsAgree({ status: "Paused", step: "1/4", actualWeight: "25" });

      await Promise.all([rollscopeAction(TWIN_ROLLSCOPE, "promote"), cli.run(["promote", TWIN_CLI])]);
      await expectTwinsAgree({ status: "Paused", step: "3/4", setWeight: "50", actualWeight: "50" });

      await Promise.all([rollscopeAction(TWIN_ROLLSCOPE, "abort"), cli.run(["abort", TWIN_CLI])]);
      await expectTwinsAgree({ status: "Degraded", step: "0/4", setWeight: "0" });

      // Back to revision 1's template: the controller reuses that ReplicaSet as revision 3.
      await Promise.all([rollscopeAction(TWIN_ROLLSCOPE, "undo"), cli.run(["undo", TWIN_CLI])]);
      await expectTwinsAgree({ revision: 3, images: [`${imageFor(1)} (stable)`] });

      // undo --to-revision from a healthy canary: back to an older revision's template, then promoted alike.
      await Promise.all([setImage(TWIN_ROLLSCOPE, 4), setImage(TWIN_CLI, 4)]);
      await expectTwinsAgree({ status: "Paused", step: "1/4", revision: 4 });
      await Promise.all([rollscopeAction(TWIN_ROLLSCOPE, "promote-full"), cli.run(["promote", "--full", TWIN_CLI])]);
      await expectTwinsAgree({ status: "Healthy", revision: 4 });
      // Revision 2 (image v2) is gone from the template: undo to it starts a canary of v2 again.
      await Promise.all([rollscopeAction(TWIN_ROLLSCOPE, "undo", { toRevision: 2 }), cli.run(["undo", TWIN_CLI, "--to-revision=2"])]);
      await expectTwinsAgree({ status: "Paused", step: "1/4", revision: 5 });
      expect((await statusOf(TWIN_ROLLSCOPE)).image).toBe(imageFor(2));

      // Set image mid-canary: Rollscope's action against `kubectl argo rollouts set image <rollout> web=<image>`.
      await Promise.all([
        rollscopeAction(TWIN_ROLLSCOPE, "set-image", { container: "web", image: imageFor(6) }),
        cli.run(["set", "image", TWIN_CLI, `web=${imageFor(6)}`]),
      ]);
      await expectTwinsAgree({ status: "Paused", step: "1/4", revision: 6 });
      expect((await statusOf(TWIN_ROLLSCOPE)).image).toBe(imageFor(6));
    },
    600_000,
  );
});
