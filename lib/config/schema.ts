import { z } from "zod";
import { pluginSettingsSchema } from "@/lib/plugins/settings-schema";
import { authConfigSchema, authorizationConfigSchema, checkAuthorizationClusters } from "./auth-schema";
import { logConfigSchema } from "./log-schema";
import { metricsSettingsSchema } from "./metrics-schema";
import { serverConfigSchema } from "./server-schema";

const prometheusAuthSchema = z.union([
  z.strictObject({ bearerToken: z.string().min(1) }),
  z.strictObject({ bearerTokenFile: z.string().min(1) }),
  z.strictObject({ basic: z.strictObject({ username: z.string().min(1), password: z.string() }) }),
]);

export const prometheusConfigSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  /** Added to every selector, for a Prometheus or Thanos shared by several clusters, e.g. `cluster="prod-eu"`. */
  labelMatcher: z
    .string()
    .regex(/^\s*[a-zA-Z_][a-zA-Z0-9_]*\s*(=|!=|=~|!~)\s*"[^"]*"\s*(,\s*[a-zA-Z_][a-zA-Z0-9_]*\s*(=|!=|=~|!~)\s*"[^"]*"\s*)*$/, {
      message: 'must be label matchers such as cluster="prod-eu"',
    })
    .optional(),
  timeoutMs: z.number().int().min(100).max(120_000).default(5_000),
  auth: prometheusAuthSchema.optional(),
});

const kubeconfigSourceSchema = z.strictObject({
  path: z.string().min(1).optional(),
  context: z.string().min(1).optional(),
});

export const clusterConfigSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { message: "must be lowercase letters, digits and '-'" }),
    kubeconfig: kubeconfigSourceSchema.optional(),
    inCluster: z.boolean().optional(),
    controllerNamespace: z.string().min(1).default("argo-rollouts"),
    label: z.string().max(40).optional(),
    prometheus: prometheusConfigSchema.optional(),
    /** Plugin health and measured-traffic settings for this cluster; each key overrides the fleet-wide `plugins`. */
    plugins: pluginSettingsSchema.optional(),
  })
  .refine((c) => Boolean(c.kubeconfig) !== Boolean(c.inCluster), {
    message: "set exactly one of kubeconfig (path and/or context) or inCluster: true",
  });

export const rollscopeConfigSchema = z
  .strictObject({
    clusters: z.array(clusterConfigSchema).min(1, { message: "list at least one cluster" }),
    recorder: z
      .strictObject({
        retentionDays: z.number().int().min(1).max(3650).default(30),
        /** Beyond this age a Rollout's history keeps one sample per step, phase, revision, abort or pause change. */
        compactAfterDays: z.number().int().min(1).max(3650).default(7),
      })
      .default({ retentionDays: 30, compactAfterDays: 7 }),
    /** The audit log: entries older than retentionDays are deleted (by the housekeeping, every minute); never sooner. */
    audit: z.strictObject({ retentionDays: z.number().int().min(1).max(36_500).default(400) }).default({ retentionDays: 400 }),
    readOnly: z.boolean().default(false),
    /** The needs-attention queue: a Progressing Rollout unchanged for this many minutes is flagged. */
    attention: z.strictObject({ noProgressMinutes: z.number().int().min(1).max(1_440).default(10) }).default({ noProgressMinutes: 10 }),
    /** Fleet-wide plugin settings (SLO, stuck-router tolerance, measured-traffic and per-RPC queries). */
    plugins: pluginSettingsSchema.default({}),
    metrics: metricsSettingsSchema.default({
      scrape: { intervalSeconds: 15, retentionHours: 48, service: "argo-rollouts-metrics:8090", pluginMeters: [], timeoutMs: 5_000 },
    }),
    auth: authConfigSchema.default({ mode: "none", sessionTtlHours: 12 }),
    authorization: authorizationConfigSchema.default({
      impersonate: true,
      clusters: {},
      roleMappings: [],
      auditReaders: { users: [], groups: [] },
    }),
    server: serverConfigSchema.default({
      trustedProxies: [],
      maxRequestBodyBytes: 64 * 1024,
      streams: { perUser: 16, total: 256 },
      basePath: "",
    }),
    log: logConfigSchema.default({ level: "info" }),
  })
  .superRefine(checkAuthorizationClusters);

export type PrometheusConfig = z.infer<typeof prometheusConfigSchema>;
export type ClusterConfig = z.infer<typeof clusterConfigSchema>;
export type RollscopeConfig = z.infer<typeof rollscopeConfigSchema>;
export type AuthConfig = z.infer<typeof authConfigSchema>;
export type AuthorizationConfig = z.infer<typeof authorizationConfigSchema>;
