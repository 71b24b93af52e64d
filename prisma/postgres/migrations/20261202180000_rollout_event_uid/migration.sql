-- AlterTable
ALTER TABLE "RolloutEvent" ADD COLUMN "rolloutUid" TEXT;
