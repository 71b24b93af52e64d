import type { FlatSample } from "./exposition";
import { labelsKey } from "./types";

/** One stored value of a scraped series: `labels` is the canonical JSON of its label set. */
export interface SampleRow {
  metric: string;
  labels: string;
  atMs: number;
  value: number;
}

/** Every series is written at least this often, so a window's baseline is never further back than this. */
export const HEARTBEAT_MS = 5 * 60_000;

/** Counter families every scrape keeps: the signals plugin health is derived from (reference §4.3). */
export const CONTROLLER_FAMILIES = ["rollout_events_total", "rollout_reconcile_error", "rollout_reconcile"] as const;

export interface SeriesState {
  value: number;
  storedAtMs: number;
}

/**
 * Which scraped values to store: a series' first value, any change, and a heartbeat every {@link HEARTBEAT_MS}.
 * A series that appears after an earlier successful scrape of the cluster did not exist then, so a 0 is stored
 * at that scrape's time: its whole first value counts as an increase (Prometheus' `increase()` loses it).
 */
export function planSampleRows(
  samples: readonly FlatSample[],
  state: ReadonlyMap<string, SeriesState>,
  nowMs: number,
  previousOkMs: number | null,
): { rows: Array<SampleRow & { key: string }>; next: Map<string, SeriesState> } {
  const rows: Array<SampleRow & { key: string }> = [];
  const next = new Map<string, SeriesState>();
  for (const sample of samples) {
    const labels = labelsKey(sample.labels);
    // Joined: one flat string per kept series (a template literal's result keeps its parts alive).
    const key = [sample.metric, labels].join("");
    const previous = state.get(key);
    if (!previous && previousOkMs !== null && previousOkMs < nowMs) {
      rows.push({ key, metric: sample.metric, labels, atMs: previousOkMs, value: 0 });
    }
    if (!previous || previous.value !== sample.value || nowMs - previous.storedAtMs >= HEARTBEAT_MS) {
      rows.push({ key, metric: sample.metric, labels, atMs: nowMs, value: sample.value });
      next.set(key, { value: sample.value, storedAtMs: nowMs });
    } else {
      next.set(key, previous);
    }
  }
  return { rows, next };
}
