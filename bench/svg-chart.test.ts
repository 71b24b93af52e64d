import { describe, expect, it } from "vitest";
import { cdfPoints, escapeXml, niceTicks, renderChart, staircase, type Panel } from "./svg-chart";

/** The numbers of a polyline's `points` attribute, as pairs. */
function polylines(svg: string): Array<Array<[number, number]>> {
  return [...svg.matchAll(/<polyline[^>]* points="([^"]*)"/g)].map((m) =>
    m[1].split(" ").map((pair) => pair.split(",").map(Number) as [number, number]),
  );
}

interface Text {
  text: string;
  x: number;
  y: number;
  anchor: string;
}

function texts(svg: string): Text[] {
  return [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    anchor: m[3],
    text: m[4],
  }));
}

const textOf = (svg: string, text: string, anchor = "middle") => texts(svg).find((t) => t.text === text && t.anchor === anchor);

const panel = (over: Partial<Panel> = {}): Panel => ({
  title: "Overview API p95",
  x: { label: "Rollouts in the fleet", min: 0, ticks: [0, 1000, 5000] },
  y: { label: "ms", min: 0 },
  series: [
    {
      name: "p95",
      points: [
        { x: 1000, y: 40 },
        { x: 5000, y: 120 },
      ],
    },
  ],
  ...over,
});

describe("cdfPoints", () => {
  it("gives, for each distinct value, the share of samples at or below it, never decreasing and ending at 1", () => {
    const points = cdfPoints([30, 10, 20, 20, 50]);
    expect(points).toEqual([
      { x: 10, y: 0.2 },
      { x: 20, y: 0.6 },
      { x: 30, y: 0.8 },
      { x: 50, y: 1 },
    ]);
  });

  it("is monotone in both coordinates for any input", () => {
    const samples = Array.from({ length: 500 }, (_, i) => Math.round(Math.abs(Math.sin(i * 7.3)) * 200));
    const points = staircase(cdfPoints(samples));
    for (let i = 1; i < points.length; i++) {
      expect(points[i].x).toBeGreaterThanOrEqual(points[i - 1].x);
      expect(points[i].y).toBeGreaterThanOrEqual(points[i - 1].y);
    }
    expect(points.at(-1)).toEqual({ x: Math.max(...samples), y: 1 });
  });

  it("is empty without samples and ignores values that are not numbers", () => {
    expect(cdfPoints([])).toEqual([]);
    expect(cdfPoints([Number.NaN, 5])).toEqual([{ x: 5, y: 1 }]);
  });
});

describe("niceTicks", () => {
  it("covers the range with round steps", () => {
    expect(niceTicks(0, 87)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 2300)).toEqual([0, 500, 1000, 1500, 2000, 2500]);
  });
});

describe("renderChart", () => {
  it("labels the axes, the ticks and the title", () => {
    const svg = renderChart({ title: "Cost of the fleet", panels: [panel()] });
    for (const label of ["Cost of the fleet", "Overview API p95", "Rollouts in the fleet", "ms", "1000", "5000"]) {
      expect(textOf(svg, label), label).toBeDefined();
    }
    // y ticks: round numbers from 0 past the largest value, right-aligned left of the axis.
    expect(
      texts(svg)
        .filter((t) => t.anchor === "end")
        .map((t) => t.text),
    ).toEqual(["0", "50", "100", "150"]);
  });

  it("places points where their values are: at the x of their tick and the y of the tick with the same value", () => {
    const svg = renderChart({
      title: "t",
      panels: [
        panel({
          series: [
            {
              name: "p95",
              points: [
                { x: 1000, y: 50 },
                { x: 5000, y: 150 },
              ],
            },
          ],
        }),
      ],
    });
    const [[low, high]] = polylines(svg);
    expect(low[0]).toBeCloseTo(textOf(svg, "1000")!.x, 1);
    expect(high[0]).toBeCloseTo(textOf(svg, "5000")!.x, 1);
    // A y tick's label is drawn 4 px below its value's line, to centre it.
    expect(low[1]).toBeCloseTo(textOf(svg, "50", "end")!.y - 4, 1);
    expect(high[1]).toBeCloseTo(textOf(svg, "150", "end")!.y - 4, 1);
    expect(high[1]).toBeLessThan(low[1]);
  });

  it("writes each point's value next to it when asked", () => {
    const svg = renderChart({ title: "t", panels: [panel({ valueLabels: true })] });
    const [[low, high]] = polylines(svg);
    expect(textOf(svg, "40")).toMatchObject({ x: low[0], y: low[1] - 7 });
    expect(textOf(svg, "120")).toMatchObject({ x: high[0], y: high[1] - 7 });
  });

  it("breaks the line at a missing value instead of drawing it at 0", () => {
    const svg = renderChart({
      title: "t",
      panels: [
        panel({
          series: [
            {
              name: "p95",
              points: [
                { x: 0, y: 10 },
                { x: 1000, y: 20 },
                { x: 2000, y: Number.NaN },
                { x: 5000, y: 30 },
              ],
            },
          ],
        }),
      ],
    });
    expect(polylines(svg).map((l) => l.length)).toEqual([2, 1]);
    expect(svg).not.toContain("NaN");
  });

  it("draws one line per series with a legend entry each, and escapes text", () => {
    const svg = renderChart({
      title: "a < b & c",
      legend: true,
      panels: [
        panel({
          series: [
            {
              name: "write → SSE",
              points: [
                { x: 0, y: 0 },
                { x: 1000, y: 1 },
              ],
            },
            {
              name: "write → DOM",
              points: [
                { x: 0, y: 0 },
                { x: 5000, y: 1 },
              ],
            },
          ],
        }),
      ],
    });
    expect(polylines(svg)).toHaveLength(2);
    expect(svg).toContain("a &lt; b &amp; c");
    expect(svg).toMatch(/<text [^>]*>write → SSE<\/text>/);
    expect(svg).toMatch(/<text [^>]*>write → DOM<\/text>/);
  });

  it("is one well-formed SVG document with a white background", () => {
    const svg = renderChart({ title: "t", panels: [panel(), panel()] });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trim().endsWith("</svg>")).toBe(true);
    expect(svg).toMatch(/<rect width="\d+" height="\d+" fill="#fff"\/>/);
    expect(escapeXml('"x"')).toBe("&quot;x&quot;");
  });
});
