import { z } from "zod";

/** `[<unix seconds>, "<value>"]` as the HTTP API sends a sample. */
const sampleSchema = z.tuple([z.number(), z.string()]);

const matrixResultSchema = z.array(z.object({ metric: z.record(z.string(), z.string()), values: z.array(sampleSchema) }));

const vectorResultSchema = z.array(z.object({ metric: z.record(z.string(), z.string()), value: sampleSchema }));

export const queryResponseSchema = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("success"),
    data: z.discriminatedUnion("resultType", [
      z.object({ resultType: z.literal("matrix"), result: matrixResultSchema }),
      z.object({ resultType: z.literal("vector"), result: vectorResultSchema }),
      z.object({ resultType: z.literal("scalar"), result: sampleSchema }),
      z.object({ resultType: z.literal("string"), result: sampleSchema }),
    ]),
    warnings: z.array(z.string()).optional(),
  }),
  z.object({ status: z.literal("error"), errorType: z.string(), error: z.string() }),
]);

export type MatrixResult = z.infer<typeof matrixResultSchema>;

export type Labels = Record<string, string>;

/** One series on the range's timestamps; null where the source had no sample or the value is not finite. */
export interface AlignedSeries {
  labels: Labels;
  values: Array<number | null>;
}

/** Timestamps (ms) of a range: `start`, `start + step`, … up to `end`, as query_range evaluates them. */
export function listRangeTimestamps(startMs: number, endMs: number, stepMs: number): number[] {
  if (stepMs <= 0 || endMs < startMs) return [];
  const count = Math.floor((endMs - startMs) / stepMs) + 1;
  return Array.from({ length: count }, (_, i) => startMs + i * stepMs);
}

/** Parses a sample value; Prometheus writes NaN and ±Inf as strings. Non-finite values become null. */
export function parseSampleValue(text: string): number | null {
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * Places each series' samples on the given timestamps by time, never by array index: Prometheus omits steps
 * where a series has no value, so the n-th sample is not the n-th step. A sample is matched to the timestamp
 * within half a step of it.
 */
export function alignMatrix(result: MatrixResult, timestampsMs: readonly number[]): AlignedSeries[] {
  const step = timestampsMs.length > 1 ? timestampsMs[1] - timestampsMs[0] : 1_000;
  const first = timestampsMs[0] ?? 0;
  return result.map((series) => {
    const values: Array<number | null> = timestampsMs.map(() => null);
    for (const [seconds, text] of series.values) {
      const index = Math.round((seconds * 1000 - first) / step);
      if (index < 0 || index >= timestampsMs.length) continue;
      if (Math.abs(timestampsMs[index] - seconds * 1000) > step / 2) continue;
      values[index] = parseSampleValue(text);
    }
    return { labels: series.metric, values };
  });
}

/** Sums aligned series point by point; a point is null only when every input is null there. */
export function sumAligned(series: readonly AlignedSeries[], length: number): Array<number | null> {
  const out: Array<number | null> = Array.from({ length }, () => null);
  for (const s of series) {
    s.values.forEach((value, i) => {
      if (value === null) return;
      out[i] = (out[i] ?? 0) + value;
    });
  }
  return out;
}
