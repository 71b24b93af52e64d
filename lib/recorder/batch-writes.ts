import "server-only";
import type { PendingWrite } from "@/lib/db/pending-write";
import type { Repositories } from "@/lib/db/repositories";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import type { RolloutSampleInput } from "@/lib/rollouts/recorded-sample";

/** The repositories the recorder writes through. */
export type RecorderStore = Pick<Repositories, "rolloutSamples" | "rolloutEvents" | "transaction">;

/**
 * The statements of one recorder flush, committed together: the samples' new Rollouts and messages, one INSERT for
 * every sample and one INSERT … ON CONFLICT for every event, each taking its rows as a single JSON parameter (see lib/db/sqlite-json-rows): at ~400
 * events a second, one Prisma upsert per event used more CPU than everything else the server does.
 */
export function batchWrites(
  store: RecorderStore,
  samples: readonly RolloutSampleInput[],
  events: readonly RolloutEventRow[],
): PendingWrite[] {
  const writes: PendingWrite[] = [];
  if (samples.length > 0) writes.push(...store.rolloutSamples.insertMany(samples));
  if (events.length > 0) writes.push(store.rolloutEvents.upsertMany(events));
  return writes;
}
