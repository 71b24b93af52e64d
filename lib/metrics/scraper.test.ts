import { setImmediate as nextEventLoopTurn } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MetricSampleRepository, ScrapeOutcome } from "@/lib/db/metric-samples";
import { ControllerMetricsScraper, SCRAPE_CONCURRENCY, type ScrapeTargets } from "./scraper";
import { CONTROLLER_FAMILIES, type SampleRow } from "./scrape-plan";

/** Fetches under way now, and the most seen at once. */
const inFlight = { now: 0, most: 0 };

// Every cluster's controller answers on the next turn, as the service proxy does on a warm fleet.
vi.mock("./fetch-controller-metrics", () => ({
  fetchControllerMetrics: vi.fn(async (_kubeConfig: unknown, _namespace: string, service: string) => {
    // A plugin meter's endpoint (docs/plugins.md): one answers with its family, the other is down.
    if (service === "argo-rollouts-plugin-meter:9465")
      return [
        "# TYPE rollscope_plugin_calls_total counter",
        'rollscope_plugin_calls_total{plugin="acme/router",kind="trafficRouter",method="SetWeight",outcome="ok"} 7',
        'rollscope_plugin_calls_total{plugin="acme/router",kind="trafficRouter",method="SetWeight",outcome="error"} 2',
      ].join("\n");
    if (service === "argo-rollouts-plugin-meter:9466") throw new Error("the API server proxy answered 503: no endpoints available");
    inFlight.now += 1;
    inFlight.most = Math.max(inFlight.most, inFlight.now);
    await nextEventLoopTurn();
    inFlight.now -= 1;
    return [
      "# TYPE rollout_events_total counter",
      ...Array.from(
        { length: 50 },
        (_, i) => `rollout_events_total{namespace="shop",name="web-${i}",type="Normal",reason="RolloutUpdated"} ${i}`,
      ),
    ].join("\n");
  }),
}));

const CLUSTERS = 20;

function fleet(pluginMeters: string[] = [], count = CLUSTERS): ScrapeTargets {
  const config = {
    metrics: { scrape: { intervalSeconds: 15, timeoutMs: 5_000, retentionHours: 24, service: "argo-rollouts-metrics:8090", pluginMeters } },
  };
  const clusters = Array.from({ length: count }, (_, i) => ({
    name: `c${i}`,
    config: { controllerNamespace: "argo-rollouts" },
    clients: { kubeConfig: {} },
  }));
  return { config, clusters } as unknown as ScrapeTargets;
}

/** A store that notes, for each saved scrape, how many event-loop turns had passed since the scrape began. */
function recordingStore(turnsSoFar: () => number) {
  const saves: Array<{ cluster: string; outcome: ScrapeOutcome; rows: readonly SampleRow[]; turn: number }> = [];
  const store: MetricSampleRepository = {
    saveScrape: async (cluster, _atMs, outcome, rows) => void saves.push({ cluster, outcome, rows, turn: turnsSoFar() }),
    readSeries: async () => [],
    readScrapeCoverage: async () => ({ coverage: null, last: null, lastOkMs: null }),
    deleteBefore: async () => undefined,
  };
  return { store, saves };
}

describe("ControllerMetricsScraper.scrapeAll", () => {
  let ticking = true;
  afterEach(() => void (ticking = false));

  it("lets the event loop run between clusters, so a scrape of many clusters never holds it as one block", async () => {
    let turns = 0;
    ticking = true;
    void (async () => {
      while (ticking) {
        await nextEventLoopTurn();
        turns += 1;
      }
    })();
    const { store, saves } = recordingStore(() => turns);
    const scraper = new ControllerMetricsScraper(fleet(), store, () => new Set(CONTROLLER_FAMILIES));

    await scraper.scrapeAll();
    ticking = false;

    expect(saves.map((save) => save.cluster).sort()).toEqual(
      fleet()
        .clusters.map((c) => c.name)
        .sort(),
    );
    expect(saves.every((save) => save.outcome.ok && save.rows.length === 50)).toBe(true);
    // Each cluster's save happened on an event-loop turn of its own: other work (a page, an API request) ran between.
    expect(new Set(saves.map((save) => save.turn)).size).toBe(CLUSTERS);
  });

  it("fetches a few clusters at a time, so a large fleet's texts are never all in memory together", async () => {
    inFlight.most = 0;
    const { store, saves } = recordingStore(() => 0);
    await new ControllerMetricsScraper(fleet(), store, () => new Set(CONTROLLER_FAMILIES)).scrapeAll();
    expect(saves).toHaveLength(CLUSTERS);
    expect(inFlight.most).toBe(SCRAPE_CONCURRENCY);
  });

  it("reads each plugin meter's endpoint with the controller's metrics, and a meter that is down costs nothing else", async () => {
    const { store, saves } = recordingStore(() => 0);
    const meters = ["argo-rollouts-plugin-meter:9465", "argo-rollouts-plugin-meter:9466"];
    const families = new Set([...CONTROLLER_FAMILIES, "rollscope_plugin_calls_total"]);
    await new ControllerMetricsScraper(fleet(meters, 1), store, () => families).scrapeAll();
    expect(saves).toHaveLength(1);
    expect(saves[0].outcome.ok).toBe(true);
    const meterRows = saves[0].rows.filter((row) => JSON.stringify(row).includes("rollscope_plugin_calls_total"));
    expect(meterRows).toHaveLength(2);
    expect(saves[0].rows).toHaveLength(52);
  });
});
