/**
 * npm test's step for the plugin meter: `go test ./...` of plugin-meter/ (the meter in front of faulty-router and
 * upstream's sample plugins, through upstream's go-plugin client) and `go vet ./...` of test/plugins/, with the
 * binaries from plugin-meter/build.ts' cache (built in the background at the start of npm test). Without Go it says
 * why and exits 0, as the real-cluster stages do. Alone: `npx tsx plugin-meter/go-test.ts`.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { goEnv, goMissingReason } from "../realcluster/build";
import { ensurePluginMeterBinaries } from "./build";

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("nice", ["-n", "10", "go", ...args], { cwd, env, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  const missing = goMissingReason();
  if (missing) {
    console.log(`plugin meter tests skipped: ${missing}`);
    return 0;
  }
  const binaries = await ensurePluginMeterBinaries((line) => console.log(line));
  const env = { ...goEnv(), PLUGIN_METER_TEST_BIN_DIR: binaries.binDir };
  const meterModule = import.meta.dirname;
  const status = await run(meterModule, ["test", "-count=1", "./..."], env);
  if (status !== 0) return status;
  return run(path.join(meterModule, "../test/plugins"), ["vet", "./..."], env);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
