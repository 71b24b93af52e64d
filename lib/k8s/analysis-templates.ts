import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import { z } from "zod";
import { kubeStatusOf } from "@/lib/errors/kube-errors";
import type { AnalysisTemplateLike, TemplateKind } from "@/lib/plugins/usage";
import { kubeRequest } from "./kube-request";

const templateListSchema = z.object({
  items: z.array(
    z.looseObject({
      kind: z.string().optional(),
      metadata: z.looseObject({ name: z.string(), namespace: z.string().optional() }),
      spec: z
        .looseObject({
          metrics: z
            .array(
              z.looseObject({
                name: z.string().optional(),
                provider: z.looseObject({ plugin: z.record(z.string(), z.unknown()).nullish() }).nullish(),
              }),
            )
            .nullish(),
        })
        .nullish(),
    }),
  ),
});

const CACHE_MS = 30_000;
const cache = new Map<string, { atMs: number; templates: AnalysisTemplateLike[] }>();

async function listTemplatesOfKind(
  kubeConfig: KubeConfig,
  path: string,
  kind: TemplateKind,
  optional: boolean,
): Promise<AnalysisTemplateLike[]> {
  try {
    const list = templateListSchema.parse(await kubeRequest<unknown>(kubeConfig, path));
    return list.items.map((item): AnalysisTemplateLike => ({ ...item, kind }));
  } catch (err) {
    // A cluster without the ClusterAnalysisTemplate CRD simply has none.
    if (optional && kubeStatusOf(err) === 404) return [];
    throw err;
  }
}

/**
 * A cluster's AnalysisTemplates and ClusterAnalysisTemplates. The fleet does not watch them, so they are listed on
 * demand and kept 30 s per cluster.
 */
export async function listAnalysisTemplates(
  cluster: { name: string; clients: { kubeConfig: KubeConfig } },
  nowMs: number,
): Promise<AnalysisTemplateLike[]> {
  const cached = cache.get(cluster.name);
  if (cached && nowMs - cached.atMs < CACHE_MS) return cached.templates;
  const { kubeConfig } = cluster.clients;
  const templates = [
    ...(await listTemplatesOfKind(kubeConfig, "/apis/argoproj.io/v1alpha1/analysistemplates", "AnalysisTemplate", false)),
    ...(await listTemplatesOfKind(kubeConfig, "/apis/argoproj.io/v1alpha1/clusteranalysistemplates", "ClusterAnalysisTemplate", true)),
  ];
  cache.set(cluster.name, { atMs: nowMs, templates });
  return templates;
}
