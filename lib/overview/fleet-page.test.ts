import { describe, expect, it } from "vitest";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import type { LiveDelta } from "@/lib/contracts/stream";
import type { RolloutSummary } from "./rollout-summary";
import { ATTENTION_LIMIT, buildFleetPage, patchFleetPage, type FleetPage } from "./fleet-page";
import { FleetPageQuery, parseFleetPageQuery } from "./fleet-page-query";
import { DEFAULT_FLEET_VIEW, FLEET_SORT_KEYS, sortRollouts } from "./fleet-query";
import { makeSummary } from "./summary.test-helper";

const prod: ClusterStateView = {
  name: "prod",
  label: null,
  controllerNamespace: "argo-rollouts",
  connection: "connected",
  since: "2026-08-18T09:00:00Z",
  error: null,
  watches: {},
  rolloutCount: 0,
};

/** 250 rollouts in two clusters; every 10th is Paused awaiting promotion, every 50th Degraded. */
const fleet = Array.from({ length: 250 }, (_, i) =>
  makeSummary({
    cluster: i % 2 ? "prod-eu" : "prod-us",
    namespace: `team-${i % 5}`,
    name: `svc-${i}`,
    phase: i % 50 === 0 ? "Degraded" : i % 10 === 0 ? "Paused" : "Healthy",
    attention:
      i % 50 === 0
        ? [{ code: "Degraded", message: "ProgressDeadlineExceeded" }]
        : i % 10 === 0
          ? [{ code: "AwaitingPromotion", message: "paused at step 2" }]
          : [],
  }),
);
const request = { ...DEFAULT_FLEET_VIEW, pageSize: 100 };

describe("buildFleetPage", () => {
  it("returns one page of the sorted fleet with the totals around it", () => {
    const page = buildFleetPage(fleet, [prod], { ...request, page: 2 }, 42);
    expect(page.rows).toHaveLength(100);
    expect(page).toMatchObject({ page: 2, pageCount: 3, matched: 250, base: 250, total: 250, seq: 42 });
    expect(page.counts).toEqual({ Healthy: 225, Paused: 20, Progressing: 0, Degraded: 5 });
    // Default sort: cluster, then namespace, then name in natural order; page 2 continues where page 1 stopped.
    const first = buildFleetPage(fleet, [prod], request, 42);
    expect(first.rows[0].key).toBe("prod-eu/team-0/svc-5");
    expect(page.rows[0].key > first.rows[99].key || page.rows[0].cluster > first.rows[99].cluster).toBe(true);
  });

  it("filters before paging, and counts phases over the filters without the phase", () => {
    const page = buildFleetPage(fleet, [prod], { ...request, cluster: "prod-us", phase: "Paused" }, 1);
    expect(page.rows.every((r) => r.cluster === "prod-us" && r.phase === "Paused")).toBe(true);
    expect(page.matched).toBe(page.rows.length);
    expect(page.base).toBe(125);
    expect(page.counts.Paused).toBe(page.matched);
    expect(page.counts.Healthy).toBeGreaterThan(0);
  });

  it("pages a large fleet exactly as its whole sorted list, in every order", () => {
    const large = Array.from({ length: 2_000 }, (_, i) =>
      makeSummary({
        cluster: `c${i % 7}`,
        namespace: `team-${i % 3}`,
        name: `svc-${(i * 7919) % 2_000}`,
        phase: i % 9 === 0 ? "Paused" : "Healthy",
        canaryPercent: i % 11 === 0 ? null : (i * 37) % 100,
      }),
    );
    for (const sort of FLEET_SORT_KEYS) {
      for (const dir of ["asc", "desc"] as const) {
        const whole = sortRollouts(large, sort, dir).map((r) => r.key);
        for (const pageNumber of [1, 2, 17, 40]) {
          const page = buildFleetPage(large, [prod], { ...request, pageSize: 50, sort, dir, page: pageNumber }, 1);
          expect(page.rows.map((r) => r.key)).toEqual(whole.slice((pageNumber - 1) * 50, pageNumber * 50));
        }
      }
    }
  });

  it("clamps a page past the end to the last page", () => {
    const page = buildFleetPage(fleet, [prod], { ...request, page: 99 }, 1);
    expect(page.page).toBe(3);
    expect(page.rows).toHaveLength(50);
  });

  it("sends the most urgent attention entries, capped, with the full count", () => {
    const many = Array.from({ length: ATTENTION_LIMIT + 30 }, (_, i) =>
      makeSummary({ name: `p-${i}`, phase: "Paused", attention: [{ code: "AwaitingPromotion", message: "" }] }),
    );
    const degraded = makeSummary({ name: "broken", phase: "Degraded", attention: [{ code: "Degraded", message: "" }] });
    const page = buildFleetPage([...many, degraded], [prod], request, 1);
    expect(page.attention.entries).toHaveLength(ATTENTION_LIMIT);
    expect(page.attention.total).toBe(ATTENTION_LIMIT + 31);
    expect(page.attention.critical).toBe(1);
    expect(page.attention.entries[0].rollout.name).toBe("broken");
  });

  it("lists filter options from the whole fleet, not just the page", () => {
    const page = buildFleetPage(fleet, [prod], { ...request, q: "svc-7" }, 1);
    expect(page.facets.clusters).toEqual(["prod-eu", "prod-us"]);
    expect(page.facets.namespaces).toHaveLength(5);
  });
});

describe("patchFleetPage", () => {
  const page = buildFleetPage(fleet, [prod], request, 1);
  const shown = page.rows[3];
  const paused = page.attention.entries[0].rollout;

  it("replaces a shown row with its new state and leaves the others identical", () => {
    const moved = { ...shown, canaryPercent: 40 };
    const next = patchFleetPage(page, [{ type: "upsert", rollout: moved }]);
    expect(next.rows[3]).toBe(moved);
    expect(next.rows[4]).toBe(page.rows[4]);
    expect(next.attention).toBe(page.attention);
  });

  it("returns the same page when nothing it holds changed", () => {
    expect(patchFleetPage(page, [{ type: "upsert", rollout: makeSummary({ cluster: "elsewhere" }) }])).toBe(page);
  });

  it("re-derives an attention entry from the new state, and drops it once nothing needs attention", () => {
    const promoted = patchFleetPage(page, [{ type: "upsert", rollout: { ...paused, phase: "Healthy", attention: [] } }]);
    expect(promoted.attention.entries.some((e) => e.rollout.key === paused.key)).toBe(false);
    const aborted = patchFleetPage(page, [
      { type: "upsert", rollout: { ...paused, aborted: true, attention: [{ code: "Aborted", message: "manual" }] } },
    ]);
    expect(aborted.attention.entries.find((e) => e.rollout.key === paused.key)?.severity).toBe("critical");
  });

  it("drops deleted rows and applies the last of several deltas to one rollout", () => {
    const next = patchFleetPage(page, [
      { type: "upsert", rollout: { ...shown, canaryPercent: 10 } },
      { type: "upsert", rollout: { ...shown, canaryPercent: 20 } },
      { type: "delete", key: page.rows[0].key },
    ]);
    expect(next.rows).toHaveLength(99);
    expect(next.rows.find((r) => r.key === shown.key)?.canaryPercent).toBe(20);
  });

  it("replaces cluster states", () => {
    const down = { ...prod, connection: "unreachable" as const, error: "connection refused" };
    expect(patchFleetPage(page, [{ type: "cluster", cluster: down }]).clusters).toEqual([down]);
  });
});

describe("patchFleetPage keeps the queue's counts, order and cards in agreement", () => {
  const warning = (name: string) =>
    makeSummary({
      name,
      phase: "Paused",
      attention: [{ code: "AwaitingPromotion", message: "paused at step 2" }],
      lastChangedAt: "2026-08-18T08:00:00Z",
    });
  const abort = (r: RolloutSummary): RolloutSummary => ({
    ...r,
    phase: "Degraded",
    aborted: true,
    attention: [{ code: "Aborted", message: "aborted by alice" }],
    lastChangedAt: "2026-08-18T10:00:00Z",
  });
  const healthy = (r: RolloutSummary): RolloutSummary => ({ ...r, phase: "Healthy", attention: [] });
  /** What a person reads (counts, critical count, cards in order), beside the same read from a page the server builds now. */
  const readBoth = (patched: FleetPage, all: RolloutSummary[], view = request) => {
    const read = (p: FleetPage) => ({
      total: p.attention.total,
      critical: p.attention.critical,
      keys: p.attention.entries.map((e) => e.rollout.key),
      counts: p.counts,
      base: p.base,
      all: p.total,
    });
    return { patched: read(patched), rebuilt: read(buildFleetPage(all, [prod], view, 1)) };
  };

  it("a fresh abort of a rollout the truncated queue did not show jumps to the top, and everything is recounted", () => {
    const before = [...Array.from({ length: ATTENTION_LIMIT + 10 }, (_, i) => warning(`w-${i}`)), makeSummary({ name: "quiet" })];
    const page = buildFleetPage(before, [prod], request, 1);
    const tail = before[ATTENTION_LIMIT + 5];
    expect(page.attention.entries.some((e) => e.rollout.key === tail.key)).toBe(false);
    const aborted = abort(tail);
    const next = patchFleetPage(page, [{ type: "upsert", rollout: aborted, was: { phase: "Paused", attention: "warning" } }]);
    expect(next.attention.entries[0].rollout.key).toBe(tail.key);
    expect(next.attention.critical).toBe(1);
    const { patched, rebuilt } = readBoth(
      next,
      before.map((r) => (r.key === tail.key ? aborted : r)),
    );
    expect(patched).toEqual(rebuilt);
  });

  it("re-sorts entries it holds: a warning that turns critical moves ahead of the warnings", () => {
    const all = [warning("a"), warning("b"), warning("c")];
    const page = buildFleetPage(all, [prod], request, 1);
    const next = patchFleetPage(page, [{ type: "upsert", rollout: abort(all[2]), was: { phase: "Paused", attention: "warning" } }]);
    expect(next.attention.entries.map((e) => e.rollout.name)).toEqual(["c", "a", "b"]);
    expect(next.attention.critical).toBe(1);
  });

  it("rollouts that leave, join or vanish change the count as much as the cards, over many updates", () => {
    const all = [...Array.from({ length: 17 }, (_, i) => warning(`w-${i}`)), makeSummary({ name: "quiet" })];
    let page = buildFleetPage(all, [prod], request, 1);
    // Twelve get promoted, one new rollout arrives paused, one is deleted, the quiet one aborts.
    const deltas: LiveDelta[] = [
      ...all
        .slice(0, 12)
        .map((r) => ({ type: "upsert" as const, rollout: healthy(r), was: { phase: "Paused" as const, attention: "warning" as const } })),
      { type: "upsert", rollout: warning("new-one"), was: null },
      { type: "delete", key: all[12].key, was: { phase: "Paused", attention: "warning" } },
      { type: "upsert", rollout: abort(all[17]), was: { phase: "Healthy", attention: null } },
    ];
    for (const delta of deltas) page = patchFleetPage(page, [delta]);
    expect(page.attention.total).toBe(page.attention.entries.length);
    const { patched, rebuilt } = readBoth(page, [
      ...all.slice(0, 12).map(healthy),
      ...all.slice(13, 17),
      abort(all[17]),
      warning("new-one"),
    ]);
    expect(patched).toEqual(rebuilt);
  });

  it("takes in only rollouts that match the page's filters", () => {
    const page = buildFleetPage([warning("a")], [prod], { ...request, cluster: "prod" }, 1);
    const elsewhere = abort(makeSummary({ cluster: "staging", name: "x" }));
    const next = patchFleetPage(page, [{ type: "upsert", rollout: elsewhere, was: null }]);
    expect(next.attention.entries.map((e) => e.rollout.name)).toEqual(["a"]);
    expect(next.attention.total).toBe(1);
    expect(next.total).toBe(page.total + 1);
  });
});

describe("FleetPageQuery", () => {
  it("reads the overview URL's own parameters", () => {
    expect(parseFleetPageQuery(new URLSearchParams("q=pay&ns=shop&phase=Paused&sort=weight&dir=desc&page=3"))).toEqual({
      ...request,
      q: "pay",
      namespace: "shop",
      phase: "Paused",
      sort: "weight",
      dir: "desc",
      page: 3,
    });
  });

  it("refuses values it does not know instead of ignoring them", () => {
    for (const bad of ["sort=color", "phase=Sleeping", "page=0", "pageSize=5000", "namespace=shop"]) {
      expect(FleetPageQuery.safeParse(Object.fromEntries(new URLSearchParams(bad))).success, bad).toBe(false);
    }
  });
});
