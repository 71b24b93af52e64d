import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { BINARIES, BUILD_GROUPS, GO_MODULES_DIR, MANIFEST_SOURCES, MODULES, TRAEFIK_BUILD, type BuildGroup } from "./components";

/**
 * Builds the real cluster's binaries from the Go modules in realcluster/ into a cache outside the repository,
 * keyed by a hash of every go.mod and go.sum and of the build recipe, so only the first run builds.
 */

export interface Toolchain {
  binDir: string;
  /** Traefik, the real cluster's proxy: a cache entry of its own (realcluster/traefik.ts). */
  traefikBinary: string;
  manifestsDir: string;
  /** True when this call built them (false: taken from the cache). */
  built: boolean;
  seconds: number;
}

export class GoMissingError extends Error {}

export class BuildError extends Error {
  constructor(
    readonly module: string,
    readonly output: string,
    what: string,
  ) {
    super(`building ${what} from realcluster/${module} failed:\n${output}`);
  }
}

function cacheRoot(): string {
  return process.env.ROLLSCOPE_GO_CACHE ?? path.join(homedir(), ".cache/rollscope/realcluster");
}

/** sha256 of the module files and the recipe, so a changed pin or flag builds again. */
function toolchainHash(): string {
  const hash = createHash("sha256");
  for (const dir of MODULES) {
    for (const file of ["go.mod", "go.sum"]) {
      const full = path.join(GO_MODULES_DIR, dir, file);
      hash.update(`${dir}/${file}\0`).update(existsSync(full) ? readFileSync(full) : "");
    }
  }
  hash.update(JSON.stringify({ BUILD_GROUPS, MANIFEST_SOURCES }));
  return hash.digest("hex").slice(0, 16);
}

/** The Go toolchain's version, or a GoMissingError naming what is missing. */
export function checkGo(): string {
  const result = spawnSync("go", ["version"], { encoding: "utf8" });
  if (result.error || result.status !== 0) {
    throw new GoMissingError(
      "Go is missing: the `go` command was not found on PATH. The real cluster builds kube-apiserver, etcd, Argo Rollouts " +
        "and kwok from their Go modules; install Go ≥ 1.26 (with access to the Go module proxy) and run again.",
    );
  }
  const match = /go(\d+)\.(\d+)/.exec(result.stdout);
  if (!match || Number(match[1]) < 1 || (Number(match[1]) === 1 && Number(match[2]) < 26)) {
    throw new GoMissingError(`Go ≥ 1.26 is needed (kwok v0.8.0 and the tools modules say go 1.26.0); found: ${result.stdout.trim()}`);
  }
  return result.stdout.trim();
}

/** Why nothing can be built here (Go missing or too old), or null: what the real-cluster tests print when they skip. */
export function goMissingReason(): string | null {
  try {
    checkGo();
    return null;
  } catch (err) {
    if (err instanceof GoMissingError) return err.message;
    throw err;
  }
}

/** The environment of every build: static binaries as upstream builds them; each module is its own dependency graph. */
export function goEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CGO_ENABLED: "0", GOWORK: "off", GOFLAGS: "-mod=readonly -trimpath -buildvcs=false", GOTOOLCHAIN: "local" };
}

/** Runs `go` under nice in a tools module of realcluster/; resolves with stdout, rejects with a BuildError. */
function runGo(module: string, args: string[], what: string, log: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    // nice: the machine's two cores are shared; a cold Kubernetes build takes many minutes.
    const child = spawn("nice", ["-n", "10", "go", ...args], {
      cwd: path.join(GO_MODULES_DIR, module),
      env: goEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      for (const line of chunk.toString().split("\n")) if (line.trim()) log(`  ${line}`);
    });
    child.once("error", (err) => reject(new BuildError(module, err.message, what)));
    child.once("exit", (code) =>
      code === 0 ? resolve(stdout) : reject(new BuildError(module, output.trim() || `go exited with ${code}`, what)),
    );
  });
}

async function buildGroup(group: BuildGroup, binDir: string, log: (line: string) => void): Promise<void> {
  const names = Object.keys(group.binaries);
  const started = Date.now();
  log(`building ${names.join(", ")} (realcluster/${group.module})…`);
  // One invocation per group: go builds the shared packages once and links the binaries in parallel.
  const out = names.length === 1 ? path.join(binDir, names[0]) : `${binDir}/`;
  await runGo(group.module, ["build", "-ldflags", group.ldflags, "-o", out, ...Object.values(group.binaries)], names.join(", "), log);
  log(`built ${names.join(", ")} in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function moduleDir(module: string, goModule: string, log: (line: string) => void): Promise<string> {
  const json = await runGo(module, ["mod", "download", "-json", goModule], goModule, log);
  const info = JSON.parse(json) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new BuildError(module, info.Error ?? json, goModule);
  return info.Dir;
}

async function collectManifests(manifestsDir: string, log: (line: string) => void): Promise<void> {
  mkdirSync(manifestsDir, { recursive: true });
  for (const source of MANIFEST_SOURCES) {
    const dir = await moduleDir(source.module, source.goModule, log);
    const docs = source.files.map((f) => readFileSync(path.join(dir, f), "utf8").trim());
    writeFileSync(path.join(manifestsDir, source.target), `${docs.join("\n---\n")}\n`);
  }
}

function isComplete(dir: string, binaries: readonly string[] = BINARIES): boolean {
  return existsSync(path.join(dir, "complete.json")) && binaries.every((b) => existsSync(path.join(dir, "bin", b)));
}

/** sha256 of Traefik's tools module (with its ext stub) and recipe. */
function traefikHash(): string {
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum", "ext/go.mod", "ext/ext.go"]) {
    hash.update(`traefik/${file}\0`).update(readFileSync(path.join(GO_MODULES_DIR, "traefik", file)));
  }
  return hash.update(JSON.stringify(TRAEFIK_BUILD)).digest("hex").slice(0, 16);
}

/** Traefik from the cache (`<cache>/traefik-<hash>/bin/traefik`), building it first if needed, all or nothing. */
async function ensureTraefik(log: (line: string) => void = console.log): Promise<{ binary: string; built: boolean }> {
  const started = Date.now();
  const dir = path.join(cacheRoot(), `traefik-${traefikHash()}`);
  const binary = path.join(dir, "bin", "traefik");
  if (isComplete(dir, ["traefik"])) return { binary, built: false };
  const go = checkGo();
  log(`No cached Traefik in ${dir}: building it with ${go}.`);
  await buildIntoCache(dir, go, started, (staging) => buildGroup(TRAEFIK_BUILD, path.join(staging, "bin"), log));
  return { binary, built: true };
}

/**
 * The cached binaries for the current pins, building them first if needed: the Kubernetes and Argo Rollouts toolchain,
 * then Traefik (each its own cache entry, so a new Traefik pin does not rebuild Kubernetes).
 */
export async function ensureToolchain(log: (line: string) => void = console.log): Promise<Toolchain> {
  const started = Date.now();
  const dir = path.join(cacheRoot(), toolchainHash());
  let built = false;
  if (!isComplete(dir)) {
    const go = checkGo();
    log(`No cached binaries in ${dir}: building them with ${go} (the first time takes a while on 2 cores).`);
    await buildIntoCache(dir, go, started, async (staging) => {
      for (const group of BUILD_GROUPS) await buildGroup(group, path.join(staging, "bin"), log);
      await collectManifests(path.join(staging, "manifests"), log);
    });
    built = true;
  }
  const traefik = await ensureTraefik(log);
  return {
    binDir: path.join(dir, "bin"),
    traefikBinary: traefik.binary,
    manifestsDir: path.join(dir, "manifests"),
    built: built || traefik.built,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/**
 * Fills a cache folder all or nothing: `fill` builds into a staging folder next to `dir` (with a `bin/`), which
 * replaces `dir` only once everything is there, marked by a `complete.json` naming the Go that built it; a failed
 * build leaves no half-filled cache behind.
 */
export async function buildIntoCache(dir: string, go: string, started: number, fill: (staging: string) => Promise<void>): Promise<void> {
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, "bin"), { recursive: true });
  try {
    await fill(staging);
    writeFileSync(
      path.join(staging, "complete.json"),
      JSON.stringify({ go, seconds: Math.round((Date.now() - started) / 1000), at: new Date().toISOString() }, null, 2),
    );
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}
