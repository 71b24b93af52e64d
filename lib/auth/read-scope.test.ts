import { describe, expect, it } from "vitest";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import {
  canReadNamespace,
  canReadObject,
  canReadRolloutKey,
  createReadScope,
  filterReadable,
  FULL_READ_SCOPE,
  scopeClusterState,
} from "./read-scope";

const scope = createReadScope([
  ["prod", { kind: "namespaces", namespaces: new Set(["shop"]) }],
  ["staging", { kind: "all" }],
  ["legacy", { kind: "none", error: "cluster unreachable" }],
]);

const state = (name: string, rolloutCount: number): ClusterStateView => ({
  name,
  label: null,
  controllerNamespace: "argo-rollouts",
  connection: "connected",
  since: "2026-01-01T00:00:00.000Z",
  error: null,
  watches: {},
  rolloutCount,
});

describe("read scope", () => {
  it("reads a namespace only where the cluster's scope names it; an unknown cluster not at all", () => {
    expect(canReadNamespace(scope, "prod", "shop")).toBe(true);
    expect(canReadNamespace(scope, "prod", "payments")).toBe(false);
    expect(canReadNamespace(scope, "staging", "payments")).toBe(true);
    expect(canReadNamespace(scope, "legacy", "shop")).toBe(false);
    expect(canReadNamespace(scope, "elsewhere", "shop")).toBe(false);
    expect(canReadNamespace(FULL_READ_SCOPE, "elsewhere", "shop")).toBe(true);
    expect(canReadRolloutKey(scope, "prod/shop/checkout")).toBe(true);
    expect(canReadRolloutKey(scope, "prod/payments/ledger")).toBe(false);
    expect(canReadRolloutKey(scope, "not-a-key")).toBe(false);
  });

  it("reads cluster-scoped objects only with every namespace of the cluster", () => {
    expect(canReadObject(scope, "staging", null)).toBe(true);
    expect(canReadObject(scope, "prod", null)).toBe(false);
    expect(canReadObject(scope, "prod", "shop")).toBe(true);
  });

  it("keeps the readable rows, and the very same array for everything", () => {
    const rows = [
      { cluster: "prod", namespace: "shop", name: "a" },
      { cluster: "prod", namespace: "payments", name: "b" },
      { cluster: "legacy", namespace: "shop", name: "c" },
    ];
    expect(filterReadable(scope, rows).map((r) => r.name)).toEqual(["a"]);
    expect(filterReadable(FULL_READ_SCOPE, rows)).toBe(rows);
  });

  it("counts a cluster's Rollouts over the readable namespaces and says why a cluster is hidden", () => {
    const counts = new Map([
      ["shop", 3],
      ["payments", 4],
    ]);
    expect(scopeClusterState(scope, state("prod", 7), counts).rolloutCount).toBe(3);
    expect(scopeClusterState(scope, state("staging", 7), counts).rolloutCount).toBe(7);
    expect(scopeClusterState(scope, state("legacy", 7), counts)).toMatchObject({ rolloutCount: 0, readError: "cluster unreachable" });
    expect(scopeClusterState(scope, state("elsewhere", 7), counts)).not.toHaveProperty("readError");
  });

  it("gives users who may read the same the same fingerprint, whatever the order, and others another", () => {
    const same = createReadScope([
      ["legacy", { kind: "none", error: "cluster unreachable" }],
      ["staging", { kind: "all" }],
      ["prod", { kind: "namespaces", namespaces: new Set(["shop"]) }],
    ]);
    const more = createReadScope([
      ["prod", { kind: "namespaces", namespaces: new Set(["shop", "payments"]) }],
      ["staging", { kind: "all" }],
      ["legacy", { kind: "none", error: "cluster unreachable" }],
    ]);
    expect(same.fingerprint).toBe(scope.fingerprint);
    expect(more.fingerprint).not.toBe(scope.fingerprint);
    expect(scope.fingerprint).not.toBe(FULL_READ_SCOPE.fingerprint);
  });
});
