import { describe, expect, it } from "vitest";
import { resolvePluginSettings } from "./effective-settings";
import { buildStuckRouterFinding, orderStuckRouterCandidates, planStuckRouterCheck, toAppliedPoints } from "./stuck-router";

const NOW = 1_800_000_000_000;

describe("planStuckRouterCheck", () => {
  it("looks back twice the configured time, at least 10 minutes, and lets a change settle for the rate window", () => {
    const check = planStuckRouterCheck(
      resolvePluginSettings({ stuckRouter: { forSeconds: 30 }, measuredTraffic: { window: "2m" } }, undefined),
      NOW,
    );
    expect(check.range.endMs - check.range.startMs).toBe(10 * 60_000 - 15_000);
    expect(check).toMatchObject({ settleSeconds: 135, tolerancePercent: 10, forSeconds: 30 });
    expect(planStuckRouterCheck(resolvePluginSettings({ stuckRouter: { forSeconds: 900 } }, undefined), NOW).range.startMs).toBe(
      NOW - 1_800_000 + 15_000,
    );
  });
});

describe("toAppliedPoints", () => {
  it("turns recorded weights into per cent of the maximum, and falls back to the live weight", () => {
    expect(
      toAppliedPoints(
        [
          { atMs: 1, canaryWeight: 250, maxWeight: 1000 },
          { atMs: 2, canaryWeight: null, maxWeight: 100 },
        ],
        { atMs: 0, canaryPercent: 50 },
      ),
    ).toEqual([
      { atMs: 1, canaryPercent: 25 },
      { atMs: 2, canaryPercent: null },
    ]);
    expect(toAppliedPoints([], { atMs: 0, canaryPercent: 50 })).toEqual([{ atMs: 0, canaryPercent: 50 }]);
    expect(toAppliedPoints([], null)).toEqual([]);
  });
});

describe("buildStuckRouterFinding", () => {
  it("says what differs, for how long, and how to fix it", () => {
    const finding = buildStuckRouterFinding({
      cluster: "prod-us",
      controllerNamespace: "argo-rollouts",
      rollout: { namespace: "search", name: "search-api" },
      router: "solo-io/glooplatform",
      templateKey: "generic",
      sourceSignal: "Prometheus http://prom:9090",
      run: { sinceMs: NOW - 150_000, untilMs: NOW, appliedPercent: 40, measuredPercent: 0 },
      check: { tolerancePercent: 10, forSeconds: 120 },
    });
    expect(finding).toMatchObject({ id: "stuck-router/prod-us/search/search-api", severity: "critical", kind: "stuck-router" });
    expect(finding.affected).toEqual([
      { cluster: "prod-us", namespace: "search", name: "search-api", plugin: "solo-io/glooplatform", resourceKind: "Rollout" },
    ]);
    expect(finding.detail).toContain(
      "Applied canary weight 40 %, measured canary share 0.0 % (signal: generic template on Prometheus http://prom:9090) for 3 min since",
    );
    expect(finding.fix).toContain("kubectl rollout restart deployment -n argo-rollouts argo-rollouts");
  });
});

describe("orderStuckRouterCandidates", () => {
  const rollout = (name: string, canaryPercent: number | null, routed = true) => ({
    name,
    trafficRouters: routed ? [{ kind: "plugin" as const, name: "acme/router" }] : [],
    appliedWeights: canaryPercent === null ? null : ({ canaryPercent } as never),
  });

  it("checks routed Rollouts with a weight applied, those mid-canary first, and no other", () => {
    const ordered = orderStuckRouterCandidates([
      rollout("stable", 0),
      rollout("unrouted", 20, false),
      rollout("mid", 20),
      rollout("not-yet", null),
      rollout("promoted", 100),
      rollout("also-mid", 60),
    ]);
    expect(ordered.map((r) => r.name)).toEqual(["mid", "also-mid", "stable", "promoted"]);
  });
});
