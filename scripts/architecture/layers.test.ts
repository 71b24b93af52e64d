import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";
import { buildFolderGraph, describeCycle, findCycles, valueImports } from "./import-graph";

const repo = path.resolve(import.meta.dirname, "../..");

function writeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-layers-"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("the folder import graph of lib/", () => {
  it("has no cycle through value imports", () => {
    const graph = buildFolderGraph(path.join(repo, "lib"));
    const cycles = findCycles(graph);
    expect(cycles.map((c) => describeCycle(graph, c))).toEqual([]);
  });

  it("finds a cycle made by value imports, through aliases and relative paths, and ignores type-only imports", () => {
    const dir = writeTree({
      "alpha/a.ts": 'import { b } from "@/lib/beta/b";\nexport const a = () => b();\n',
      "beta/b.ts": 'import type { G } from "../gamma/g";\nimport { helper } from "../gamma/g";\nexport const b = (): G => helper();\n',
      "gamma/g.ts": 'import { a } from "@/lib/alpha/a";\nexport type G = number;\nexport const helper = () => a();\n',
      "delta/d.ts": 'import { type G } from "@/lib/gamma/g";\nexport type D = G;\n',
      "gamma/uses-delta.ts": 'import type { D } from "@/lib/delta/d";\nexport type E = D;\n',
    });
    made.push(dir);
    const graph = buildFolderGraph(dir);
    const cycles = findCycles(graph);
    expect(cycles).toEqual([["alpha", "beta", "gamma"]]);
    expect(describeCycle(graph, cycles[0])).toContain("gamma → alpha  (gamma/g.ts)");
  });

  it("reads value and type-only imports apart", () => {
    expect(
      valueImports(
        'import "server-only";\nimport type { T } from "t";\nimport { a, type B } from "x";\nimport { type C } from "y";\nexport type { D } from "z";\nexport { e } from "w";',
      ),
    ).toEqual(["x", "w", "server-only"]);
  });
});

describe("the layering lint rule", () => {
  const eslint = new ESLint({ cwd: repo });

  async function messagesFor(file: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: path.join(repo, file) });
    return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
  }

  it("stops a domain folder importing services, the fleet, the database or Kubernetes", async () => {
    for (const target of [
      "@/lib/services/rollout-detail",
      "@/lib/fleet/fleet",
      "@/lib/db/client",
      "@/lib/k8s/kube-request",
      "../db/client",
    ]) {
      const messages = await messagesFor("lib/rollouts/phase-extra.ts", `import { x } from "${target}";\nexport const y = x;\n`);
      expect(messages.join("\n"), target).toMatch(/no-restricted-imports: .*domain/);
    }
  });

  it("stops browser code importing services or adapters, and lets it import contracts and domain", async () => {
    const denied = await messagesFor("components/rollouts/x.tsx", 'import { x } from "@/lib/services/fleet-page";\nexport const y = x;\n');
    expect(denied.join("\n")).toMatch(/no-restricted-imports: .*browser/);
    const adapter = await messagesFor("lib/queries/x.ts", 'import { x } from "@/lib/k8s/kube-request";\nexport const y = x;\n');
    expect(adapter.join("\n")).toMatch(/no-restricted-imports: .*browser/);
    const allowed = await messagesFor("components/rollouts/x.tsx", 'import { x } from "@/lib/rollouts/phase";\nexport const y = x;\n');
    expect(allowed.filter((m) => m.includes("no-restricted-imports"))).toEqual([]);
  });

  it("stops adapters importing services (the ring points inwards)", async () => {
    const messages = await messagesFor("lib/k8s/x.ts", 'import { x } from "@/lib/services/clusters";\nexport const y = x;\n');
    expect(messages.join("\n")).toMatch(/no-restricted-imports: .*services/);
  });
});
