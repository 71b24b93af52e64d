import { toPercent } from "@/lib/rollouts/max-traffic-weight";
import type { PauseState } from "@/lib/rollouts/pause";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import type { AttentionReason, FleetRollout, RolloutStrategy } from "@/lib/rollouts/view-model";

/** One overview row: the subset of a Rollout's view the fleet table, the attention queue and the live stream carry. */
export interface RolloutSummary {
  key: string;
  cluster: string;
  namespace: string;
  name: string;
  strategy: RolloutStrategy;
  phase: RolloutPhase;
  message: string;
  revision: number | null;
  resourceVersion: string | null;
  step: { current: number | null; total: number; index: number | null; label: string | null };
  /** Percentages of maxTrafficWeight; null where they do not apply. */
  requestedPercent: number | null;
  canaryPercent: number | null;
  stablePercent: number | null;
  verified: boolean | null;
  /** Upstream's ActualWeight as a percentage (null where it needs ReplicaSets, or for blue-green). */
  actualPercent: number | null;
  routers: Array<{ kind: "builtin" | "plugin"; name: string }>;
  pause: PauseState | null;
  analysisStatus: string | null;
  aborted: boolean;
  attention: AttentionReason[];
  parseError: string | null;
  lastChangedAt: string;
}

export function toRolloutSummary(r: FleetRollout): RolloutSummary {
  const analysis = r.analysis.currentStep ?? r.analysis.background ?? r.analysis.prePromotion ?? r.analysis.postPromotion;
  return {
    key: r.key,
    cluster: r.cluster,
    namespace: r.namespace ?? "",
    name: r.name,
    strategy: r.strategy,
    phase: r.phase,
    message: r.message,
    revision: r.revision,
    resourceVersion: r.resourceVersion,
    step: {
      current: r.stepProgress.current,
      total: r.stepProgress.total,
      index: r.stepProgress.index,
      label: r.currentStep?.label ?? null,
    },
    requestedPercent: r.requestedWeight?.percent ?? null,
    canaryPercent: r.appliedWeights?.canaryPercent ?? null,
    stablePercent: r.appliedWeights?.stablePercent ?? null,
    verified: r.appliedWeights?.verified ?? null,
    actualPercent: r.actualWeight === null ? null : toPercent(r.actualWeight, r.maxTrafficWeight),
    routers: r.trafficRouters.map((t) => ({ kind: t.kind, name: t.name })),
    pause: r.pause,
    analysisStatus: analysis?.status ?? null,
    aborted: r.aborted,
    attention: r.attention,
    parseError: r.parseError,
    lastChangedAt: r.lastChangedAt,
  };
}
