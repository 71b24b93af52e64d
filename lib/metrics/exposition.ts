import { getMetricsFromIterator, type PromHistogramData, type PromData } from "prom2javascript";
import type { Labels } from "./types";

/** One sample as Prometheus stores it: a counter, a histogram's `_bucket{le}`, `_sum` or `_count`. */
export interface FlatSample {
  metric: string;
  labels: Labels;
  value: number;
}

const SAMPLE_NAME = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/;
const META = /^#\s+(?:HELP|TYPE)\s+([a-zA-Z_:][a-zA-Z0-9_:]*)/;

function familyOf(sampleName: string, families: ReadonlySet<string>): string | null {
  if (families.has(sampleName)) return sampleName;
  const base = sampleName.replace(/_(bucket|sum|count)$/, "");
  return base !== sampleName && families.has(base) ? base : null;
}

/**
 * Parses the text exposition format (what the controller serves on :8090/metrics) with prom2javascript, keeping
 * only the wanted families. Filtering lines first keeps foreign families the parser rejects (a `NaN` summary
 * quantile from the Go runtime collectors, say) from failing the whole scrape, and keeps the work small.
 */
export async function parseExposition(text: string, families: ReadonlySet<string>): Promise<FlatSample[]> {
  const kept = text.split("\n").filter((raw) => {
    const line = raw.trim();
    if (line === "") return false;
    if (line.startsWith("#")) {
      const meta = META.exec(line);
      return meta !== null && families.has(meta[1]);
    }
    const name = SAMPLE_NAME.exec(line);
    return name !== null && familyOf(name[1], families) !== null;
  });
  const parsed = await getMetricsFromIterator(kept[Symbol.iterator]());
  const samples: FlatSample[] = [];
  for (const [name, family] of Object.entries(parsed)) {
    if (family.type === "histogram") {
      for (const histogram of family.data as PromHistogramData[]) {
        for (const [le, count] of Object.entries(histogram.buckets)) {
          samples.push({ metric: `${name}_bucket`, labels: { ...histogram.labels, le }, value: count });
        }
        samples.push({ metric: `${name}_count`, labels: { ...histogram.labels }, value: histogram.count });
        if (histogram.sum !== undefined) samples.push({ metric: `${name}_sum`, labels: { ...histogram.labels }, value: histogram.sum });
      }
    } else if (family.type !== "summary") {
      for (const point of family.data as PromData[]) samples.push({ metric: name, labels: { ...point.labels }, value: point.value });
    }
  }
  return samples;
}
