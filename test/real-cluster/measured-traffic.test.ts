import { readFileSync } from "node:fs";
import path from "node:path";
import type { KubernetesObject } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { httpCall, startRouteBridge, type RouteBridge } from "@/test/harness/route-bridge";
import type { MeasuredTrafficResponse } from "@/lib/contracts/rollout-detail";
import type { PluginsOverview } from "@/lib/contracts/plugins";
import type { BackgroundServices } from "@/lib/server/background-services";
import { DATA_PLANE_FILE, type DataPlaneInfo } from "@/realcluster/data-plane";
import { CANARY_WEIGHT_ANNOTATION } from "@/realcluster/demo-workloads";
import { startLoadGenerator, type LoadGenerator } from "@/realcluster/load-generator";
import { SAMPLE_ROUTER_PLUGIN } from "@/realcluster/manifests";
import { createObjects, isHealthy, isPausedAt, promoteAsAdmin, TEST_NAMESPACE, waitForRollout, type Backend } from "@/test/harness/backend";
import { realBackend, realBackendSkipReason, sharedRealCluster, type SharedRealCluster } from "@/test/harness/real-backend";

/**
 * Measured traffic for real: a canary routed by upstream's sample plugin walks its steps while a steady load goes
 * through Traefik, which follows the canary Ingress the plugin writes, to pods that count what they answer. At each
 * pause three numbers agree — the step's weight, the weight the plugin applied (the Rollout's status.canary.weights
 * and the canary Ingress's annotation) — and the share Rollscope shows as measured (its measured-traffic API, as the
 * detail page reads it, from Traefik's counters in Prometheus) is within 3 points of the pods' own count by
 * pod-template hash over the same window. Then Traefik is cut off from the API server: the controller still reports
 * the next weight, the measured share stays behind, and Rollscope raises its stuck-router finding.
 * The real cluster's Rollscope configuration (realcluster/cluster.ts) sets a 30-s rate window and a 30-s stuck-router
 * time; nothing here is timed, every wait is for an outcome, with generous bounds.
 */

const NAME = "measured";
const NAMESPACE = TEST_NAMESPACE;
const HOST = `${NAME}.${NAMESPACE}.local`;
const CANARY_INGRESS = `${NAME}-${NAME}-canary`;
/** The measured-traffic window of the real cluster's Rollscope configuration (realcluster/cluster.ts). */
const WINDOW_MS = 30_000;
/** After a weight change: a point whose whole window is after it, plus a scrape interval and Traefik's reload. */
const SETTLED_AFTER_MS = WINDOW_MS + 10_000;
const TOLERANCE_POINTS = 3;
const STEPS = [{ setWeight: 20 }, { pause: {} }, { setWeight: 50 }, { pause: {} }, { setWeight: 80 }, { pause: {} }];
const WAIT_MS = 240_000;

interface Row {
  step: string;
  requested: number;
  appliedStatus: number;
  appliedIngress: number;
  measured: number;
  pods: number;
  podRequests: number;
  at: string;
}

function routedCanary(): KubernetesObject[] {
  const service = (name: string) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: NAMESPACE },
    spec: { selector: { app: NAME }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  });
  return [
    service(`${NAME}-stable`),
    service(`${NAME}-canary`),
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: NAME, namespace: NAMESPACE, annotations: { "kubernetes.io/ingress.class": "nginx" } },
      spec: {
        rules: [
          {
            host: HOST,
            http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: `${NAME}-stable`, port: { number: 80 } } } }] },
          },
        ],
      },
    },
    {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "Rollout",
      metadata: { name: NAME, namespace: NAMESPACE },
      spec: {
        replicas: 2,
        revisionHistoryLimit: 2,
        selector: { matchLabels: { app: NAME } },
        template: {
          metadata: { labels: { app: NAME } },
          spec: {
            containers: [
              { name: "web", image: "registry.local/rollscope-test/measured:1", ports: [{ name: "http", containerPort: 8080 }] },
            ],
          },
        },
        strategy: {
          canary: {
            stableService: `${NAME}-stable`,
            canaryService: `${NAME}-canary`,
            trafficRouting: { plugins: { [SAMPLE_ROUTER_PLUGIN]: { stableIngress: NAME } } },
            steps: STEPS,
          },
        },
      },
    },
  ] as KubernetesObject[];
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined>, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined) return value;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s${last ? ` (last error: ${last})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

describe.skipIf(realBackendSkipReason() !== null)("measured traffic on the real cluster's data plane", () => {
  let backend: Backend;
  let cluster: SharedRealCluster;
  let dataPlane: DataPlaneInfo;
  let bridge: RouteBridge;
  let load: LoadGenerator;
  let services: BackgroundServices | undefined;
  const rows: Row[] = [];
  let findingDelaySeconds: number | null = null;

  const read = async <T>(url: string): Promise<T> => {
    const reply = await httpCall(url);
    if (reply.status !== 200) throw new Error(`GET ${url} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
    return JSON.parse(reply.text) as T;
  };
  const post = async (url: string) => {
    const reply = await httpCall(url, { method: "POST" });
    if (reply.status !== 200) throw new Error(`POST ${url} answered ${reply.status}: ${reply.text}`);
  };
  const rolloutJson = async () =>
    JSON.parse(await cluster.kubectl(["get", "rollouts.argoproj.io", NAME, "-n", NAMESPACE, "-o", "json"])) as {
      status?: { currentPodHash?: string; stableRS?: string; canary?: { weights?: { canary?: { weight?: number } } } };
    };
  const ingressWeight = async () => {
    const ingress = JSON.parse(await cluster.kubectl(["get", "ingress", CANARY_INGRESS, "-n", NAMESPACE, "-o", "json"])) as {
      metadata: { annotations?: Record<string, string> };
    };
    return Number(ingress.metadata.annotations?.[CANARY_WEIGHT_ANNOTATION]);
  };
  const promote = () => promoteAsAdmin(backend, NAME);

  /** The weight the controller reports and the annotation the plugin wrote both at `weight`: the time that happened. */
  async function waitApplied(weight: number): Promise<number> {
    await waitFor(`status.canary.weights and the canary Ingress at ${weight} %`, async () => {
      const status = (await rolloutJson()).status;
      return status?.canary?.weights?.canary?.weight === weight && (await ingressWeight()) === weight ? true : null;
    });
    return Date.now();
  }

  /** Rollscope's measured share at its first point whose window starts after `sinceMs`, next to the pods' own count. */
  async function measure(step: string, requested: number, sinceMs: number): Promise<Row> {
    const url = `${bridge.url}/api/clusters/${backend.cluster}/rollouts/${NAMESPACE}/${NAME}/measured-traffic?range=15m`;
    const point = await waitFor(`a measured point ${SETTLED_AFTER_MS / 1000} s after the weight changed to ${requested} %`, async () => {
      const body = await read<MeasuredTrafficResponse>(url);
      if (body.measured?.error) throw new Error(body.measured.error);
      return body.measured?.points.find((p) => p.canaryPercent !== null && Date.parse(p.at) >= sinceMs + SETTLED_AFTER_MS);
    });
    const status = (await rolloutJson()).status!;
    const atMs = Date.parse(point.at);
    const counts = await read<{ byHash: Record<string, number> }>(
      `${dataPlane.controlUrl}/counts?namespace=${NAMESPACE}&from=${atMs - WINDOW_MS}&to=${atMs}`,
    );
    const total = Object.values(counts.byHash).reduce((a, b) => a + b, 0);
    const canary = counts.byHash[status.currentPodHash ?? ""] ?? 0;
    return {
      step,
      requested,
      appliedStatus: status.canary?.weights?.canary?.weight ?? NaN,
      appliedIngress: await ingressWeight(),
      measured: point.canaryPercent!,
      pods: total > 0 ? (canary / total) * 100 : NaN,
      podRequests: total,
      at: point.at,
    };
  }

  beforeAll(async () => {
    backend = realBackend();
    cluster = sharedRealCluster();
    dataPlane = JSON.parse(readFileSync(path.join(path.dirname(cluster.rollscopeConfigPath), DATA_PLANE_FILE), "utf8")) as DataPlaneInfo;
    // Rollscope in this process, on the real cluster's own configuration (with Traefik's measured-traffic template).
    process.env.DATABASE_URL = createMigratedDatabase();
    process.env.ROLLSCOPE_CONFIG = cluster.rollscopeConfigPath;
    const modules = [
      { path: "/api/plugins", module: await import("@/app/api/plugins/route") },
      {
        path: "/api/clusters/[cluster]/rollouts/[namespace]/[name]/measured-traffic",
        module: await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/measured-traffic/route"),
      },
    ];
    bridge = await startRouteBridge();
    bridge.add(modules);
    // As `next start` does from its instrumentation: the recorder's applied-weight history is what the stuck-router
    // check compares the measured share with.
    const { startApp } = await import("@/lib/server/app-context");
    services = await startApp();

    await createObjects(backend, routedCanary());
    await waitForRollout(backend, NAME, "Healthy", isHealthy, WAIT_MS);
    // The load runs before the canary exists, so each of Traefik's counters has its first sample before it moves.
    load = startLoadGenerator({ url: dataPlane.proxyUrl, host: HOST, ratePerSecond: 50 });
    await cluster.kubectl([
      "patch",
      "rollouts.argoproj.io",
      NAME,
      "-n",
      NAMESPACE,
      "--type=json",
      "-p",
      JSON.stringify([
        { op: "replace", path: "/spec/template/spec/containers/0/image", value: "registry.local/rollscope-test/measured:2" },
      ]),
    ]);
    await waitForRollout(backend, NAME, "paused at 20 % (step 1)", isPausedAt(1), WAIT_MS);
  }, 600_000);

  afterAll(async () => {
    if (dataPlane) await post(`${dataPlane.controlUrl}/router/follow`).catch(() => {});
    await load?.stop();
    await bridge?.stop();
    await services?.stop();
    await cluster
      ?.kubectl([
        "delete",
        "rollouts.argoproj.io,ingress,service",
        "-n",
        NAMESPACE,
        NAME,
        `${NAME}-stable`,
        `${NAME}-canary`,
        "--ignore-not-found",
        "--wait=false",
      ])
      .catch(() => {});
    const table = rows.map(
      (r) =>
        `| ${r.step} | ${r.requested} | ${r.appliedStatus} / ${r.appliedIngress} | ${r.measured.toFixed(1)} | ${r.pods.toFixed(1)} (${r.podRequests} requests) | ${r.at} |`,
    );
    console.log(
      [
        "| step | requested % | applied % (status / Ingress) | measured % (Rollscope) | pods' count % | window end |",
        "|---|---|---|---|---|---|",
        ...table,
        `stuck-router finding: ${findingDelaySeconds === null ? "not seen" : `${findingDelaySeconds} s after the controller reported the new weight`}`,
        `load: ${load?.sent} sent, ${load?.skipped} skipped, answers ${JSON.stringify(load?.answered)}`,
      ].join("\n"),
    );
  }, 120_000);

  it("at each pause the requested, applied and measured weights agree, and measured is within 3 points of the pods' own count", async () => {
    for (const [step, weight, next] of [
      ["1 (setWeight 20)", 20, 3],
      ["3 (setWeight 50)", 50, null],
    ] as const) {
      const changedAt = await waitApplied(weight);
      const row = await measure(step, weight, changedAt);
      rows.push(row);
      expect(row).toMatchObject({ requested: weight, appliedStatus: weight, appliedIngress: weight });
      expect(row.podRequests, "the pods answered the load").toBeGreaterThan(0);
      expect(Math.abs(row.measured - row.pods), JSON.stringify(row)).toBeLessThanOrEqual(TOLERANCE_POINTS);
      // Traefik follows the plugin: what the pods answered is the applied split.
      expect(Math.abs(row.pods - weight), JSON.stringify(row)).toBeLessThanOrEqual(TOLERANCE_POINTS);
      if (next !== null) {
        await promote();
        await waitForRollout(backend, NAME, `paused at step ${next}`, isPausedAt(next), WAIT_MS);
      }
    }
  }, 900_000);

  it("when the proxy stops following, the controller reports the new weight, the measured share stays behind and Rollscope raises a stuck-router finding", async () => {
    await post(`${dataPlane.controlUrl}/router/freeze`);
    await promote();
    await waitForRollout(backend, NAME, "paused at step 5", isPausedAt(5), WAIT_MS);
    const changedAt = await waitApplied(80);

    // Rollscope's checks run on their own schedule: watch for the finding from the moment the weight changed.
    const findingSeen = waitFor("a stuck-router finding for the Rollout", async () => {
      const overview = await read<PluginsOverview>(`${bridge.url}/api/plugins`);
      return overview.findings.find(
        (f) => f.kind === "stuck-router" && f.affected.some((a) => a.namespace === NAMESPACE && a.name === NAME),
      );
    }).then((finding) => ({ finding, atMs: Date.now() }));
    findingSeen.catch(() => {});

    const frozen = await measure("5 (setWeight 80), proxy cut off", 80, changedAt);
    rows.push(frozen);
    expect(frozen).toMatchObject({ requested: 80, appliedStatus: 80, appliedIngress: 80 });
    expect(Math.abs(frozen.measured - frozen.pods), JSON.stringify(frozen)).toBeLessThanOrEqual(TOLERANCE_POINTS);
    // Still the previous step's split.
    expect(Math.abs(frozen.measured - 50), JSON.stringify(frozen)).toBeLessThanOrEqual(TOLERANCE_POINTS);

    const { finding, atMs } = await findingSeen;
    findingDelaySeconds = Math.round((atMs - changedAt) / 1000);
    expect(finding).toMatchObject({ severity: "critical", affected: [{ plugin: SAMPLE_ROUTER_PLUGIN }] });
    expect(finding.detail).toContain("Applied canary weight 80 %");

    // Let it follow again: once its informers have listed again (client-go backs off while cut off), the pods answer
    // the applied split.
    await post(`${dataPlane.controlUrl}/router/follow`);
    await waitFor("the pods answering the 80 % split again", async () => {
      const now = Date.now();
      const { byHash } = await read<{ byHash: Record<string, number> }>(
        `${dataPlane.controlUrl}/counts?namespace=${NAMESPACE}&from=${now - 10_000}&to=${now}`,
      );
      const total = Object.values(byHash).reduce((a, b) => a + b, 0);
      const canary = byHash[(await rolloutJson()).status?.currentPodHash ?? ""] ?? 0;
      return total > 0 && Math.abs((canary / total) * 100 - 80) <= TOLERANCE_POINTS ? true : null;
    });
  }, 900_000);
});
