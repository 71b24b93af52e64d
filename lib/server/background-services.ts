import "server-only";
import { getFleet } from "@/lib/fleet/fleet";
import { getDeltaLog } from "@/lib/live/delta-log";
import { Recorder } from "@/lib/recorder/recorder";

const globalForServices = globalThis as unknown as { rollscopeRecorder?: Recorder };

/** The cluster watches, the live delta log and the recorder: started once per server process. */
export async function startBackgroundServices(): Promise<void> {
  if (globalForServices.rollscopeRecorder) return;
  const fleet = getFleet();
  getDeltaLog();
  const recorder = new Recorder({ retentionDays: fleet.config.recorder.retentionDays });
  globalForServices.rollscopeRecorder = recorder;
  await recorder.start(fleet);
  await import("@/lib/metrics/scraper").then(({ startMetricsScraper }) => startMetricsScraper(fleet));
  const stop = async () => {
    await recorder.stop();
    await fleet.stop();
  };
  process.once("SIGTERM", () => void stop().finally(() => process.exit(0)));
  process.once("SIGINT", () => void stop().finally(() => process.exit(0)));
}
