-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "RolloutSample" (
    "id" SERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "revision" TEXT,
    "stepIndex" INTEGER,
    "totalSteps" INTEGER NOT NULL,
    "phase" TEXT NOT NULL,
    "message" TEXT,
    "requestedWeight" DOUBLE PRECISION,
    "canaryWeight" DOUBLE PRECISION,
    "stableWeight" DOUBLE PRECISION,
    "verified" BOOLEAN,
    "maxWeight" INTEGER NOT NULL DEFAULT 100,
    "aborted" BOOLEAN NOT NULL DEFAULT false,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "resourceVersion" TEXT,

    CONSTRAINT "RolloutSample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RolloutEvent" (
    "id" SERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "rollout" TEXT NOT NULL,
    "eventUid" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RolloutEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user" TEXT NOT NULL,
    "groups" TEXT NOT NULL,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "rollout" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "before" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "message" TEXT,
    "requestId" TEXT NOT NULL,
    "clientAddress" TEXT,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "user" TEXT NOT NULL,
    "groups" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "lastSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MetricSample" (
    "id" SERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "labels" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "MetricSample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MetricScrape" (
    "id" SERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "error" TEXT,
    "series" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "MetricScrape_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RolloutSample_cluster_namespace_name_at_idx" ON "RolloutSample"("cluster", "namespace", "name", "at");

-- CreateIndex
CREATE INDEX "RolloutSample_at_idx" ON "RolloutSample"("at");

-- CreateIndex
CREATE UNIQUE INDEX "RolloutSample_cluster_namespace_name_resourceVersion_key" ON "RolloutSample"("cluster", "namespace", "name", "resourceVersion");

-- CreateIndex
CREATE INDEX "RolloutEvent_cluster_namespace_rollout_lastAt_idx" ON "RolloutEvent"("cluster", "namespace", "rollout", "lastAt");

-- CreateIndex
CREATE INDEX "RolloutEvent_lastAt_idx" ON "RolloutEvent"("lastAt");

-- CreateIndex
CREATE UNIQUE INDEX "RolloutEvent_cluster_eventUid_key" ON "RolloutEvent"("cluster", "eventUid");

-- CreateIndex
CREATE INDEX "AuditEntry_cluster_namespace_rollout_at_idx" ON "AuditEntry"("cluster", "namespace", "rollout", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_at_idx" ON "AuditEntry"("at");

-- CreateIndex
CREATE INDEX "AuditEntry_outcome_at_idx" ON "AuditEntry"("outcome", "at");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE INDEX "MetricSample_cluster_metric_at_idx" ON "MetricSample"("cluster", "metric", "at");

-- CreateIndex
CREATE INDEX "MetricSample_at_idx" ON "MetricSample"("at");

-- CreateIndex
CREATE INDEX "MetricScrape_cluster_at_idx" ON "MetricScrape"("cluster", "at");

