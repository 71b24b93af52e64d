import { parseArgs } from "node:util";
import { startSimulation } from "./cluster";
import { writeRollscopeConfig } from "./rollscope-config";
import type { ScenarioName } from "./scenarios";

const USAGE = `usage: npx tsx sim/cli.ts --scenario demo|scale [--time-scale 30] [--seed 1] [--kubeconfig path] [--rollscope-config path] [--base-port N]
       scale only: [--clusters 20] [--rollouts 250] [--rate 50]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: "string", default: "demo" },
      "time-scale": { type: "string", default: "30" },
      seed: { type: "string", default: "1" },
      kubeconfig: { type: "string" },
      "rollscope-config": { type: "string" },
      "base-port": { type: "string" },
      clusters: { type: "string" },
      rollouts: { type: "string" },
      rate: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const scenario = values.scenario as ScenarioName;
  if (scenario !== "demo" && scenario !== "scale") throw new Error(`unknown scenario "${values.scenario}"\n${USAGE}`);
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const sim = await startSimulation({
    scenario,
    timeScale: num(values["time-scale"]),
    seed: num(values.seed),
    kubeconfigPath: values.kubeconfig,
    basePort: num(values["base-port"]),
    scale: {
      ...(values.clusters ? { clusters: Number(values.clusters) } : {}),
      ...(values.rollouts ? { rolloutsPerCluster: Number(values.rollouts) } : {}),
      ...(values.rate ? { changesPerSecond: Number(values.rate) } : {}),
    },
  });
  if (values["rollscope-config"]) writeRollscopeConfig(values["rollscope-config"], sim.kubeconfigPath, sim.clusters);
  console.log(`scenario ${scenario}, time scale ×${values["time-scale"]}, seed ${values.seed}`);
  console.log(`kubeconfig: ${sim.kubeconfigPath}`);
  for (const c of sim.clusters) console.log(`  ${c.name.padEnd(10)} api ${c.url}  metrics ${c.metricsUrl}  ${JSON.stringify(c.labels)}`);
  console.log(`tokens: admin=${sim.users.admin.token} rollscope=${sim.users.rollscope.token} alice=${sim.users.alice.token} bob=${sim.users.bob.token} carol=${sim.users.carol.token}`);
  const shutdown = (signal: string) => {
    console.log(`${signal}: stopping`);
    sim.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
