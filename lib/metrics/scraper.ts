import "server-only";
import { setImmediate as nextEventLoopTurn } from "node:timers/promises";
import type { KubeConfig } from "@kubernetes/client-node";
import type { ClusterConfig, RollscopeConfig } from "@/lib/config/schema";
import { describeErrorSafely } from "@/lib/errors/known-secrets";
import type { MetricSampleRepository } from "@/lib/db/metric-samples";
import { rateLimitedLog } from "@/lib/log/rate-limited-log";
import { readExpositionSamples } from "./exposition";
import { fetchControllerMetrics } from "./fetch-controller-metrics";
import { EMPTY_SERIES_MEMORY, planSampleRows, type SeriesMemory } from "./scrape-plan";

/** What the scraper needs of the fleet: the configuration and each cluster's kubeconfig transport. */
export interface ScrapeTargets {
  config: RollscopeConfig;
  clusters: ReadonlyArray<{ name: string; config: ClusterConfig; clients: { kubeConfig: KubeConfig } }>;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * How many clusters' metrics are fetched and stored at once. A 400-Rollout controller's text is about 1.5 MB; all 50
 * clusters of a 20,000-Rollout fleet fetched together held about 150 MB (text and its buffers) at the same moment as
 * the start-up lists, and pushed the server's heap to its limit.
 */
export const SCRAPE_CONCURRENCY = 4;

/**
 * Scrapes the controller metrics of every cluster that has no Prometheus, every `metrics.scrape.intervalSeconds`,
 * through the API server's service proxy, and stores counter values for the scrape-mode metrics source.
 */
export class ControllerMetricsScraper {
  private readonly state = new Map<string, { series: SeriesMemory; lastOkMs: number | null; running: boolean }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastPruneMs = 0;
  /** The tail of the queue {@link inOwnTurn} runs clusters' parse-and-save steps on, one at a time. */
  private processing: Promise<void> = Promise.resolve();

  constructor(
    private readonly targets: ScrapeTargets,
    private readonly metricSamples: MetricSampleRepository,
    /** The metric families a cluster's scrape keeps (the controller's plus any configured per-RPC plugin metrics). */
    private readonly scrapeFamilies: (cluster: ClusterConfig) => ReadonlySet<string>,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    if (this.timer) return;
    const interval = this.targets.config.metrics.scrape.intervalSeconds * 1000;
    void this.scrapeAll();
    this.timer = setInterval(() => void this.scrapeAll(), interval);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async scrapeAll(): Promise<void> {
    const waiting = this.targets.clusters.filter((cluster) => !cluster.config.prometheus).map((cluster) => cluster.name);
    const worker = async () => {
      for (let name = waiting.shift(); name !== undefined; name = waiting.shift()) await this.scrapeCluster(name);
    };
    await Promise.all(Array.from({ length: Math.min(SCRAPE_CONCURRENCY, waiting.length) }, worker));
    const now = this.now();
    if (now - this.lastPruneMs >= PRUNE_EVERY_MS) {
      this.lastPruneMs = now;
      await this.metricSamples
        .deleteBefore(now - this.targets.config.metrics.scrape.retentionHours * 3_600_000)
        .catch((err: unknown) => rateLimitedLog().error("metrics prune", "[metrics] pruning scraped samples failed", err));
    }
  }

  /** One scrape of one cluster; never throws (a failure is recorded and shown by the panels). */
  async scrapeCluster(name: string): Promise<void> {
    const cluster = this.targets.clusters.find((c) => c.name === name);
    if (!cluster) return;
    let state = this.state.get(name);
    if (!state) this.state.set(name, (state = { series: EMPTY_SERIES_MEMORY, lastOkMs: null, running: false }));
    if (state.running) return;
    state.running = true;
    const settings = this.targets.config.metrics.scrape;
    const started = this.now();
    try {
      const fetch = (service: string) =>
        fetchControllerMetrics(cluster.clients.kubeConfig, cluster.config.controllerNamespace, service, settings.timeoutMs);
      const [text, meterTexts] = await Promise.all([
        fetch(settings.service),
        Promise.all(settings.pluginMeters.map((s) => this.fetchMeter(name, s, fetch))),
      ]);
      const fetchMs = this.now() - started;
      await this.inOwnTurn(async () => {
        const parseStarted = this.now();
        const families = this.scrapeFamilies(cluster.config);
        const samples = readExpositionSamples(text, families);
        for (const meterText of meterTexts) if (meterText !== null) samples.push(...readExpositionSamples(meterText, families));
        const at = this.now();
        const { rows, next } = planSampleRows(samples, state.series, at, state.lastOkMs);
        await nextEventLoopTurn(); // the parse and the (synchronous, on SQLite) write are each a burst of their own
        await this.metricSamples.saveScrape(
          name,
          at,
          { ok: true, error: null, series: samples.length, durationMs: fetchMs + (at - parseStarted) },
          rows,
        );
        state.series = next;
        state.lastOkMs = at;
      });
    } catch (err) {
      const message = describeErrorSafely(err);
      await this.metricSamples
        .saveScrape(name, this.now(), { ok: false, error: message.slice(0, 500), series: 0, durationMs: this.now() - started }, [])
        .catch((dbErr: unknown) =>
          rateLimitedLog().error(`metrics save ${name}`, `[metrics] recording a failed scrape of ${name} failed`, dbErr),
        );
    } finally {
      state.running = false;
    }
  }

  /**
   * One plugin meter's metrics text, or null when it cannot be read: a meter that is down (its plugin restarting, or
   * not installed) must not cost the cluster its controller metrics; its plugins then show no measured figures.
   */
  private async fetchMeter(cluster: string, service: string, fetch: (service: string) => Promise<string>): Promise<string | null> {
    try {
      return await fetch(service);
    } catch (err) {
      rateLimitedLog().error(
        `meter ${cluster}/${service}`,
        `[metrics] plugin meter ${service} of ${cluster} could not be read: ${describeErrorSafely(err)}`,
      );
      return null;
    }
  }

  /**
   * Runs one cluster's parse and store write after every earlier cluster's, on a fresh event-loop turn. The
   * fetches of a scrape land together; parsed and saved back to back, 20 clusters of 250 Rollouts held the event
   * loop for over a second (seconds on a loaded machine), stalling every page and API request meanwhile.
   */
  private inOwnTurn(work: () => Promise<void>): Promise<void> {
    const turn = this.processing.then(() => nextEventLoopTurn()).then(work);
    this.processing = turn.catch(() => undefined);
    return turn;
  }
}
