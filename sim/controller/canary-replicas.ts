import { activeSetCanaryScale, availableReplicas, currentSetWeight, maxTrafficWeight, replicasOf, specReplicas } from "./steps";
import type { ReplicaSet, Rollout } from "./types";

/**
 * Ports of the canary replica arithmetic of upstream v1.9.1 (`utils/replicaset/canary.go`, `utils/replicaset/replicaset.go`
 * MaxSurge/MaxUnavailable, `utils/defaults`): how many pods the new and the stable ReplicaSet should have at this moment.
 */

export interface DesiredCounts {
  newRS: number;
  stable: number;
}

/** `defaults.DefaultMaxSurge` / `DefaultMaxUnavailable`: the string "25", which intstr reads as 25 %. */
const DEFAULT_MAX_SURGE = "25";
const DEFAULT_MAX_UNAVAILABLE = "25";

/**
 * `intstr.GetValueFromIntOrPercent`: an int as is; a string is a percentage (every "%" removed) of `total`,
 * rounded up or down. null when the string is not a number (upstream then gets an error).
 */
function valueFromIntOrPercent(value: number | string, total: number, roundUp: boolean): number | null {
  if (typeof value === "number") return value;
  const digits = value.replaceAll("%", "");
  if (!/^[+-]?\d+$/.test(digits)) return null;
  const scaled = (Number.parseInt(digits, 10) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * `resolveFenceposts`: maxSurge rounds up, maxUnavailable down; if both come to 0, maxUnavailable is 1. An invalid
 * value (caught by validation upstream) makes both 0.
 */
function resolveFenceposts(ro: Rollout): { maxSurge: number; maxUnavailable: number } {
  const replicas = replicasOf(ro);
  const canary = ro.spec.strategy.canary;
  const surge = valueFromIntOrPercent(canary?.maxSurge ?? DEFAULT_MAX_SURGE, replicas, true);
  const unavailable = valueFromIntOrPercent(canary?.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, replicas, false);
  if (surge === null || unavailable === null) return { maxSurge: 0, maxUnavailable: 0 };
  return { maxSurge: surge, maxUnavailable: surge === 0 && unavailable === 0 ? 1 : unavailable };
}

/** `MaxSurge` (canary). */
export function maxSurgeOf(ro: Rollout): number {
  return ro.spec.strategy.canary ? resolveFenceposts(ro).maxSurge : 0;
}

/** `MaxUnavailable` (canary): 0 without replicas, never more than the replicas. */
export function maxUnavailableOf(ro: Rollout): number {
  const replicas = replicasOf(ro);
  if (replicas === 0) return 0;
  return Math.min(resolveFenceposts(ro).maxUnavailable, replicas);
}

/** `GetCanaryReplicasOrWeight`: full weight when promoting fully or not yet/already promoted, else setCanaryScale or the step's weight. */
function canaryReplicasOrWeight(ro: Rollout): { replicas: number | null; weight: number } {
  const status = ro.status ?? {};
  if (status.promoteFull || !status.stableRS || status.currentPodHash === status.stableRS) {
    return { replicas: null, weight: maxTrafficWeight(ro) };
  }
  const scs = activeSetCanaryScale(ro);
  if (scs?.replicas !== undefined) return { replicas: scs.replicas, weight: 0 };
  if (scs?.weight !== undefined) return { replicas: null, weight: scs.weight };
  return { replicas: null, weight: currentSetWeight(ro) };
}

/** `floorCeilingTied`: replicas × weight lands exactly half-way between two counts. */
function floorCeilingTied(desiredWeight: number, maxWeight: number, totalReplicas: number): boolean {
  const product = totalReplicas * (desiredWeight / maxWeight);
  return product - Math.trunc(product) === 0.5;
}

/** `weightDelta`: how far a canary/total split is from the desired weight. */
function weightDelta(desiredWeight: number, maxWeight: number, canary: number, total: number): number {
  return Math.abs((canary * maxWeight) / total - desiredWeight);
}

/**
 * `approximateWeightedCanaryStableReplicaCounts`: the canary/stable split (summing to replicas, or replicas + 1 when
 * surge is allowed) closest to the weight; with a weight strictly between 0 and max, neither side is 0 unless a
 * single replica cannot surge.
 */
export function approximateWeightedCanaryStableReplicaCounts(
  specReplicas: number,
  desiredWeight: number,
  maxWeight: number,
  maxSurge: number,
): DesiredCounts {
  if (specReplicas === 0) return { newRS: 0, stable: 0 };
  const ceil = Math.ceil((specReplicas * desiredWeight) / maxWeight);
  const floor = Math.floor((specReplicas * desiredWeight) / maxWeight);
  const zeroAllowed = desiredWeight === maxWeight || desiredWeight === 0 || (specReplicas === 1 && maxSurge === 0);
  const options: Array<{ canary: number; total: number }> = [];
  if (ceil < specReplicas || zeroAllowed) options.push({ canary: ceil, total: specReplicas });
  if (!floorCeilingTied(desiredWeight, maxWeight, specReplicas) && (floor !== 0 || zeroAllowed))
    options.push({ canary: floor, total: specReplicas });
  if (maxSurge > 0) {
    options.push({ canary: ceil, total: specReplicas + 1 });
    if (!floorCeilingTied(desiredWeight, maxWeight, specReplicas + 1) && (floor !== 0 || zeroAllowed))
      options.push({ canary: floor, total: specReplicas + 1 });
  }
  if (options.length === 0) return { newRS: 0, stable: specReplicas };
  let best = options[0];
  for (const option of options.slice(1)) {
    if (weightDelta(desiredWeight, maxWeight, option.canary, option.total) < weightDelta(desiredWeight, maxWeight, best.canary, best.total))
      best = option;
  }
  return { newRS: best.canary, stable: best.total - best.canary };
}

/** `CheckStableRSExists`: a stable ReplicaSet other than the new one. */
export function checkStableRSExists(newRS: ReplicaSet | undefined, stableRS: ReplicaSet | undefined): stableRS is ReplicaSet {
  if (!stableRS) return false;
  return !newRS || newRS.metadata.name !== stableRS.metadata.name;
}

/**
 * `GetReplicasForScaleDown`: the pods of a ReplicaSet that count as available for a scale-down (spec when it is
 * already scaling down or when availability may be ignored).
 */
export function getReplicasForScaleDown(rs: ReplicaSet | undefined, ignoreAvailability: boolean): number {
  if (!rs) return 0;
  if (specReplicas(rs) < availableReplicas(rs) || ignoreAvailability) return specReplicas(rs);
  return availableReplicas(rs);
}

/** `calculateScaleDownReplicaCount`: the drained ReplicaSet goes down by at most `scaleDownCount`, not below desired. */
function calculateScaleDownReplicaCount(
  drainRS: ReplicaSet | undefined,
  desired: number,
  scaleDownCount: number,
  drainCount: number,
): number {
  if (drainRS && specReplicas(drainRS) > desired) return Math.max(desired, specReplicas(drainRS) - scaleDownCount);
  return drainCount;
}

/**
 * `adjustReplicaWithinLimits`: brings the adjusted ReplicaSet back within maxSurge, gives back what that cost in
 * availability, and takes any remaining excess from the drained one. Returns [drainCount, adjustCount].
 */
function adjustReplicaWithinLimits(
  drainRS: ReplicaSet | undefined,
  adjustRS: ReplicaSet | undefined,
  drainCount: number,
  adjustCount: number,
  maxReplicaCountAllowed: number,
  minAvailableReplicaCount: number,
): [number, number] {
  if (!adjustRS) return [drainCount, adjustCount];
  let overTheLimit = Math.max(0, adjustCount + drainCount - maxReplicaCountAllowed);
  let totalAvailable = drainRS ? Math.min(availableReplicas(drainRS), drainCount) : 0;
  let adjusted = adjustCount - overTheLimit;
  totalAvailable += Math.min(availableReplicas(adjustRS), adjusted);
  const extraAvailable = Math.max(0, availableReplicas(adjustRS) - adjusted);
  const moreNeeded = Math.max(0, minAvailableReplicaCount - totalAvailable);
  adjusted += Math.min(extraAvailable, moreNeeded);
  overTheLimit = Math.max(0, adjusted + drainCount - maxReplicaCountAllowed);
  return [drainCount - overTheLimit, adjusted];
}

function totalSpecReplicas(rss: Array<ReplicaSet | undefined>): number {
  return rss.reduce((n, rs) => n + (rs ? specReplicas(rs) : 0), 0);
}

export function totalAvailableReplicas(rss: Array<ReplicaSet | undefined>): number {
  return rss.reduce((n, rs) => n + availableReplicas(rs), 0);
}

interface BasicCanaryState {
  desired: DesiredCounts;
  counts: DesiredCounts;
  newRS: ReplicaSet | undefined;
  /** The stable ReplicaSet as given (it may be the new one). */
  stableRS: ReplicaSet | undefined;
  /** `CheckStableRSExists`: only then is the stable ReplicaSet scaled. */
  scaleStable: boolean;
  maxReplicaCountAllowed: number;
}

/** The scale-up half of `CalculateReplicaCountsForBasicCanary`: within maxSurge, the stable first, then the new. */
function scaleUpWithinSurge(s: BasicCanaryState, oldRSs: ReplicaSet[]): void {
  const stableRS = s.scaleStable ? s.stableRS : undefined;
  let scaleUpCount = s.maxReplicaCountAllowed - totalSpecReplicas([...oldRSs, s.newRS, stableRS]);
  if (stableRS && specReplicas(stableRS) < s.desired.stable && scaleUpCount > 0) {
    const current = specReplicas(stableRS);
    s.counts.stable = Math.min(current + scaleUpCount, s.desired.stable);
    scaleUpCount -= s.counts.stable - current;
  }
  if (s.newRS && specReplicas(s.newRS) < s.desired.newRS && scaleUpCount > 0) {
    s.counts.newRS = Math.min(specReplicas(s.newRS) + scaleUpCount, s.desired.newRS);
  }
}

/**
 * The scale-down half: above replicas − maxUnavailable available pods, the ReplicaSet that is shrinking goes down
 * (the stable while the canary grows, the canary while it shrinks), then both are adjusted within the limits.
 */
function scaleDownWithinUnavailable(s: BasicCanaryState, minAvailable: number): void {
  const { newRS, stableRS } = s;
  const isIncreasing = !newRS || s.desired.newRS >= specReplicas(newRS);
  const replicasToScaleDown = getReplicasForScaleDown(newRS, !isIncreasing) + getReplicasForScaleDown(stableRS, isIncreasing);
  if (replicasToScaleDown <= minAvailable) return;
  const scaleDownCount = replicasToScaleDown - minAvailable;
  if (!isIncreasing) {
    const drained = calculateScaleDownReplicaCount(newRS, s.desired.newRS, scaleDownCount, s.counts.newRS);
    [s.counts.newRS, s.counts.stable] = adjustReplicaWithinLimits(
      newRS,
      stableRS,
      drained,
      s.counts.stable,
      s.maxReplicaCountAllowed,
      minAvailable,
    );
  } else if (s.scaleStable && stableRS) {
    const drained = calculateScaleDownReplicaCount(stableRS, s.desired.stable, scaleDownCount, s.counts.stable);
    [s.counts.stable, s.counts.newRS] = adjustReplicaWithinLimits(
      stableRS,
      newRS,
      drained,
      s.counts.newRS,
      s.maxReplicaCountAllowed,
      minAvailable,
    );
  }
}

/**
 * `CalculateReplicaCountsForBasicCanary`: the weight's split of the replicas, approached within maxSurge (scale-up)
 * and maxUnavailable (scale-down); older ReplicaSets are scaled down before the new or stable one.
 */
export function calculateReplicaCountsForBasicCanary(
  ro: Rollout,
  newRS: ReplicaSet | undefined,
  stableRS: ReplicaSet | undefined,
  oldRSs: ReplicaSet[],
): DesiredCounts {
  const replicas = replicasOf(ro);
  const maxSurge = maxSurgeOf(ro);
  const scaleStable = checkStableRSExists(newRS, stableRS);
  const desired = scaleStable
    ? approximateWeightedCanaryStableReplicaCounts(replicas, canaryReplicasOrWeight(ro).weight, maxTrafficWeight(ro), maxSurge)
    : { newRS: replicas, stable: 0 };
  const state: BasicCanaryState = {
    desired,
    counts: { newRS: newRS ? specReplicas(newRS) : 0, stable: scaleStable ? specReplicas(stableRS) : 0 },
    newRS,
    stableRS,
    scaleStable,
    maxReplicaCountAllowed: replicas + maxSurge,
  };
  scaleUpWithinSurge(state, oldRSs);
  if (totalSpecReplicas(oldRSs) > 0) return state.counts;
  scaleDownWithinUnavailable(state, replicas - maxUnavailableOf(ro));
  return state.counts;
}

/** `CheckMinPodsPerReplicaSet`: a non-zero count is at least minPodsPerReplicaSet (traffic routing only). */
function checkMinPodsPerReplicaSet(ro: Rollout, count: number): number {
  const canary = ro.spec.strategy.canary;
  if (count === 0 || canary?.minPodsPerReplicaSet === undefined || !canary.trafficRouting) return count;
  return Math.max(count, canary.minPodsPerReplicaSet);
}

/** `CalculateReplicaCountsForTrafficRoutedCanary` without dynamicStableScale: the canary from the weight, the stable full. */
export function calculateReplicaCountsForTrafficRoutedCanary(ro: Rollout): DesiredCounts {
  const replicas = replicasOf(ro);
  const { replicas: scaleReplicas, weight } = canaryReplicasOrWeight(ro);
  const newRS = scaleReplicas ?? checkMinPodsPerReplicaSet(ro, Math.ceil((weight * replicas) / maxTrafficWeight(ro)));
  return { newRS, stable: replicas };
}

/** The counts `reconcileCanaryStableReplicaSet` and `reconcileNewReplicaSet` scale to. */
export function desiredCanaryCounts(
  ro: Rollout,
  newRS: ReplicaSet | undefined,
  stableRS: ReplicaSet | undefined,
  otherRSs: ReplicaSet[],
): DesiredCounts {
  if (ro.spec.strategy.canary?.trafficRouting) return calculateReplicaCountsForTrafficRoutedCanary(ro);
  return calculateReplicaCountsForBasicCanary(ro, newRS, stableRS, otherRSs);
}

/** `allDesiredAreAvailable` (`ReplicaProgressThresholdMet` without a threshold). */
function allDesiredAreAvailable(rs: ReplicaSet | undefined, desired: number): boolean {
  return !!rs && desired === specReplicas(rs) && desired === availableReplicas(rs);
}

/** `allDesiredAreCreated`: the pods exist, ready or not. */
function allDesiredAreCreated(rs: ReplicaSet | undefined, desired: number): boolean {
  return !!rs && desired === specReplicas(rs) && desired === (rs.status?.replicas ?? 0);
}

/**
 * `AtDesiredReplicaCountsForCanary`: the new ReplicaSet has its pods available, the stable its pods created (unless
 * routed with dynamicStableScale) and, without traffic routing, no older ReplicaSet has available pods.
 */
export function atDesiredReplicaCountsForCanary(
  ro: Rollout,
  newRS: ReplicaSet | undefined,
  stableRS: ReplicaSet | undefined,
  otherRSs: ReplicaSet[],
): boolean {
  const canary = ro.spec.strategy.canary;
  const desired = desiredCanaryCounts(ro, newRS, stableRS, otherRSs);
  if (!allDesiredAreAvailable(newRS, desired.newRS)) return false;
  if (!canary?.trafficRouting || !canary.dynamicStableScale) {
    if (!allDesiredAreCreated(stableRS, desired.stable)) return false;
  }
  if (!canary?.trafficRouting && totalAvailableReplicas(otherRSs) !== 0) return false;
  return true;
}
