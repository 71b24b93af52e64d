import { afterEach, describe, expect, it, vi } from "vitest";
import { createReadScope, FULL_READ_SCOPE } from "@/lib/auth/read-scope";
import { ApiError } from "@/lib/errors/api-error";
import type { Fleet } from "@/lib/fleet/fleet";
import type { AppContext } from "@/lib/server/app-context";
import { getSharedPluginHealth, getSharedPluginHealthJson, startKeptPluginHealth } from "./plugin-health";
import { ServiceState } from "@/lib/server/service-state";

/** A context with one cluster and no plugin in use: the report needs no metrics and no database. */
function appWithClock(start: number): { app: AppContext; computations: () => number } {
  let reads = 0;
  const cluster = { name: "prod-eu", rollouts: () => [] };
  const fleet = {
    clusters: [cluster],
    clusterOrThrow: (name: string) => {
      if (name !== cluster.name) throw new ApiError("not_found", `no cluster named "${name}" is configured`);
      return cluster;
    },
  } as unknown as Fleet;
  const app = {
    fleet,
    config: { plugins: {} },
    now: () => start + 1_000 * reads++,
    serviceState: new ServiceState(),
  } as unknown as AppContext;
  return { app, computations: () => reads };
}

describe("getSharedPluginHealth", () => {
  it("answers repeated requests for the same view from one computation", async () => {
    const { app, computations } = appWithClock(1_800_000_000_000);
    const first = await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h" });
    const second = await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h" });
    expect(second.computedAt).toBe(first.computedAt);
    expect(computations()).toBe(1);
    await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "15m" });
    expect(computations()).toBe(2);
  });

  it("does not share reports between application contexts", async () => {
    const a = appWithClock(1_800_000_000_000);
    const b = appWithClock(1_900_000_000_000);
    await getSharedPluginHealth(a.app, { scope: FULL_READ_SCOPE, range: "1h" });
    expect((await getSharedPluginHealth(b.app, { scope: FULL_READ_SCOPE, range: "1h" })).computedAt).toBe(
      new Date(1_900_000_000_000).toISOString(),
    );
  });

  it("refuses an unknown cluster without pushing a real report out of the shared ones", async () => {
    const { app, computations } = appWithClock(1_800_000_000_000);
    // The shared results keep the 50 most recently used views.
    for (let i = 0; i < 50; i++) await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h", plugin: `acme/plugin-${i}` });
    await expect(getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h", cluster: "nowhere" })).rejects.toMatchObject({
      code: "not_found",
    });
    await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h", plugin: "acme/plugin-0" });
    expect(computations()).toBe(50);
  });

  it("answers the route's JSON text from the same report, for a full read scope and a narrower one", async () => {
    const { app, computations } = appWithClock(1_800_000_000_000);
    const report = await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h" });
    const shared = await getSharedPluginHealthJson(app, { scope: FULL_READ_SCOPE, range: "1h" });
    const narrow = await getSharedPluginHealthJson(app, { scope: createReadScope([["prod-eu", { kind: "all" }]]), range: "1h" });
    expect(JSON.parse(shared)).toEqual(report);
    expect(JSON.parse(narrow)).toEqual(report);
    expect(JSON.parse(shared)).toMatchObject({ refreshing: false });
    expect(computations()).toBe(1);
    await expect(getSharedPluginHealthJson(app, { scope: FULL_READ_SCOPE, range: "1h", cluster: "nowhere" })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("startKeptPluginHealth", () => {
  afterEach(() => vi.useRealTimers());

  /** A context on vitest's fake clock that counts the reports computed (each lists the fleet's clusters once). */
  function appOnFakeClock(metrics: "prometheus" | "scrape" = "prometheus"): { app: AppContext; computations: () => number } {
    let computations = 0;
    const cluster = { name: "prod-eu", rollouts: () => [] };
    const fleet = {
      get clusters() {
        computations++;
        return [cluster];
      },
      clusterOrThrow: () => cluster,
    } as unknown as Fleet;
    const clusters = [{ name: "prod-eu", ...(metrics === "prometheus" ? { prometheus: { url: "http://127.0.0.1:9090" } } : {}) }];
    const app = {
      fleet,
      config: { plugins: {}, clusters },
      now: () => Date.now(),
      serviceState: new ServiceState(),
    } as unknown as AppContext;
    return { app, computations: () => computations };
  }

  it("answers the plugins page's first request from the report computed at start-up; other views on demand", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const { app, computations } = appOnFakeClock();
    const stop = startKeptPluginHealth(app);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(computations()).toBe(1);
    const first = await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h" });
    expect(first.computedAt).toBe(new Date(1_800_000_000_000).toISOString());
    expect(computations()).toBe(1);
    await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h", cluster: "prod-eu" });
    expect(computations()).toBe(2);
    // Half a minute later the background has refreshed it: the page still waits for nothing.
    await vi.advanceTimersByTimeAsync(32_000);
    const later = await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h" });
    expect(Date.parse(later.computedAt)).toBeGreaterThan(Date.parse(first.computedAt));
    expect(later.refreshing).toBe(false);
    stop();
  });

  it("in scrape mode computes nothing at start (it would hold up the first page loads), then keeps what the first request computed", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const { app, computations } = appOnFakeClock("scrape");
    const stop = startKeptPluginHealth(app);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(computations()).toBe(0);
    const first = await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h" });
    expect(computations()).toBe(1);
    await vi.advanceTimersByTimeAsync(32_000);
    const later = await getSharedPluginHealth(app, { scope: FULL_READ_SCOPE, range: "1h" });
    expect(Date.parse(later.computedAt)).toBeGreaterThan(Date.parse(first.computedAt));
    expect(computations()).toBe(2);
    stop();
  });
});
