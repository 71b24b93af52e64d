import type { RolloutResource } from "./schema";

/** `utils/weightutil/weight.go` MaxTrafficWeight: the unit all traffic weights are expressed in. */
export function deriveMaxTrafficWeight(rollout: RolloutResource): number {
  const max = rollout.spec?.strategy?.canary?.trafficRouting?.maxTrafficWeight;
  return max !== undefined && max > 0 ? max : 100;
}

/** Weight as a percentage of maxTrafficWeight, rounded to two decimals (1000-based 333 → 33.3). */
export function toPercent(weight: number, maxTrafficWeight: number): number {
  return Math.round((weight / maxTrafficWeight) * 10_000) / 100;
}
