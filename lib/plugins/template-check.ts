import { checkPromqlSyntax, renderPromqlTemplate } from "@/lib/prometheus/promql";
import { resolvePluginSettings, type EffectivePluginSettings } from "./effective-settings";
import type { PluginSettings } from "./settings-schema";
import type { ConfigProblem } from "./view-types";

/** Stand-in values for a syntax check: a template is checked as it would be sent. */
const SAMPLE_VALUES: Readonly<Record<string, string>> = {
  namespace: "ns",
  rollout: "rollout",
  canaryService: "canary-svc",
  stableService: "stable-svc",
  canaryHash: "abc123",
  stableHash: "def456",
  stableIngress: "ingress",
  window: "1m",
};

/** Why a template is not valid PromQL, naming it; null when it parses. */
export function describeTemplateError(path: string, template: string): string | null {
  const rendered = renderPromqlTemplate(template, SAMPLE_VALUES);
  if (!rendered.ok) return `template ${path} uses ${rendered.missing.map((v) => `\${${v}}`).join(", ")}, which has no value`;
  const error = checkPromqlSyntax(rendered.promql);
  return error ? `template ${path} is not valid PromQL: ${error.message}` : null;
}

/** Every configured (non-default) PromQL template of a cluster's settings that does not parse. */
export function checkPluginTemplates(cluster: string | null, settings: EffectivePluginSettings): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const template of Object.values(settings.measuredTraffic.templates)) {
    if (template.origin === "default") continue;
    for (const part of ["canary", "total"] as const) {
      const path = `plugins.measuredTraffic.templates.${template.key}.${part}`;
      const message = describeTemplateError(path, template[part]);
      if (message) problems.push({ cluster, template: path, message });
    }
  }
  for (const part of ["calls", "durationBuckets"] as const) {
    const text = settings.perRpc?.promql?.[part];
    if (!text) continue;
    const path = `plugins.perRpc.promql.${part}`;
    const message = describeTemplateError(path, text);
    if (message) problems.push({ cluster, template: path, message });
  }
  return problems;
}

/**
 * Configured PromQL templates that do not parse, over the fleet: a fleet-wide template's problem once (cluster null),
 * a cluster's own template's problem under the cluster's name unless the same problem is already reported.
 */
export function listConfigProblems(
  fleet: PluginSettings | undefined,
  clusters: ReadonlyArray<{ name: string; plugins?: PluginSettings }>,
): ConfigProblem[] {
  const problems = new Map<string, ConfigProblem>();
  for (const problem of checkPluginTemplates(null, resolvePluginSettings(fleet, undefined))) {
    problems.set(`${problem.template}|${problem.message}`, problem);
  }
  for (const cluster of clusters) {
    if (!cluster.plugins) continue;
    for (const problem of checkPluginTemplates(cluster.name, resolvePluginSettings(fleet, cluster.plugins))) {
      if (!problems.has(`${problem.template}|${problem.message}`))
        problems.set(`${cluster.name}|${problem.template}|${problem.message}`, problem);
    }
  }
  return [...problems.values()];
}
