import { findResourceType, type ResourceType } from "../resources";

function must(group: string, version: string, plural: string): ResourceType {
  const type = findResourceType(group, version, plural);
  if (!type) throw new Error(`resource type ${plural} is not served`);
  return type;
}

export const T = {
  rollouts: must("argoproj.io", "v1alpha1", "rollouts"),
  analysisRuns: must("argoproj.io", "v1alpha1", "analysisruns"),
  analysisTemplates: must("argoproj.io", "v1alpha1", "analysistemplates"),
  experiments: must("argoproj.io", "v1alpha1", "experiments"),
  replicaSets: must("apps", "v1", "replicasets"),
  pods: must("", "v1", "pods"),
  services: must("", "v1", "services"),
  configMaps: must("", "v1", "configmaps"),
  events: must("", "v1", "events"),
  ingresses: must("networking.k8s.io", "v1", "ingresses"),
};
