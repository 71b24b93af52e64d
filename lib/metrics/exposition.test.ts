import { describe, expect, it } from "vitest";
import { ExpositionError, parseSeriesLabels, readExpositionSamples } from "./exposition";

/** Every wanted sample with its labels read. */
const parseExposition = (text: string, families: ReadonlySet<string>) =>
  readExpositionSamples(text, families).map(({ metric, series, value }) => ({ metric, labels: parseSeriesLabels(series), value }));

const CONTROLLER_TEXT = `# HELP go_gc_duration_seconds A summary of the pause duration of garbage collection cycles.
# TYPE go_gc_duration_seconds summary
go_gc_duration_seconds{quantile="0"} NaN
go_gc_duration_seconds_sum 0
go_gc_duration_seconds_count 0
# HELP rollout_events_total Count of rollout events
# TYPE rollout_events_total counter
rollout_events_total{name="web",namespace="shop",reason="TrafficWeightUpdated",type="Normal"} 4
rollout_events_total{name="web",namespace="shop",reason="TrafficRoutingError",type="Warning"} 2
# HELP rollout_reconcile Rollout reconciliation performance.
# TYPE rollout_reconcile histogram
rollout_reconcile_bucket{name="web",namespace="shop",le="0.01"} 3
rollout_reconcile_bucket{name="web",namespace="shop",le="0.15"} 5
rollout_reconcile_bucket{name="web",namespace="shop",le="+Inf"} 6
rollout_reconcile_sum{name="web",namespace="shop"} 0.91
rollout_reconcile_count{name="web",namespace="shop"} 6
rollout_reconcile_bucket{name="api",namespace="shop",le="0.01"} 1
rollout_reconcile_bucket{name="api",namespace="shop",le="0.15"} 1
rollout_reconcile_bucket{name="api",namespace="shop",le="+Inf"} 1
rollout_reconcile_sum{name="api",namespace="shop"} 0.002
rollout_reconcile_count{name="api",namespace="shop"} 1
# HELP rollout_reconcile_error Error occurring during the rollout
# TYPE rollout_reconcile_error counter
rollout_reconcile_error{name="web",namespace="shop"} 2
`;

describe("parseExposition", () => {
  it("keeps wanted counters and flattens labelled histograms per series", () => {
    const samples = parseExposition(CONTROLLER_TEXT, new Set(["rollout_events_total", "rollout_reconcile", "rollout_reconcile_error"]));
    expect(samples.filter((s) => s.metric === "rollout_events_total")).toEqual([
      {
        metric: "rollout_events_total",
        labels: { name: "web", namespace: "shop", reason: "TrafficWeightUpdated", type: "Normal" },
        value: 4,
      },
      {
        metric: "rollout_events_total",
        labels: { name: "web", namespace: "shop", reason: "TrafficRoutingError", type: "Warning" },
        value: 2,
      },
    ]);
    const webBuckets = samples.filter((s) => s.metric === "rollout_reconcile_bucket" && s.labels.name === "web");
    expect(webBuckets.map((s) => [s.labels.le, s.value])).toEqual([
      ["0.01", 3],
      ["0.15", 5],
      ["+Inf", 6],
    ]);
    expect(samples.find((s) => s.metric === "rollout_reconcile_count" && s.labels.name === "api")?.value).toBe(1);
    expect(samples.find((s) => s.metric === "rollout_reconcile_error")?.value).toBe(2);
  });

  it("ignores families it was not asked for, even ones the parser would reject (NaN)", () => {
    const samples = parseExposition(CONTROLLER_TEXT, new Set(["rollout_reconcile_error"]));
    expect(samples).toEqual([{ metric: "rollout_reconcile_error", labels: { name: "web", namespace: "shop" }, value: 2 }]);
  });

  it("unescapes label values", () => {
    const text = 'x_total{msg="a \\"quoted\\" value"} 1\n';
    const samples = parseExposition(text, new Set(["x_total"]));
    expect(samples[0].labels.msg).toBe('a "quoted" value');
  });

  it("reads escapes, braces and spaces inside label values, trailing commas, timestamps and CRLF lines", () => {
    const text = [
      String.raw`x_total{path="C:\\tmp",note="line\nnext",odd="a } b, c=\"d\"",} 7 1700000000000` + "\r",
      "x_total 3\r",
      "x_total{} +Inf",
      "",
    ].join("\n");
    const samples = parseExposition(text, new Set(["x_total"]));
    expect(samples).toEqual([
      { metric: "x_total", labels: { path: "C:\\tmp", note: "line\nnext", odd: 'a } b, c="d"' }, value: 7 },
      { metric: "x_total", labels: {}, value: 3 },
      { metric: "x_total", labels: {}, value: Infinity },
    ]);
  });

  it("keeps the series text as written, so the scraper can tell series apart without reading labels", () => {
    const samples = readExpositionSamples(CONTROLLER_TEXT, new Set(["rollout_reconcile"]));
    expect(samples.map((s) => s.series)).toContain('rollout_reconcile_bucket{name="api",namespace="shop",le="+Inf"}');
    expect(samples).toHaveLength(10);
    expect(parseSeriesLabels('rollout_reconcile_bucket{name="api",namespace="shop",le="+Inf"}')).toEqual({
      name: "api",
      namespace: "shop",
      le: "+Inf",
    });
  });

  it("leaves out summary families even when asked for", () => {
    expect(parseExposition(CONTROLLER_TEXT, new Set(["go_gc_duration_seconds"]))).toEqual([]);
  });

  it("fails the scrape on a malformed line of a wanted family, naming the line", () => {
    expect(() => readExpositionSamples('x_total 1\nx_total{a="b" 2\n', new Set(["x_total"]))).toThrow(ExpositionError);
    expect(() => readExpositionSamples('x_total 1\nx_total{a="b" 2\n', new Set(["x_total"]))).toThrow(
      /line 2: labels without a closing brace/,
    );
    expect(() => readExpositionSamples("x_total one\n", new Set(["x_total"]))).toThrow(/line 1: value "one" is not a number/);
    expect(() => readExpositionSamples("x_total\n", new Set(["x_total"]))).toThrow(/no space before the value/);
    expect(readExpositionSamples('y_total{a="b" 2\n', new Set(["x_total"]))).toEqual([]);
  });

  it("takes a label named __proto__ as a label", () => {
    const labels = parseSeriesLabels('x{__proto__="p",a="1"}');
    expect(Object.keys(labels)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
  });
});
