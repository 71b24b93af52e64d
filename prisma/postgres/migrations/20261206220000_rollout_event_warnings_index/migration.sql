-- CreateIndex
CREATE INDEX "RolloutEvent_cluster_type_lastAt_idx" ON "RolloutEvent"("cluster", "type", "lastAt");
