import type { RolloutSummary } from "./rollout-summary";

/** A Healthy, fully promoted canary row; tests override what they look at. */
export function makeSummary(
  overrides: Partial<RolloutSummary> & { cluster?: string; namespace?: string; name?: string } = {},
): RolloutSummary {
  const cluster = overrides.cluster ?? "prod";
  const namespace = overrides.namespace ?? "shop";
  const name = overrides.name ?? "checkout";
  return {
    key: `${cluster}/${namespace}/${name}`,
    cluster,
    namespace,
    name,
    strategy: "canary",
    phase: "Healthy",
    message: "",
    revision: 3,
    resourceVersion: "100",
    step: { current: null, total: 4, index: 4, label: null },
    requestedPercent: 100,
    canaryPercent: 0,
    stablePercent: 100,
    verified: null,
    actualPercent: 100,
    routers: [{ kind: "plugin", name: "argoproj-labs/gatewayAPI" }],
    pause: null,
    analysisStatus: null,
    aborted: false,
    attention: [],
    parseError: null,
    lastChangedAt: "2026-08-18T09:00:00Z",
    ...overrides,
  };
}
