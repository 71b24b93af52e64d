import type { ChartState } from "@/components/charts/chart-state";
import type { BurnRate } from "@/lib/plugins/health";
import type { HealthLevel } from "@/lib/plugins/health-rank";
import { BURN_READ_EVERY_MS, type MatrixCell, type PluginHealthView } from "@/lib/plugins/view-types";
import type { Tone } from "@/components/ui/badge";

export interface SuccessRateRow {
  t: number;
  /** Percent of derived successful calls; null where nothing was attempted. */
  derived: number | null;
  /** Percent of successful calls by the per-RPC metric, when configured. */
  perRpc: number | null;
  attempts: number | null;
  failures: number | null;
}

/**
 * Rows for the success-rate chart, aligned by timestamp (never by index): the derived series and, when present,
 * the per-RPC series share the server's step-aligned timestamps.
 */
export function toSuccessRateRows(view: PluginHealthView): SuccessRateRow[] {
  const rows = new Map<number, SuccessRateRow>();
  const rowAt = (at: string) => {
    const t = Date.parse(at);
    let row = rows.get(t);
    if (!row) rows.set(t, (row = { t, derived: null, perRpc: null, attempts: null, failures: null }));
    return row;
  };
  for (const point of view.derived.data?.points ?? []) {
    const row = rowAt(point.at);
    row.derived = point.successRate === null ? null : point.successRate * 100;
    row.attempts = point.attempts ?? null;
    row.failures = point.failures ?? null;
  }
  for (const point of view.perRpc?.data?.points ?? []) rowAt(point.at).perRpc = point.successRate === null ? null : point.successRate * 100;
  return [...rows.values()].sort((a, b) => a.t - b.t);
}

/** The chart's four states from the panel: loading is the query's, the rest comes from the data. */
export function successRateState(
  view: PluginHealthView | undefined,
  loading: boolean,
  queryError: string | null,
): ChartState<SuccessRateRow[]> {
  if (queryError) return { status: "error", message: queryError };
  if (loading || !view) return { status: "loading" };
  if (view.derived.error) return { status: "error", message: view.derived.error };
  const rows = toSuccessRateRows(view);
  if (!rows.some((row) => row.derived !== null || row.perRpc !== null)) {
    return { status: "empty", message: "No plugin calls in this range (no reconciles of the Rollouts that use it)" };
  }
  return { status: "data", data: rows };
}

export function burnTone(burn: BurnRate): Tone {
  switch (burn.status) {
    case "critical":
      return "red";
    case "warning":
      return "amber";
    case "ok":
      return "green";
    default:
      return "neutral";
  }
}

const WINDOW_TEXT: Record<BurnRate["window"], string> = { "1h": "the last hour", "24h": "the last 24 hours" };

/** A burn badge's title: what it was derived from, and how fresh its window is. */
export function describeBurnBasis(burn: BurnRate): string {
  const every = BURN_READ_EVERY_MS[burn.window] / 60_000;
  return (
    `error rate ${formatRate(burn.errorRate)} over ${burn.attempts} attempts in ${WINDOW_TEXT[burn.window]} ` +
    `(derived; read again at most every ${every === 1 ? "minute" : `${every} minutes`})`
  );
}

export function describeBurn(burn: BurnRate): string {
  if (burn.burnRate === null) return `${burn.window}: no data`;
  return `${burn.window}: ${burn.burnRate >= 100 ? burn.burnRate.toFixed(0) : burn.burnRate.toFixed(1)}× budget`;
}

export function cellTone<C extends Pick<MatrixCell, "state" | "critical" | "warning">>(cell: C): Tone {
  if (cell.state === "invalid" || cell.state === "referenced-not-registered" || cell.critical > 0) return "red";
  if (cell.state === "absent") return "neutral";
  return cell.warning > 0 ? "amber" : "green";
}

export function cellLabel<C extends Pick<MatrixCell, "state" | "version">>(cell: C): string {
  switch (cell.state) {
    case "registered":
      return cell.version ?? "registered";
    case "referenced-not-registered":
      return "missing";
    case "invalid":
      return "invalid";
    default:
      return "—";
  }
}

export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return "—";
  const percent = rate * 100;
  return `${percent >= 99.95 || percent === 0 ? percent.toFixed(0) : percent.toFixed(percent >= 99 ? 2 : 1)} %`;
}

export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(2)} s`;
}

export const LEVEL_TONE: Record<HealthLevel, Tone> = { critical: "red", warning: "amber", ok: "green", "no-data": "neutral" };
export const LEVEL_LABEL: Record<HealthLevel, string> = { critical: "critical", warning: "warning", ok: "ok", "no-data": "no data" };
