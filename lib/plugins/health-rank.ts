import type { PluginHealthView } from "./view-types";

/** How a plugin's health reads at a glance, worst first: what an SRE should look at before the rest. */
export type HealthLevel = "critical" | "warning" | "ok" | "no-data";

const LEVEL_ORDER: Readonly<Record<HealthLevel, number>> = { critical: 0, warning: 1, ok: 2, "no-data": 3 };

export interface HealthRank {
  level: HealthLevel;
  /** Success rate over the range (0–1), measured where the plugin meter counts the calls, else derived; null without calls. */
  successRate: number | null;
  /** Where successRate comes from. */
  source: "measured" | "derived";
  affected: number;
  unverified: number;
}

/** Burn multiples at which a measured error rate over the range is critical and a warning (as the derived windows). */
const MEASURED_CRITICAL_BURN = 14.4;

/**
 * A health view's level. Where the plugin meter measured the calls, its error rate over the range decides (critical
 * at 14.4× the error budget, warning above 1×) and the derived burn windows, which count controller-wide signals,
 * do not. Elsewhere: critical when a derived SLO burn window is critical (Google's multiwindow thresholds), warning
 * when one warns. Either way warning when the router affects a Rollout now (its needs-attention reasons), ok when
 * calls were made and none of that holds, and no-data otherwise.
 */
export function rankPluginHealth(view: PluginHealthView): HealthRank {
  const measured = view.perRpc?.data?.source === "meter" && view.perRpc.data.total.calls > 0 ? view.perRpc.data.total : null;
  const affected = view.affected.length;
  const unverified = view.verification.data?.unverified.length ?? 0;
  const hurting = affected > 0 || unverified > 0;
  if (measured) {
    const budget = 1 - (view.slo.data?.target ?? 0.99);
    const burn = measured.errors / measured.calls / budget;
    const level: HealthLevel = burn >= MEASURED_CRITICAL_BURN ? "critical" : burn > 1 || hurting ? "warning" : "ok";
    return { level, successRate: measured.successRate, source: "measured", affected, unverified };
  }
  const burn = view.slo.data?.burn ?? [];
  const successRate = view.derived.data?.total?.successRate ?? null;
  const level: HealthLevel = burn.some((b) => b.status === "critical")
    ? "critical"
    : burn.some((b) => b.status === "warning") || hurting
      ? "warning"
      : successRate !== null || burn.some((b) => b.status === "ok")
        ? "ok"
        : "no-data";
  return { level, successRate, source: "derived", affected, unverified };
}

/** Compares two ranks: the worse one first (level, then lower success rate, then more affected Rollouts). */
function compareHealthRanks(a: HealthRank, b: HealthRank): number {
  return (
    LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
    (a.successRate ?? 2) - (b.successRate ?? 2) ||
    b.affected - a.affected ||
    b.unverified - a.unverified
  );
}

/**
 * Health views worst first. Ties keep a stable, findable order: per-cluster views before the fleet-wide aggregate
 * (which only repeats them), then by plugin and cluster name.
 */
export function sortHealthWorstFirst(views: readonly PluginHealthView[]): PluginHealthView[] {
  const ranked = views.map((view) => ({ view, rank: rankPluginHealth(view) }));
  ranked.sort(
    (a, b) =>
      compareHealthRanks(a.rank, b.rank) ||
      Number(a.view.cluster === null) - Number(b.view.cluster === null) ||
      a.view.plugin.localeCompare(b.view.plugin) ||
      (a.view.cluster ?? "").localeCompare(b.view.cluster ?? ""),
  );
  return ranked.map((r) => r.view);
}
