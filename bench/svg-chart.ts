/**
 * Line charts as hand-written SVG (no dependency): axes with round ticks, labels, one line per series, a legend.
 * Readable in a Markdown viewer: a white background, text in the image, colours told apart by dash patterns too.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Series {
  name: string;
  points: readonly Point[];
}

export interface Axis {
  label: string;
  /** Default: from 0 (or the smallest value, when below 0) to a round number at or above the largest value. */
  min?: number;
  max?: number;
  /** Tick values; default round numbers over the range. */
  ticks?: readonly number[];
  format?: (v: number) => string;
}

export interface Panel {
  title: string;
  x: Axis;
  y: Axis;
  series: readonly Series[];
  /** A dashed horizontal line, e.g. a target. */
  guide?: { y: number; label: string };
  /** Write each point's value next to it (for a few points, e.g. a cost curve). */
  valueLabels?: boolean;
}

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "4 4"];
/** Default panel size; a chart with one panel may ask for a larger one. */
const PANEL = { width: 460, height: 300 };
const MARGIN = { left: 64, right: 32, top: 34, bottom: 48 };

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const round = (v: number) => Number(v.toFixed(1));

/** Round tick values (1, 2 or 5 × 10^k apart) covering [min, max] with about `count` ticks. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = Math.floor(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

/**
 * The empirical CDF of samples: for each distinct value, the share of samples at or below it. Both coordinates never
 * decrease; the last point is (max, 1).
 */
export function cdfPoints(samples: readonly number[]): Point[] {
  const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const points: Point[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i + 1 < sorted.length && sorted[i + 1] === sorted[i]) continue;
    points.push({ x: sorted[i], y: (i + 1) / sorted.length });
  }
  return points;
}

/** Steps for a CDF drawn as a staircase: horizontal to the next value, then up. */
export function staircase(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const [i, p] of points.entries()) {
    out.push({ x: p.x, y: i === 0 ? 0 : points[i - 1].y }, p);
  }
  return out;
}

interface Scale {
  min: number;
  max: number;
  ticks: number[];
}

function scaleOf(axis: Axis, values: number[]): Scale {
  const finite = values.filter(Number.isFinite);
  const lo = axis.min ?? Math.min(0, ...finite);
  const hi = axis.max ?? Math.max(lo + 1, ...finite);
  const ticks = axis.ticks ? [...axis.ticks] : niceTicks(lo, hi);
  return {
    min: Math.min(lo, ticks[0]),
    max: axis.max ?? Math.max(hi, ticks[ticks.length - 1]),
    ticks: ticks.filter((t) => t >= lo && t <= (axis.max ?? Infinity)),
  };
}

const defaultFormat = (v: number) => (Math.abs(v) >= 10_000 ? `${v / 1000}k` : String(v));

/** One panel's SVG elements, its top-left corner at (ox, oy). */
function renderPanel(panel: Panel, ox: number, oy: number, size: { width: number; height: number }): string {
  const { width, height } = size;
  const points = panel.series.flatMap((s) => s.points);
  const xs = scaleOf(
    panel.x,
    points.map((p) => p.x),
  );
  const ys = scaleOf(panel.y, [...points.map((p) => p.y), ...(panel.guide ? [panel.guide.y] : [])]);
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const left = ox + MARGIN.left;
  const top = oy + MARGIN.top;
  const px = (x: number) => round(left + ((x - xs.min) / (xs.max - xs.min || 1)) * plotW);
  const py = (y: number) => round(top + plotH - ((y - ys.min) / (ys.max - ys.min || 1)) * plotH);
  const fx = panel.x.format ?? defaultFormat;
  const fy = panel.y.format ?? defaultFormat;
  const out: string[] = [];
  out.push(
    `<text x="${ox + width / 2}" y="${oy + 20}" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(panel.title)}</text>`,
  );
  for (const t of ys.ticks) {
    out.push(`<line x1="${left}" x2="${left + plotW}" y1="${py(t)}" y2="${py(t)}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${left - 6}" y="${py(t) + 4}" text-anchor="end" font-size="11">${escapeXml(fy(t))}</text>`);
  }
  for (const t of xs.ticks) {
    out.push(`<line x1="${px(t)}" x2="${px(t)}" y1="${top + plotH}" y2="${top + plotH + 5}" stroke="#333"/>`);
    out.push(`<text x="${px(t)}" y="${top + plotH + 18}" text-anchor="middle" font-size="11">${escapeXml(fx(t))}</text>`);
  }
  out.push(`<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#333"/>`);
  out.push(`<line x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`);
  out.push(`<text x="${left + plotW / 2}" y="${oy + height - 8}" text-anchor="middle" font-size="12">${escapeXml(panel.x.label)}</text>`);
  out.push(
    `<text x="${ox + 14}" y="${top + plotH / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 ${ox + 14} ${top + plotH / 2})">${escapeXml(panel.y.label)}</text>`,
  );
  if (panel.guide) {
    const gy = py(panel.guide.y);
    out.push(`<line x1="${left}" x2="${left + plotW}" y1="${gy}" y2="${gy}" stroke="#888" stroke-dasharray="4 4"/>`);
    out.push(
      `<text x="${left + plotW - 4}" y="${gy - 4}" text-anchor="end" font-size="10" fill="#555">${escapeXml(panel.guide.label)}</text>`,
    );
  }
  for (const [i, s] of panel.series.entries()) {
    const colour = COLOURS[i % COLOURS.length];
    const dash = DASHES[i % DASHES.length];
    // A missing value (NaN) breaks the line; a point beyond the x range is left out.
    const runs: Point[][] = [[]];
    for (const p of s.points) {
      if (!Number.isFinite(p.y) || p.x > xs.max) runs.push([]);
      else runs[runs.length - 1].push(p);
    }
    for (const run of runs.filter((r) => r.length > 0)) {
      const coords = run.map((p) => `${px(p.x)},${py(Math.min(p.y, ys.max))}`).join(" ");
      out.push(
        `<polyline data-series="${escapeXml(s.name)}" points="${coords}" fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`,
      );
    }
    if (panel.valueLabels) {
      for (const p of s.points) {
        if (!Number.isFinite(p.y)) continue;
        out.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="3" fill="${colour}"/>`);
        out.push(`<text x="${px(p.x)}" y="${py(p.y) - 7}" text-anchor="middle" font-size="10">${escapeXml(fy(p.y))}</text>`);
      }
    }
  }
  return out.join("\n");
}

function legend(series: readonly Series[], x: number, y: number): string {
  return series
    .map((s, i) => {
      const ly = y + i * 18;
      const dash = DASHES[i % DASHES.length];
      return (
        `<line x1="${x}" x2="${x + 28}" y1="${ly}" y2="${ly}" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>` +
        `<text x="${x + 34}" y="${ly + 4}" font-size="12">${escapeXml(s.name)}</text>`
      );
    })
    .join("\n");
}

/**
 * An SVG of panels in a grid (`columns` wide), a title and a caption line; the legend (series of the first panel)
 * goes under the panels when `legend` is set.
 */
export function renderChart(opts: {
  title: string;
  caption?: string;
  panels: readonly Panel[];
  columns?: number;
  legend?: boolean;
  panelSize?: { width: number; height: number };
}): string {
  const size = opts.panelSize ?? PANEL;
  const columns = Math.min(opts.columns ?? 2, opts.panels.length);
  const rows = Math.ceil(opts.panels.length / columns);
  const head = opts.caption ? 48 : 32;
  const legendSeries = opts.legend ? (opts.panels[0]?.series ?? []) : [];
  const width = columns * size.width;
  const height = head + rows * size.height + (legendSeries.length ? legendSeries.length * 18 + 12 : 0);
  const body = opts.panels.map((p, i) => renderPanel(p, (i % columns) * size.width, head + Math.floor(i / columns) * size.height, size));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" fill="#222">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(opts.title)}</text>`,
    opts.caption ? `<text x="${width / 2}" y="38" text-anchor="middle" font-size="11" fill="#555">${escapeXml(opts.caption)}</text>` : "",
    ...body,
    legendSeries.length ? legend(legendSeries, MARGIN.left, head + rows * size.height + 6) : "",
    "</svg>",
  ]
    .filter((l) => l !== "")
    .join("\n")
    .concat("\n");
}
