import { setTimeout as delay } from "node:timers/promises";
import type { RbacBinding } from "../../sim/apiserver";
import { startSimulation, type SimulationHandle } from "../../sim/cluster";
import { Prng } from "../../sim/controller/prng";
import { findResourceTypeByKind } from "../../sim/resources";
import { bumpImage, type Scenario } from "../../sim/scenarios";
import { analysisTemplates, namespaceObject, rollout, servicesFor, type RolloutBlueprint } from "../../sim/scenarios/builders";
import { pluginConfigMap, trafficPlugin } from "../../sim/scenarios/plugin-catalog";

/** Canary steps that stop twice for a manual promote: 20 % → pause → 60 % → pause. */
const MANUAL_STEPS = [{ setWeight: 20 }, { pause: {} }, { setWeight: 60 }, { pause: {} }];

const NAMES = ["checkout", "cart", "catalog", "search", "ledger", "payments", "orders"] as const;
export type ActionRolloutName = (typeof NAMES)[number];

function blueprint(name: string): RolloutBlueprint {
  return {
    namespace: "shop",
    name,
    version: "1.0.0",
    replicas: 4,
    router: { plugin: "argoproj-labs/gatewayAPI", config: { httpRoute: `${name}-route`, namespace: "shop" } },
    steps: MANUAL_STEPS,
  };
}

/**
 * Two clusters for action tests: `prod` and `legacy`, each with Rollouts in `shop` that wait for a manual promote
 * at 20 % and again at 60 %. Deterministic: no revision driver, new revisions only through {@link startCanary}.
 */
function actionsScenario(): Scenario {
  const objects = () => [
    namespaceObject("argo-rollouts"),
    pluginConfigMap("argo-rollouts", { trafficRouterPlugins: [trafficPlugin("gatewayAPI")] }),
    namespaceObject("shop"),
    ...analysisTemplates("shop"),
    ...NAMES.flatMap((name) => [...servicesFor(blueprint(name)), rollout(blueprint(name))]),
  ];
  return {
    name: "actions",
    clusters: [
      { name: "prod", labels: { env: "production" }, objects: objects() },
      { name: "legacy", labels: { env: "staging" }, objects: objects() },
    ],
  };
}

/** Starts the action scenario fast (×120) so timed waits are short; `extraRbac` adds bindings to the default ones. */
export function startActionsSimulation(kubeconfigPath?: string, extraRbac?: RbacBinding[]): Promise<SimulationHandle> {
  return startSimulation({ scenario: actionsScenario(), drive: false, timeScale: 120, kubeconfigPath, extraRbac });
}

interface RolloutStatusView {
  metadata: { resourceVersion?: string; annotations?: Record<string, string> };
  spec?: { paused?: boolean };
  status?: {
    phase?: string;
    currentStepIndex?: number;
    abort?: boolean;
    pauseConditions?: unknown[];
    canary?: { weights?: { canary?: { weight?: number } } };
  };
}

export function readRollout(sim: SimulationHandle, cluster: string, namespace: string, name: string): RolloutStatusView {
  const type = findResourceTypeByKind("argoproj.io/v1alpha1", "Rollout");
  if (!type) throw new Error("the simulator serves no Rollouts");
  return sim.cluster(cluster).store.get(type, namespace, name) as unknown as RolloutStatusView;
}

export async function waitForRollout(
  sim: SimulationHandle,
  cluster: string,
  namespace: string,
  name: string,
  what: string,
  predicate: (rollout: RolloutStatusView) => boolean,
  timeoutMs = 20_000,
): Promise<RolloutStatusView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = readRollout(sim, cluster, namespace, name);
    if (predicate(current)) return current;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${cluster}/${namespace}/${name} to be ${what}: ${JSON.stringify(current.status)}`);
    await delay(100);
  }
}

export const isPausedAt = (stepIndex: number) => (r: RolloutStatusView) =>
  r.status?.phase === "Paused" && r.status.currentStepIndex === stepIndex && (r.status.pauseConditions?.length ?? 0) > 0;

/** Starts a new revision and waits until it is paused at 20 % (step index 1), waiting for a promote. */
export async function startCanary(sim: SimulationHandle, cluster: string, name: ActionRolloutName, seed = 1): Promise<RolloutStatusView> {
  await waitForRollout(sim, cluster, "shop", name, "Healthy", (r) => r.status?.phase === "Healthy");
  if (!bumpImage(sim.cluster(cluster).store, "shop", name, new Prng(`${seed}:${cluster}:${name}`))) throw new Error(`cannot bump ${name}`);
  return waitForRollout(sim, cluster, "shop", name, "paused at 20 %", isPausedAt(1));
}
