import "server-only";
import { getDb } from "@/lib/db/client";
import { jsonRows, sqliteDateTime } from "@/lib/db/sqlite-json-rows";
import type { Coverage, StoredPoint } from "./counter-math";
import type { Labels } from "./types";

export interface SampleRow {
  metric: string;
  labels: string;
  atMs: number;
  value: number;
}

export interface StoredSeries {
  labels: Labels;
  points: StoredPoint[];
}

/** Writes scraped rows and the scrape's outcome in one transaction. */
export async function saveScrape(
  cluster: string,
  atMs: number,
  outcome: { ok: boolean; error: string | null; series: number; durationMs: number },
  rows: readonly SampleRow[],
): Promise<void> {
  const db = getDb();
  // A scrape of a 250-Rollout cluster is thousands of rows: one JSON parameter, not a compiled query per row.
  // JSON has no NaN or ±Inf; a non-finite counter value carries no rate anyway.
  const finite = rows.filter((row) => Number.isFinite(row.value));
  const samples = jsonRows(finite.map((row) => [cluster, row.metric, row.labels, sqliteDateTime(new Date(row.atMs)), row.value]));
  await db.$transaction([
    ...(finite.length > 0
      ? [
          db.$executeRaw`INSERT INTO "MetricSample" ("cluster", "metric", "labels", "at", "value")
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(${samples}) ORDER BY key`,
        ]
      : []),
    db.metricScrape.create({ data: { cluster, at: new Date(atMs), ...outcome } }),
  ]);
}

/** The stored values of one metric's series between two instants, in time order, grouped by labels. */
export async function readSeries(cluster: string, metric: string, fromMs: number, toMs: number): Promise<StoredSeries[]> {
  const rows = await getDb().metricSample.findMany({
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
}

/** First and last successful scrape of a cluster (what the stored counters cover), and the latest attempt. */
export async function readScrapeCoverage(cluster: string): Promise<{ coverage: Coverage | null; last: { atMs: number; ok: boolean; error: string | null } | null; lastOkMs: number | null }> {
  const db = getDb();
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
}

/** Drops samples and scrape records older than the retention. */
export async function pruneScrapes(beforeMs: number): Promise<void> {
  const db = getDb();
  const before = new Date(beforeMs);
  await db.$transaction([db.metricSample.deleteMany({ where: { at: { lt: before } } }), db.metricScrape.deleteMany({ where: { at: { lt: before } } })]);
}
