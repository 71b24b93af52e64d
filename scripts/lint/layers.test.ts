import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";
import { foldersOutsideLayers, serverOnlyModules } from "./server-only-modules.js";

const repo = path.resolve(import.meta.dirname, "../..");
const lib = path.join(repo, "lib");

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function writeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-server-only-"));
  made.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** Modules of lib/ that are server-only but were not in the hand-written list the config kept before. */
const NOT_IN_THE_OLD_LIST = ["errors/known-secrets", "actions/denied-rows", "metrics/prometheus-source", "config/default-kubeconfig"];

describe("the server-only modules the lint config reads from lib/", () => {
  it('are the lib/ modules whose source has import "server-only", in the @/lib/<path> form', () => {
    const modules = serverOnlyModules(lib);
    for (const m of [
      "config/current",
      "config/load-config",
      "prometheus/client",
      "metrics/sources",
      "metrics/scraper",
      ...NOT_IN_THE_OLD_LIST,
    ]) {
      expect(modules).toContain(m);
      expect(readFileSync(path.join(lib, `${m}.ts`), "utf8")).toMatch(/^import "server-only";$/m);
    }
    // Isomorphic neighbours of those are not listed.
    for (const m of ["config/schema", "errors/api-error", "actions/plan", "metrics/counter-math"]) expect(modules).not.toContain(m);
    expect(modules).toEqual([...modules].sort());
  });

  it("finds the statement in nested folders and skips tests, declarations, generated clients and mere mentions", () => {
    const dir = writeTree({
      "a/server.ts": '/** Reads files. */\nimport "server-only";\nimport { readFileSync } from "node:fs";\n',
      "a/deep/inner.tsx": "import 'server-only'\nexport const x = 1;\n",
      "a/shared.ts": '// Not `import "server-only";` here: the browser uses it.\nexport const s = "server-only";\n',
      "a/server.test.ts": 'import "server-only";\n',
      "a/types.d.ts": 'import "server-only";\n',
      "db/generated/client.ts": 'import "server-only";\n',
    });
    expect(serverOnlyModules(dir)).toEqual(["a/deep/inner", "a/server"]);
  });
});

describe("the layers of lib/", () => {
  it("name every folder of lib/: a folder in no layer is reported", () => {
    const dir = writeTree({ "alpha/a.ts": "", "beta/b.ts": "", "gamma/g.ts": "" });
    expect(foldersOutsideLayers(dir, { one: ["alpha"], two: ["gamma"] })).toEqual(["beta"]);
    expect(foldersOutsideLayers(dir, { one: ["alpha", "beta", "gamma"] })).toEqual([]);
  });

  it("make the lint config refuse to load while a folder of lib/ is in none", async () => {
    // A copy of the config next to a lib/ of the real folders plus a new one, resolving packages from the repo.
    const folders = readdirSync(lib, { withFileTypes: true }).filter((e) => e.isDirectory());
    const tree = Object.fromEntries(folders.map((f) => [`lib/${f.name}/x.ts`, ""]));
    const copy = (file: string) => readFileSync(path.join(repo, file), "utf8");
    const dir = writeTree({
      ...tree,
      "eslint.config.js": copy("eslint.config.js"),
      "scripts/lint/server-only-modules.js": copy("scripts/lint/server-only-modules.js"),
    });
    symlinkSync(path.join(repo, "node_modules"), path.join(dir, "node_modules"));
    // In a child process: typescript-eslint remembers where each config it saw lives, for the whole process.
    const load = () =>
      spawnSync(process.execPath, ["--input-type=module", "-e", 'await import("./eslint.config.js");'], { cwd: dir, encoding: "utf8" });
    expect(load().status).toBe(0);
    mkdirSync(path.join(dir, "lib/newfolder"));
    const refused = load();
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("lib/newfolder belongs to no layer");
  });
});

describe("the layering lint rule, on server-only modules", () => {
  const eslint = new ESLint({ cwd: repo });

  async function layerMessages(file: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: path.join(repo, file) });
    expect(result.messages.filter((m) => m.fatal)).toEqual([]);
    return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
  }

  it("stops a browser component importing a value from a server-only module of an isomorphic folder", async () => {
    const messages = await layerMessages(
      "components/x.tsx",
      'import { DeniedRowLimiter } from "@/lib/actions/denied-rows";\nexport const limiter = new DeniedRowLimiter();\n',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/pattern\. browser code may import contracts and domain only/);
    // Its isomorphic neighbour in the same (domain) folder is allowed.
    expect(
      await layerMessages("components/x.tsx", 'import { formatRestartAt } from "@/lib/actions/plan";\nexport const p = formatRestartAt;\n'),
    ).toEqual([]);
  });

  it("lets the same component import only a type from it", async () => {
    const source = 'import type { DeniedVerdict } from "@/lib/actions/denied-rows";\nexport const v: DeniedVerdict = { record: false };\n';
    expect(await layerMessages("components/x.tsx", source)).toEqual([]);
    // The same names as values are refused: the type import passes because it is one, not because the module is free.
    const asValue =
      'import { type DeniedVerdict, DENIED_ROWS_PER_MINUTE } from "@/lib/actions/denied-rows";\nexport const v: DeniedVerdict | number = DENIED_ROWS_PER_MINUTE;\n';
    expect(await layerMessages("components/x.tsx", asValue)).toEqual([expect.stringMatching(/pattern\. browser code/)]);
  });

  it("covers every module marked server-only, not only the five the hand-written list named", async () => {
    for (const m of NOT_IN_THE_OLD_LIST) {
      const source = `import * as server from "@/lib/${m}";\nexport const s = server;\n`;
      expect(await layerMessages("app/rollouts/_components/x.tsx", source), m).toEqual([expect.stringMatching(/pattern\. browser code/)]);
    }
    // The relative form from lib/queries too.
    expect(
      await layerMessages("lib/queries/x.ts", 'import { getConfig } from "../config/current";\nexport const c = getConfig;\n'),
    ).toEqual([expect.stringMatching(/pattern\. browser code/)]);
  });

  it("stops a domain file importing a server-only module, by alias or relative path", async () => {
    for (const [file, specifier] of [
      ["lib/rollouts/x.ts", "@/lib/metrics/prometheus-source"],
      ["lib/overview/x.ts", "@/lib/errors/known-secrets"],
      ["lib/plugins/x.ts", "../config/current"],
      ["lib/activity/x.ts", "@/lib/config/load-config"],
    ]) {
      const messages = await layerMessages(file, `import * as server from "${specifier}";\nexport const s = server;\n`);
      expect(messages, `${file} → ${specifier}`).toEqual([expect.stringMatching(/pattern\. domain code \(lib\/\{.*\}\) is pure/)]);
    }
    // The pure module next to a server-only one stays importable.
    expect(
      await layerMessages(
        "lib/rollouts/x.ts",
        'import { redactSecrets } from "@/lib/errors/redact-secrets";\nexport const r = redactSecrets;\n',
      ),
    ).toEqual([]);
  });
});
