import { describe, expect, it } from "vitest";
import type { KubeObject } from "../store/object-store";
import { ClusterCache } from "./cluster-cache";
import type { ResourceType } from "../resources";
import { T } from "./resource-types";

const owned = (resource: ResourceType, kind: string, name: string, ownerUid: string): KubeObject => ({
  apiVersion: "argoproj.io/v1alpha1",
  kind,
  metadata: {
    namespace: "shop",
    name,
    ownerReferences: [{ apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", name: "checkout", uid: ownerUid, controller: true }],
  },
  ...(resource === T.analysisRuns ? { spec: { metrics: [] } } : {}),
});

describe("ClusterCache: owned objects by the Rollout object's uid (a recreated Rollout starts afresh)", () => {
  it("gives the Rollout created again under its name none of its predecessor's AnalysisRuns or Experiments", () => {
    const cache = new ClusterCache();
    for (const [resource, kind] of [
      [T.analysisRuns, "AnalysisRun"],
      [T.experiments, "Experiment"],
    ] as const) {
      cache.apply({ type: "ADDED", resource, object: owned(resource, kind, `before-${kind}`, "uid-before"), resourceVersion: 1 });
      cache.apply({ type: "ADDED", resource, object: owned(resource, kind, `after-${kind}`, "uid-after"), resourceVersion: 2 });
    }
    expect(cache.analysisRunsOf("shop/checkout", "uid-after").map((o) => o.metadata.name)).toEqual(["after-AnalysisRun"]);
    expect(cache.experimentsOf("shop/checkout", "uid-after").map((o) => o.metadata.name)).toEqual(["after-Experiment"]);
    expect(cache.analysisRunsOf("shop/checkout", undefined)).toHaveLength(2);
  });
});
