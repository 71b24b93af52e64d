import { describe, expect, it } from "vitest";
import { latencyCdfChart } from "./latency-chart";

describe("latencyCdfChart", () => {
  const samples = {
    floor: Array.from({ length: 100 }, (_, i) => i % 20),
    sse: Array.from({ length: 100 }, (_, i) => 5 + (i % 40)),
    dom: Array.from({ length: 100 }, (_, i) => 10 + i),
  };

  it("draws the floor, write → SSE and write → DOM in one chart, named with their sample counts", () => {
    const svg = latencyCdfChart(samples, "5000 Rollouts");
    const series = [...svg.matchAll(/<polyline data-series="([^"]*)"/g)].map((m) => m[1]);
    expect(series).toEqual(["write → raw watch (floor) (n=100)", "write → SSE (n=100)", "write → DOM (n=100)"]);
    expect(svg).toContain(">5000 Rollouts</text>");
    expect(svg).toContain(">latency (ms)</text>");
  });

  it("ends the x axis at a round number at or above the slowest series' p99, so the faster curves stay readable", () => {
    const svg = latencyCdfChart(samples, "");
    // DOM p99 is 108 ms: the axis runs to 120 ms.
    expect(svg).toContain(">120 ms</text>");
    expect(svg).not.toContain(">140 ms</text>");
  });

  it("leaves a series with no samples out of the drawing but keeps it in the legend", () => {
    const svg = latencyCdfChart({ ...samples, dom: [] }, "");
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain("write → DOM (n=0)");
  });
});
