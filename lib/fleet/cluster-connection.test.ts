import { describe, expect, it } from "vitest";
import type { WatchState } from "@/lib/k8s/resource-watch";
import { summarizeClusterConnection } from "./cluster-connection";

const KINDS = ["rollouts", "events", "controllerPods"] as const;
type Kind = (typeof KINDS)[number];
const NOW = "2026-01-01T00:10:00.000Z";

const connected = (since: string): WatchState => ({ status: "connected", since });
const summarize = (states: Partial<Record<Kind, WatchState>>) =>
  summarizeClusterConnection(KINDS, new Map(Object.entries(states) as Array<[Kind, WatchState]>), NOW);

describe("summarizeClusterConnection", () => {
  it("reads connected only when every watch is, since the last one connected", () => {
    expect(
      summarize({
        rollouts: connected("2026-01-01T00:00:01Z"),
        events: connected("2026-01-01T00:00:03Z"),
        controllerPods: connected("2026-01-01T00:00:02Z"),
      }),
    ).toEqual({ connection: "connected", since: "2026-01-01T00:00:03Z", error: null });
  });

  it("is not connected while the Rollouts watch is but another watch is refused, and names that watch", () => {
    const summary = summarize({
      rollouts: connected("2026-01-01T00:00:01Z"),
      events: connected("2026-01-01T00:00:01Z"),
      controllerPods: {
        status: "forbidden",
        since: "2026-01-01T00:00:02Z",
        error: 'pods is forbidden: User "rollscope" cannot list resource "pods"',
      },
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

  it("takes the worst state since the first watch entered it, with the main watch's error when it is among the worst", () => {
    const down = (since: string, error = "cluster unreachable: connect ECONNREFUSED"): WatchState => ({
      status: "unreachable",
      since,
      error,
      attempt: 3,
    });
    const reconnecting: WatchState = { status: "reconnecting", since: NOW, error: "HTTP 500", attempt: 1 };
    expect(
      summarize({
        rollouts: down("2026-01-01T00:00:05Z"),
        events: down("2026-01-01T00:00:04Z", "events down"),
        controllerPods: reconnecting,
      }),
    ).toEqual({
      connection: "unreachable",
      since: "2026-01-01T00:00:04Z",
      error: "cluster unreachable: connect ECONNREFUSED",
    });
    expect(
      summarize({
        rollouts: reconnecting,
        events: down("2026-01-01T00:00:05Z"),
        controllerPods: down("2026-01-01T00:00:04Z", "pods down"),
      }),
    ).toEqual({
      connection: "unreachable",
      since: "2026-01-01T00:00:04Z",
      error: "controllerPods: pods down",
    });
  });
});
