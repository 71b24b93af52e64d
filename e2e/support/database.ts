import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** A fresh SQLite file with every migration applied (`prisma migrate deploy`), as `file:` URL. */
export function createMigratedDatabase(): string {
  const url = `file:${path.join(mkdtempSync(path.join(tmpdir(), "rollscope-db-")), "rollscope.db")}`;
  const result = spawnSync(process.execPath, [path.join(repoRoot, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`);
  return url;
}
