import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuditTable } from "@/components/audit/audit-table";
import { ActivityList } from "@/components/activity/activity-list";
import { AnalysisRuns } from "@/components/rollouts/analysis-runs";
import { ConditionsList } from "@/components/rollouts/conditions-list";
import { EventList } from "@/components/rollouts/event-list";
import { PhaseBadge } from "@/components/rollouts/phase-badge";
import { clipTitle } from "@/components/ui/long-text";

/** A controller message of 200 KB (a webhook's whole answer pasted into an Event): the probe of issue 30. */
const HUGE = `Error: ${"upstream answered: 503 Service Unavailable; ".repeat(4_600)}`.slice(0, 200_000);
const NOW = Date.parse("2026-12-02T10:00:00Z");

function render(element: ReactElement): string {
  const client = new QueryClient();
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));
}

describe("long messages on every page", () => {
  const cases: Array<[string, ReactElement]> = [
    [
      "an event",
      createElement(EventList, {
        events: [
          {
            uid: "e1",
            type: "Warning",
            reason: "TrafficRoutingError",
            message: HUGE,
            count: 1,
            firstAt: "2026-12-02T09:59:00Z",
            lastAt: "2026-12-02T09:59:00Z",
          },
        ],
        now: NOW,
      }),
    ],
    [
      "a condition",
      createElement(ConditionsList, {
        conditions: [
          { type: "Progressing", status: "False", reason: "RolloutAborted", message: HUGE, lastTransitionTime: null, lastUpdateTime: null },
        ],
        now: NOW,
      }),
    ],
    [
      "an analysis run",
      createElement(AnalysisRuns, {
        runs: [
          {
            name: "run-1",
            phase: "Error",
            message: HUGE,
            startedAt: null,
            podTemplateHash: null,
            revision: "2",
            kind: "step",
            metrics: [],
          },
        ],
        now: NOW,
      }),
    ],
    [
      "an audit entry",
      createElement(AuditTable, {
        entries: [
          {
            id: 1,
            at: "2026-12-02T09:59:00Z",
            user: "alice",
            groups: [],
            cluster: "prod",
            namespace: "shop",
            rollout: "checkout",
            action: "abort",
            before: null,
            after: null,
            outcome: "error",
            message: HUGE,
            requestId: "r1",
            clientAddress: null,
          },
        ],
        now: NOW,
      }),
    ],
    [
      "an activity row",
      createElement(ActivityList, {
        items: [
          {
            id: "e:1",
            at: "2026-12-02T09:59:00Z",
            cluster: "prod",
            namespace: "shop",
            rollout: "checkout",
            kind: "other",
            summary: "x",
            detail: HUGE,
            actor: null,
          },
        ],
        now: NOW,
      }),
    ],
    ["a phase badge's hover text", createElement(PhaseBadge, { phase: "Degraded", message: HUGE })],
  ];

  for (const [what, element] of cases) {
    it(`${what} shows its first few hundred characters, with "show all"`, () => {
      const html = render(element);
      expect(html.length).toBeLessThan(12_000);
      if (what !== "a phase badge's hover text") expect(html).toContain("show all (200,000 characters)");
    });
  }
});

describe("hover titles", () => {
  it("carry a message built from long Kubernetes names whole, and cut only a message of kilobytes", () => {
    const cluster = "eu-central-1-payments-platform-production-cluster-0042";
    const message = `Traffic-router plugin acme/${"unregisteredrouter".repeat(14)} is not registered in ${cluster}'s argo-rollouts-config`;
    expect(message.length).toBeGreaterThan(300);
    expect(clipTitle(message)).toBe(message);
    expect(render(createElement(PhaseBadge, { phase: "Degraded", message }))).toContain(`${cluster}&#x27;s argo-rollouts-config`);
    expect(clipTitle(HUGE).length).toBeLessThan(HUGE.length);
    expect(clipTitle(HUGE).endsWith("…")).toBe(true);
  });
});
