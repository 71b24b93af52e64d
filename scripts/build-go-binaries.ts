/**
 * Builds (or finds cached) every Go binary the tests use: the real cluster's (realcluster/build.ts), helm and
 * kubeconform for the Helm chart (tools/go), and the plugin meter with its test plugins (plugin-meter/build.ts).
 * `npm test` starts it in the background at its beginning so a cold Go build overlaps the stages that need no Go,
 * and waits for it before the first stage that does. Without Go it says why and exits 0: those stages skip
 * themselves, saying the same.
 */
import { goMissingReason, ensureToolchain } from "../realcluster/build";
import { ensureChartTools } from "../tools/go/tools";
import { ensurePluginMeterBinaries } from "../plugin-meter/build";

async function main(): Promise<void> {
  const missing = goMissingReason();
  if (missing) {
    console.log(`Go binaries not built: ${missing}`);
    return;
  }
  const log = (line: string) => console.log(line);
  const toolchain = await ensureToolchain(log);
  console.log(`real cluster binaries ${toolchain.built ? `built in ${toolchain.seconds} s` : "found in the cache"}: ${toolchain.binDir}`);
  const tools = await ensureChartTools(log);
  console.log(`helm and kubeconform ${tools.built ? `built in ${tools.seconds} s` : "found in the cache"}`);
  const meter = await ensurePluginMeterBinaries(log);
  console.log(`plugin meter and test plugins ${meter.built ? `built in ${meter.seconds} s` : "found in the cache"}: ${meter.binDir}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
