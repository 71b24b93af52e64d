-- Samples refer to their Rollout (RolloutKey) and message (SampleMessage) by id instead of repeating the texts, and
-- keep their time as milliseconds since the epoch. Every existing row is kept (same id, same values).

-- CreateTable
CREATE TABLE "RolloutKey" (
    "id" SERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "RolloutKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SampleMessage" (
    "id" SERIAL NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "SampleMessage_pkey" PRIMARY KEY ("id")
);

-- The Rollouts and messages of the existing samples
INSERT INTO "RolloutKey" ("cluster", "namespace", "name")
    SELECT DISTINCT "cluster", "namespace", "name" FROM "RolloutSample" ORDER BY "cluster", "namespace", "name";
-- (a message is kept to its first 600 characters, as the recorder stores it: a unique index entry holds ~2,700 bytes)
INSERT INTO "SampleMessage" ("text")
    SELECT DISTINCT LEFT("message", 600) FROM "RolloutSample" WHERE "message" IS NOT NULL ORDER BY 1;

-- CreateIndex
CREATE UNIQUE INDEX "RolloutKey_cluster_namespace_name_key" ON "RolloutKey"("cluster", "namespace", "name");

-- CreateIndex
CREATE UNIQUE INDEX "SampleMessage_text_key" ON "SampleMessage"("text");

-- AlterTable: the new columns, filled from the old ones ("at" is UTC without a zone, as Prisma writes it)
ALTER TABLE "RolloutSample" ADD COLUMN "rolloutId" INTEGER, ADD COLUMN "atMs" BIGINT, ADD COLUMN "messageId" INTEGER;
UPDATE "RolloutSample" s SET
    "rolloutId" = k."id",
    "atMs" = ROUND(EXTRACT(EPOCH FROM s."at") * 1000)::bigint,
    "messageId" = (SELECT m."id" FROM "SampleMessage" m WHERE m."text" = LEFT(s."message", 600))
    FROM "RolloutKey" k WHERE k."cluster" = s."cluster" AND k."namespace" = s."namespace" AND k."name" = s."name";
ALTER TABLE "RolloutSample" ALTER COLUMN "rolloutId" SET NOT NULL, ALTER COLUMN "atMs" SET NOT NULL;

-- DropIndex
DROP INDEX "RolloutSample_at_idx";
DROP INDEX "RolloutSample_cluster_namespace_name_at_idx";
DROP INDEX "RolloutSample_cluster_namespace_name_resourceVersion_key";

-- AlterTable
ALTER TABLE "RolloutSample" DROP COLUMN "cluster", DROP COLUMN "namespace", DROP COLUMN "name", DROP COLUMN "at", DROP COLUMN "message";

-- CreateIndex
CREATE INDEX "RolloutSample_atMs_idx" ON "RolloutSample"("atMs");

-- CreateIndex
CREATE UNIQUE INDEX "RolloutSample_rolloutId_resourceVersion_key" ON "RolloutSample"("rolloutId", "resourceVersion");

-- AddForeignKey
ALTER TABLE "RolloutSample" ADD CONSTRAINT "RolloutSample_rolloutId_fkey" FOREIGN KEY ("rolloutId") REFERENCES "RolloutKey"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RolloutSample" ADD CONSTRAINT "RolloutSample_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "SampleMessage"("id") ON DELETE SET NULL ON UPDATE CASCADE;
