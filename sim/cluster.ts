import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { startApiServer, type ApiServerHandle, type RbacBinding, type SimUser } from "./apiserver";
import { startController, type ControllerHandle } from "./controller";
import { fnv32a, Prng } from "./controller/prng";
import { SimClock } from "./controller/sim-clock";
import { buildKubeconfig } from "./kubeconfig";
import { findResourceTypeByKind } from "./resources";
import { loadScenario, type ScaleOptions, type Scenario, type ScenarioName } from "./scenarios";
import { ObjectStore } from "./store/object-store";

export interface SimulationOptions {
  scenario: ScenarioName | Scenario;
  /** Options of the `scale` scenario. */
  scale?: Partial<ScaleOptions>;
  /** Simulated seconds per real second; default 30. */
  timeScale?: number;
  seed?: number;
  host?: "127.0.0.1";
  /** Where to write the kubeconfig; default a fresh temp directory. */
  kubeconfigPath?: string;
  /** API server of cluster i on basePort + 2i, its controller metrics on basePort + 2i + 1; default free ports. */
  basePort?: number;
  /** Epoch ms clock for the controllers and stores (tests). */
  now?: () => number;
  /** Start the scenario's revision driver (default true). */
  drive?: boolean;
  /** Let controllers reconcile on their own timers (default true); false leaves it to controller.tick(). */
  autoReconcile?: boolean;
  /** Watch history kept per cluster (store events a watch can resume from); default 20 000, 3 000 for `scale`. */
  historyLimit?: number;
  /** RBAC bindings added to every cluster's default ones. */
  extraRbac?: RbacBinding[];
}

export interface SimulatedCluster {
  name: string;
  labels: Record<string, string>;
  /** API server base URL (http://127.0.0.1:port; the same port also speaks https). */
  url: string;
  apiServer: ApiServerHandle;
  controller: ControllerHandle;
  store: ObjectStore;
  metricsUrl: string;
  /** The plugin meter's /metrics: what rollscope-plugin-meter counts of this controller's plugin calls. */
  pluginMeterUrl: string;
}

export interface SimulationUsers {
  /** system:masters: everything (tests). */
  admin: SimUser;
  /** The dashboard's identity: read everything, patch rollouts(/status), access reviews, impersonation (users, groups,
   * service accounts), services/proxy. */
  rollscope: SimUser;
  /** Group sre-operators: read + patch rollouts and rollouts/status. */
  alice: SimUser;
  /** Group viewers: read-only. */
  bob: SimUser;
  /** Group shop-readers: read-only, in namespace shop only (a RoleBinding there). */
  carol: SimUser;
}

export interface SimulationHandle {
  clusters: SimulatedCluster[];
  kubeconfigPath: string;
  users: SimulationUsers;
  cluster(name: string): SimulatedCluster;
  stop(): Promise<void>;
}

const READ = { verbs: ["get", "list", "watch"], apiGroups: ["*"], resources: ["*"] };
const REVIEWS = {
  verbs: ["create"],
  apiGroups: ["authorization.k8s.io"],
  resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
};
const PATCH_ROLLOUTS = { verbs: ["patch", "update"], apiGroups: ["argoproj.io"], resources: ["rollouts", "rollouts/status"] };

function token(seed: number, who: string): string {
  const a = fnv32a(`${seed}:${who}:a`).toString(16).padStart(8, "0");
  const b = fnv32a(`${seed}:${who}:b`).toString(16).padStart(8, "0");
  return `sim-${who}-${a}${b}`;
}

export function simulationUsers(seed: number): SimulationUsers {
  return {
    admin: { name: "sim-admin", token: token(seed, "admin"), groups: ["system:masters", "system:authenticated"] },
    rollscope: {
      name: "system:serviceaccount:rollscope:rollscope",
      token: token(seed, "rollscope"),
      groups: ["system:serviceaccounts", "system:serviceaccounts:rollscope", "system:authenticated"],
    },
    alice: { name: "alice", token: token(seed, "alice"), groups: ["sre-operators", "system:authenticated"] },
    bob: { name: "bob", token: token(seed, "bob"), groups: ["viewers", "system:authenticated"] },
    carol: { name: "carol", token: token(seed, "carol"), groups: ["shop-readers", "system:authenticated"] },
  };
}

export function simulationRbac(users: SimulationUsers): RbacBinding[] {
  return [
    {
      name: "rollscope",
      subjects: [{ kind: "User", name: users.rollscope.name }],
      rules: [
        READ,
        PATCH_ROLLOUTS,
        { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews", "subjectaccessreviews"] },
        { verbs: ["impersonate"], apiGroups: [""], resources: ["users", "groups", "serviceaccounts"] },
        { verbs: ["get"], apiGroups: [""], resources: ["services/proxy"] },
      ],
    },
    { name: "sre-operators", subjects: [{ kind: "Group", name: "sre-operators" }], rules: [READ, PATCH_ROLLOUTS, REVIEWS] },
    { name: "viewers", subjects: [{ kind: "Group", name: "viewers" }], rules: [READ, REVIEWS] },
    { name: "shop-readers", subjects: [{ kind: "Group", name: "shop-readers" }], rules: [{ ...READ, namespaces: ["shop"] }, REVIEWS] },
  ];
}

function seedCluster(store: ObjectStore, objects: Scenario["clusters"][number]["objects"]): void {
  for (const obj of objects) {
    const type = findResourceTypeByKind(obj.apiVersion, obj.kind);
    if (!type) throw new Error(`scenario object of unserved kind ${obj.apiVersion}/${obj.kind}`);
    if (type.plural === "namespaces") {
      store.ensureNamespace(obj.metadata.name);
      if (obj.metadata.labels)
        store.update(
          type,
          undefined,
          obj.metadata.name,
          (d) => void (d.metadata.labels = { ...(d.metadata.labels ?? {}), ...obj.metadata.labels }),
        );
      continue;
    }
    if (obj.metadata.namespace) store.ensureNamespace(obj.metadata.namespace);
    store.create(type, obj.metadata.namespace, obj);
  }
}

/** One kubeconfig: a `<cluster>` context as the rollscope identity and a `<cluster>-admin` context per cluster. */
function kubeconfigFor(clusters: SimulatedCluster[], users: SimulationUsers): string {
  const dashboard = parse(buildKubeconfig(clusters.map((c) => ({ name: c.name, server: c.url, token: users.rollscope.token })))) as Record<
    string,
    unknown[]
  >;
  const admin = parse(
    buildKubeconfig(clusters.map((c) => ({ name: `${c.name}-admin`, server: c.url, token: users.admin.token }))),
  ) as Record<string, unknown[]>;
  return stringify({
    ...dashboard,
    clusters: [...dashboard.clusters, ...admin.clusters],
    users: [...dashboard.users, ...admin.users],
    contexts: [...dashboard.contexts, ...admin.contexts],
  });
}

/**
 * Starts a whole demo fleet in-process: per cluster an object store, an API server and a simulated Argo Rollouts
 * controller (with its /metrics), seeded from the scenario; writes one kubeconfig for all of them.
 */
export async function startSimulation(options: SimulationOptions): Promise<SimulationHandle> {
  const seed = options.seed ?? 1;
  const timeScale = options.timeScale ?? 30;
  const host = options.host ?? "127.0.0.1";
  const scenario =
    typeof options.scenario === "string" ? loadScenario(options.scenario, { seed, ...(options.scale ?? {}) }) : options.scenario;
  const users = simulationUsers(seed);
  const rbac = [...simulationRbac(users), ...(options.extraRbac ?? [])];
  const now = options.now ?? Date.now;
  const clusters: SimulatedCluster[] = [];
  const stopAll = async () => {
    for (const c of clusters) {
      await c.controller.stop();
      await c.apiServer.stop();
    }
  };
  try {
    for (const [i, def] of scenario.clusters.entries()) {
      const historyLimit = options.historyLimit ?? (scenario.name === "scale" ? 3_000 : 20_000);
      const store = new ObjectStore({ now: () => new Date(now()), historyLimit });
      seedCluster(store, def.objects);
      const apiServer = await startApiServer({
        store,
        host,
        port: options.basePort ? options.basePort + 2 * i : 0,
        users: Object.values(users),
        rbac,
      });
      const controller = await startController({
        store,
        clusterName: def.name,
        seed,
        timeScale,
        now,
        metricsHost: host,
        metricsPort: options.basePort ? options.basePort + 2 * i + 1 : 0,
        pluginProfiles: def.pluginProfiles,
        autoReconcile: options.autoReconcile,
        ...(scenario.name === "scale" ? { transitionLogLimit: 10_000, eventLogLimit: 5_000 } : {}),
      });
      clusters.push({
        name: def.name,
        labels: def.labels,
        url: apiServer.url,
        apiServer,
        controller,
        store,
        metricsUrl: controller.metricsUrl,
        pluginMeterUrl: controller.pluginMeterUrl,
      });
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  const kubeconfigPath = options.kubeconfigPath ?? path.join(mkdtempSync(path.join(tmpdir(), "rollscope-sim-")), "kubeconfig");
  mkdirSync(path.dirname(kubeconfigPath), { recursive: true });
  writeFileSync(kubeconfigPath, kubeconfigFor(clusters, users), { mode: 0o600 });
  const stopDriver =
    options.drive === false || !scenario.driver
      ? () => {}
      : scenario.driver.start({ clusters, clock: new SimClock(timeScale, now), prng: new Prng(`${seed}:driver`) });
  return {
    clusters,
    kubeconfigPath,
    users,
    cluster(name) {
      const found = clusters.find((c) => c.name === name);
      if (!found) throw new Error(`no simulated cluster "${name}"`);
      return found;
    },
    async stop() {
      stopDriver();
      await stopAll();
    },
  };
}
