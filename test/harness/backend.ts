import {
  ApiException,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  type KubernetesObject,
  PatchStrategy,
  setHeaderOptions,
} from "@kubernetes/client-node";
import { startSimulation } from "@/sim/cluster";
import { namespaceObject } from "@/sim/scenarios/builders";
import { pluginConfigMap } from "@/sim/scenarios/plugin-catalog";
import { startPrometheus } from "@/test/harness/prometheus";

/**
 * The cluster a back-end-parameterised suite runs against: the simulator (in-process, one cluster) or the real
 * control plane with the real Argo Rollouts controller (started once per run: test/harness/real-cluster-setup.ts for
 * the `real-cluster` vitest project, e2e/real-cluster/global-setup.ts for Playwright).
 * Both register upstream's sample traffic-router plugin under the same name, hold the same users (alice: operator,
 * bob: viewer, carol: reader of namespace shop) and are changed by tests the same way: as cluster admin, through the
 * Kubernetes API.
 */

export type BackendKind = "simulator" | "real cluster";

export interface Backend {
  kind: BackendKind;
  /** The cluster's name in Rollscope's configuration, and its kubeconfig context with the dashboard's identity. */
  cluster: string;
  kubeconfigPath: string;
  /** The context acting as cluster admin (system:masters). */
  adminContext: string;
  /** A Prometheus scraping the cluster's Argo Rollouts controller (always on the real cluster). */
  prometheusUrl: string | null;
  /** Objects a Rollout routed by ROUTER_PLUGIN needs besides its Services (the real sample plugin edits an Ingress). */
  routingObjects(namespace: string, name: string): KubernetesObject[];
  /** The simulator's rollscope-plugin-meter family (/metrics); the real cluster's meters are in its set-up's info. */
  pluginMeterUrl?: string;
  stop(): Promise<void>;
}

/** Upstream's sample traffic-router plugin, registered on both back-ends (the real one runs its binary). */
export const ROUTER_PLUGIN = "argoproj/sample-nginx";
/** A plugin neither back-end registers. */
export const UNREGISTERED_PLUGIN = "argoproj-labs/gatewayAPI";
/** The namespace suites create their Rollouts in (carol may read it, and only it). */
export const TEST_NAMESPACE = "shop";

const SIM_CLUSTER = "sim";

/**
 * The Ingress upstream's sample plugin (`argoproj/sample-nginx`) edits: it creates `<rollout>-<ingress>-canary` from
 * it, and fails the step while it is missing — on the real controller and, since it models the plugin, the simulator.
 */
function sampleNginxIngress(namespace: string, name: string): KubernetesObject[] {
  return [
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name, namespace, annotations: { "kubernetes.io/ingress.class": "nginx" } },
      spec: {
        rules: [
          {
            host: `${name}.test.local`,
            http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: `${name}-stable`, port: { number: 80 } } } }] },
          },
        ],
      },
    } as KubernetesObject,
  ];
}

/**
 * One simulated cluster (×30 time), seeded like the real one: the sample plugin registered, namespace shop; with a
 * Prometheus scraping its controller when asked (a second or two of start-up).
 */
export async function simBackend(options: { prometheus?: boolean } = {}): Promise<Backend> {
  const sim = await startSimulation({
    scenario: {
      name: "backend",
      clusters: [
        {
          name: SIM_CLUSTER,
          labels: {},
          objects: [
            namespaceObject("argo-rollouts"),
            pluginConfigMap("argo-rollouts", {
              trafficRouterPlugins: [{ name: ROUTER_PLUGIN, location: "file:///plugins/trafficrouter-plugin-sample" }],
            }),
            namespaceObject(TEST_NAMESPACE),
          ],
        },
      ],
    },
    drive: false,
    timeScale: 30,
  });
  const controller = sim.cluster(SIM_CLUSTER);
  const prometheus = options.prometheus
    ? await startPrometheus({ targets: [{ job: "argo-rollouts", url: controller.metricsUrl }] }).catch(async (err: unknown) => {
        await sim.stop();
        throw err;
      })
    : null;
  return {
    kind: "simulator",
    cluster: SIM_CLUSTER,
    kubeconfigPath: sim.kubeconfigPath,
    adminContext: `${SIM_CLUSTER}-admin`,
    prometheusUrl: prometheus?.url ?? null,
    routingObjects: sampleNginxIngress,
    pluginMeterUrl: controller.pluginMeterUrl,
    async stop() {
      await prometheus?.stop();
      await sim.stop();
    },
  };
}

/** Where a running real cluster is (its global set-up started it): cluster name, kubeconfig, Prometheus. */
export interface RealClusterInfo {
  cluster: string;
  kubeconfigPath: string;
  prometheusUrl: string;
}

/** A back-end on a real cluster somebody else started (and stops). */
export function realBackendOf(info: RealClusterInfo): Backend {
  return {
    kind: "real cluster",
    cluster: info.cluster,
    kubeconfigPath: info.kubeconfigPath,
    adminContext: `${info.cluster}-admin`,
    prometheusUrl: info.prometheusUrl,
    routingObjects: sampleNginxIngress,
    stop: async () => {},
  };
}

/* ── changes made "in the cluster", as its admin ─────────────────────────────────────────────────────────────── */

const ROLLOUTS = { group: "argoproj.io", version: "v1alpha1", plural: "rollouts" } as const;

export interface RolloutState {
  metadata: { resourceVersion?: string; generation?: number };
  spec?: { paused?: boolean; template?: { spec?: { containers?: Array<{ image?: string }> } } };
  status?: {
    phase?: string;
    message?: string;
    currentStepIndex?: number;
    abort?: boolean;
    pauseConditions?: unknown[];
    stableRS?: string;
    currentPodHash?: string;
    canary?: { weights?: { canary?: { weight?: number } } };
    blueGreen?: { activeSelector?: string; previewSelector?: string };
  };
}

export function adminKubeConfig(backend: Backend): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(backend.kubeconfigPath);
  kc.setCurrentContext(backend.adminContext);
  return kc;
}

/** Creates the objects as cluster admin (an object that already exists is left as it is). */
export async function createObjects(backend: Backend, objects: KubernetesObject[]): Promise<void> {
  const api = KubernetesObjectApi.makeApiClient(adminKubeConfig(backend));
  for (const object of objects) {
    try {
      await api.create(object);
    } catch (err) {
      if (!(err instanceof ApiException && err.code === 409)) throw err;
    }
  }
}

export async function readRollout(backend: Backend, name: string, namespace = TEST_NAMESPACE): Promise<RolloutState> {
  const api = adminKubeConfig(backend).makeApiClient(CustomObjectsApi);
  return (await api.getNamespacedCustomObject({ ...ROLLOUTS, namespace, name })) as RolloutState;
}

/** Waits for the controller to bring the Rollout into a state; fails with the last status seen. */
export async function waitForRollout(
  backend: Backend,
  name: string,
  what: string,
  predicate: (r: RolloutState) => boolean,
  timeoutMs = 90_000,
  namespace = TEST_NAMESPACE,
): Promise<RolloutState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await readRollout(backend, name, namespace);
    if (predicate(current)) return current;
    if (Date.now() > deadline)
      throw new Error(`${backend.kind}: ${name} did not become ${what} within ${timeoutMs} ms: ${JSON.stringify(current.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const isHealthy = (r: RolloutState) => r.status?.phase === "Healthy" && Boolean(r.status.stableRS);
export const isPausedAt = (stepIndex: number) => (r: RolloutState) =>
  r.status?.phase === "Paused" && r.status.currentStepIndex === stepIndex && (r.status.pauseConditions?.length ?? 0) > 0;

/** Canary steps that stop twice for a manual promote: 20 % → pause → 60 % → pause. */
const MANUAL_STEPS = [{ setWeight: 20 }, { pause: {} }, { setWeight: 60 }, { pause: {} }];

const image = (name: string, tag: string) => `registry.local/rollscope-test/${name}:${tag}`;

function service(namespace: string, name: string, app: string): KubernetesObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace },
    spec: { selector: { app }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  } as KubernetesObject;
}

function rolloutObject(namespace: string, name: string, replicas: number, strategy: Record<string, unknown>): KubernetesObject {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name, namespace },
    spec: {
      replicas,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "web", image: image(name, "1.0.0") }] } },
      strategy,
    },
  } as KubernetesObject;
}

export interface CanaryOptions {
  steps?: unknown[];
  /** The traffic-router plugin; default ROUTER_PLUGIN (with the back-end's routing objects). */
  plugin?: string;
}

/** A canary routed by a plugin, with its stable and canary Services; resolves once created (not yet Healthy). */
export async function createRoutedCanary(backend: Backend, name: string, options: CanaryOptions = {}): Promise<void> {
  const namespace = TEST_NAMESPACE;
  const plugin = options.plugin ?? ROUTER_PLUGIN;
  const config = plugin === ROUTER_PLUGIN ? { stableIngress: name } : { httpRoute: name, namespace };
  await createObjects(backend, [
    service(namespace, `${name}-stable`, name),
    service(namespace, `${name}-canary`, name),
    ...(plugin === ROUTER_PLUGIN ? backend.routingObjects(namespace, name) : []),
    rolloutObject(namespace, name, 2, {
      canary: {
        stableService: `${name}-stable`,
        canaryService: `${name}-canary`,
        trafficRouting: { plugins: { [plugin]: config } },
        steps: options.steps ?? MANUAL_STEPS,
      },
    }),
  ]);
}

/** A canary without traffic routing: the weight is the share of canary pods. */
export async function createBasicCanary(backend: Backend, name: string, steps: unknown[]): Promise<void> {
  await createObjects(backend, [rolloutObject(TEST_NAMESPACE, name, 4, { canary: { steps } })]);
}

/** `kubectl argo rollouts abort`, as the admin: set status.abort. */
export async function abortAsAdmin(backend: Backend, name: string): Promise<void> {
  const api = adminKubeConfig(backend).makeApiClient(CustomObjectsApi);
  await api.patchNamespacedCustomObjectStatus(
    { ...ROLLOUTS, namespace: TEST_NAMESPACE, name, body: { status: { abort: true } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}

/** A blue-green Rollout with active and preview Services that waits for a manual promotion. */
export async function createBlueGreen(backend: Backend, name: string): Promise<void> {
  const namespace = TEST_NAMESPACE;
  await createObjects(backend, [
    service(namespace, `${name}-active`, name),
    service(namespace, `${name}-preview`, name),
    rolloutObject(namespace, name, 2, {
      blueGreen: { activeService: `${name}-active`, previewService: `${name}-preview`, autoPromotionEnabled: false },
    }),
  ]);
}

/** A new revision: the pod template's image moves to the tag. */
export async function setImage(backend: Backend, name: string, tag: string): Promise<void> {
  const api = adminKubeConfig(backend).makeApiClient(CustomObjectsApi);
  await api.patchNamespacedCustomObject(
    {
      ...ROLLOUTS,
      namespace: TEST_NAMESPACE,
      name,
      body: { spec: { template: { spec: { containers: [{ name: "web", image: image(name, tag) }] } } } },
    },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}

/** Creates a routed canary, waits for it to be Healthy, starts revision 2 and waits for the pause at 20 %. */
export async function startPausedCanary(backend: Backend, name: string): Promise<RolloutState> {
  await createRoutedCanary(backend, name);
  await waitForRollout(backend, name, "Healthy", isHealthy);
  await setImage(backend, name, "2.0.0");
  return waitForRollout(backend, name, "paused at 20 % (step 1)", isPausedAt(1));
}

/** Waits until Rollscope's watch cache holds the Rollout's current resourceVersion. */
export async function waitForCache(backend: Backend, cachedVersion: (name: string) => string | null, name: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const actual = (await readRollout(backend, name)).metadata.resourceVersion ?? null;
    if (cachedVersion(name) === actual) return;
    if (Date.now() > deadline)
      throw new Error(`Rollscope's cache of ${name} stayed at ${cachedVersion(name)}; the cluster is at ${actual}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `kubectl argo rollouts promote` on an indefinite pause, as the admin: clear the pause conditions on /status. */
export async function promoteAsAdmin(backend: Backend, name: string): Promise<void> {
  const api = adminKubeConfig(backend).makeApiClient(CustomObjectsApi);
  await api.patchNamespacedCustomObjectStatus(
    { ...ROLLOUTS, namespace: TEST_NAMESPACE, name, body: { status: { pauseConditions: null } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}
