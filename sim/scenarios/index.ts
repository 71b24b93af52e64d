import { demoScenario } from "./demo";
import { scaleScenario } from "./scale";
import type { ScaleOptions, Scenario } from "./types";

export type ScenarioName = "demo" | "scale";

export function loadScenario(name: ScenarioName, scale: Partial<ScaleOptions> = {}): Scenario {
  if (name === "demo") return demoScenario();
  if (name === "scale") return scaleScenario(scale);
  throw new Error(`unknown scenario "${String(name)}" (demo, scale)`);
}

export type { Scenario, ScenarioCluster, ScaleOptions } from "./types";
export { bumpImage, type ScenarioDriver } from "./revision-driver";
