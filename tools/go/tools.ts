import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { buildIntoCache, checkGo, goEnv } from "../../realcluster/build";

/**
 * helm and kubeconform for the Helm chart's tests, built from their Go modules (this folder's go.mod, a dependency
 * graph of its own) into `${ROLLSCOPE_TOOLS_CACHE:-~/.cache/rollscope/tools}/<hash>/bin`, the hash taken over
 * go.mod, go.sum and the recipe below, so only the first run (or a changed pin) builds.
 */

const MODULE_DIR = import.meta.dirname;

const HELM_VERSION = "v3.19.5";
const KUBECONFORM_VERSION = "v0.8.0";

/**
 * Binary → main package and linker flags. Helm's Makefile sets the Kubernetes version `helm template` and
 * `helm lint` assume from client-go's minor version; without it they assume 1.20 and `kubeVersion` checks fail.
 */
const RECIPE: Record<string, { pkg: string; ldflags: string }> = {
  helm: {
    pkg: "helm.sh/helm/v3/cmd/helm",
    ldflags: [
      "-s -w",
      `-X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}`,
      "-X helm.sh/helm/v3/internal/version.metadata=",
      "-X helm.sh/helm/v3/internal/version.gitTreeState=clean",
      ...["pkg/lint/rules", "pkg/chartutil"].flatMap((p) => [
        `-X helm.sh/helm/v3/${p}.k8sVersionMajor=1`,
        `-X helm.sh/helm/v3/${p}.k8sVersionMinor=34`,
      ]),
    ].join(" "),
  },
  kubeconform: { pkg: "github.com/yannh/kubeconform/cmd/kubeconform", ldflags: `-s -w -X main.version=${KUBECONFORM_VERSION}` },
};

export interface ChartTools {
  helm: string;
  kubeconform: string;
  /** True when this call built them (false: taken from the cache). */
  built: boolean;
  seconds: number;
}

function toolsHash(): string {
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum"]) hash.update(`${file}\0`).update(readFileSync(path.join(MODULE_DIR, file)));
  return hash.update(JSON.stringify(RECIPE)).digest("hex").slice(0, 16);
}

function cacheRoot(): string {
  return process.env.ROLLSCOPE_TOOLS_CACHE ?? path.join(homedir(), ".cache/rollscope/tools");
}

function goBuild(name: string, out: string, log: (line: string) => void): Promise<void> {
  const { pkg, ldflags } = RECIPE[name];
  return new Promise((resolve, reject) => {
    // nice: the machine's cores are shared with everything else.
    const child = spawn("nice", ["-n", "10", "go", "build", "-ldflags", ldflags, "-o", out, pkg], {
      cwd: MODULE_DIR,
      env: goEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      for (const line of chunk.toString().split("\n")) if (line.trim()) log(`  ${line}`);
    });
    child.once("error", (err) => reject(new Error(`building ${name} from tools/go failed: ${err.message}`)));
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`building ${name} from tools/go failed:\n${output.trim() || `go exited with ${code}`}`)),
    );
  });
}

/** The cached helm and kubeconform for the current pins, building them first if needed (throws GoMissingError without Go). */
export async function ensureChartTools(log: (line: string) => void = console.log): Promise<ChartTools> {
  const started = Date.now();
  const dir = path.join(cacheRoot(), toolsHash());
  const result = (built: boolean): ChartTools => ({
    helm: path.join(dir, "bin", "helm"),
    kubeconform: path.join(dir, "bin", "kubeconform"),
    built,
    seconds: Math.round((Date.now() - started) / 1000),
  });
  if (existsSync(path.join(dir, "complete.json"))) return result(false);
  const go = checkGo();
  log(`No cached helm/kubeconform in ${dir}: building them with ${go}.`);
  await buildIntoCache(dir, go, started, async (staging) => {
    for (const name of Object.keys(RECIPE)) await goBuild(name, path.join(staging, "bin", name), log);
  });
  return result(true);
}
