import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatAuditAfter, formatAuditBefore } from "@/lib/audit/format-state";
import { buildFleetRollout } from "@/lib/fleet/cluster-watcher";
import { toRolloutSummary } from "@/lib/overview/rollout-summary";
import { buildAttentionQueue } from "@/lib/overview/attention";
import { deriveRolloutInfo } from "@/lib/rollouts/rollout-info";
import { FIXTURE_NOW, readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { parseRollout } from "@/lib/rollouts/schema";
import { formatStepPosition } from "@/lib/rollouts/step-position";
import { toRolloutView } from "@/lib/rollouts/view-model";
import { AttentionQueue } from "./attention-queue";
import { CliSummary } from "./replica-sets";
import { StepCell } from "./step-cell";
import { StepsList } from "./steps-list";

/** The rendered text of one element with a data-testid, tags dropped. */
function textOf(html: string, testId: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<(\\w+)[^>]*data-testid="${testId}"[^>]*>(.*?)</\\1>`, "g");
  for (const match of html.matchAll(re)) out.push(match[2].replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'"));
  return out;
}

function render(element: ReactElement): string {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));
}

/** The real fixture of a canary paused indefinitely (8 steps), moved to each step in turn. */
function atStep(index: number) {
  const raw = structuredClone(readRolloutFixture("indefinite-pause")) as { status: Record<string, unknown> };
  raw.status.currentStepIndex = index;
  return raw;
}

describe("one step position on every screen", () => {
  const total = 8;
  for (let index = 0; index <= total; index++) {
    it(`currentStepIndex ${index}: queue, table, detail header, steps list, revisions card and audit say the same`, () => {
      const fleetRollout = buildFleetRollout("prod", atStep(index), FIXTURE_NOW);
      const resource = parseRollout(atStep(index));
      if (!resource.ok) throw new Error(resource.error);
      const view = toRolloutView(resource.rollout, FIXTURE_NOW);
      const summary = toRolloutSummary(fleetRollout);
      const expected = index < total ? `step ${index + 1} of ${total}` : `all ${total} steps done`;
      expect(formatStepPosition({ index, total })).toBe(expected);

      // Overview table.
      expect(textOf(render(createElement(StepCell, { step: summary.step })), "step")).toEqual([expected]);
      // Needs-attention queue (the fixture is paused, so it is queued at every step it can pause on).
      const entries = buildAttentionQueue([summary]);
      if (entries.length > 0) {
        const html = render(createElement(AttentionQueue, { entries, count: entries.length, critical: 0, total: 1 }));
        expect(textOf(html, "queue-step")).toEqual([expected]);
      }
      // Steps list: the current item, marked current, says the same (none is current once all are done).
      const list = render(createElement(StepsList, { steps: view.steps, paused: false }));
      expect(textOf(list, "current-step-position")).toEqual(index < total ? [expected] : []);
      // Revisions card: the same, with the CLI's 0-based index named as such.
      const info = deriveRolloutInfo(resource.rollout, [], []);
      const cli = render(createElement(CliSummary, { info, maxTrafficWeight: 100 }));
      expect(textOf(cli, "cli-step")).toEqual([`${expected} · kubectl index ${index}`]);
      // Audit: the state before an action and right after it.
      const before = {
        revision: 2,
        stepIndex: index,
        totalSteps: total,
        phase: "Paused",
        requestedPercent: null,
        canaryPercent: null,
        stablePercent: null,
        resourceVersion: null,
      };
      expect(formatAuditBefore(before)).toContain(expected);
      const after = {
        phase: "Progressing",
        stepIndex: index,
        paused: false,
        aborted: false,
        requestedPercent: null,
        canaryPercent: null,
        resourceVersion: null,
      };
      expect(formatAuditAfter(after, total)).toContain(expected);
      // The pause reason in the queue and on the detail page.
      if (index < total)
        for (const reason of view.attention.filter((a) => a.code === "AwaitingPromotion")) expect(reason.message).toContain(expected);
    });
  }
});
