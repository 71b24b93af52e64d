import type { SimulationHandle } from "@/sim/cluster";
import { Prng } from "@/sim/controller/prng";
import { findResourceTypeByKind } from "@/sim/resources";
import { bumpImage } from "@/sim/scenarios";
import type { ReadinessReport } from "@/lib/contracts/readiness";
import type { sampleSignature } from "@/lib/rollouts/recorded-sample";
import { findLostTransitions, STORED_STATES_SQL, type StoredState } from "./lost-transitions";

const rollouts = findResourceTypeByKind("argoproj.io/v1alpha1", "Rollout")!;

/**
 * Keeps the simulated fleet moving: every `everyMs` each named Rollout of every cluster is promoted when paused and
 * given a new revision when healthy, so the controllers write transitions all the time. Returns the stopper.
 */
export function churn(sim: SimulationHandle, names: readonly string[], everyMs = 250): () => void {
  let round = 0;
  const timer = setInterval(() => {
    round++;
    for (const c of sim.clusters) {
      for (const name of names) {
        const obj = c.store.tryGet(rollouts, "shop", name) as { status?: { phase?: string; pauseConditions?: unknown[] } } | undefined;
        if (!obj) continue;
        if ((obj.status?.pauseConditions?.length ?? 0) > 0)
          c.store.patch(rollouts, "shop", name, "merge", { status: { pauseConditions: null } }, { subresource: "status" });
        else if (obj.status?.phase === "Healthy") bumpImage(c.store, "shop", name, new Prng(`churn:${round}:${c.name}:${name}`));
      }
    }
  }, everyMs);
  return () => clearInterval(timer);
}

/** Every cluster's store resourceVersion now. */
export function resourceVersions(sim: SimulationHandle): Map<string, number> {
  return new Map(sim.clusters.map((c) => [c.name, Number(c.store.resourceVersion)]));
}

/** The transitions made after `from` and up to `to` that the stored rows (in id order) do not hold, and duplicates. */
export function compareRecorded<R extends StoredState>(
  sim: SimulationHandle,
  rows: readonly R[],
  from: Map<string, number>,
  to: Map<string, number>,
) {
  const result = findLostTransitions(
    sim.clusters.map((c) => ({
      name: c.name,
      transitions: c.controller.transitions.entries.filter((e) => Number(e.resourceVersion) <= (to.get(c.name) ?? 0)),
      afterResourceVersion: from.get(c.name) ?? 0,
    })),
    rows,
  );
  const seen = new Set<string>();
  const duplicates = rows
    .map((r) => `${r.cluster}/${r.namespace}/${r.name}@${r.resourceVersion}`)
    .filter((key) => seen.has(key) || !seen.add(key));
  return { ...result, duplicates, rows };
}

/** {@link compareRecorded} on the database (any kind) through the app's Prisma client. */
export async function checkRecorded(sim: SimulationHandle, databaseUrl: string, from: Map<string, number>, to: Map<string, number>) {
  // Imported here, not above: lib/db is server-only, and the benchmark (plain Node) uses the rest of this file.
  const { createDbClient } = await import("@/lib/db/client");
  const db = createDbClient(databaseUrl);
  try {
    return compareRecorded(
      sim,
      await db.$queryRawUnsafe<Array<StoredState & Parameters<typeof sampleSignature>[0]>>(STORED_STATES_SQL),
      from,
      to,
    );
  } finally {
    await db.$disconnect();
  }
}

export async function readiness(appUrl: string): Promise<{ status: number; report: ReadinessReport }> {
  const res = await fetch(`${appUrl}/api/readyz`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, report: (await res.json()) as ReadinessReport };
}
