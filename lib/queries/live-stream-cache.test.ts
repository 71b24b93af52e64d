import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeSummary } from "@/lib/overview/summary.test-helper";
import type { ClusterDetailResponse, ClusterListResponse, ClusterStateView } from "@/lib/contracts/clusters";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import type { RolloutDetail } from "@/lib/contracts/rollout-detail";
import { buildFleetRollout } from "@/lib/fleet/cluster-watcher";
import { buildFleetPage, type FleetPage } from "@/lib/overview/fleet-page";
import { DEFAULT_FLEET_VIEW } from "@/lib/overview/fleet-query";
import { readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { createThrottledInvalidate, writeFocusedRollout, writeLiveDeltas, writeLiveSnapshot, type Invalidate } from "./live-stream-cache";
import { queryKeys } from "./keys";
import { recentDeltasOf } from "./recent-deltas";

const clusterState = (name: string, connection: ClusterStateView["connection"] = "connected"): ClusterStateView => ({
  name,
  label: null,
  controllerNamespace: "argo-rollouts",
  connection,
  since: "2026-08-18T09:00:00Z",
  error: connection === "connected" ? null : "dial tcp 10.0.0.1:443: connect: connection refused",
  watches: {},
  rolloutCount: 1,
});

const checkout = makeSummary({ cluster: "prod", namespace: "shop", name: "checkout" });
const cart = makeSummary({ cluster: "prod", namespace: "shop", name: "cart" });

const pageKey = queryKeys.fleetPage("");
const pageOf = (rows = [checkout, cart], seq = 10) =>
  buildFleetPage(rows, [clusterState("prod"), clusterState("staging")], { ...DEFAULT_FLEET_VIEW, pageSize: 100 }, seq);

function setup() {
  const client = new QueryClient();
  client.setQueryData(pageKey, pageOf());
  writeLiveSnapshot(client, { clusters: [clusterState("prod"), clusterState("staging")], seq: 10 }, false);
  return client;
}

const isInvalidated = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;

describe("writeLiveSnapshot", () => {
  it("seeds the cluster list", () => {
    const client = setup();
    expect(client.getQueryData<ClusterListResponse>(queryKeys.clusters())?.clusters.map((c) => c.name)).toEqual(["prod", "staging"]);
  });

  it("asks again for an overview page older than the stream, which may have missed deltas", () => {
    const client = setup();
    expect(isInvalidated(client, pageKey)).toBe(false);
    writeLiveSnapshot(client, { clusters: [], seq: 11 }, false);
    expect(isInvalidated(client, pageKey)).toBe(true);
  });

  it("forgets the recent deltas: sequence numbers start over with a new stream", () => {
    const client = setup();
    recentDeltasOf(client).record(11, { type: "upsert", rollout: checkout });
    writeLiveSnapshot(client, { clusters: [], seq: 3 }, true);
    expect(recentDeltasOf(client).after(0)).toEqual([]);
    expect(recentDeltasOf(client).streamStart).toBe(3);
  });

  it("invalidates derived queries only on a resync", () => {
    const client = setup();
    client.setQueryData(queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" }), { rollout: {} });
    writeLiveSnapshot(client, { clusters: [], seq: 10 }, false);
    expect(isInvalidated(client, queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" }))).toBe(false);
    writeLiveSnapshot(client, { clusters: [], seq: 10 }, true);
    expect(isInvalidated(client, queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" }))).toBe(true);
  });
});

describe("writeLiveDeltas", () => {
  it("patches the rows an overview page holds at once, keeping unchanged rows identical, and asks for the page again", () => {
    const client = setup();
    const paused = { ...checkout, phase: "Paused" as const };
    writeLiveDeltas(client, [{ type: "upsert", rollout: paused }]);
    const rows = client.getQueryData<FleetPage>(pageKey)?.rows ?? [];
    expect(rows.find((r) => r.key === checkout.key)?.phase).toBe("Paused");
    expect(rows.find((r) => r.key === cart.key)).toBe(cart);
    expect(isInvalidated(client, pageKey)).toBe(true);
  });

  it("leaves a page alone when only a rollout it does not show changed, but still asks again for counts", () => {
    const client = setup();
    const before = client.getQueryData<FleetPage>(pageKey);
    writeLiveDeltas(client, [{ type: "upsert", rollout: makeSummary({ cluster: "staging", namespace: "web", name: "front" }) }]);
    expect(client.getQueryData<FleetPage>(pageKey)).toBe(before);
    expect(isInvalidated(client, pageKey)).toBe(true);
  });

  it("marks what the changed rollout's pages hold as stale without fetching (no detail is shown), and asks for its cluster's counts", () => {
    const client = setup();
    client.setQueryData(queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" }), {});
    client.setQueryData(queryKeys.rolloutHistory({ cluster: "prod", namespace: "shop", name: "checkout" }, "6h"), {});
    client.setQueryData(queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "cart" }), {});
    client.setQueryData(queryKeys.cluster("prod"), {});
    client.setQueryData(queryKeys.cluster("staging"), {});
    writeLiveDeltas(client, [{ type: "upsert", rollout: checkout }]);
    expect(isInvalidated(client, queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" }))).toBe(true);
    expect(isInvalidated(client, queryKeys.rolloutHistory({ cluster: "prod", namespace: "shop", name: "checkout" }, "6h"))).toBe(true);
    expect(isInvalidated(client, queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "cart" }))).toBe(false);
    expect(isInvalidated(client, queryKeys.cluster("prod"))).toBe(true);
    expect(isInvalidated(client, queryKeys.cluster("staging"))).toBe(false);
  });

  it("leaves a focused rollout's detail to its `rollout` events", () => {
    const client = setup();
    const ref = { cluster: "prod", namespace: "shop", name: "checkout" };
    client.setQueryData(queryKeys.rolloutDetail(ref), {});
    client.setQueryData(queryKeys.rolloutHistory(ref, "1h"), {});
    const asked: string[] = [];
    writeLiveDeltas(
      client,
      [{ type: "upsert", rollout: checkout }],
      (key) => void asked.push(JSON.stringify(key)),
      new Set([checkout.key]),
    );
    expect(isInvalidated(client, queryKeys.rolloutDetail(ref))).toBe(false);
    expect(isInvalidated(client, queryKeys.rolloutHistory(ref, "1h"))).toBe(false);
    expect(asked).not.toContain(JSON.stringify(queryKeys.rolloutDetail(ref)));
  });

  it("patches a cluster's state wherever a cached response holds it", () => {
    const client = setup();
    client.setQueryData<ClusterDetailResponse>(queryKeys.cluster("prod"), { cluster: clusterState("prod"), phaseCounts: { Healthy: 2 } });
    client.setQueryData(queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" }), {
      rollout: {},
      cluster: clusterState("prod"),
    } as unknown as RolloutDetail);
    client.setQueryData(queryKeys.rolloutHistory({ cluster: "prod", namespace: "shop", name: "checkout" }, "1h"), { points: [] });
    const down = clusterState("prod", "unreachable");
    writeLiveDeltas(client, [{ type: "cluster", cluster: down }]);
    expect(client.getQueryData<ClusterListResponse>(queryKeys.clusters())?.clusters.find((c) => c.name === "prod")).toEqual(down);
    expect(client.getQueryData<ClusterDetailResponse>(queryKeys.cluster("prod"))).toEqual({ cluster: down, phaseCounts: { Healthy: 2 } });
    expect(
      client.getQueryData<RolloutDetail>(queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" }))?.cluster,
    ).toEqual(down);
    expect(client.getQueryData(queryKeys.rolloutHistory({ cluster: "prod", namespace: "shop", name: "checkout" }, "1h"))).toEqual({
      points: [],
    });
    expect(client.getQueryData<FleetPage>(pageKey)?.clusters.find((c) => c.name === "prod")).toEqual(down);
    expect(isInvalidated(client, pageKey)).toBe(false);
  });
});

describe("createThrottledInvalidate", () => {
  afterEach(() => vi.useRealTimers());

  it("invalidates at once, then at most once per interval with a trailing call", () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const key = queryKeys.rolloutDetail({ cluster: "prod", namespace: "shop", name: "checkout" });
    const calls: number[] = [];
    const original = client.invalidateQueries.bind(client);
    client.invalidateQueries = ((...args: Parameters<QueryClient["invalidateQueries"]>) => {
      calls.push(Date.now());
      return original(...args);
    }) as QueryClient["invalidateQueries"];
    const { invalidate, dispose } = createThrottledInvalidate(client, 1_000);
    const start = Date.now();
    invalidate(key);
    vi.advanceTimersByTime(100);
    invalidate(key);
    invalidate(key);
    expect(calls).toEqual([start]);
    vi.advanceTimersByTime(900);
    expect(calls).toEqual([start, start + 1_000]);
    vi.advanceTimersByTime(5_000);
    expect(calls).toHaveLength(2);
    dispose();
  });

  it("never cancels a refetch in flight: it asks again once that request has finished", async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const key = queryKeys.fleetPage("");
    let finish: (value: unknown) => void = () => undefined;
    void client.fetchQuery({ queryKey: key, queryFn: () => new Promise((resolve) => (finish = resolve)) });
    let invalidations = 0;
    const original = client.invalidateQueries.bind(client);
    client.invalidateQueries = ((...args: Parameters<QueryClient["invalidateQueries"]>) => {
      invalidations++;
      return original(...args);
    }) as QueryClient["invalidateQueries"];
    const { invalidate, dispose } = createThrottledInvalidate(client, 1_000);
    invalidate(key);
    vi.advanceTimersByTime(3_000);
    expect(invalidations).toBe(0);
    expect(client.isFetching({ queryKey: key })).toBe(1);
    finish({ rows: [] });
    await vi.advanceTimersByTimeAsync(300);
    expect(invalidations).toBe(1);
    dispose();
  });
});

describe("writeFocusedRollout", () => {
  const ref = { cluster: "prod", namespace: "shop", name: "checkout" };
  const fixture = (mutate: (obj: { metadata: Record<string, unknown>; status: Record<string, unknown> }) => void = () => undefined) => {
    const obj = structuredClone(readRolloutFixture("indefinite-pause")) as {
      metadata: Record<string, unknown>;
      status: Record<string, unknown>;
    };
    obj.metadata = { ...obj.metadata, name: "checkout", namespace: "shop" };
    mutate(obj);
    return buildFleetRollout("prod", obj, new Date("2026-08-18T09:00:00Z"));
  };

  function focusedSetup() {
    const client = new QueryClient();
    const before = fixture();
    client.setQueryData<RolloutDetail>(queryKeys.rolloutDetail(ref), {
      rollout: before,
      cluster: clusterState("prod"),
      events: [],
      analysisRuns: [],
      revisions: [],
    });
    client.setQueryData(queryKeys.rolloutActions(ref), { expected: { fingerprint: "f1" } } as unknown as RolloutActionsView);
    const asked: Array<{ key: string; intervalMs?: number }> = [];
    const invalidate: Invalidate = (key, intervalMs) => void asked.push({ key: JSON.stringify(key), intervalMs });
    return { client, before, asked, invalidate };
  }

  it("reads a Rollout again that was not found when the page opened, once the stream says it exists", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const detailKey = queryKeys.rolloutDetail(ref);
    await client
      .fetchQuery({
        queryKey: detailKey,
        queryFn: () => Promise.reject(new Error("Rollout shop/checkout not found in cluster prod")),
      })
      .catch(() => undefined);
    const asked: string[] = [];
    const invalidate: Invalidate = (key) => void asked.push(JSON.stringify(key));
    writeFocusedRollout(client, { ref, rollout: null, actionFingerprint: null }, invalidate);
    expect(asked).toEqual([]);
    writeFocusedRollout(client, { ref, rollout: fixture(), actionFingerprint: "f1" }, invalidate);
    expect(asked).toContain(JSON.stringify(detailKey));
  });

  it("writes a live-only change into the detail with no request", () => {
    const { client, asked, invalidate } = focusedSetup();
    const after = fixture((obj) => (obj.status = { ...obj.status, readyReplicas: 1, availableReplicas: 1 }));
    writeFocusedRollout(client, { ref, rollout: after, actionFingerprint: "f1" }, invalidate);
    expect(client.getQueryData<RolloutDetail>(queryKeys.rolloutDetail(ref))?.rollout).toEqual(after);
    expect(asked).toEqual([]);
  });

  it("asks again for the records (at most every 5 s) when a recorded field changed, and for the buttons when their state did", () => {
    const { client, asked, invalidate } = focusedSetup();
    const after = fixture((obj) => (obj.status = { ...obj.status, currentStepIndex: Number(obj.status.currentStepIndex ?? 0) + 1 }));
    writeFocusedRollout(client, { ref, rollout: after, actionFingerprint: "f2" }, invalidate);
    expect(client.getQueryData<RolloutDetail>(queryKeys.rolloutDetail(ref))?.rollout).toEqual(after);
    const records = (key: readonly unknown[]) => ({ key: JSON.stringify(key), intervalMs: 5_000 });
    expect(asked).toEqual([
      records(queryKeys.rolloutDetail(ref)),
      records(queryKeys.rolloutDetail(ref)),
      records(queryKeys.rolloutHistories(ref)),
      records(queryKeys.rolloutHistories(ref)),
      { key: JSON.stringify(queryKeys.rolloutActions(ref)), intervalMs: undefined },
    ]);
  });

  it("reads the records again after the recorder wrote the change, though the Rollout then stands still", async () => {
    vi.useFakeTimers();
    const { client } = focusedSetup();
    const historyKey = queryKeys.rolloutHistory(ref, "1h");
    // The history as the server reads it: the recorder writes the step change 250 ms after the watch delivered it.
    let recorded = "step 0";
    const reads: string[] = [];
    // An open page's chart: an active query, refetched when invalidated.
    const chart = new QueryObserver(client, { queryKey: historyKey, queryFn: () => (reads.push(recorded), recorded), staleTime: Infinity });
    const unsubscribe = chart.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    const throttle = createThrottledInvalidate(client);
    const after = fixture((obj) => (obj.status = { ...obj.status, currentStepIndex: Number(obj.status.currentStepIndex ?? 0) + 1 }));
    writeFocusedRollout(client, { ref, rollout: after, actionFingerprint: "f1" }, throttle.invalidate);
    setTimeout(() => (recorded = "step 1"), 250);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads.at(-1)).toBe("step 1");
    unsubscribe();
    throttle.dispose();
    vi.useRealTimers();
  });

  it("asks again for the buttons when their first read left before a change the stream then showed", async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    // The server answers with the state it had when the request arrived, 500 ms later.
    let serverState = "f1";
    const actionsKey = queryKeys.rolloutActions(ref);
    const buttons = new QueryObserver(client, {
      queryKey: actionsKey,
      queryFn: () => {
        const fingerprint = serverState;
        return new Promise<RolloutActionsView>((resolve) =>
          setTimeout(() => resolve({ expected: { fingerprint } } as unknown as RolloutActionsView), 500),
        );
      },
      staleTime: 15_000,
    });
    const unsubscribe = buttons.subscribe(() => undefined);
    const throttle = createThrottledInvalidate(client);
    await vi.advanceTimersByTimeAsync(100);
    serverState = "f2";
    writeFocusedRollout(client, { ref, rollout: fixture(), actionFingerprint: "f2" }, throttle.invalidate);
    expect(client.getQueryData(queryKeys.liveActionFingerprint(ref))).toBe("f2");
    await vi.advanceTimersByTimeAsync(5_000);
    expect(client.getQueryData<RolloutActionsView>(actionsKey)?.expected.fingerprint).toBe("f2");
    unsubscribe();
    throttle.dispose();
    vi.useRealTimers();
  });
});
