-- CreateTable
CREATE TABLE "MetricSample" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "cluster" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "labels" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "value" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "MetricScrape" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "cluster" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "error" TEXT,
    "series" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "MetricSample_cluster_metric_at_idx" ON "MetricSample"("cluster", "metric", "at");

-- CreateIndex
CREATE INDEX "MetricSample_at_idx" ON "MetricSample"("at");

-- CreateIndex
CREATE INDEX "MetricScrape_cluster_at_idx" ON "MetricScrape"("cluster", "at");

