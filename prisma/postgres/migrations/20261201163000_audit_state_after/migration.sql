-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN     "after" TEXT;
