-- AlterTable
ALTER TABLE "RolloutSample" ADD COLUMN "manager" TEXT;
