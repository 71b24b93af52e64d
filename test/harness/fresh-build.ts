import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** A test that judges the built app (`next start`) refuses a build older than the sources: it would judge old code. */
export function assertFreshBuild(): void {
  const buildId = path.join(repoRoot, ".next/BUILD_ID");
  if (!existsSync(buildId)) throw new Error("no production build: run `npx next build` first");
  const newer = execFileSync("find", ["app", "components", "lib", "-newer", buildId, "-type", "f", "-print", "-quit"], { cwd: repoRoot, encoding: "utf8" }).trim();
  if (newer) throw new Error(`the production build is older than ${newer}: run \`npx next build\` first`);
}
