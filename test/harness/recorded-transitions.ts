import Database from "better-sqlite3";
import type { SimulationHandle } from "../../sim/cluster";
import { databaseFile } from "./failing-commits";
import { findLostTransitions, STORED_STATES_SQL, type StoredState } from "./lost-transitions";

/** Every cluster's store resourceVersion now: marks the start or end of a stretch of transitions. */
export function resourceVersions(sim: SimulationHandle): Map<string, number> {
  return new Map(sim.clusters.map((c) => [c.name, Number(c.store.resourceVersion)]));
}

/** Every RolloutSample the app stored, read from its database file through a connection of the test's own. */
export function readStoredStates(databaseUrl: string): StoredState[] {
  const db = new Database(databaseFile(databaseUrl), { readonly: true, timeout: 10_000 });
  try {
    return db.prepare(STORED_STATES_SQL).all() as StoredState[];
  } finally {
    db.close();
  }
}

/**
 * The transitions the simulated controllers made after `from` and up to `to` (store resourceVersions per cluster)
 * that the app's database does not hold (see findLostTransitions).
 */
export function lostTransitions(
  sim: SimulationHandle,
  databaseUrl: string,
  from: Map<string, number>,
  to: Map<string, number>,
): { compared: number; lost: string[] } {
  return findLostTransitions(
    sim.clusters.map((c) => ({
      name: c.name,
      transitions: c.controller.transitions.entries.filter((e) => Number(e.resourceVersion) <= (to.get(c.name) ?? 0)),
      afterResourceVersion: from.get(c.name) ?? 0,
    })),
    readStoredStates(databaseUrl),
  );
}
