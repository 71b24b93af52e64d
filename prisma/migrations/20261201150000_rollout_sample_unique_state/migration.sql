-- A state is stored once per Rollout and resourceVersion. Earlier versions could store one twice; keep the first.
DELETE FROM "RolloutSample" WHERE "resourceVersion" IS NOT NULL AND "id" NOT IN (
    SELECT MIN("id") FROM "RolloutSample" WHERE "resourceVersion" IS NOT NULL GROUP BY "cluster", "namespace", "name", "resourceVersion"
);

-- CreateIndex
CREATE UNIQUE INDEX "RolloutSample_cluster_namespace_name_resourceVersion_key" ON "RolloutSample"("cluster", "namespace", "name", "resourceVersion");
