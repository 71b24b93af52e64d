import { createHash } from "node:crypto";
import { fingerprintRollout } from "@/lib/actions/rollout-fingerprint";
import type { AnalysisTemplateRef, RolloutLike } from "@/lib/plugins/usage";
import { readProgressDeadlineSeconds } from "@/lib/rollouts/attention-signals";
import type { RolloutResource } from "@/lib/rollouts/schema";

/**
 * What the server keeps of a watched Rollout object besides its view: the few spec fields the views do not carry
 * that a page or a signal needs while the Rollout is watched. The object itself is not kept; the rollout actions
 * and the workload card read it from the API server when asked (lib/services/rollout-lookup.ts).
 */
export interface RolloutProjection {
  /** The plugin and analysis-template references the plugins page counts; null when it has none or did not parse. */
  usage: RolloutLike | null;
  /** `spec.progressDeadlineSeconds` (600 when unset), for the progress-deadline attention reasons. */
  progressDeadlineSeconds: number;
  /** The NGINX router's stable Ingress (the measured-traffic query needs it); null for other routers. */
  stableIngress: string | null;
  /** `fingerprintToken` of the object: what a focused detail page's actions are confirmed against. */
  actionFingerprint: string | null;
}

/**
 * What `expected.fingerprint` carries: a digest of fingerprintRollout (the state an action's outcome depends on), its
 * first 16 bytes in 22 characters (encoded alone: a slice of the whole digest's text would keep all of it alive).
 */
export function fingerprintToken(rollout: RolloutResource): string {
  return createHash("sha256").update(fingerprintRollout(rollout)).digest().toString("base64url", 0, 16);
}

type AnalysisRefs = { templates?: readonly AnalysisTemplateRef[] | null } | null | undefined;
type CanaryStep = NonNullable<NonNullable<NonNullable<RolloutResource["spec"]>["strategy"]>["canary"]>["steps"];
type StepUsage = NonNullable<NonNullable<NonNullable<NonNullable<RolloutLike["spec"]>["strategy"]>["canary"]>["steps"]>[number];

/** Drops the properties whose value is undefined (each costs a slot in every kept object). */
function defined<T extends object>(obj: T): T {
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(obj)) if (value !== undefined) kept[field] = value;
  return kept as T;
}

function templateRefs(refs: AnalysisRefs): { templates: AnalysisTemplateRef[] } | undefined {
  if (!refs?.templates?.length) return undefined;
  return { templates: refs.templates.map(({ templateName, clusterScope }) => defined({ templateName, clusterScope })) };
}

const NO_USE: StepUsage = Object.freeze({});

/** Each step's plugin and analysis references (one shared empty entry for the others); undefined when none has any. */
function stepUses(steps: CanaryStep): StepUsage[] | undefined {
  const uses = (steps ?? []).map((step): StepUsage => {
    const analyses = templateRefs({ templates: step.experiment?.analyses })?.templates;
    const use = defined({
      plugin: step.plugin ? { name: step.plugin.name } : undefined,
      analysis: templateRefs(step.analysis),
      experiment: analyses && { analyses },
    });
    return Object.keys(use).length ? use : NO_USE;
  });
  return uses.some((use) => use !== NO_USE) ? uses : undefined;
}

/**
 * The parts of the spec collectPluginUsage reads (router plugin names, step plugins, analysis template references);
 * null when the Rollout references none, so it cannot use a plugin.
 */
function projectPluginUsage(rollout: RolloutResource): RolloutLike | null {
  const { canary, blueGreen } = rollout.spec?.strategy ?? {};
  const routerPlugins = Object.keys(canary?.trafficRouting?.plugins ?? {});
  const canaryUse = canary
    ? defined({
        trafficRouting: routerPlugins.length ? { plugins: Object.fromEntries(routerPlugins.map((name) => [name, true])) } : undefined,
        analysis: templateRefs(canary.analysis),
        steps: stepUses(canary.steps),
      })
    : {};
  const blueGreenUse = blueGreen
    ? defined({
        prePromotionAnalysis: templateRefs(blueGreen.prePromotionAnalysis),
        postPromotionAnalysis: templateRefs(blueGreen.postPromotionAnalysis),
      })
    : {};
  if (Object.keys(canaryUse).length === 0 && Object.keys(blueGreenUse).length === 0) return null;
  return {
    metadata: defined({ name: rollout.metadata.name, namespace: rollout.metadata.namespace }),
    spec: { strategy: { canary: canaryUse, blueGreen: blueGreenUse } },
  };
}

/** The Ingress a plugin's config names (`stableIngress`, as upstream's sample nginx plugin reads it), if any. */
function pluginStableIngress(parsed: RolloutResource | null): string | null {
  for (const config of Object.values(parsed?.spec?.strategy?.canary?.trafficRouting?.plugins ?? {})) {
    const ingress = (config as { stableIngress?: unknown } | null)?.stableIngress;
    if (typeof ingress === "string" && ingress !== "") return ingress;
  }
  return null;
}

/** The projection of one watched object (`parsed`: it as the Rollout schema read it, or null when it did not parse). */
export function projectRollout(obj: unknown, parsed: RolloutResource | null): RolloutProjection {
  const nginx = parsed?.spec?.strategy?.canary?.trafficRouting?.nginx;
  return {
    usage: parsed && projectPluginUsage(parsed),
    progressDeadlineSeconds: readProgressDeadlineSeconds(obj),
    stableIngress: nginx?.stableIngress ?? nginx?.stableIngresses?.[0] ?? pluginStableIngress(parsed) ?? null,
    actionFingerprint: parsed ? fingerprintToken(parsed) : null,
  };
}
