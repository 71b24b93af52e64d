import { readFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");

/** What `prettier --check .` (part of `npm run lint`) decides for a file at `file` holding `source`. */
async function checkAs(file: string, source: string): Promise<"formatted" | "unformatted" | "ignored"> {
  const filepath = path.join(repo, file);
  const info = await prettier.getFileInfo(filepath, { ignorePath: path.join(repo, ".prettierignore") });
  if (info.ignored) return "ignored";
  const options = await prettier.resolveConfig(filepath, { editorconfig: true });
  return (await prettier.check(source, { ...options, filepath })) ? "formatted" : "unformatted";
}

describe("the formatter check of npm run lint", () => {
  it("is part of the lint script the test command runs", () => {
    const lint = (JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.lint;
    expect(lint).toMatch(/prettier --check \./);
    expect(readFileSync(path.join(repo, "scripts/test-all.sh"), "utf8")).toMatch(/npm run lint/);
  });

  it("fails an unformatted TypeScript file in lib/ and accepts its formatted form", async () => {
    const messy = "export const  sum=(a:number,b:number)=>{return a+b}\n";
    expect(await checkAs("lib/format/example.ts", messy)).toBe("unformatted");
    const tidy = await prettier.format(messy, { ...(await prettier.resolveConfig(path.join(repo, "lib/x.ts"))), filepath: "x.ts" });
    expect(tidy).toBe("export const sum = (a: number, b: number) => {\n  return a + b;\n};\n");
    expect(await checkAs("lib/format/example.ts", tidy)).toBe("formatted");
  });

  it("wraps at 140 columns, not Prettier's default 80", async () => {
    const call = `export const x = someFunction(${Array.from({ length: 9 }, (_, i) => `argument${i}`).join(", ")});\n`;
    expect(call.length).toBeGreaterThan(80);
    expect(call.length).toBeLessThanOrEqual(141);
    expect(await checkAs("components/example.tsx", call)).toBe("formatted");
  });

  it("leaves docs, Helm templates, fixtures and generated code alone", async () => {
    expect(await checkAs("README.md", "#  messy\n")).toBe("ignored");
    expect(await checkAs("charts/rollscope/templates/deployment.yaml", "a:   1\n")).toBe("ignored");
    expect(await checkAs("test/fixtures/rollouts/x.json", "{ }")).toBe("ignored");
    expect(await checkAs("lib/db/generated/client.ts", "export  const a=1\n")).toBe("ignored");
  });
});
