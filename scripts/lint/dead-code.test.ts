import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const knipBin = path.join(repo, "node_modules/knip/bin/knip.js");

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface KnipIssue {
  file: string;
  exports: Array<{ name: string }>;
  files: Array<{ name: string }>;
  [kind: string]: unknown;
}

/**
 * A tiny Next.js app with the repository's own knip.config.ts: a page importing `@/lib/format/label`, plus `files`.
 * Runs knip there as `npm run lint` does and returns its exit status and the issues it reports.
 */
function knipOn(files: Record<string, string>): { status: number | null; issues: KnipIssue[] } {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-knip-"));
  made.push(dir);
  const tree: Record<string, string> = {
    "package.json": JSON.stringify({ name: "fixture", private: true, type: "module", dependencies: { next: "*" } }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { module: "esnext", moduleResolution: "bundler", strict: true, paths: { "@/*": ["./*"] } },
    }),
    "app/page.tsx": [
      'import type { Metadata } from "next";',
      'import { label } from "@/lib/format/label";',
      'export const metadata: Metadata = { title: label("fleet") };',
      "export default function Page() {",
      '  return label("page");',
      "}",
      "",
    ].join("\n"),
    ...files,
  };
  for (const [file, text] of Object.entries(tree)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  copyFileSync(path.join(repo, "knip.config.ts"), path.join(dir, "knip.config.ts"));
  const run = spawnSync(process.execPath, [knipBin, "--no-progress", "--no-config-hints", "--reporter", "json"], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(run.stderr).not.toMatch(/error/i);
  return { status: run.status, issues: (JSON.parse(run.stdout) as { issues: KnipIssue[] }).issues };
}

describe("the dead-code check of npm run lint (knip)", () => {
  it("is part of the lint script, after ESLint and Prettier", () => {
    const lint = (JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.lint;
    expect(lint).toMatch(/^eslint \. && prettier --check \. && knip\b/);
  });

  it("fails on an export nothing imports, naming it", () => {
    const { status, issues } = knipOn({
      "lib/format/label.ts": "export const label = (s: string) => `<${s}>`;\nexport const unusedLabel = (s: string) => s.trim();\n",
    });
    expect(status).toBe(1);
    expect(issues.flatMap((i) => i.exports.map((e) => `${i.file}: ${e.name}`))).toEqual(["lib/format/label.ts: unusedLabel"]);
  });

  it("fails on a file nothing reaches", () => {
    const { status, issues } = knipOn({
      "lib/format/label.ts": "export const label = (s: string) => `<${s}>`;\n",
      "lib/format/orphan.ts": "export const orphan = 1;\n",
    });
    expect(status).toBe(1);
    expect(issues.flatMap((i) => i.files.map((f) => f.name))).toEqual(["lib/format/orphan.ts"]);
  });

  it("passes when every export is imported: by the app, or only by a test", () => {
    const { status, issues } = knipOn({
      "lib/format/label.ts": "export const label = (s: string) => `<${s}>`;\nexport const shout = (s: string) => s.toUpperCase();\n",
      "lib/format/label.test.ts":
        'import { expect, it } from "vitest";\nimport { shout } from "./label";\nit("shouts", () => expect(shout("a")).toBe("A"));\n',
      "package.json": JSON.stringify({
        name: "fixture",
        private: true,
        type: "module",
        dependencies: { next: "*" },
        devDependencies: { vitest: "*" },
      }),
    });
    expect(issues).toEqual([]);
    expect(status).toBe(0);
  });
});
