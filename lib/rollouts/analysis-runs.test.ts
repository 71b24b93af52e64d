import { describe, expect, it } from "vitest";
import { isOwnedByUid, toAnalysisRunViews } from "./analysis-runs";

/** An AnalysisRun as the controller creates it: owned (controller: true) by the Rollout object's uid. */
function analysisRun(namespace: string, name: string, owner: { name: string; uid: string }, startedAt: string) {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "AnalysisRun",
    metadata: {
      namespace,
      name,
      uid: `${namespace}-${name}`,
      labels: { "rollout-type": "Step", "rollouts-pod-template-hash": "6d4f8c9b7" },
      annotations: { "rollout.argoproj.io/revision": "2" },
      ownerReferences: [
        {
          apiVersion: "argoproj.io/v1alpha1",
          kind: "Rollout",
          name: owner.name,
          uid: owner.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { metrics: [{ name: "success-rate", provider: { web: { url: "http://metrics" } } }] },
    status: { phase: "Successful", startedAt, metricResults: [{ name: "success-rate", phase: "Successful", successful: 1 }] },
  };
}

describe("toAnalysisRunViews: a Rollout's AnalysisRuns are the ones its object owns", () => {
  const shopCheckout = { name: "checkout", uid: "uid-shop-checkout" };
  const paymentsCheckout = { name: "checkout", uid: "uid-payments-checkout" };
  const recreated = { name: "checkout", uid: "uid-shop-checkout-2" };
  const runs = [
    analysisRun("shop", "checkout-6d4f8c9b7-2-1", shopCheckout, "2026-12-02T10:00:00Z"),
    analysisRun("payments", "checkout-7f9c5d8-3-1", paymentsCheckout, "2026-12-02T11:00:00Z"),
    analysisRun("shop", "checkout-6d4f8c9b7-2-2", shopCheckout, "2026-12-02T12:00:00Z"),
  ];

  it("lists only the runs of the Rollout in its own namespace, newest first, not those of a same-named Rollout elsewhere", () => {
    const names = toAnalysisRunViews(runs, { namespace: "shop", uid: shopCheckout.uid }).map((r) => r.name);
    expect(names).toEqual(["checkout-6d4f8c9b7-2-2", "checkout-6d4f8c9b7-2-1"]);
    expect(toAnalysisRunViews(runs, { namespace: "payments", uid: paymentsCheckout.uid }).map((r) => r.name)).toEqual([
      "checkout-7f9c5d8-3-1",
    ]);
  });

  it("gives a Rollout deleted and created again under its name none of its predecessor's runs", () => {
    expect(toAnalysisRunViews(runs, { namespace: "shop", uid: recreated.uid })).toEqual([]);
  });

  it("matches no run when the Rollout's uid is unknown, and ignores a run whose owner uid matches in another namespace", () => {
    expect(toAnalysisRunViews(runs, { namespace: "shop", uid: null })).toEqual([]);
    const copied = analysisRun("staging", "checkout-copy", shopCheckout, "2026-12-02T13:00:00Z");
    expect(isOwnedByUid(copied.metadata, { namespace: "shop", uid: shopCheckout.uid })).toBe(false);
  });
});
