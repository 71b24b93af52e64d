import { z } from "zod";
import { listTemplateVariables, parsePromDuration } from "@/lib/prometheus/promql";

/** Variables a measured-traffic template may use; each is filled from the Rollout's spec and status. */
const MEASURED_TRAFFIC_VARIABLES = [
  "namespace",
  "rollout",
  "canaryService",
  "stableService",
  "canaryHash",
  "stableHash",
  "stableIngress",
  "window",
] as const;

/** Variables of the per-RPC templates. */
const PER_RPC_VARIABLES = ["window"] as const;

function promqlTemplate(allowed: readonly string[]) {
  return z
    .string()
    .min(1, { message: "is empty" })
    .superRefine((text, ctx) => {
      const unknown = listTemplateVariables(text).filter((name) => !allowed.includes(name));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `uses unknown variable${unknown.length > 1 ? "s" : ""} ${unknown.map((v) => `\${${v}}`).join(", ")}; known: ${allowed.map((v) => `\${${v}}`).join(", ")}`,
        });
      }
    });
}

const duration = z
  .string()
  .refine((text) => parsePromDuration(text) !== null, { message: "must be a Prometheus duration such as 1m or 30s" });

/** Two PromQL queries whose ratio is the measured canary share: requests/s to the canary and to both. */
const measuredTrafficTemplateSchema = z.strictObject({
  canary: promqlTemplate(MEASURED_TRAFFIC_VARIABLES),
  total: promqlTemplate(MEASURED_TRAFFIC_VARIABLES),
});

/**
 * Per-RPC plugin metrics, which upstream does not have: a plugin (or a sidecar) may export a counter with labels
 * plugin, method, outcome and a latency histogram with labels plugin, method. Metric names work in both metric
 * modes; the PromQL overrides need Prometheus.
 */
const perRpcSettingsSchema = z
  .strictObject({
    callsMetric: z
      .string()
      .regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/, { message: "must be a metric name" })
      .optional(),
    durationMetric: z
      .string()
      .regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/, { message: "must be a histogram's base metric name" })
      .optional(),
    /** `outcome` values that count as a successful call. */
    successOutcomes: z.array(z.string().min(1)).min(1).default(["success", "not_implemented"]),
    promql: z
      .strictObject({
        /** Must return per-window call increases with labels plugin, method, outcome. */
        calls: promqlTemplate(PER_RPC_VARIABLES).optional(),
        /** Must return per-window bucket increases with labels plugin, method, le. */
        durationBuckets: promqlTemplate(PER_RPC_VARIABLES).optional(),
      })
      .optional(),
  })
  .refine((s) => s.callsMetric !== undefined || s.promql?.calls !== undefined, {
    message: "set callsMetric (a counter with labels plugin, method, outcome) or promql.calls",
  });

export const pluginSettingsSchema = z.strictObject({
  slo: z
    .strictObject({
      /** Share of successful plugin calls, e.g. 0.99. */
      target: z.number().gt(0, { message: "must be above 0" }).lt(1, { message: "must be below 1 (e.g. 0.99)" }).optional(),
      /** Per plugin name, overriding target. */
      plugins: z.record(z.string(), z.number().gt(0).lt(1)).optional(),
    })
    .optional(),
  stuckRouter: z
    .strictObject({
      /** Allowed gap between measured and applied canary share, in percentage points. */
      tolerancePercent: z.number().min(1).max(100).optional(),
      /** How long the gap must last before it is a finding. */
      forSeconds: z.number().int().min(15).max(86_400).optional(),
    })
    .optional(),
  measuredTraffic: z
    .strictObject({
      /** Range of `rate()` in the templates (`${window}`); at least four scrape intervals. */
      window: duration.optional(),
      /** Keyed by built-in router (`Istio`, `Nginx`), plugin name (`argoproj-labs/gatewayAPI`) or `generic`. */
      templates: z.record(z.string().min(1), measuredTrafficTemplateSchema).optional(),
    })
    .optional(),
  perRpc: perRpcSettingsSchema.optional(),
});

export type PluginSettings = z.infer<typeof pluginSettingsSchema>;
export type MeasuredTrafficTemplate = z.infer<typeof measuredTrafficTemplateSchema>;
export type PerRpcSettings = z.infer<typeof perRpcSettingsSchema>;
