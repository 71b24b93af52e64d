import "server-only";
import type { PrismaClient } from "./generated/client";
import { createAuditEntryRepository, type AuditEntryRepository } from "./audit-entries";
import { createMetricSampleRepository, type MetricSampleRepository } from "./metric-samples";
import type { PendingWrite } from "./pending-write";
import { createRolloutEventRepository, type RolloutEventRepository } from "./rollout-events";
import { createRolloutSampleRepository, type RolloutSampleRepository } from "./rollout-samples";

/** Every table behind one object each: the only code that speaks Prisma or SQL. */
export interface Repositories {
  readonly rolloutSamples: RolloutSampleRepository;
  readonly rolloutEvents: RolloutEventRepository;
  readonly auditEntries: AuditEntryRepository;
  readonly metricSamples: MetricSampleRepository;
  /** Commits prepared writes of any repositories together, in order. */
  transaction(writes: readonly PendingWrite[]): Promise<void>;
}

export function createRepositories(db: PrismaClient): Repositories {
  return {
    rolloutSamples: createRolloutSampleRepository(db),
    rolloutEvents: createRolloutEventRepository(db),
    auditEntries: createAuditEntryRepository(db),
    metricSamples: createMetricSampleRepository(db),
    async transaction(writes) {
      await db.$transaction([...writes]);
    },
  };
}
