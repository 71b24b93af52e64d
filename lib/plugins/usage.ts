import type { PluginKind } from "@/lib/plugins/config";

export interface ResourceMetadata {
  name: string;
  namespace?: string;
}

export interface AnalysisTemplateRef {
  templateName?: string;
  clusterScope?: boolean;
}

interface AnalysisRefs {
  templates?: readonly AnalysisTemplateRef[] | null;
}

/** The parts of a Rollout that name plugins or analysis templates; any other field may be present. */
export interface RolloutLike {
  metadata: ResourceMetadata;
  spec?: {
    strategy?: {
      canary?: {
        trafficRouting?: { plugins?: Record<string, unknown> | null } | null;
        analysis?: AnalysisRefs | null;
        steps?: ReadonlyArray<{
          plugin?: { name?: string } | null;
          analysis?: AnalysisRefs | null;
          experiment?: { analyses?: readonly AnalysisTemplateRef[] | null } | null;
        }> | null;
      } | null;
      blueGreen?: {
        prePromotionAnalysis?: AnalysisRefs | null;
        postPromotionAnalysis?: AnalysisRefs | null;
      } | null;
    } | null;
  } | null;
}

/** An AnalysisTemplate or ClusterAnalysisTemplate (told apart by `kind`, else by the absence of a namespace). */
export interface AnalysisTemplateLike {
  kind?: string;
  metadata: ResourceMetadata;
  spec?: {
    metrics?: ReadonlyArray<{ name?: string; provider?: { plugin?: Record<string, unknown> | null } | null }> | null;
  } | null;
}

export type TemplateKind = "AnalysisTemplate" | "ClusterAnalysisTemplate";
export type ReferencingKind = "Rollout" | TemplateKind;

export interface PluginReference {
  plugin: string;
  kind: PluginKind;
  resource: { kind: ReferencingKind; name: string; namespace?: string };
  /** Where the name appears, e.g. `spec.strategy.canary.steps[3].plugin.name`. */
  path: string;
  /** For a Rollout that uses a metric plugin through an analysis template. */
  viaTemplate?: { kind: TemplateKind; name: string };
}

export interface PluginUsage {
  references: PluginReference[];
}

interface TemplateUse {
  ref: AnalysisTemplateRef;
  path: string;
}

function templateKindOf(template: AnalysisTemplateLike): TemplateKind {
  if (template.kind === "ClusterAnalysisTemplate" || template.kind === "AnalysisTemplate") return template.kind;
  return template.metadata.namespace === undefined ? "ClusterAnalysisTemplate" : "AnalysisTemplate";
}

function listTemplateUses(rollout: RolloutLike): TemplateUse[] {
  const strategy = rollout.spec?.strategy;
  const uses: TemplateUse[] = [];
  const addAll = (refs: AnalysisRefs | null | undefined, path: string): void => {
    (refs?.templates ?? []).forEach((ref, index) => uses.push({ ref, path: `${path}.templates[${index}]` }));
  };
  addAll(strategy?.canary?.analysis, "spec.strategy.canary.analysis");
  (strategy?.canary?.steps ?? []).forEach((step, stepIndex) => {
    const stepPath = `spec.strategy.canary.steps[${stepIndex}]`;
    addAll(step.analysis, `${stepPath}.analysis`);
    (step.experiment?.analyses ?? []).forEach((ref, index) => uses.push({ ref, path: `${stepPath}.experiment.analyses[${index}]` }));
  });
  addAll(strategy?.blueGreen?.prePromotionAnalysis, "spec.strategy.blueGreen.prePromotionAnalysis");
  addAll(strategy?.blueGreen?.postPromotionAnalysis, "spec.strategy.blueGreen.postPromotionAnalysis");
  return uses;
}

function templateKey(kind: TemplateKind, namespace: string | undefined, name: string): string {
  return kind === "ClusterAnalysisTemplate" ? `cluster/${name}` : `${namespace ?? ""}/${name}`;
}

/**
 * Which resources name which plugin: `trafficRouting.plugins` keys and `steps[].plugin.name` of Rollouts,
 * `metrics[].provider.plugin` keys of (Cluster)AnalysisTemplates, and, for those metric plugins, every Rollout
 * that runs the template (canary background and step analyses, experiment analyses, blue-green pre/post).
 */
export function collectPluginUsage(rollouts: readonly RolloutLike[], analysisTemplates: readonly AnalysisTemplateLike[]): PluginUsage {
  const references: PluginReference[] = [];
  const metricPluginsByTemplate = new Map<string, string[]>();

  for (const template of analysisTemplates) {
    const kind = templateKindOf(template);
    const { name, namespace } = template.metadata;
    const plugins: string[] = [];
    (template.spec?.metrics ?? []).forEach((metric, index) => {
      for (const plugin of Object.keys(metric.provider?.plugin ?? {})) {
        plugins.push(plugin);
        references.push({
          plugin,
          kind: "metricProvider",
          resource: kind === "ClusterAnalysisTemplate" ? { kind, name } : { kind, name, namespace },
          path: `spec.metrics[${index}].provider.plugin`,
        });
      }
    });
    metricPluginsByTemplate.set(templateKey(kind, namespace, name), [...new Set(plugins)]);
  }

  for (const rollout of rollouts) {
    const resource = { kind: "Rollout" as const, name: rollout.metadata.name, namespace: rollout.metadata.namespace };
    const canary = rollout.spec?.strategy?.canary;
    for (const plugin of Object.keys(canary?.trafficRouting?.plugins ?? {})) {
      references.push({ plugin, kind: "trafficRouter", resource, path: "spec.strategy.canary.trafficRouting.plugins" });
    }
    (canary?.steps ?? []).forEach((step, index) => {
      const plugin = step.plugin?.name;
      if (plugin) {
        references.push({ plugin, kind: "step", resource, path: `spec.strategy.canary.steps[${index}].plugin.name` });
      }
    });
    for (const use of listTemplateUses(rollout)) {
      const templateName = use.ref.templateName;
      if (!templateName) continue;
      const kind: TemplateKind = use.ref.clusterScope ? "ClusterAnalysisTemplate" : "AnalysisTemplate";
      const plugins = metricPluginsByTemplate.get(templateKey(kind, resource.namespace, templateName)) ?? [];
      for (const plugin of plugins) {
        references.push({
          plugin,
          kind: "metricProvider",
          resource,
          path: use.path,
          viaTemplate: { kind, name: templateName },
        });
      }
    }
  }
  return { references };
}
