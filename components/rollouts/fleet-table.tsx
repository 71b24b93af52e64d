"use client";

import Link from "next/link";
import { memo, useState, type KeyboardEvent } from "react";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { SortIcon, WarningIcon } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";
import type { RolloutSummary } from "@/lib/contracts/fleet-page";
import { rolloutHref } from "@/lib/format/hrefs";
import { attentionLabel } from "@/lib/overview/attention";
import { comparableRequestedPercent, type FleetSortKey } from "@/lib/overview/fleet-query";
import { useHydrating } from "@/lib/queries/use-hydrating";
import { PhaseBadge } from "./phase-badge";
import { RouterList } from "./router-list";
import { StepCell } from "./step-cell";
import { WeightBar } from "./weight-bar";

const COLUMNS: Array<{ key: FleetSortKey; label: string; className: string }> = [
  { key: "cluster", label: "Cluster", className: "w-[9%]" },
  { key: "namespace", label: "Namespace", className: "w-[10%]" },
  { key: "name", label: "Name", className: "w-[18%]" },
  { key: "strategy", label: "Strategy", className: "w-[9%]" },
  { key: "router", label: "Router / plugin", className: "w-[12%]" },
  { key: "phase", label: "Phase", className: "w-[9%]" },
  { key: "step", label: "Step", className: "w-[6%]" },
  { key: "weight", label: "Canary weight", className: "w-[17%]" },
  { key: "changed", label: "Last change", className: "w-[10%]" },
];

const STRATEGY_LABEL: Record<RolloutSummary["strategy"], string> = { canary: "Canary", blueGreen: "Blue-green", none: "—" };

interface RowProps {
  rollout: RolloutSummary;
  index: number;
  focusable: boolean;
  onFocusRow: (index: number) => void;
}

const FleetRow = memo(function FleetRow({ rollout: r, index, focusable, onFocusRow }: RowProps) {
  const attention = r.attention.length > 0 || r.parseError;
  return (
    <tr
      data-testid="rollout-row"
      data-key={r.key}
      data-row-index={index}
      tabIndex={focusable ? 0 : -1}
      onFocus={() => onFocusRow(index)}
      className={cn(
        "group border-t border-slate-100 hover:bg-slate-50 focus-visible:bg-sky-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sky-500 dark:border-slate-800 dark:hover:bg-slate-800/50 dark:focus-visible:bg-sky-950/40",
      )}
    >
      <td className="truncate px-3 py-1.5" title={r.cluster}>
        {r.cluster}
      </td>
      <td className="truncate px-3 py-1.5" title={r.namespace}>
        {r.namespace}
      </td>
      <td className="px-3 py-1.5">
        <span className="flex min-w-0 items-center gap-1.5">
          <Link
            href={rolloutHref(r.cluster, r.namespace, r.name)}
            prefetch={false}
            data-row-link
            tabIndex={-1}
            className={cn("truncate font-medium text-sky-700 hover:underline dark:text-sky-300", focusRing)}
            title={r.name}
          >
            {r.name}
          </Link>
          {attention && (
            <span
              role="img"
              aria-label="Needs attention"
              title={[r.parseError, ...r.attention.map((a) => `${attentionLabel(a.code)}: ${a.message}`)].filter(Boolean).join("\n")}
              className="shrink-0 text-amber-600 dark:text-amber-400"
            >
              <WarningIcon className="size-3.5" />
            </span>
          )}
        </span>
      </td>
      <td className="truncate px-3 py-1.5 text-slate-600 dark:text-slate-400">{STRATEGY_LABEL[r.strategy]}</td>
      <td className="px-3 py-1.5">
        <RouterList routers={r.routers} className="flex-nowrap overflow-hidden" />
      </td>
      <td className="px-3 py-1.5">
        <PhaseBadge phase={r.phase} message={r.message} />
      </td>
      <td className="px-3 py-1.5">
        <StepCell step={r.step} />
      </td>
      <td className="px-3 py-1.5">
        <WeightBar
          canary={r.canaryPercent}
          stable={r.stablePercent}
          requested={comparableRequestedPercent(r)}
          verified={r.verified}
          actual={r.actualPercent}
          routed={r.routers.length > 0}
        />
      </td>
      <td className="px-3 py-1.5 text-slate-600 dark:text-slate-400">
        <RelativeTime at={r.lastChangedAt} />
      </td>
    </tr>
  );
});

/**
 * The rows the server renders into the HTML (and React hydrates): what a tall screen shows above the fold. The rest
 * of the page renders in the browser right after hydration, from the same data. At 100 rows the rows' markup was
 * two thirds of a 400 KB first HTML, and rendering it on a busy server delayed the first byte of every row.
 */
const FIRST_PAINT_ROWS = 30;

interface FleetTableProps {
  rows: RolloutSummary[];
  sort: FleetSortKey;
  dir: "asc" | "desc";
  onSort: (key: FleetSortKey) => void;
}

function rowAt(tbody: HTMLElement, index: number): HTMLElement | null {
  return tbody.querySelector<HTMLElement>(`tr[data-row-index="${index}"]`);
}

/**
 * One page of overview rows. Rows are a roving-tabindex list: ↑/↓ or j/k move, Home/End jump, Enter opens the
 * detail page. Only the rows handed in are rendered; the parent pages through the filtered set.
 */
export function FleetTable({ rows: all, sort, dir, onSort }: FleetTableProps) {
  const rows = useHydrating() ? all.slice(0, FIRST_PAINT_ROWS) : all;
  const [active, setActive] = useState(0);
  const focusIndex = Math.min(active, Math.max(0, rows.length - 1));

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const row = (e.target as HTMLElement).closest<HTMLElement>("tr[data-row-index]");
    if (!row) return;
    const index = Number(row.dataset.rowIndex);
    let next: number | null = null;
    if (e.key === "ArrowDown" || e.key === "j") next = Math.min(rows.length - 1, index + 1);
    else if (e.key === "ArrowUp" || e.key === "k") next = Math.max(0, index - 1);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = rows.length - 1;
    else if (e.key === "Enter" && e.target === row) {
      e.preventDefault();
      row.querySelector<HTMLAnchorElement>("a[data-row-link]")?.click();
      return;
    }
    if (next === null) return;
    e.preventDefault();
    rowAt(e.currentTarget, next)?.focus();
  };

  return (
    <table className="w-full min-w-[1100px] table-fixed text-left text-sm" data-testid="fleet-table">
      <thead className="sticky top-0 z-10 bg-slate-50/95 text-xs text-slate-500 backdrop-blur dark:bg-slate-900/95 dark:text-slate-400">
        <tr>
          {COLUMNS.map((col) => {
            const sorted = sort === col.key;
            return (
              <th
                key={col.key}
                scope="col"
                className={cn("px-3 py-2 font-medium whitespace-nowrap", col.className)}
                aria-sort={sorted ? (dir === "asc" ? "ascending" : "descending") : "none"}
              >
                <button
                  type="button"
                  data-testid={`sort-${col.key}`}
                  onClick={() => onSort(col.key)}
                  className={cn(
                    "inline-flex items-center gap-1 rounded hover:text-slate-900 dark:hover:text-slate-100",
                    sorted && "text-slate-900 dark:text-slate-100",
                    focusRing,
                  )}
                >
                  {col.label}
                  <SortIcon sortOrder={sorted ? dir : null} className={cn("size-3.5", !sorted && "opacity-40")} />
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody onKeyDown={onKeyDown}>
        {rows.map((r, i) => (
          <FleetRow key={r.key} rollout={r} index={i} focusable={i === focusIndex} onFocusRow={setActive} />
        ))}
      </tbody>
    </table>
  );
}
