import "server-only";
import { ControllerMetricsScraper } from "@/lib/metrics/scraper";
import { listScrapeFamilies } from "@/lib/plugins/per-rpc";
import type { AppContext } from "./app-context";
import { startHousekeeping } from "./housekeeping";

export interface BackgroundServices {
  /** Stops the scraper, flushes the recorder and closes the cluster watches. */
  stop(): Promise<void>;
  /** Something started beside the services (from instrumentation) that `stop` ends first. */
  alsoStop(stop: () => void): void;
}

/**
 * The recorder, the controller-metrics scraper and the database housekeeping (interrupted actions, ended sessions)
 * of a context; SIGTERM and SIGINT stop them and the watches. Recording and scraping write history, so they run on
 * the leading replica only (app.leadership); the recorder of a standby observes and waits.
 */
export async function startBackgroundServices(app: AppContext): Promise<BackgroundServices> {
  const stopHousekeeping = startHousekeeping(app);
  const recorder = app.recorder;
  app.leadership.start();
  await recorder.start(app.fleet);
  const scraper = new ControllerMetricsScraper(app.fleet, app.repos.metricSamples, (cluster) => listScrapeFamilies(app.config, cluster));
  const unwatchLeadership = app.leadership.onChange((leader) => (leader ? scraper.start() : scraper.stop()));
  const alsoStopped: (() => void)[] = [];
  const services: BackgroundServices = {
    alsoStop(stop) {
      alsoStopped.push(stop);
    },
    async stop() {
      for (const stop of alsoStopped) stop();
      stopHousekeeping();
      unwatchLeadership();
      scraper.stop();
      await recorder.stop();
      await app.leadership.stop();
      await app.fleet.stop();
    },
  };
  process.once("SIGTERM", () => void services.stop().finally(() => process.exit(0)));
  process.once("SIGINT", () => void services.stop().finally(() => process.exit(0)));
  return services;
}
