import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { buildIntoCache, checkGo, goEnv } from "../realcluster/build";

/**
 * The plugin meter and the plugins its tests put behind it, built from two Go modules of this repository —
 * plugin-meter/ (the product) and test/plugins/ (faulty-router and upstream's sample plugins of every kind, test
 * only) — into `${ROLLSCOPE_PLUGIN_METER_CACHE:-~/.cache/rollscope/plugin-meter}/<hash>/bin`, the hash taken over
 * both modules' go.mod, go.sum and non-test Go sources and the recipe below, so a change rebuilds and nothing else
 * does. Kept apart from realcluster/'s cache key: changing the meter never rebuilds Kubernetes.
 */

const METER_MODULE = import.meta.dirname;
const TEST_PLUGINS_MODULE = path.join(METER_MODULE, "../test/plugins");

/** Module folder → binary → main package; one `go build` per module, so shared packages compile once. */
const RECIPE: Record<string, Record<string, string>> = {
  [METER_MODULE]: { "rollscope-plugin-meter": "./cmd/rollscope-plugin-meter" },
  [TEST_PLUGINS_MODULE]: {
    "faulty-router": "./faulty-router",
    "metrics-plugin-sample": "github.com/argoproj/argo-rollouts/test/cmd/metrics-plugin-sample",
    "step-plugin-sample": "github.com/argoproj/argo-rollouts/test/cmd/step-plugin-sample",
    "trafficrouter-plugin-sample": "github.com/argoproj/argo-rollouts/test/cmd/trafficrouter-plugin-sample",
  },
};
const LDFLAGS = "-s -w";

export interface PluginMeterBinaries {
  binDir: string;
  /** rollscope-plugin-meter: the product. */
  meter: string;
  /** Test-only traffic router that fails or delays calls on command (test/plugins/faulty-router). */
  faultyRouter: string;
  /** Upstream v1.9.1's sample plugins (test/cmd/…-sample), for the metric-provider and step kinds and the router. */
  metricsSample: string;
  stepSample: string;
  trafficRouterSample: string;
  /** True when this call built them (false: taken from the cache). */
  built: boolean;
  seconds: number;
}

function goSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".go") && !e.name.endsWith("_test.go"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** sha256 of both modules' go.mod, go.sum and Go sources (tests excluded: they are not in the binaries) and the recipe. */
function pluginMeterHash(): string {
  const hash = createHash("sha256");
  for (const moduleDir of Object.keys(RECIPE)) {
    for (const file of [path.join(moduleDir, "go.mod"), path.join(moduleDir, "go.sum"), ...goSources(moduleDir)]) {
      hash.update(`${path.relative(METER_MODULE, file)}\0`).update(readFileSync(file));
    }
  }
  return hash
    .update(JSON.stringify({ RECIPE: Object.values(RECIPE), LDFLAGS }))
    .digest("hex")
    .slice(0, 16);
}

function cacheRoot(): string {
  return process.env.ROLLSCOPE_PLUGIN_METER_CACHE ?? path.join(homedir(), ".cache/rollscope/plugin-meter");
}

function goBuild(moduleDir: string, binDir: string, log: (line: string) => void): Promise<void> {
  const packages = Object.values(RECIPE[moduleDir]);
  const what = `${Object.keys(RECIPE[moduleDir]).join(", ")} (${path.relative(path.dirname(METER_MODULE), moduleDir)})`;
  return new Promise((resolve, reject) => {
    // nice: the machine's cores are shared with everything else.
    const child = spawn("nice", ["-n", "10", "go", "build", "-ldflags", LDFLAGS, "-o", `${binDir}/`, ...packages], {
      cwd: moduleDir,
      env: goEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      for (const line of chunk.toString().split("\n")) if (line.trim()) log(`  ${line}`);
    });
    child.once("error", (err) => reject(new Error(`building ${what} failed: ${err.message}`)));
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`building ${what} failed:\n${output.trim() || `go exited with ${code}`}`)),
    );
  });
}

/** The cached meter and test plugins for the current sources, building them first if needed (throws GoMissingError without Go). */
export async function ensurePluginMeterBinaries(log: (line: string) => void = console.log): Promise<PluginMeterBinaries> {
  const started = Date.now();
  const dir = path.join(cacheRoot(), pluginMeterHash());
  const binDir = path.join(dir, "bin");
  const result = (built: boolean): PluginMeterBinaries => ({
    binDir,
    meter: path.join(binDir, "rollscope-plugin-meter"),
    faultyRouter: path.join(binDir, "faulty-router"),
    metricsSample: path.join(binDir, "metrics-plugin-sample"),
    stepSample: path.join(binDir, "step-plugin-sample"),
    trafficRouterSample: path.join(binDir, "trafficrouter-plugin-sample"),
    built,
    seconds: Math.round((Date.now() - started) / 1000),
  });
  const binaries = Object.values(RECIPE).flatMap((r) => Object.keys(r));
  if (existsSync(path.join(dir, "complete.json")) && binaries.every((b) => existsSync(path.join(binDir, b)))) return result(false);
  const go = checkGo();
  log(`No cached plugin meter binaries in ${dir}: building them with ${go}.`);
  await buildIntoCache(dir, go, started, async (staging) => {
    for (const moduleDir of Object.keys(RECIPE)) await goBuild(moduleDir, path.join(staging, "bin"), log);
  });
  return result(true);
}
