-- CreateTable
CREATE TABLE "RolloutSample" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "revision" TEXT,
    "stepIndex" INTEGER,
    "totalSteps" INTEGER NOT NULL,
    "phase" TEXT NOT NULL,
    "message" TEXT,
    "requestedWeight" REAL,
    "canaryWeight" REAL,
    "stableWeight" REAL,
    "verified" BOOLEAN,
    "maxWeight" INTEGER NOT NULL DEFAULT 100,
    "aborted" BOOLEAN NOT NULL DEFAULT false,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "resourceVersion" TEXT
);

-- CreateTable
CREATE TABLE "RolloutEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "rollout" TEXT NOT NULL,
    "eventUid" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    "firstAt" DATETIME NOT NULL,
    "lastAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
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
    "clientAddress" TEXT
);

-- CreateIndex
CREATE INDEX "RolloutSample_cluster_namespace_name_at_idx" ON "RolloutSample"("cluster", "namespace", "name", "at");

-- CreateIndex
CREATE INDEX "RolloutSample_at_idx" ON "RolloutSample"("at");

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

