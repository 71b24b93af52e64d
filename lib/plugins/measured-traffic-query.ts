import { addValues } from "@/lib/metrics/counter-math";
import { GROUP_LABEL, PART_LABEL, type IncreaseSeries } from "@/lib/metrics/types";
import { checkPromqlSyntax, labelEverySeries, renderPromqlTemplate } from "@/lib/prometheus/promql";
import type { RolloutView } from "@/lib/rollouts/view-model";
import type { EffectivePluginSettings } from "./effective-settings";
import { computeMeasuredShare, selectMeasuredTrafficTemplate, type MeasuredPoint, type ResolvedTemplate } from "./measured-traffic";
import { describeTemplateError } from "./template-check";

/** What measuring a Rollout's traffic reads of it. */
export type MeasuredRollout = Pick<
  RolloutView,
  "namespace" | "name" | "canary" | "appliedWeights" | "currentPodHash" | "stableRS" | "trafficRouters"
>;

/** Step for a chart range: about 120 points, never below 15 s. */
export function chooseStepSeconds(rangeMs: number): number {
  const candidates = [15, 30, 60, 120, 300, 600, 900, 1800, 3600];
  return candidates.find((step) => rangeMs / (step * 1000) <= 120) ?? 3600;
}

/** The values a measured-traffic template may use (`${namespace}`, `${canaryService}`, …). */
function buildMeasuredTrafficVariables(
  rollout: MeasuredRollout,
  stableIngress: string | null,
  window: string,
): Record<string, string | null> {
  return {
    namespace: rollout.namespace,
    rollout: rollout.name,
    canaryService: rollout.canary?.canaryService ?? null,
    stableService: rollout.canary?.stableService ?? null,
    canaryHash: rollout.appliedWeights?.canary.podTemplateHash ?? rollout.currentPodHash,
    stableHash: rollout.appliedWeights?.stable.podTemplateHash ?? rollout.stableRS,
    stableIngress,
    window,
  };
}

/**
 * The two queries to run, or why there is nothing to measure. `label` names the template and router, `source` adds
 * the metrics signal it is read from.
 */
export type MeasuredTrafficPlan =
  | { ok: true; label: string; source: string; canary: string; total: string; configureHint: string | null }
  | { ok: false; source: string; error: string };

/** What to configure when a router has no template of its own (docs/plugins.md, "Measured traffic"). */
function describeTemplateToConfigure(router: string): string {
  return (
    `Rollscope has no template for ${router}'s data plane and the generic one (per-pod http_requests_total joined with ` +
    `kube-state-metrics pod labels) found no series: set plugins.measuredTraffic.templates["${router}"] to the canary and ` +
    "total request-rate queries of its exporter (docs/plugins.md, Measured traffic)."
  );
}

/**
 * How to measure a Rollout's canary share: the template of its first router that has one (else `generic`),
 * rendered with the Rollout's values. Needs Prometheus: the controller's own metrics carry no request counts.
 */
export function planMeasuredTraffic(input: {
  rollout: MeasuredRollout;
  stableIngress: string | null;
  settings: EffectivePluginSettings;
  sourceSignal: string;
  canQueryPromql: boolean;
}): MeasuredTrafficPlan {
  const { rollout, settings } = input;
  const selected = selectMeasuredTrafficTemplate(rollout.trafficRouters, settings.measuredTraffic.templates);
  if (!selected)
    return {
      ok: false,
      source: "no traffic router",
      error: "this Rollout has no traffic routing, so there is no traffic split to measure",
    };
  const { template, router } = selected;
  const label = `template ${template.key} (${template.origin}) for router ${router}`;
  const source = `${label}; ${input.sourceSignal}`;
  if (!input.canQueryPromql) {
    return {
      ok: false,
      source,
      error:
        "measured traffic needs Prometheus: the controller's own metrics carry no request counts. Configure prometheus for this cluster.",
    };
  }
  const values = buildMeasuredTrafficVariables(rollout, input.stableIngress, settings.measuredTraffic.window);
  const canary = renderMeasuredQuery(template, "canary", values);
  if (!canary.ok) return { ok: false, source, error: canary.error };
  const total = renderMeasuredQuery(template, "total", values);
  if (!total.ok) return { ok: false, source, error: total.error };
  const configureHint = template.key === "generic" && template.origin === "default" ? describeTemplateToConfigure(router) : null;
  return { ok: true, label, source, canary: canary.promql, total: total.promql, configureHint };
}

function renderMeasuredQuery(
  template: ResolvedTemplate,
  part: "canary" | "total",
  values: Readonly<Record<string, string | null>>,
): { ok: true; promql: string } | { ok: false; error: string } {
  const path = `plugins.measuredTraffic.templates.${template.key}.${part}`;
  const rendered = renderPromqlTemplate(template[part], values);
  if (!rendered.ok)
    return { ok: false, error: `${path} needs ${rendered.missing.map((v) => `\${${v}}`).join(", ")}, which this Rollout does not set` };
  const syntax = checkPromqlSyntax(rendered.promql);
  if (syntax) return { ok: false, error: describeTemplateError(path, template[part]) ?? `${path}: ${syntax.message}` };
  return { ok: true, promql: rendered.promql };
}

/** The canary share at each timestamp from the canary and total query answers, each summed over its series. */
export function measureCanaryShare(
  timestamps: readonly number[],
  canary: readonly IncreaseSeries[],
  total: readonly IncreaseSeries[],
): MeasuredPoint[] {
  const sum = (series: readonly IncreaseSeries[]) =>
    series.reduce<Array<number | null>>(
      (acc, s) => addValues(acc, s.values),
      Array.from({ length: timestamps.length }, () => null),
    );
  return computeMeasuredShare(timestamps, sum(canary), sum(total));
}

/** The two rendered queries of one Rollout's measured traffic. */
export interface MeasuredTrafficQueries {
  canary: string;
  total: string;
}

/** What tagging one query adds to its text, about (two label_replace calls and ` or `). */
const BATCH_TAG_CHARS = 90;

/**
 * Many Rollouts' measured-traffic queries in batches for one request each: at most `maxRollouts` Rollouts and about
 * `maxChars` of PromQL (a single Rollout longer than that is a batch of its own). Indexes into `queries`, in order.
 */
export function batchMeasuredTraffic(queries: readonly MeasuredTrafficQueries[], maxRollouts: number, maxChars: number): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let chars = 0;
  queries.forEach((q, index) => {
    const size = q.canary.length + q.total.length + 2 * BATCH_TAG_CHARS;
    if (current.length > 0 && (current.length >= maxRollouts || chars + size > maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(index);
    chars += size;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * One PromQL query for several Rollouts: each one's canary and total query, `or`ed, every series of an answer tagged
 * with its Rollout's position in `queries` (GROUP_LABEL) and which query it answers (PART_LABEL). The tags keep the
 * answers apart, so Prometheus evaluates them all in one request; {@link splitMeasuredTrafficBatch} sorts them back.
 */
export function buildMeasuredTrafficBatch(queries: readonly MeasuredTrafficQueries[]): string {
  const tag = (promql: string, index: number, part: "canary" | "total") =>
    labelEverySeries(labelEverySeries(promql, PART_LABEL, part), GROUP_LABEL, String(index));
  return queries.flatMap((q, index) => [tag(q.canary, index, "canary"), tag(q.total, index, "total")]).join(" or ");
}

/** A batch's answer per Rollout (as many as the batch had), each series without the batch's tags. */
export function splitMeasuredTrafficBatch(
  series: readonly IncreaseSeries[],
  count: number,
): Array<{ canary: IncreaseSeries[]; total: IncreaseSeries[] }> {
  const out = Array.from({ length: count }, () => ({ canary: [] as IncreaseSeries[], total: [] as IncreaseSeries[] }));
  for (const s of series) {
    const { [GROUP_LABEL]: group, [PART_LABEL]: part, ...labels } = s.labels;
    const entry = out[Number(group)];
    if (!entry || !/^\d+$/.test(group ?? "") || (part !== "canary" && part !== "total")) continue;
    entry[part].push({ labels, values: s.values });
  }
  return out;
}
