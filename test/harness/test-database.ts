import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** A fresh SQLite database with every migration applied; sets DATABASE_URL for this process. */
export function createTestDatabase(): string {
  const url = `file:${path.join(mkdtempSync(path.join(tmpdir(), "rollscope-test-db-")), "test.db")}`;
  const result = spawnSync(process.execPath, [path.join(repoRoot, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`);
  process.env.DATABASE_URL = url;
  return url;
}
