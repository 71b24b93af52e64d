import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prometheusConfigSchema } from "@/lib/config/schema";
import { sumValues } from "@/lib/metrics/counter-math";
import { createPrometheusSource } from "@/lib/metrics/prometheus-source";
import { alignRange, type IncreaseSeries } from "@/lib/metrics/types";
import { PLUGIN_METER_FAMILY } from "@/lib/plugins/plugin-meter-family";
import { waitFor } from "@/test/harness/free-port";
import { findPrometheus, startPrometheus, type PrometheusHandle } from "@/test/harness/prometheus";
import { metrics } from "@/lib/telemetry/metrics-registry";

/*
 * The plugin meter's call counts read back through a real Prometheus: 3 failed SetWeight calls of 13 must read 3 of
 * 13, as the meter counted them. Prometheus' increase() extrapolates to the window's edges (2.1 of 30.5) and loses
 * the first value of a series born in the range (the `outcome="error"` series appears with the failures it counts);
 * the exact mode reads the raw samples instead.
 */

const skip = findPrometheus() === null;
let exporter: Server;
let prometheus: PrometheusHandle | null = null;
const counts = { ok: 0, error: 0 };

function exposition(): string {
  const lines = [`# TYPE ${PLUGIN_METER_FAMILY.calls} counter`];
  for (const [outcome, value] of Object.entries(counts)) {
    // A label set exists from its first call on, as with the meter's (and any Prometheus client's) counter vectors.
    if (value > 0) lines.push(`${PLUGIN_METER_FAMILY.calls}{plugin="acme/router",method="SetWeight",outcome="${outcome}"} ${value}`);
  }
  // A controller's counter of one Rollout, for the grouped reads of the plugin health report.
  lines.push("# TYPE rollout_reconcile_count counter", `rollout_reconcile_count{namespace="shop",name="web"} ${counts.ok}`);
  return `${lines.join("\n")}\n`;
}

async function waitForValue(promql: string, expected: number): Promise<void> {
  await waitFor(`${promql} = ${expected}`, async () => (await prometheus!.queryValue(promql)) === expected, 60_000);
}

const total = (series: IncreaseSeries[], outcome: string) =>
  sumValues(series.filter((s) => s.labels.outcome === outcome).flatMap((s) => s.values)) ?? 0;

beforeAll(async () => {
  if (skip) return;
  exporter = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(exposition()));
  await new Promise<void>((resolve) => exporter.listen(0, "127.0.0.1", resolve));
  const port = (exporter.address() as AddressInfo).port;
  counts.ok = 4;
  prometheus = await startPrometheus({ targets: [{ job: "meter", url: `http://127.0.0.1:${port}/metrics` }] });
  const selector = (outcome: string) => `sum(${PLUGIN_METER_FAMILY.calls}{outcome="${outcome}"})`;
  await waitForValue(selector("ok"), 4);
  // Calls keep coming between scrapes; the failures come all at once, so their series is born with the value 3.
  for (let i = 0; i < 6; i++) {
    counts.ok += 1;
    await waitForValue(selector("ok"), counts.ok);
  }
  counts.error = 3;
  await waitForValue(selector("error"), 3);
  await prometheus.waitForScrape();
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  exporter?.close();
});

describe.skipIf(skip)("exact counter increases from Prometheus", () => {
  it("reads k failed calls of n exactly, where increase() extrapolates and loses a series' first value", async () => {
    const source = createPrometheusSource(prometheusConfigSchema.parse({ url: prometheus!.url }));
    const now = Date.now();
    const range = alignRange(now - 10 * 60_000, now + 60_000, 60);
    const query = { metric: PLUGIN_METER_FAMILY.calls, filter: { plugin: ["acme/router"] }, by: ["method", "outcome"] };

    const exact = await source.increase({ ...query, exact: true }, range);
    expect({ ok: total(exact, "ok"), error: total(exact, "error") }).toStrictEqual({ ok: 10, error: 3 });
    expect(exact.every((s) => s.labels.method === "SetWeight")).toBe(true);

    // What the page showed before: Prometheus' own increase() never sees the error series rise.
    const extrapolated = await source.increase(query, range);
    expect(total(extrapolated, "error")).toBeLessThan(3);
  });

  it("counts nothing for a window before a series existed, and nothing twice across windows", async () => {
    const source = createPrometheusSource(prometheusConfigSchema.parse({ url: prometheus!.url }));
    const now = Date.now();
    const range = alignRange(now - 10 * 60_000, now + 60_000, 15);
    const exact = await source.increase({ metric: PLUGIN_METER_FAMILY.calls, by: ["outcome"], exact: true }, range);
    const ok = exact.find((s) => s.labels.outcome === "ok")!;
    expect(ok.values[0]).toBeNull();
    expect(sumValues(ok.values)).toBe(10);
  });

  it("reads a grouped range again by asking only for its last minutes, and answers as a whole read does", async () => {
    const source = createPrometheusSource(prometheusConfigSchema.parse({ url: prometheus!.url }));
    const query = {
      parts: [{ metric: "rollout_reconcile_count", by: [] }],
      groups: [{ key: "0", rollouts: [{ namespace: "shop", name: "web" }] }],
    };
    const tailReads = async () => (await metrics().prometheusRangeReads.get()).values.find((v) => v.labels.read === "tail")?.value ?? 0;
    const sum = (series: IncreaseSeries[]) => sumValues(series.flatMap((s) => s.values)) ?? 0;
    const now = Date.now();
    const first = alignRange(now - 20 * 60_000, now + 60_000, 15);
    await source.increaseByGroup(query, first);
    const tailBefore = await tailReads();
    const next = { ...first, startMs: first.startMs + 15_000, endMs: first.endMs + 15_000 };
    const again = await source.increaseByGroup(query, next);
    expect(await tailReads()).toBe(tailBefore + 1);
    // What a new source reads over the whole range. The counter stopped before the reads, so a scrape landing between
    // them adds no increase.
    const whole = await createPrometheusSource(prometheusConfigSchema.parse({ url: prometheus!.url })).increaseByGroup(query, next);
    expect(sum(again)).toBeGreaterThan(0);
    expect(sum(again)).toBeCloseTo(sum(whole), 9);
    expect(again.map((s) => s.labels)).toStrictEqual(whole.map((s) => s.labels));
  });
});
