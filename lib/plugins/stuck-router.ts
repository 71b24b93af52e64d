import { alignRange, type RangeSpec } from "@/lib/metrics/types";
import { parsePromDuration } from "@/lib/prometheus/promql";
import type { EffectivePluginSettings } from "./effective-settings";
import type { Finding } from "./findings";
import type { RolloutView } from "@/lib/rollouts/view-model";
import type { AppliedPoint, StuckRouterRun } from "./measured-traffic";

/** How a cluster's routers are checked: over what range, how long a weight change takes to settle in the rate. */
export interface StuckRouterCheck {
  range: RangeSpec;
  settleSeconds: number;
  tolerancePercent: number;
  forSeconds: number;
}

/** Twice the configured time, at least 10 minutes, at a 15-s step; a change settles after the rate window and a step. */
export function planStuckRouterCheck(settings: EffectivePluginSettings, nowMs: number): StuckRouterCheck {
  const { tolerancePercent, forSeconds } = settings.stuckRouter;
  const lookbackMs = Math.max(2 * forSeconds * 1000, 10 * 60_000);
  const range = alignRange(nowMs - lookbackMs, nowMs, 15);
  const settleSeconds = (parsePromDuration(settings.measuredTraffic.window) ?? 60) + range.stepSeconds;
  return { range, settleSeconds, tolerancePercent, forSeconds };
}

export interface WeightSample {
  atMs: number;
  canaryWeight: number | null;
  maxWeight: number;
}

/**
 * The applied canary weight over time, in per cent, from recorded samples in time order (the one before the range
 * first). Without any sample, the live applied weight counts from the range's start.
 */
export function toAppliedPoints(samples: readonly WeightSample[], live: AppliedPoint | null): AppliedPoint[] {
  const points = samples.map((s) => ({
    atMs: s.atMs,
    canaryPercent: s.canaryWeight === null ? null : (s.canaryWeight / s.maxWeight) * 100,
  }));
  if (points.length === 0 && live) points.push(live);
  return points;
}

function formatRunLength(run: StuckRouterRun): string {
  const minutes = Math.round((run.untilMs - run.sinceMs) / 60_000);
  return minutes >= 1 ? `${minutes} min` : `${Math.round((run.untilMs - run.sinceMs) / 1000)} s`;
}

/** The `stuck-router` finding for a router whose measured share does not follow the applied weight. */
export function buildStuckRouterFinding(input: {
  cluster: string;
  controllerNamespace: string;
  rollout: { namespace: string | null; name: string };
  router: string;
  templateKey: string;
  sourceSignal: string;
  run: StuckRouterRun;
  check: Pick<StuckRouterCheck, "tolerancePercent" | "forSeconds">;
}): Finding {
  const { cluster, rollout, router, run } = input;
  const { tolerancePercent, forSeconds } = input.check;
  return {
    id: `stuck-router/${cluster}/${rollout.namespace}/${rollout.name}`,
    severity: "critical",
    kind: "stuck-router",
    title: `${router} is not following the weight of ${rollout.namespace}/${rollout.name}`,
    detail:
      `Applied canary weight ${run.appliedPercent.toFixed(0)} %, measured canary share ${run.measuredPercent.toFixed(1)} % ` +
      `(signal: ${input.templateKey} template on ${input.sourceSignal}) ` +
      `for ${formatRunLength(run)} since ${new Date(run.sinceMs).toISOString()}; ` +
      `the tolerance is ${tolerancePercent} points for ${forSeconds} s. The controller believes the split is applied, ` +
      "but the data plane sends traffic elsewhere, so analysis measures the wrong mix.",
    affected: [{ cluster, namespace: rollout.namespace ?? undefined, name: rollout.name, plugin: router, resourceKind: "Rollout" }],
    fix:
      `Inspect the routing resources ${router} manages for this Rollout (weights on the route/VirtualService/Ingress) and the ` +
      `router's own logs; if the plugin reports success without applying the weight, upgrade or restart it ` +
      `(kubectl rollout restart deployment -n ${input.controllerNamespace} argo-rollouts), or abort the rollout until it is fixed.`,
  };
}

/** Routed Rollouts with a weight applied, those mid-canary first (a stuck router shows there). */
export function orderStuckRouterCandidates<R extends Pick<RolloutView, "trafficRouters" | "appliedWeights">>(rollouts: readonly R[]): R[] {
  const routed = rollouts.filter((r) => r.trafficRouters.length > 0 && r.appliedWeights !== null);
  const midCanary = (r: R) => {
    const percent = r.appliedWeights?.canaryPercent ?? 0;
    return percent > 0 && percent < 100;
  };
  return [...routed.filter(midCanary), ...routed.filter((r) => !midCanary(r))];
}
