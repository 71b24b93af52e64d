import { describe, expect, it } from "vitest";
import {
  comparableRequestedPercent,
  countByPhase,
  naturalKey,
  DEFAULT_FLEET_VIEW,
  filterRollouts,
  listFacets,
  pageCount,
  parseFleetView,
  serializeFleetView,
  sortRollouts,
} from "./fleet-query";
import { makeSummary } from "./summary.test-helper";

const rows = [
  makeSummary({
    cluster: "prod-eu",
    namespace: "shop",
    name: "checkout",
    phase: "Paused",
    canaryPercent: 30,
    lastChangedAt: "2026-08-18T09:05:00Z",
  }),
  makeSummary({ cluster: "prod-us", namespace: "shop", name: "cart", phase: "Healthy", canaryPercent: 0 }),
  makeSummary({
    cluster: "prod-eu",
    namespace: "payments",
    name: "ledger",
    phase: "Degraded",
    message: "RolloutAborted: Rollout aborted update to revision 4",
    canaryPercent: null,
    routers: [{ kind: "builtin", name: "Istio" }],
  }),
  makeSummary({ cluster: "staging", namespace: "shop", name: "search-2", phase: "Progressing", canaryPercent: 60 }),
  makeSummary({ cluster: "staging", namespace: "shop", name: "search-10", phase: "Progressing", canaryPercent: 10 }),
];

describe("parseFleetView / serializeFleetView", () => {
  it("round-trips a view and omits defaults", () => {
    const view = {
      ...DEFAULT_FLEET_VIEW,
      q: "check",
      cluster: "prod-eu",
      phase: "Paused" as const,
      sort: "weight" as const,
      dir: "desc" as const,
      page: 3,
    };
    const query = serializeFleetView(view);
    expect(query).toBe("q=check&cluster=prod-eu&phase=Paused&sort=weight&dir=desc&page=3");
    expect(parseFleetView(new URLSearchParams(query))).toEqual(view);
    expect(serializeFleetView(DEFAULT_FLEET_VIEW)).toBe("");
  });

  it("ignores values it does not know", () => {
    const view = parseFleetView(new URLSearchParams("phase=Weird&sort=nope&page=-2&dir=sideways"));
    expect(view).toEqual(DEFAULT_FLEET_VIEW);
  });
});

describe("filterRollouts", () => {
  it("filters by cluster, namespace, phase and router", () => {
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, cluster: "prod-eu" }).map((r) => r.name)).toEqual(["checkout", "ledger"]);
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, namespace: "payments" }).map((r) => r.name)).toEqual(["ledger"]);
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, phase: "Progressing" })).toHaveLength(2);
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, router: "Istio" }).map((r) => r.name)).toEqual(["ledger"]);
  });

  it("matches every free-text term against key, message and routers, case-insensitively", () => {
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, q: "ABORTED payments" }).map((r) => r.name)).toEqual(["ledger"]);
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, q: "gatewayapi search" })).toHaveLength(2);
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, q: "nothing-like-this" })).toHaveLength(0);
  });

  it("can leave the phase out for counts", () => {
    expect(filterRollouts(rows, { ...DEFAULT_FLEET_VIEW, phase: "Paused" }, { ignorePhase: true })).toHaveLength(5);
  });
});

describe("sortRollouts", () => {
  it("sorts by cluster/namespace/name with natural numbers by default", () => {
    expect(sortRollouts(rows, "cluster", "asc").map((r) => r.name)).toEqual(["ledger", "checkout", "cart", "search-2", "search-10"]);
  });

  it("puts the most urgent phase first and missing weights last", () => {
    expect(sortRollouts(rows, "phase", "asc")[0].name).toBe("ledger");
    expect(sortRollouts(rows, "weight", "desc").map((r) => r.canaryPercent)).toEqual([60, 30, 10, 0, null]);
  });

  it("sorts by last change and does not mutate its input", () => {
    const copy = [...rows];
    expect(sortRollouts(rows, "changed", "desc")[0].name).toBe("checkout");
    expect(rows).toEqual(copy);
  });
});

describe("countByPhase / listFacets / pageCount", () => {
  it("counts every phase, zero included", () => {
    expect(countByPhase(rows)).toEqual({ Healthy: 1, Progressing: 2, Paused: 1, Degraded: 1 });
    expect(countByPhase([])).toEqual({ Healthy: 0, Progressing: 0, Paused: 0, Degraded: 0 });
  });

  it("lists filter options, namespaces narrowed to the cluster", () => {
    expect(listFacets(rows, "")).toEqual({
      clusters: ["prod-eu", "prod-us", "staging"],
      namespaces: ["payments", "shop"],
      routers: ["argoproj-labs/gatewayAPI", "Istio"],
    });
    expect(listFacets(rows, "prod-us").namespaces).toEqual(["shop"]);
  });

  it("always has at least one page", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(5000)).toBe(50);
    expect(pageCount(5001)).toBe(51);
  });
});

describe("comparableRequestedPercent", () => {
  it("drops the requested weight once every step is done", () => {
    expect(
      comparableRequestedPercent(makeSummary({ requestedPercent: 100, step: { current: null, total: 4, index: 4, label: null } })),
    ).toBeNull();
    expect(
      comparableRequestedPercent(makeSummary({ requestedPercent: 30, step: { current: 3, total: 4, index: 2, label: "Set weight 30%" } })),
    ).toBe(30);
    expect(
      comparableRequestedPercent(
        makeSummary({ requestedPercent: 100, strategy: "blueGreen", step: { current: null, total: 0, index: null, label: null } }),
      ),
    ).toBe(100);
  });
});

describe("naturalKey", () => {
  it("orders numbers naturally and ignores case", () => {
    const names = ["search-10", "Search-2", "search-1", "cart"];
    expect([...names].sort((a, b) => (naturalKey(a) < naturalKey(b) ? -1 : 1))).toEqual(["cart", "search-1", "Search-2", "search-10"]);
  });
});
