import type { TransitionEntry } from "../../sim/controller/transition-log";

/**
 * Every stored state with its Rollout's cluster, namespace and name, in the order written (a RolloutSample row
 * refers to its Rollout by id), for a test's or the benchmark's own connection to either database.
 */
export const STORED_STATES_SQL = `SELECT k."cluster", k."namespace", k."name", s.* FROM "RolloutSample" s JOIN "RolloutKey" k ON k."id" = s."rolloutId" ORDER BY s."id"`;

/** What the recorder stored for one state of a Rollout (a row of {@link STORED_STATES_SQL}). */
export interface StoredState {
  cluster: string;
  namespace: string;
  name: string;
  resourceVersion: string | null;
  revision: string | null;
  stepIndex: number | null;
  phase: string;
  canaryWeight: number | null;
  verified: boolean | number | null;
}

/**
 * Compares every transition the simulated controllers wrote (after `afterResourceVersion` per cluster) with the state
 * the database held at that resourceVersion: the newest stored row at or before it. A transition is lost when that
 * row does not show its revision, step, phase, canary weight and verified flag. Used by the recorder's integration
 * test and the benchmark.
 */
export function findLostTransitions(
  clusters: ReadonlyArray<{ name: string; transitions: readonly TransitionEntry[]; afterResourceVersion: number }>,
  rows: readonly StoredState[],
): { compared: number; lost: string[] } {
  const byRollout = new Map<string, StoredState[]>();
  for (const row of rows) {
    const key = `${row.cluster}/${row.namespace}/${row.name}`;
    let list = byRollout.get(key);
    if (!list) byRollout.set(key, (list = []));
    list.push(row);
  }
  for (const list of byRollout.values()) list.sort((a, b) => Number(a.resourceVersion) - Number(b.resourceVersion));

  let compared = 0;
  const lost: string[] = [];
  for (const c of clusters) {
    for (const e of c.transitions) {
      if (Number(e.resourceVersion) <= c.afterResourceVersion) continue;
      compared++;
      let inForce: StoredState | undefined;
      for (const row of byRollout.get(`${c.name}/${e.namespace}/${e.name}`) ?? []) {
        if (Number(row.resourceVersion) > Number(e.resourceVersion)) break;
        inForce = row;
      }
      const verified = inForce?.verified === null || inForce?.verified === undefined ? null : Boolean(inForce.verified);
      // The transition log says revision 0 for a Rollout without the revision annotation yet; the recorder stores null.
      const revision = e.revision > 0 ? String(e.revision) : null;
      const held =
        inForce !== undefined &&
        (inForce.revision ?? null) === revision &&
        inForce.stepIndex === e.stepIndex &&
        inForce.phase === e.phase &&
        inForce.canaryWeight === e.canaryWeight &&
        verified === e.verified;
      if (!held) lost.push(`${c.name}/${e.namespace}/${e.name}@${e.resourceVersion} step ${e.stepIndex} weight ${e.canaryWeight}`);
    }
  }
  return { compared, lost };
}
