import { describe, expect, it } from "vitest";
import { parseAnalysisRun } from "./analysis-run-schema";
import { parseKubeEvent } from "./event-schema";
import { listRolloutFixtureNames, loadRolloutFixture, readRolloutFixture } from "./fixtures.test-helper";
import { parseRollout } from "./schema";

describe("parseRollout", () => {
  it.each(listRolloutFixtureNames())("parses fixture %s", (name) => {
    const result = parseRollout(readRolloutFixture(name));
    expect(result.ok ? "ok" : result.error).toBe("ok");
  });

  it("ships all the fixtures the view model is tested against", () => {
    expect(listRolloutFixtureNames()).toEqual(
      expect.arrayContaining([
        "aborted",
        "analysis-running",
        "blue-green",
        "fully-promoted",
        "generation-mismatch",
        "inconclusive-analysis",
        "indefinite-pause",
        "max-traffic-weight-1000",
        "no-status",
        "plugin-and-builtin-router",
        "timed-pause",
        "unknown-future-fields",
        "unpause-pending",
      ]),
    );
  });

  it("accepts a Rollout with no status", () => {
    const rollout = loadRolloutFixture("no-status");
    expect(rollout.status).toBeUndefined();
    expect(rollout.metadata.name).toBe("checkout");
  });

  it("accepts the bare minimum: a name", () => {
    expect(parseRollout({ metadata: { name: "x" } }).ok).toBe(true);
  });

  it("keeps unknown spec, status, step and weight fields", () => {
    const rollout = loadRolloutFixture("unknown-future-fields");
    expect(rollout.spec?.futureRolloutKnob).toEqual({ enabled: true });
    expect(rollout.spec?.strategy?.canary?.shadowTraffic).toEqual({ percent: 5 });
    expect(rollout.spec?.strategy?.canary?.trafficRouting?.meshV2).toEqual({ name: "recs" });
    expect(rollout.spec?.strategy?.canary?.steps?.[1]).toEqual({ setTrafficPolicy: { retries: 3, timeout: "2s" } });
    expect(rollout.status?.futureStatusField).toEqual({ nested: [1, 2, 3] });
    expect(rollout.status?.duration?.rolloutStartedAt).toBe("2026-08-18T09:00:00Z");
    expect(rollout.status?.canary?.weights?.canary.measuredWeight).toBe(24.7);
    expect(rollout.metadata.finalizers).toEqual(["example.com/audit"]);
  });

  it("keeps plugin config as opaque JSON", () => {
    const rollout = loadRolloutFixture("plugin-and-builtin-router");
    expect(rollout.spec?.strategy?.canary?.trafficRouting?.plugins?.["argoproj-labs/contour"]).toEqual({
      httpProxies: ["storefront"],
    });
  });

  it("reports a missing name with its path", () => {
    const result = parseRollout({ metadata: { namespace: "shop" } });
    expect(result).toEqual({ ok: false, error: expect.stringContaining("metadata.name") });
  });

  it("reports a mistyped step with an indexed path", () => {
    const raw = readRolloutFixture("indefinite-pause") as { spec: { strategy: { canary: { steps: object[] } } } };
    raw.spec.strategy.canary.steps[3] = { setWeight: "thirty" };
    const result = parseRollout(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^spec\.strategy\.canary\.steps\[3\]\.setWeight: /);
  });

  it("rejects non-objects at the root", () => {
    expect(parseRollout("checkout")).toEqual({ ok: false, error: expect.stringMatching(/^\(root\): /) });
  });

  it("normalises a numeric observedGeneration to a string", () => {
    const result = parseRollout({ metadata: { name: "x", generation: 2 }, status: { observedGeneration: 2 } });
    expect(result.ok && result.rollout.status?.observedGeneration).toBe("2");
  });
});

describe("parseAnalysisRun", () => {
  it("parses metric results and measurements, keeping unknown fields", () => {
    const result = parseAnalysisRun({
      apiVersion: "argoproj.io/v1alpha1",
      kind: "AnalysisRun",
      metadata: { name: "checkout-6c9f8b7d5d-3-4", namespace: "shop" },
      spec: { metrics: [{ name: "success-rate", provider: { prometheus: { query: "sum(x)" } } }] },
      status: {
        phase: "Inconclusive",
        message: 'Metric "success-rate" assessed Inconclusive',
        metricResults: [
          {
            name: "success-rate",
            phase: "Inconclusive",
            count: 3,
            successful: 2,
            inconclusive: 1,
            measurements: [
              {
                value: "[0.97]",
                phase: "Successful",
                startedAt: "2026-08-18T09:38:40Z",
                finishedAt: "2026-08-18T09:38:40Z",
              },
              { value: "[0.93]", phase: "Inconclusive", startedAt: "2026-08-18T09:39:40Z" },
            ],
          },
        ],
        runSummary: { count: 1, inconclusive: 1 },
      },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.analysisRun.status?.metricResults?.[0].measurements?.[1].value).toBe("[0.93]");
    expect(result.analysisRun.status?.runSummary).toEqual({ count: 1, inconclusive: 1 });
  });

  it("reports a measurement without phase", () => {
    const result = parseAnalysisRun({
      metadata: { name: "r" },
      status: { metricResults: [{ name: "m", phase: "Running", measurements: [{ value: "1" }] }] },
    });
    const error = expect.stringContaining("status.metricResults[0].measurements[0].phase");
    expect(result).toEqual({ ok: false, error });
  });
});

describe("parseKubeEvent", () => {
  it("accepts a core Event with a null eventTime", () => {
    const result = parseKubeEvent({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "checkout.17c9a1b2c3d4e5f6", namespace: "shop" },
      involvedObject: { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", name: "checkout", namespace: "shop" },
      reason: "WeightVerifyError",
      message: "Failed to verify weight: ...",
      type: "Warning",
      count: 4,
      firstTimestamp: "2026-08-18T09:40:00Z",
      lastTimestamp: "2026-08-18T09:44:00Z",
      eventTime: null,
      source: { component: "rollouts-controller" },
    });
    expect(result.ok && result.event.eventTime).toBeNull();
    expect(result.ok && result.event.count).toBe(4);
  });

  it("requires involvedObject", () => {
    expect(parseKubeEvent({ reason: "X" })).toEqual({ ok: false, error: expect.stringContaining("involvedObject") });
  });
});
