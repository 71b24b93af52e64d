-- CreateIndex
CREATE INDEX "AuditEntry_outcome_at_idx" ON "AuditEntry"("outcome", "at");
