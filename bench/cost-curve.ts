/**
 * The cost curve (`npm run bench -- --sizes 1000,5000,10000,20000`): the fleet at each size, and per size the
 * server's RSS, the overview API's p95, the first rollout row and write → DOM p95, as a table and an SVG chart.
 */
import { z } from "zod";
import { renderChart, type Panel } from "./svg-chart";

/** Rollouts per cluster at most: the 20,000 are 50 clusters × 400. */
const MAX_ROLLOUTS_PER_CLUSTER = 400;

export interface CurveShape {
  clusters: number;
  rolloutsPerCluster: number;
}

export interface CurvePoint extends CurveShape {
  rollouts: number;
  rssWarmBytes: number;
  rssAfterChurnBytes: number;
  overviewP95Ms: number;
  firstRowMs: number;
  domP95Ms: number;
}

const sizeSchema = z.coerce.number().int().min(1).max(100_000);

/**
 * `1000,5000,50000@100` → the shape of each size: a bare count takes {@link curveShape}'s clusters, `size@clusters`
 * says how many clusters share it (50,000 Rollouts on 100 clusters of 500). Throws on anything else, or on clusters
 * that do not divide the size.
 */
export function parseSizes(text: string): CurveShape[] {
  const error = () =>
    new Error(`--sizes ${text}: expected Rollout counts separated by commas, each optionally @clusters, e.g. 1000,5000,20000,50000@100`);
  return text.split(",").map((item) => {
    const [size, clusters, ...rest] = item.trim().split("@");
    const parsedSize = sizeSchema.safeParse(size);
    if (rest.length > 0 || !parsedSize.success) throw error();
    if (clusters === undefined) return curveShape(parsedSize.data);
    const parsedClusters = sizeSchema.safeParse(clusters);
    if (!parsedClusters.success || parsedSize.data % parsedClusters.data !== 0) throw error();
    return { clusters: parsedClusters.data, rolloutsPerCluster: parsedSize.data / parsedClusters.data };
  });
}

/**
 * The fewest clusters of at most 400 Rollouts each that hold exactly `size` Rollouts: 1,000 = 4 × 250,
 * 5,000 = 20 × 250 (the default run's shape), 10,000 = 25 × 400, 20,000 = 50 × 400.
 */
export function curveShape(size: number): CurveShape {
  for (let clusters = Math.ceil(size / MAX_ROLLOUTS_PER_CLUSTER); clusters <= size; clusters++) {
    if (size % clusters === 0) return { clusters, rolloutsPerCluster: size / clusters };
  }
  return { clusters: size, rolloutsPerCluster: 1 };
}

/** A size whose stack failed: every figure NaN ("n/a" in the table, a gap in the chart). */
export function missingPoint(shape: CurveShape): CurvePoint {
  const rollouts = shape.clusters * shape.rolloutsPerCluster;
  return { ...shape, rollouts, rssWarmBytes: NaN, rssAfterChurnBytes: NaN, overviewP95Ms: NaN, firstRowMs: NaN, domP95Ms: NaN };
}

const msText = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : "n/a");
const mbText = (v: number) => (Number.isFinite(v) ? `${(v / 1024 / 1024).toFixed(0)} MB` : "n/a");

/** A Markdown table, one row per size. */
export function formatCurveTable(points: readonly CurvePoint[]): string {
  const header = ["Rollouts (clusters × per cluster)", "Server RSS warm / after churn", "Overview API p95", "First row", "Write → DOM p95"];
  const lines = points.map((p) => [
    `${p.rollouts.toLocaleString("en-US")} (${p.clusters} × ${p.rolloutsPerCluster})`,
    `${mbText(p.rssWarmBytes)} / ${mbText(p.rssAfterChurnBytes)}`,
    msText(p.overviewP95Ms),
    msText(p.firstRowMs),
    msText(p.domP95Ms),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [fmt(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.map(fmt)].join("\n");
}

function panel(title: string, unit: string, points: readonly CurvePoint[], y: (p: CurvePoint) => number, guide: Panel["guide"]): Panel {
  const sizes = points.map((p) => p.rollouts);
  return {
    title,
    x: { label: "Rollouts in the fleet", min: 0, ticks: [0, ...sizes], format: (v) => (v >= 1000 ? `${v / 1000}k` : String(v)) },
    y: { label: unit, min: 0, format: (v) => String(Math.round(v)) },
    series: [{ name: title, points: points.map((p) => ({ x: p.rollouts, y: y(p) })) }],
    guide,
    valueLabels: true,
  };
}

/** Four small multiples (each measure has its own unit), the targets as dashed lines. */
export function costCurveChart(points: readonly CurvePoint[], caption: string): string {
  const sorted = [...points].sort((a, b) => a.rollouts - b.rollouts);
  return renderChart({
    title: "Cost of the fleet: Rollscope at each fleet size",
    caption,
    columns: 2,
    panels: [
      panel("Server RSS after churn", "MB", sorted, (p) => p.rssAfterChurnBytes / 1024 / 1024, { y: 600, label: "target at 20k: 600 MB" }),
      panel("Overview API p95", "ms", sorted, (p) => p.overviewP95Ms, { y: 150, label: "target: 150 ms" }),
      panel("First rollout row", "ms", sorted, (p) => p.firstRowMs, { y: 1000, label: "target at 5k: 1,000 ms" }),
      panel("Write → DOM p95", "ms", sorted, (p) => p.domP95Ms, { y: 300, label: "target: 300 ms" }),
    ],
  });
}
