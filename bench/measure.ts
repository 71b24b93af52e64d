import { readFileSync } from "node:fs";

/** Nearest-rank percentile of a list of numbers (ms); NaN for an empty list. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export interface Distribution {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

export function distribution(values: readonly number[]): Distribution {
  return { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99) };
}

/** A distribution that keeps its samples (ms), for the latency charts and the results JSON. */
export interface Sampled extends Distribution {
  samples: number[];
}

export function sampled(values: readonly number[]): Sampled {
  return { ...distribution(values), samples: [...values] };
}

/** Resident set size of a process in bytes, from /proc. */
function readRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}

/** The RSS of a process and all its descendants (next start runs the server in a child). */
export function readTreeRss(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      total += readRss(p);
    } catch {
      return;
    }
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    } catch {
      /* gone */
    }
    for (const c of children) visit(Number(c));
  };
  visit(pid);
  return total;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Row {
  metric: string;
  value: string;
  target: string;
  met: boolean | null;
}

export const metCell = (met: boolean | null) => (met === null ? "" : met ? "met" : "MISSED");

export function formatTable(rows: readonly Row[]): string {
  return markdownTable(
    ["Measure", "Result", "Target", ""],
    rows.map((r) => [r.metric, r.value, r.target, metCell(r.met)]),
  );
}

/** A Markdown table with its columns padded, readable in a terminal and pasted as is into BENCHMARKS.md. */
export function markdownTable(header: readonly string[], lines: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [fmt(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.map(fmt)].join("\n");
}

export const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : "n/a");
export const mb = (v: number) => `${(v / 1024 / 1024).toFixed(0)} MB`;
