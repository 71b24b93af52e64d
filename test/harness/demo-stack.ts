import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSimulation, type SimulationHandle, type SimulationOptions } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/sim/rollscope-config";
import { startAppProcess, type AppProcess } from "./app-process";

export interface DemoStack {
  sim: SimulationHandle;
  app: AppProcess;
  dir: string;
  configPath: string;
  stop(): Promise<void>;
}

/** The simulated fleet plus the built app watching it, as the e2e tests and the benchmark run them. */
export async function startDemoStack(
  simOptions: Partial<SimulationOptions> = {},
  appEnv: Record<string, string> = {},
  extraConfig: Record<string, unknown> = {},
): Promise<DemoStack> {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-stack-"));
  const sim = await startSimulation({
    scenario: "demo",
    timeScale: 30,
    seed: 7,
    ...simOptions,
    kubeconfigPath: path.join(dir, "kubeconfig"),
  });
  const timeScale = simOptions.timeScale ?? 30;
  const configPath = path.join(dir, "rollscope.yaml");
  writeRollscopeConfig(configPath, sim.kubeconfigPath, sim.clusters, extraConfig);
  try {
    const app = await startAppProcess({
      kubeconfigPath: sim.kubeconfigPath,
      databaseUrl: `file:${path.join(dir, "rollscope.db")}`,
      env: { ROLLSCOPE_CONFIG: configPath, ROLLSCOPE_DEMO_TIME_SCALE: String(timeScale), ...appEnv },
      // Used once ready, as a load balancer would: after the start-up warm-up, so no page opens on its notice.
      readyPath: `${appEnv.ROLLSCOPE_BASE_PATH ?? ""}/api/readyz`,
    });
    return {
      sim,
      app,
      dir,
      configPath,
      async stop() {
        await app.stop();
        await sim.stop();
      },
    };
  } catch (err) {
    await sim.stop();
    throw err;
  }
}
