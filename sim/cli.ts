import { parseArgs } from "node:util";
import { startSimulation } from "./cluster";
import { startDemoExtras } from "./demo-extras";
import { writeRollscopeConfig } from "./rollscope-config";
import type { ScenarioName } from "./scenarios";

const USAGE = `usage: npx tsx sim/cli.ts --scenario demo|scale [--time-scale 1] [--seed 1] [--kubeconfig path] [--rollscope-config path] [--base-port N]
       [--prometheus] [--sign-in http://127.0.0.1:3000]
       scale only: [--clusters 20] [--rollouts 250] [--rate 50] [--bookkeeping]
  --time-scale N   simulated seconds per real second (1: real time, the default)
  --bookkeeping    Rollouts with managedFields and kubectl's last-applied annotation, as a real cluster keeps them
  --prometheus     start Prometheus (when installed) scraping the simulated controllers; the config points at it
  --sign-in URL    start an OpenID Provider (alice: operator, bob: viewer) for the app at URL; the config turns sign-in on`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: "string", default: "demo" },
      "time-scale": { type: "string", default: "1" },
      prometheus: { type: "boolean", default: false },
      "sign-in": { type: "string" },
      seed: { type: "string", default: "1" },
      kubeconfig: { type: "string" },
      "rollscope-config": { type: "string" },
      "base-port": { type: "string" },
      clusters: { type: "string" },
      rollouts: { type: "string" },
      rate: { type: "string" },
      bookkeeping: { type: "boolean", default: false },
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
      bookkeeping: values.bookkeeping,
    },
  });
  const extras = await startDemoExtras({
    clusters: sim.clusters,
    prometheus: values.prometheus === true,
    signInAt: values["sign-in"] ?? null,
  });
  if (values["rollscope-config"])
    writeRollscopeConfig(values["rollscope-config"], sim.kubeconfigPath, sim.clusters, extras.config, extras.clusterExtra);
  console.log(`scenario ${scenario}, time scale ×${values["time-scale"]}, seed ${values.seed}`);
  console.log(`kubeconfig: ${sim.kubeconfigPath}`);
  for (const c of sim.clusters) console.log(`  ${c.name.padEnd(10)} api ${c.url}  metrics ${c.metricsUrl}  ${JSON.stringify(c.labels)}`);
  for (const note of extras.notes) console.log(note);
  console.log(
    `tokens: admin=${sim.users.admin.token} rollscope=${sim.users.rollscope.token} alice=${sim.users.alice.token} bob=${sim.users.bob.token} carol=${sim.users.carol.token}`,
  );
  const shutdown = (signal: string) => {
    console.log(`${signal}: stopping`);
    Promise.all([extras.stop(), sim.stop()]).then(
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
