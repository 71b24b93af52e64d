import type { PluginHealthView } from "./view-types";

/** How a plugin's health reads at a glance, worst first: what an SRE should look at before the rest. */
export type HealthLevel = "critical" | "warning" | "ok" | "no-data";

const LEVEL_ORDER: Readonly<Record<HealthLevel, number>> = { critical: 0, warning: 1, ok: 2, "no-data": 3 };

export interface HealthRank {
  level: HealthLevel;
  /** Derived success rate over the range (0–1); null without attempts. */
  successRate: number | null;
  affected: number;
  unverified: number;
}

/**
 * A health view's level: critical when an SLO burn window is critical (Google's multiwindow thresholds), warning
 * when one warns or any Rollout is affected now (Warning events, verified=false, failed calls), ok when calls were
 * attempted and none of that holds, and no-data otherwise.
 */
export function rankPluginHealth(view: PluginHealthView): HealthRank {
  const burn = view.slo.data?.burn ?? [];
  const successRate = view.derived.data?.total?.successRate ?? null;
  const affected = view.affected.length;
  const unverified = view.verification.data?.unverified.length ?? 0;
  const level: HealthLevel = burn.some((b) => b.status === "critical")
    ? "critical"
    : burn.some((b) => b.status === "warning") || affected > 0 || unverified > 0
      ? "warning"
      : successRate !== null || burn.some((b) => b.status === "ok")
        ? "ok"
        : "no-data";
  return { level, successRate, affected, unverified };
}

/** Compares two ranks: the worse one first (level, then lower success rate, then more affected Rollouts). */
export function compareHealthRanks(a: HealthRank, b: HealthRank): number {
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
