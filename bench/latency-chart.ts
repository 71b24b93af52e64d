import { cdfPoints, niceTicks, renderChart, staircase, type Series } from "./svg-chart";

export interface LatencySamples {
  /** write → bare client-node watch (the floor). */
  floor: readonly number[];
  sse: readonly number[];
  dom: readonly number[];
}

/**
 * The x axis ends at the slowest series' 99th percentile (rounded up), so the tail does not squash the rest; every
 * other tick is labelled when there are many, the last one always.
 */
function xTicks(samples: LatencySamples): number[] {
  const p99s = [samples.floor, samples.sse, samples.dom]
    .filter((s) => s.length > 0)
    .map((s) => [...s].sort((a, b) => a - b)[Math.max(0, Math.ceil(s.length * 0.99) - 1)]);
  const top = Math.max(10, ...p99s);
  const ticks = niceTicks(0, top, 8);
  return ticks.length > 6 ? ticks.filter((_, i) => i % 2 === (ticks.length - 1) % 2) : ticks;
}

function series(name: string, values: readonly number[]): Series {
  return { name: `${name} (n=${values.length})`, points: staircase(cdfPoints(values)) };
}

/** One chart: the CDF of write → raw watch, write → SSE and write → DOM latencies of one run. */
export function latencyCdfChart(samples: LatencySamples, caption: string): string {
  const ticks = xTicks(samples);
  const max = ticks.at(-1)!;
  return renderChart({
    title: "Latency after a controller's status write: share of samples at or below",
    caption,
    columns: 1,
    legend: true,
    panelSize: { width: 900, height: 420 },
    panels: [
      {
        title: `CDF, up to ${max} ms (slower samples beyond the right edge)`,
        x: { label: "latency (ms)", min: 0, max, ticks, format: (v) => `${v} ms` },
        y: {
          label: "share of samples at or below",
          min: 0,
          max: 1,
          ticks: [0, 0.25, 0.5, 0.75, 0.9, 1],
          format: (v) => `${Math.round(v * 100)} %`,
        },
        series: [
          series("write → raw watch (floor)", samples.floor),
          series("write → SSE", samples.sse),
          series("write → DOM", samples.dom),
        ],
      },
    ],
  });
}
