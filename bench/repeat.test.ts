import { describe, expect, it } from "vitest";
import { childArgs, median, metByWorst, parseRepeat, repeatTable, summarizeFigure, summarizeRuns, worst } from "./repeat";
import { FIGURES, numberAt, type Figure, type RunResult } from "./targets";

const figure = (measure: string) => FIGURES.find((f) => f.measure === measure)!;
const overviewDom = figure("Write → DOM p95, overview");
const storedPerSecond = figure("Recorder: transitions stored per second");
const run = (domP95: number | null, floorP95 = 20): RunResult => ({
  domLat: { n: 300, p50: 30, p95: domP95, p99: 400 },
  floorLat: { n: 300, p50: 5, p95: floorP95, p99: 30 },
  recorder: { storedPerSecond: 800, drainSeconds: 2 },
});

describe("median and worst", () => {
  it("takes the middle run, or the mean of the middle two, of the runs that took the figure", () => {
    expect(median([52, 41, 45])).toBe(45);
    expect(median([41, 45, 52, 60])).toBe(48.5);
    expect(median([41, Number.NaN, 45])).toBe(43);
    expect(median([Number.NaN])).toBeNaN();
  });

  it("is the highest of a lower-is-better figure and the lowest of a higher-is-better one", () => {
    expect(worst([41, 52, 45], "lower")).toBe(52);
    expect(worst([900, 700, 800], "higher")).toBe(700);
  });

  it("is unknown when any run did not take the figure: a failed run is worse than any number", () => {
    expect(worst([41, Number.NaN, 45], "lower")).toBeNaN();
    expect(worst([900, Number.NaN], "higher")).toBeNaN();
  });
});

describe("met only when the worst run meets the target", () => {
  it("compares the worst run with the limit in the figure's direction, the limit itself included", () => {
    expect(metByWorst({ limit: 150, better: "lower" }, 150)).toBe(true);
    expect(metByWorst({ limit: 150, better: "lower" }, 151)).toBe(false);
    expect(metByWorst({ limit: 500, better: "higher" }, 499)).toBe(false);
    expect(metByWorst({ limit: 500, better: "higher" }, 500)).toBe(true);
    expect(metByWorst({ limit: 150, better: "lower" }, Number.NaN)).toBe(false);
    expect(metByWorst({ better: "lower" }, 10_000)).toBeNull();
  });

  it("misses a target whose median meets it when one run does not", () => {
    const s = summarizeFigure(overviewDom, [run(120), run(140), run(180)])!;
    expect(s).toMatchObject({ values: [120, 140, 180], median: 140, worst: 180, target: "≤ 150 ms", met: false });
    expect(summarizeFigure(overviewDom, [run(120), run(150), run(90)])).toMatchObject({ worst: 150, met: true });
  });

  it("takes the lowest run as the worst of a higher-is-better figure", () => {
    const results = [900, 700, 800].map((storedPerSecond) => ({ recorder: { storedPerSecond } }));
    expect(summarizeFigure(storedPerSecond, results)).toMatchObject({ median: 800, worst: 700, met: null });
    const higherWithLimit: Figure = { ...storedPerSecond, limit: 750 };
    expect(summarizeFigure(higherWithLimit, results)?.met).toBe(false);
  });

  it("counts a run that wrote no results, or a measurement that failed (null in its JSON), as missing the target", () => {
    expect(summarizeFigure(overviewDom, [run(100), undefined, run(110)])).toMatchObject({ median: 105, met: false });
    expect(summarizeFigure(overviewDom, [run(100), run(null)])).toMatchObject({ values: [100, Number.NaN], met: false });
  });

  it("derives the overhead over the floor per run before taking the worst", () => {
    const overhead = figure("Live overhead over the floor (DOM p95 − bare watch p95)");
    // The worst overhead is run 2's (130 − 10), not the worst DOM p95 minus the worst floor p95 (140 − 60).
    expect(summarizeFigure(overhead, [run(140, 60), run(130, 10)])).toMatchObject({ values: [80, 120], worst: 120, met: false });
  });

  it("leaves out the figures no run took (another part of the bench)", () => {
    const measures = summarizeRuns([{ pluginHealth: { n: 10, p50: 20, p95: 40, p99: 50, errors: 0 }, pluginHealthComputeMs: 900 }]).map(
      (s) => s.measure,
    );
    expect(measures).toEqual([
      "Plugin health p95, 5 clients",
      "Plugin health: computing the report (computeMs)",
      "Plugin health: failed requests",
    ]);
  });
});

describe("repeatTable", () => {
  it("shows the target, median, worst, every run in order and the worst run's verdict", () => {
    const table = repeatTable(summarizeRuns([run(41), run(52), run(45)]));
    const row = table.split("\n").find((l) => l.startsWith("| Write → DOM p95, overview "))!;
    expect(row.split("|").map((c) => c.trim())).toEqual([
      "",
      "Write → DOM p95, overview",
      "≤ 150 ms",
      "45 ms",
      "52 ms",
      "41 / 52 / 45 ms",
      "met",
      "",
    ]);
    expect(table.split("\n")[0]).toContain("Met (worst of 3)");
    expect(repeatTable(summarizeRuns([run(41), run(152)]))).toMatch(/\| Write → DOM p95, overview .*\| MISSED +\|/);
  });

  it("writes a miss that rounds to the limit with the digits that show it, and a met limit as it is", () => {
    const cells = (values: number[]) =>
      repeatTable(summarizeRuns(values.map((v) => run(v))))
        .split("\n")
        .find((l) => l.startsWith("| Write → DOM p95, overview "))!
        .split("|")
        .map((c) => c.trim());
    expect(cells([150.4, 90, 149.6])).toEqual([
      "",
      "Write → DOM p95, overview",
      "≤ 150 ms",
      "150 ms",
      "150.4 ms",
      "150.4 / 90 / 150 ms",
      "MISSED",
      "",
    ]);
    expect(cells([150, 90, 80])).toEqual(["", "Write → DOM p95, overview", "≤ 150 ms", "90 ms", "150 ms", "150 / 90 / 80 ms", "met", ""]);
  });
});

describe("numberAt", () => {
  it("tells a figure not taken (undefined) from one that failed (NaN, written as null)", () => {
    expect(numberAt({ firstLoad: { firstRowMs: 812 } }, "firstLoad", "firstRowMs")).toBe(812);
    expect(numberAt({ firstLoad: { firstRowMs: null } }, "firstLoad", "firstRowMs")).toBeNaN();
    expect(numberAt({}, "firstLoad", "firstRowMs")).toBeUndefined();
  });
});

describe("childArgs", () => {
  it("passes every option but --repeat and --out on, and gives each run its place and its own results file", () => {
    const argv = ["--only", "plugin-health", "--repeat", "3", "--churn-seconds", "60", "--out", "all.json", "--allow-busy"];
    expect(childArgs(argv, 2, 3, "/tmp/r/run-2.json")).toEqual([
      "--only",
      "plugin-health",
      "--churn-seconds",
      "60",
      "--allow-busy",
      "--run-of",
      "2/3",
      "--out",
      "/tmp/r/run-2.json",
    ]);
    expect(childArgs(["--short", "--repeat=2", "--out=x.json"], 1, 2, "r.json")).toEqual(["--short", "--run-of", "1/2", "--out", "r.json"]);
  });
});

describe("parseRepeat", () => {
  it("takes a whole number of runs of at least 1", () => {
    expect(parseRepeat("3")).toBe(3);
    for (const bad of ["0", "-1", "1.5", "three", ""]) expect(() => parseRepeat(bad)).toThrow(/--repeat/);
  });
});
