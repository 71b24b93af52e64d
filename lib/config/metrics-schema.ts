import { z } from "zod";

/** Rollscope's own scrape of the controller metrics, for clusters without a Prometheus. */
export const metricsSettingsSchema = z.strictObject({
  scrape: z
    .strictObject({
      intervalSeconds: z.number().int().min(5).max(300).default(15),
      /** How long scraped samples are kept. */
      retentionHours: z
        .number()
        .int()
        .min(1)
        .max(24 * 30)
        .default(48),
      /** `<service>:<port>` in the controller namespace, reached through the API server's service proxy. */
      service: z
        .string()
        .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?:[0-9A-Za-z-]+$/, { message: "must be <service>:<port>, e.g. argo-rollouts-metrics:8090" })
        .default("argo-rollouts-metrics:8090"),
      timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
    })
    .default({ intervalSeconds: 15, retentionHours: 48, service: "argo-rollouts-metrics:8090", timeoutMs: 5_000 }),
});

export type MetricsSettings = z.infer<typeof metricsSettingsSchema>;
