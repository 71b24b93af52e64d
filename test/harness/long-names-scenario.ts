import { startSimulation, type SimulationHandle } from "../../sim/cluster";
import { Prng } from "../../sim/controller/prng";
import { bumpImage, type Scenario } from "../../sim/scenarios";
import { namespaceObject, rollout, servicesFor, type RolloutBlueprint } from "../../sim/scenarios/builders";
import { pluginConfigMap } from "../../sim/scenarios/plugin-catalog";
import { isPausedAt, waitForRollout } from "./rollout-scenario";

/**
 * Names as long as Kubernetes and Argo Rollouts allow, some without a single break opportunity: the plugins page once
 * grew 1.44 million px wide on names like these.
 */
export const LONG_NAMES = {
  cluster: "eu-central-1-payments-platform-production-cluster-0042",
  namespace: "payments-reconciliation-europe-central-production-workloads",
  /** 63 characters (a DNS label's maximum) without a hyphen. */
  rollout: "checkoutpaymentsreconciliationworkerforeuropeanunionmarketsv2xy",
  broken: "ledgerreconciliationbatchprocessorforeuropeanunionmarketsv3abcd",
  plugin: `acme-corporation-platform-engineering/${"trafficrouter".repeat(12)}`,
  missingPlugin: `acme-corporation-platform-engineering/${"unregisteredrouter".repeat(10)}`,
} as const;

function blueprint(name: string, plugin: string): RolloutBlueprint {
  return {
    namespace: LONG_NAMES.namespace,
    name,
    version: "1.0.0",
    replicas: 2,
    router: { plugin, config: { httpRoute: `${name}-route`, namespace: LONG_NAMES.namespace } },
    steps: [{ setWeight: 20 }, { pause: {} }],
  };
}

function longNamesScenario(): Scenario {
  const paused = blueprint(LONG_NAMES.rollout, LONG_NAMES.plugin);
  const broken = blueprint(LONG_NAMES.broken, LONG_NAMES.missingPlugin);
  const location = `https://artifacts.example.com/${"platform-engineering/".repeat(6)}releases/download/v1.2.3/${LONG_NAMES.plugin.split("/")[1]}-linux-amd64`;
  return {
    name: "long-names",
    clusters: [
      {
        name: LONG_NAMES.cluster,
        labels: { env: "production" },
        objects: [
          namespaceObject("argo-rollouts"),
          pluginConfigMap("argo-rollouts", { trafficRouterPlugins: [{ name: LONG_NAMES.plugin, location }] }),
          namespaceObject(LONG_NAMES.namespace),
          ...servicesFor(paused),
          rollout(paused),
          ...servicesFor(broken),
          rollout(broken),
        ],
      },
    ],
  };
}

/** One cluster of long names: a Rollout paused at 20 % on a registered plugin, one on a plugin nobody registered. */
export async function startLongNamesSimulation(): Promise<SimulationHandle> {
  const sim = await startSimulation({ scenario: longNamesScenario(), drive: false, timeScale: 120 });
  const { cluster, namespace, rollout: name } = LONG_NAMES;
  await waitForRollout(sim, cluster, namespace, name, "Healthy", (r) => r.status?.phase === "Healthy");
  if (!bumpImage(sim.cluster(cluster).store, namespace, name, new Prng("long-names"))) throw new Error(`cannot bump ${name}`);
  await waitForRollout(sim, cluster, namespace, name, "paused at 20 %", isPausedAt(1));
  return sim;
}
