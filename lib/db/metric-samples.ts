import "server-only";
import type { Coverage, StoredPoint } from "@/lib/metrics/counter-math";
import type { SampleRow } from "@/lib/metrics/scrape-plan";
import type { Labels } from "@/lib/metrics/types";
import type { PrismaClient } from "./generated/client";
import type { DatabaseDialect } from "./database-url";
import { jsonRows, selectJsonRows, sqliteDateTime } from "./sqlite-json-rows";

export interface StoredSeries {
  labels: Labels;
  points: StoredPoint[];
}

export interface ScrapeOutcome {
  ok: boolean;
  error: string | null;
  series: number;
  durationMs: number;
}

export interface ScrapeCoverage {
  /** First and last successful scrape: what the stored counters cover. */
  coverage: Coverage | null;
  /** The latest attempt. */
  last: { atMs: number; ok: boolean; error: string | null } | null;
  lastOkMs: number | null;
}

/** Controller metrics kept by Rollscope's own scrape (tables MetricSample and MetricScrape). */
export interface MetricSampleRepository {
  /** Writes scraped rows and the scrape's outcome in one transaction. */
  saveScrape(cluster: string, atMs: number, outcome: ScrapeOutcome, rows: readonly SampleRow[]): Promise<void>;
  /** The stored values of one metric's series between two instants, in time order, grouped by labels. */
  readSeries(cluster: string, metric: string, fromMs: number, toMs: number): Promise<StoredSeries[]>;
  readScrapeCoverage(cluster: string): Promise<ScrapeCoverage>;
  /** Drops samples and scrape records older than `beforeMs`. */
  deleteBefore(beforeMs: number): Promise<void>;
}

export function createMetricSampleRepository(db: PrismaClient, dialect: DatabaseDialect): MetricSampleRepository {
  return {
    async saveScrape(cluster, atMs, outcome, rows) {
      // A scrape of a 250-Rollout cluster is thousands of rows: one JSON parameter, not a compiled query per row.
      // JSON has no NaN or ±Inf; a non-finite counter value carries no rate anyway.
      const finite = rows.filter((row) => Number.isFinite(row.value));
      const samples = jsonRows(finite.map((row) => [cluster, row.metric, row.labels, sqliteDateTime(new Date(row.atMs)), row.value]));
      await db.$transaction([
        ...(finite.length > 0
          ? [
              db.$executeRaw`INSERT INTO "MetricSample" ("cluster", "metric", "labels", "at", "value")
                ${selectJsonRows(dialect, samples, ["text", "text", "text", "timestamp", "float"])}`,
            ]
          : []),
        db.metricScrape.create({ data: { cluster, at: new Date(atMs), ...outcome } }),
      ]);
    },

    async readSeries(cluster, metric, fromMs, toMs) {
      const rows = await db.metricSample.findMany({
        where: { cluster, metric, at: { gte: new Date(fromMs), lte: new Date(toMs) } },
        orderBy: [{ at: "asc" }, { id: "asc" }],
        select: { labels: true, at: true, value: true },
      });
      // Labels are parsed once per distinct series, not once per row: a busy cluster stores thousands of rows per series.
      const series = new Map<string, StoredSeries>();
      for (const row of rows) {
        let entry = series.get(row.labels);
        if (!entry) series.set(row.labels, (entry = { labels: JSON.parse(row.labels) as Labels, points: [] }));
        entry.points.push({ atMs: row.at.getTime(), value: row.value });
      }
      return [...series.values()];
    },

    async readScrapeCoverage(cluster) {
      const [first, lastOk, last] = await Promise.all([
        db.metricScrape.findFirst({ where: { cluster, ok: true }, orderBy: { at: "asc" }, select: { at: true } }),
        db.metricScrape.findFirst({ where: { cluster, ok: true }, orderBy: { at: "desc" }, select: { at: true } }),
        db.metricScrape.findFirst({ where: { cluster }, orderBy: { at: "desc" }, select: { at: true, ok: true, error: true } }),
      ]);
      return {
        coverage: first && lastOk ? { fromMs: first.at.getTime(), toMs: lastOk.at.getTime() } : null,
        last: last ? { atMs: last.at.getTime(), ok: last.ok, error: last.error } : null,
        lastOkMs: lastOk ? lastOk.at.getTime() : null,
      };
    },

    async deleteBefore(beforeMs) {
      const before = new Date(beforeMs);
      await db.$transaction([
        db.metricSample.deleteMany({ where: { at: { lt: before } } }),
        db.metricScrape.deleteMany({ where: { at: { lt: before } } }),
      ]);
    },
  };
}
