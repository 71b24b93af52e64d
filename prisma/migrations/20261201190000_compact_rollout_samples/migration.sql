-- Samples refer to their Rollout (RolloutKey) and message (SampleMessage) by id instead of repeating the texts, and
-- keep their time as milliseconds since the epoch (an integer) instead of a date's text. Every existing row is kept.

-- CreateTable
CREATE TABLE "RolloutKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "SampleMessage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "text" TEXT NOT NULL
);

-- The Rollouts and messages of the existing samples
INSERT INTO "RolloutKey" ("cluster", "namespace", "name")
    SELECT DISTINCT "cluster", "namespace", "name" FROM "RolloutSample" ORDER BY "cluster", "namespace", "name";
-- (a message is kept to its first 600 characters, as the recorder stores it: see lib/db/rollout-samples.ts)
INSERT INTO "SampleMessage" ("text")
    SELECT DISTINCT substr("message", 1, 600) FROM "RolloutSample" WHERE "message" IS NOT NULL ORDER BY 1;

-- CreateIndex
CREATE UNIQUE INDEX "RolloutKey_cluster_namespace_name_key" ON "RolloutKey"("cluster", "namespace", "name");

-- CreateIndex
CREATE UNIQUE INDEX "SampleMessage_text_key" ON "SampleMessage"("text");

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RolloutSample" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "rolloutId" INTEGER NOT NULL,
    "atMs" BIGINT NOT NULL,
    "revision" TEXT,
    "stepIndex" INTEGER,
    "totalSteps" INTEGER NOT NULL,
    "phase" TEXT NOT NULL,
    "messageId" INTEGER,
    "requestedWeight" REAL,
    "canaryWeight" REAL,
    "stableWeight" REAL,
    "verified" BOOLEAN,
    "maxWeight" INTEGER NOT NULL DEFAULT 100,
    "aborted" BOOLEAN NOT NULL DEFAULT false,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "resourceVersion" TEXT,
    CONSTRAINT "RolloutSample_rolloutId_fkey" FOREIGN KEY ("rolloutId") REFERENCES "RolloutKey" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "RolloutSample_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "SampleMessage" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
-- Prisma stored dates as text ("2026-11-30T03:55:04.123+00:00"); julianday reads it, to the millisecond.
INSERT INTO "new_RolloutSample" ("id", "rolloutId", "atMs", "revision", "stepIndex", "totalSteps", "phase", "messageId", "requestedWeight", "canaryWeight", "stableWeight", "verified", "maxWeight", "aborted", "paused", "resourceVersion")
    SELECT s."id", k."id",
        CASE WHEN typeof(s."at") = 'integer' THEN s."at" ELSE CAST(ROUND((julianday(s."at") - 2440587.5) * 86400000) AS INTEGER) END,
        s."revision", s."stepIndex", s."totalSteps", s."phase", m."id", s."requestedWeight", s."canaryWeight", s."stableWeight", s."verified", s."maxWeight", s."aborted", s."paused", s."resourceVersion"
    FROM "RolloutSample" s
    JOIN "RolloutKey" k ON k."cluster" = s."cluster" AND k."namespace" = s."namespace" AND k."name" = s."name"
    LEFT JOIN "SampleMessage" m ON m."text" = substr(s."message", 1, 600)
    ORDER BY s."id";
DROP TABLE "RolloutSample";
ALTER TABLE "new_RolloutSample" RENAME TO "RolloutSample";
CREATE INDEX "RolloutSample_atMs_idx" ON "RolloutSample"("atMs");
CREATE UNIQUE INDEX "RolloutSample_rolloutId_resourceVersion_key" ON "RolloutSample"("rolloutId", "resourceVersion");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
