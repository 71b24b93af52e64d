import { z } from "zod";

const serviceRef = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?:[0-9A-Za-z-]+$/, { message: "must be <service>:<port>, e.g. argo-rollouts-metrics:8090" });

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
      service: serviceRef.default("argo-rollouts-metrics:8090"),
      /**
       * `<service>:<port>` of each rollscope-plugin-meter endpoint in the controller namespace (one per metered plugin,
       * e.g. argo-rollouts-plugin-meter:9465), scraped with the controller's metrics; see docs/plugins.md.
       */
      pluginMeters: z.array(serviceRef).max(20).default([]),
      timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
    })
    .default({ intervalSeconds: 15, retentionHours: 48, service: "argo-rollouts-metrics:8090", pluginMeters: [], timeoutMs: 5_000 }),
});

export type MetricsSettings = z.infer<typeof metricsSettingsSchema>;
