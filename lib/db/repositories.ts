import "server-only";
import type { PrismaClient } from "./generated/client";
import { createActionLocks, type ActionLocks } from "./action-locks";
import { dialectOf, durableCommit, urlOf } from "./client";
import { createAuditEntryRepository, type AuditEntryRepository } from "./audit-entries";
import { createMetricSampleRepository, type MetricSampleRepository } from "./metric-samples";
import type { PendingWrite } from "./pending-write";
import { createRolloutEventRepository, type RolloutEventRepository } from "./rollout-events";
import { createRolloutSampleRepository, type RolloutSampleRepository } from "./rollout-samples";
import { createSchemaRepository, type SchemaRepository } from "./schema-migrations";
import { createSessionRepository, type SessionRepository } from "./sessions";

/** Every table behind one object each: the only code that speaks Prisma or SQL. */
export interface Repositories {
  readonly rolloutSamples: RolloutSampleRepository;
  readonly rolloutEvents: RolloutEventRepository;
  readonly auditEntries: AuditEntryRepository;
  readonly metricSamples: MetricSampleRepository;
  /** Reachability and migration state, for readiness. */
  readonly schema: SchemaRepository;
  readonly sessions: SessionRepository;
  /** Per-Rollout locks for actions, across replicas. */
  readonly actionLocks: ActionLocks;
  /** Commits prepared writes of any repositories together, in order. */
  transaction(writes: readonly PendingWrite[]): Promise<void>;
}

export function createRepositories(db: PrismaClient): Repositories {
  const dialect = dialectOf(db);
  const durable = durableCommit(db);
  return {
    rolloutSamples: createRolloutSampleRepository(db, dialect),
    rolloutEvents: createRolloutEventRepository(db, dialect),
    auditEntries: createAuditEntryRepository(db, durable),
    metricSamples: createMetricSampleRepository(db, dialect),
    schema: createSchemaRepository(db, dialect),
    sessions: createSessionRepository(db, durable),
    actionLocks: createActionLocks(urlOf(db), dialect),
    async transaction(writes) {
      await db.$transaction([...writes]);
    },
  };
}
