import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "@/realcluster/net";
import { startExtraControllers, VOLUME_AND_DISRUPTION_CONTROLLERS, type ExtraControllers } from "@/test/harness/extra-controllers";
import { CHART_DIR, run, valuesFile, type RunResult } from "@/test/harness/helm-chart";
import { recordPods, type PodState, type PodTimeline } from "@/test/harness/pod-timeline";
import { realBackendSkipReason, sharedRealCluster, type SharedRealCluster } from "@/test/harness/real-backend";
import { ensureChartTools, type ChartTools } from "@/tools/go/tools";

/*
 * `helm upgrade` of charts/rollscope on the real cluster: the real Deployment and ReplicaSet controllers apply the
 * strategy the chart renders, kwok runs the pods (their containers never start). On SQLite the old pod is gone before
 * the new one exists (never two writers on the file) and the new one mounts the same claim (the history's volume),
 * which outlives an upgrade that stops rendering it and an uninstall; on PostgreSQL pods roll without the ready count
 * dropping below the strategy's promise. What the cluster cannot show is the database file's contents: nothing in a
 * kwok pod opens it.
 */

const SUFFIX = Date.now().toString(36);
/** A changed value of Rollscope's configuration: the checksum annotation changes, so the pods must roll. */
const CHANGED_CONFIG = { config: { attention: { noProgressMinutes: 20 } } };
const SQLITE = { persistence: { enabled: true } };
/** A claim is asked for too: on PostgreSQL the chart must ignore it. */
const POSTGRES = { replicaCount: 2, persistence: { enabled: true }, secrets: { databaseUrl: { existingSecret: "rollscope-db" } } };
const ROLLING_UPDATE_REFUSED =
  "strategy.type: RollingUpdate on SQLite would start the new pod beside the old one, two writers on one database file";
const WAIT = ["--wait", "--timeout", "180s"];

interface Deployment {
  metadata: { generation: number };
  spec: {
    replicas: number;
    strategy: { type: string; rollingUpdate?: { maxSurge: number | string; maxUnavailable: number | string } };
    template: { metadata: { annotations: Record<string, string> } };
  };
  status: { observedGeneration?: number; replicas?: number; updatedReplicas?: number; availableReplicas?: number };
}

interface Claim {
  metadata: { name: string; uid: string; deletionTimestamp?: string; annotations?: Record<string, string> };
  spec: { volumeName?: string };
  status: { phase?: string };
}

interface DisruptionBudget {
  metadata: { generation: number };
  spec: { maxUnavailable?: number | string; minAvailable?: number | string };
  status?: { observedGeneration?: number; currentHealthy?: number; disruptionsAllowed?: number };
}

let tools: ChartTools;
let cluster: SharedRealCluster;
let workDir: string;
let controllers: ExtraControllers;
/** What each part deleted without waiting (`kind/name`), for the last afterAll to wait for. */
const cleanup: string[] = [];

const kubectl = (args: string[], input?: string) => cluster.kubectl(args, input);
const getJson = async <T>(args: string[]): Promise<T> => JSON.parse(await kubectl(["get", ...args, "-o", "json"])) as T;
const helm = (args: string[]): Promise<RunResult> => run(tools.helm, [...args, "--kubeconfig", cluster.adminKubeconfigPath]);

async function upgrade(release: string, namespace: string, values: unknown, extra: string[] = []): Promise<RunResult> {
  return helm(["upgrade", release, CHART_DIR, "--namespace", namespace, "--values", valuesFile(workDir, values), ...WAIT, ...extra]);
}

async function history(release: string, namespace: string): Promise<Array<{ revision: number; status: string }>> {
  const result = await helm(["history", release, "--namespace", namespace, "--output", "json"]);
  if (result.code !== 0) throw new Error(`helm history failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as Array<{ revision: number; status: string }>).map(({ revision, status }) => ({ revision, status }));
}

/** Until the Deployment has only pods of its current template, all ready; the failure says what the extra controllers said. */
async function waitForRollout(namespace: string, deployment: string, timeline: PodTimeline): Promise<Deployment> {
  let current: Deployment | undefined;
  try {
    await waitUntil(
      `${namespace}/${deployment} not rolled out`,
      async () => {
        current = await getJson<Deployment>(["deployment", deployment, "-n", namespace]);
        const { replicas } = current.spec;
        const status = current.status;
        const checksum = current.spec.template.metadata.annotations["checksum/config"];
        const pods = timeline.current();
        return (
          status.observedGeneration === current.metadata.generation &&
          [status.replicas, status.updatedReplicas, status.availableReplicas].every((n) => n === replicas) &&
          pods.length === replicas &&
          pods.every((p) => p.ready && p.checksum === checksum)
        );
      },
      180_000,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; status ${JSON.stringify(current?.status)}; ${controllers.failure() ?? ""}`);
  }
  return current!;
}

/** Pods whose containers may run: a terminating pod's keep running until they stop (its grace period at most). */
const running = (pods: readonly PodState[]) => pods.filter((p) => p.running).length;
/** What a Deployment counts against maxSurge: the replacement of a terminating pod is created at once. */
const notTerminating = (pods: readonly PodState[]) => pods.filter((p) => p.running && !p.terminating).length;
const ready = (pods: readonly PodState[]) => pods.filter((p) => p.ready).length;

/** The first state of the timeline in which more than `limit` pods count, described; or null. */
function overLimit(timeline: PodTimeline, count: (pods: readonly PodState[]) => number, limit: number): string | null {
  const state = timeline.states.find((pods) => count(pods) > limit);
  return state ? state.map((p) => `${p.name}${p.terminating ? " (terminating)" : ""}${p.ready ? " (ready)" : ""}`).join(", ") : null;
}

describe.skipIf(realBackendSkipReason() !== null)("helm upgrade on the real cluster: SQLite and PostgreSQL", () => {
  beforeAll(async () => {
    const log = (line: string) => console.log(`[helm upgrade] ${line}`);
    tools = await ensureChartTools(log);
    workDir = mkdtempSync(path.join(tmpdir(), "rollscope-helm-upgrade-"));
    for (const home of ["CACHE", "CONFIG", "DATA"]) process.env[`HELM_${home}_HOME`] = path.join(workDir, `helm-${home.toLowerCase()}`);
    cluster = sharedRealCluster();
    controllers = startExtraControllers(cluster, path.join(workDir, "logs"), VOLUME_AND_DISRUPTION_CONTROLLERS);
  }, 60 * 60_000);

  afterAll(async () => {
    // The claims' and volume's protection finalizers are the extra controllers' to remove: they stop last.
    if (cleanup.length > 0)
      await kubectl(["wait", "--for=delete", ...cleanup, "--timeout=120s"]).catch((err: Error) => console.log(err.message));
    await controllers?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 180_000);

  describe("SQLite: Recreate, one claim kept across upgrades", () => {
    const namespace = `rollscope-upgrade-sqlite-${SUFFIX}`;
    const release = "rs-sqlite";
    const fullname = `${release}-rollscope`;
    const volume = `${namespace}-data`;
    let timeline: PodTimeline;
    let claim: Claim;
    let firstPod: PodState;

    beforeAll(async () => {
      // What a storage administrator provides (the cluster has no provisioner): a volume reserved for the chart's claim.
      await kubectl(
        ["apply", "-f", "-"],
        JSON.stringify({
          apiVersion: "v1",
          kind: "PersistentVolume",
          metadata: { name: volume },
          spec: {
            capacity: { storage: "1Gi" },
            accessModes: ["ReadWriteOnce"],
            persistentVolumeReclaimPolicy: "Retain",
            storageClassName: "",
            claimRef: { namespace, name: fullname },
            hostPath: { path: path.join(workDir, "sqlite-volume"), type: "DirectoryOrCreate" },
          },
        }),
      );
      const installed = await helm([
        "install",
        release,
        CHART_DIR,
        "--namespace",
        namespace,
        "--create-namespace",
        "--values",
        valuesFile(workDir, SQLITE),
        ...WAIT,
      ]);
      if (installed.code !== 0) throw new Error(`helm install failed: ${installed.stderr}; ${controllers.failure() ?? ""}`);
      claim = await getJson<Claim>(["pvc", fullname, "-n", namespace]);
      timeline = await recordPods(cluster.adminKubeconfigPath, namespace, `app.kubernetes.io/instance=${release}`);
      [firstPod] = timeline.current();
    }, 240_000);

    afterAll(async () => {
      timeline?.stop();
      // The release's ClusterRole and binding are not in the namespace; the claim it keeps goes with the namespace.
      await helm(["uninstall", release, "--namespace", namespace]);
      await kubectl(["delete", "namespace", namespace, "--ignore-not-found", "--wait=false"]);
      await kubectl(["delete", "pv", volume, "--ignore-not-found", "--wait=false"]);
      cleanup.push(`namespace/${namespace}`, `pv/${volume}`);
    }, 60_000);

    it("installs one pod on the chart's claim, bound to the volume", () => {
      expect(timeline.current()).toHaveLength(1);
      expect(firstPod).toMatchObject({ ready: true, claims: [fullname] });
      expect(claim.status.phase).toBe("Bound");
      expect(claim.spec.volumeName).toBe(volume);
    });

    it("helm upgrade with a changed configuration recreates the pod: the old one is gone before the new one exists, on the same claim", async () => {
      const result = await upgrade(release, namespace, { ...SQLITE, ...CHANGED_CONFIG });
      expect(result.code, result.stderr).toBe(0);
      const deployment = await waitForRollout(namespace, fullname, timeline);
      expect(deployment.spec.strategy.type).toBe("Recreate");

      const [pod] = timeline.current();
      expect(pod.uid).not.toBe(firstPod.uid);
      expect(pod.checksum).toBe(deployment.spec.template.metadata.annotations["checksum/config"]);
      expect(pod.checksum).not.toBe(firstPod.checksum);
      expect(pod.claims).toEqual([fullname]);
      expect(await getJson<Claim>(["pvc", fullname, "-n", namespace])).toMatchObject({
        metadata: { uid: claim.metadata.uid },
        spec: { volumeName: volume },
        status: { phase: "Bound" },
      });

      // Every state between the two: never two pods whose containers may run, and both pods were seen.
      expect(timeline.gap()).toBeNull();
      expect(overLimit(timeline, running, 1), "two pods at once").toBeNull();
      expect(new Set(timeline.states.flat().map((p) => p.uid))).toEqual(new Set([firstPod.uid, pod.uid]));
      expect(await history(release, namespace)).toEqual([
        { revision: 1, status: "superseded" },
        { revision: 2, status: "deployed" },
      ]);
    }, 240_000);

    it("refuses strategy.type RollingUpdate, saying why, and leaves revision 2 running untouched", async () => {
      const before = await getJson<Deployment>(["deployment", fullname, "-n", namespace]);
      const [pod] = timeline.current();
      const result = await upgrade(release, namespace, { ...SQLITE, ...CHANGED_CONFIG, strategy: { type: "RollingUpdate" } });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(ROLLING_UPDATE_REFUSED);
      expect(await history(release, namespace)).toEqual([
        { revision: 1, status: "superseded" },
        { revision: 2, status: "deployed" },
      ]);
      const after = await getJson<Deployment>(["deployment", fullname, "-n", namespace]);
      expect(after.metadata.generation).toBe(before.metadata.generation);
      expect(after.spec.strategy.type).toBe("Recreate");
      expect(timeline.current().map((p) => p.uid)).toEqual([pod.uid]);
    }, 240_000);

    it("a values change that takes the claim out of the release does not delete it: the history is there when it comes back", async () => {
      const withoutClaim = await upgrade(release, namespace, { ...CHANGED_CONFIG, persistence: { enabled: false } });
      expect(withoutClaim.code, withoutClaim.stderr).toBe(0);
      await waitForRollout(namespace, fullname, timeline);
      expect(timeline.current()[0].claims).toEqual([]);
      const kept = await getJson<Claim>(["pvc", fullname, "-n", namespace]).catch((err: Error) => err.message);
      expect(kept).toMatchObject({ metadata: { uid: claim.metadata.uid }, status: { phase: "Bound" } });
      expect((kept as Claim).metadata.deletionTimestamp).toBeUndefined();

      const withClaim = await upgrade(release, namespace, { ...SQLITE, ...CHANGED_CONFIG });
      expect(withClaim.code, withClaim.stderr).toBe(0);
      await waitForRollout(namespace, fullname, timeline);
      expect(timeline.current()[0].claims).toEqual([fullname]);
      expect(await getJson<Claim>(["pvc", fullname, "-n", namespace])).toMatchObject({
        metadata: { uid: claim.metadata.uid },
        spec: { volumeName: volume },
      });
      expect(timeline.gap()).toBeNull();
      expect(overLimit(timeline, running, 1), "two pods at once").toBeNull();
      expect((await history(release, namespace)).map((r) => r.status)).toEqual(["superseded", "superseded", "superseded", "deployed"]);
    }, 300_000);

    it("helm uninstall keeps the claim too, and installing the release again takes it back", async () => {
      const uninstalled = await helm(["uninstall", release, "--namespace", namespace, "--wait"]);
      expect(uninstalled.code, uninstalled.stderr).toBe(0);
      await waitUntil("the release's pod still there", async () => timeline.current().length === 0, 120_000);
      const kept = await getJson<Claim>(["pvc", fullname, "-n", namespace]);
      expect(kept.metadata.uid).toBe(claim.metadata.uid);
      expect(kept.metadata.deletionTimestamp).toBeUndefined();

      const installed = await helm([
        "install",
        release,
        CHART_DIR,
        "--namespace",
        namespace,
        "--values",
        valuesFile(workDir, SQLITE),
        ...WAIT,
      ]);
      expect(installed.code, installed.stderr).toBe(0);
      await waitForRollout(namespace, fullname, timeline);
      expect(timeline.current()[0].claims).toEqual([fullname]);
      expect(await getJson<Claim>(["pvc", fullname, "-n", namespace])).toMatchObject({
        metadata: { uid: claim.metadata.uid },
        spec: { volumeName: volume },
      });
      expect(timeline.gap()).toBeNull();
      expect(overLimit(timeline, running, 1), "two pods at once").toBeNull();
      expect(await history(release, namespace)).toEqual([{ revision: 1, status: "deployed" }]);
    }, 300_000);

    it("the PodDisruptionBudget lets a drain evict the one pod", async () => {
      const budget = await waitForBudget(namespace, fullname, 1);
      expect(budget.spec.maxUnavailable).toBe(1);
      expect(budget.status?.disruptionsAllowed).toBe(1);
    }, 120_000);
  });

  describe("PostgreSQL: RollingUpdate, two replicas, no claim", () => {
    const namespace = `rollscope-upgrade-pg-${SUFFIX}`;
    const release = "rs-pg";
    const fullname = `${release}-rollscope`;
    let timeline: PodTimeline;

    beforeAll(async () => {
      await kubectl(["create", "namespace", namespace]);
      // The pods never connect (kwok runs no container): the URL only has to be there for the chart's check.
      await kubectl([
        "create",
        "secret",
        "generic",
        "rollscope-db",
        "-n",
        namespace,
        "--from-literal=database-url=postgresql://rollscope@postgres.invalid:5432/rollscope",
      ]);
      const installed = await helm([
        "install",
        release,
        CHART_DIR,
        "--namespace",
        namespace,
        "--values",
        valuesFile(workDir, POSTGRES),
        ...WAIT,
      ]);
      if (installed.code !== 0) throw new Error(`helm install failed: ${installed.stderr}`);
      timeline = await recordPods(cluster.adminKubeconfigPath, namespace, `app.kubernetes.io/instance=${release}`);
      await waitForRollout(namespace, fullname, timeline);
    }, 240_000);

    afterAll(async () => {
      timeline?.stop();
      await helm(["uninstall", release, "--namespace", namespace]);
      await kubectl(["delete", "namespace", namespace, "--ignore-not-found", "--wait=false"]);
      cleanup.push(`namespace/${namespace}`);
    }, 60_000);

    it("helm upgrade with a changed configuration replaces both pods, never with fewer ready than maxUnavailable allows", async () => {
      const before = timeline.current();
      const start = timeline.states.length - 1;
      const result = await upgrade(release, namespace, { ...POSTGRES, ...CHANGED_CONFIG });
      expect(result.code, result.stderr).toBe(0);
      const deployment = await waitForRollout(namespace, fullname, timeline);
      const { strategy, replicas } = deployment.spec;
      expect(strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
      const maxSurge = strategy.rollingUpdate!.maxSurge as number;
      const maxUnavailable = strategy.rollingUpdate!.maxUnavailable as number;

      const after = timeline.current();
      expect(after.map((p) => p.uid).filter((uid) => before.some((p) => p.uid === uid))).toEqual([]);
      expect(new Set(after.map((p) => p.checksum))).toEqual(new Set([deployment.spec.template.metadata.annotations["checksum/config"]]));
      expect(after.map((p) => p.checksum)).not.toContain(before[0].checksum);

      expect(timeline.gap()).toBeNull();
      const during = timeline.states.slice(start);
      expect(Math.min(...during.map(ready)), "ready pods during the rollout").toBeGreaterThanOrEqual(replicas - maxUnavailable);
      expect(overLimit(timeline, notTerminating, replicas + maxSurge), "more pods than maxSurge allows").toBeNull();
      // New pods did run beside old ones: the check the SQLite test makes sees such an overlap.
      expect(Math.max(...during.map(running))).toBeGreaterThan(replicas);

      expect((await getJson<{ items: unknown[] }>(["pvc", "-n", namespace])).items).toEqual([]);
      expect(after.flatMap((p) => p.claims)).toEqual([]);
      expect(await history(release, namespace)).toEqual([
        { revision: 1, status: "superseded" },
        { revision: 2, status: "deployed" },
      ]);
    }, 240_000);

    it("the PodDisruptionBudget allows a disruption once the pods are ready, and an eviction goes through", async () => {
      const budget = await waitForBudget(namespace, fullname, 2);
      expect(budget.spec.maxUnavailable).toBe(1);
      expect(budget.status?.disruptionsAllowed).toBeGreaterThanOrEqual(1);
      const [pod] = timeline.current();
      await kubectl(
        ["create", "--raw", `/api/v1/namespaces/${namespace}/pods/${pod.name}/eviction`, "-f", "-"],
        JSON.stringify({ apiVersion: "policy/v1", kind: "Eviction", metadata: { name: pod.name, namespace } }),
      );
      await waitUntil(`${pod.name} not evicted`, async () => !timeline.current().some((p) => p.uid === pod.uid), 60_000);
      await waitForRollout(namespace, fullname, timeline);
    }, 180_000);
  });
});

/** The budget once the disruption controller has counted the pods: its status is what an eviction is checked against. */
async function waitForBudget(namespace: string, name: string, healthy: number): Promise<DisruptionBudget> {
  let budget: DisruptionBudget | undefined;
  try {
    await waitUntil(
      `${namespace}/${name} budget not computed`,
      async () => {
        budget = await getJson<DisruptionBudget>(["pdb", name, "-n", namespace]);
        return budget.status?.observedGeneration === budget.metadata.generation && budget.status.currentHealthy === healthy;
      },
      90_000,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; status ${JSON.stringify(budget?.status)}; ${controllers.failure() ?? ""}`);
  }
  return budget!;
}
