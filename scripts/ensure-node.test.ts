import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const engines = (JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
const requiredMajor = Number(/^>=\s*(\d+)$/.exec(engines)?.[1]);

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Sources scripts/ensure-node.sh as the entry scripts do, then prints which node and npm PATH now gives. */
function sourceEnsureNode(env: Record<string, string>) {
  const script = `set -euo pipefail; source scripts/ensure-node.sh; echo "node=$(node --version) nodedir=\${npm_config_nodedir:-}"`;
  return spawnSync("bash", ["-c", script], { cwd: repo, env: { ...process.env, npm_config_nodedir: "", ...env }, encoding: "utf8" });
}

describe("the Node the tests run on", () => {
  it("satisfies package.json's engines: npm test put it first on PATH (scripts/ensure-node.sh), not the machine's older Node", () => {
    expect(requiredMajor).toBeGreaterThanOrEqual(24);
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(requiredMajor);
  });
});

describe("scripts/ensure-node.sh", () => {
  it("changes nothing and says nothing when the Node on PATH is new enough", () => {
    const result = sourceEnsureNode({ PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`node=${process.version} nodedir=\n`);
  });

  it("puts the cached Node, its headers and npm under it first when the Node on PATH is older, without a registry look-up", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rollscope-ensure-node-"));
    made.push(dir);
    // An old Node first on PATH, and a cache that already holds the wanted version (this runner's Node).
    mkdirSync(path.join(dir, "old"));
    writeFileSync(path.join(dir, "old/node"), "#!/bin/sh\necho v20.20.2\n");
    chmodSync(path.join(dir, "old/node"), 0o755);
    const cached = path.join(dir, "cache", process.versions.node);
    mkdirSync(path.join(cached, "bin"), { recursive: true });
    symlinkSync(process.execPath, path.join(cached, "bin/node"));

    const result = sourceEnsureNode({
      PATH: `${path.join(dir, "old")}:${process.env.PATH}`,
      ROLLSCOPE_NODE_CACHE: path.join(dir, "cache"),
      ROLLSCOPE_NODE_VERSION: process.versions.node,
      // A registry look-up would fail: the cached copy must be enough.
      npm_config_registry: "http://127.0.0.1:9/",
    });
    expect(result.stderr).toBe("");
    expect(result.stdout.split("\n")).toStrictEqual([
      `Node 20.20.2 is older than ${requiredMajor}: using Node ${process.versions.node} from the npm registry's node-${process.platform}-${process.arch} package in ${cached} (cached)`,
      `node=${process.version} nodedir=${cached}`,
      "",
    ]);
  });
});
