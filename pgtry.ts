import { execFileSync } from "node:child_process";
import { startPostgres } from "./test/harness/postgres";
const s = await startPostgres();
const url = await s.createDatabase("gen");
try {
  for (const cmd of [["migrate","deploy"],["migrate","status"],["migrate","deploy"]])
  console.log(execFileSync("npx", ["prisma", ...cmd], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8", stdio: "pipe" }));
} catch (e) { console.log(String((e as {stderr:string}).stderr).slice(0, 3000), String((e as {stdout:string}).stdout).slice(0, 3000)); } finally { await s.stop(); }
