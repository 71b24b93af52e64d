import { describe, expect, it } from "vitest";
import type { WatchState } from "@/lib/k8s/resource-watch";
import { summarizeClusterConnection } from "./cluster-connection";

const KINDS = ["rollouts", "events", "controllerPods"] as const;
type Kind = (typeof KINDS)[number];
const NOW = "2026-01-01T00:10:00.000Z";

const connected = (since: string): WatchState => ({ status: "connected", since });
const summarize = (states: Partial<Record<Kind, WatchState>>) => summarizeClusterConnection(KINDS, new Map(Object.entries(states) as Array<[Kind, WatchState]>), NOW);

describe("summarizeClusterConnection", () => {
  it("reads connected only when every watch is, since the last one connected", () => {
    expect(
      summarize({ rollouts: connected("2026-01-01T00:00:01Z"), events: connected("2026-01-01T00:00:03Z"), controllerPods: connected("2026-01-01T00:00:02Z") }),
    ).toEqual({ connection: "connected", since: "2026-01-01T00:00:03Z", error: null });
  });

  it("is not connected while the Rollouts watch is but another watch is refused, and names that watch", () => {
    const summary = summarize({
      rollouts: connected("2026-01-01T00:00:01Z"),
      events: connected("2026-01-01T00:00:01Z"),
      controllerPods: { status: "forbidden", since: "2026-01-01T00:00:02Z", error: 'pods is forbidden: User "rollscope" cannot list resource "pods"' },
    });
    expect(summary).toEqual({
      connection: "forbidden",
      since: "2026-01-01T00:00:02Z",
      error: 'controllerPods: pods is forbidden: User "rollscope" cannot list resource "pods"',
    });
  });

  it("counts a watch that has not reported yet as connecting", () => {
    expect(summarize({ rollouts: connected("2026-01-01T00:00:01Z"), events: connected("2026-01-01T00:00:01Z") })).toEqual({
      connection: "connecting",
      since: NOW,
      error: null,
    });
  });

  it("takes the worst state, from the watch that entered it first, and shows the main watch's error unprefixed", () => {
    const down = (since: string): WatchState => ({ status: "unreachable", since, error: "cluster unreachable: connect ECONNREFUSED", attempt: 3 });
    expect(summarize({ rollouts: down("2026-01-01T00:00:05Z"), events: down("2026-01-01T00:00:04Z"), controllerPods: { status: "reconnecting", since: NOW, error: "HTTP 500", attempt: 1 } })).toEqual({
      connection: "unreachable",
      since: "2026-01-01T00:00:04Z",
      error: "events: cluster unreachable: connect ECONNREFUSED",
    });
    expect(summarize({ rollouts: down("2026-01-01T00:00:04Z"), events: down("2026-01-01T00:00:04Z"), controllerPods: down("2026-01-01T00:00:04Z") }).error).toBe(
      "cluster unreachable: connect ECONNREFUSED",
    );
  });
});
