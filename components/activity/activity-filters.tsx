"use client";

import Link from "next/link";
import { buttonClasses, focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/select";
import { ACTIVITY_KINDS, ACTIVITY_WINDOWS, type ActivityFilters as Filters, type ActivityWindow } from "@/lib/contracts/activity";

const WINDOW_LABEL: Record<ActivityWindow, string> = { "15m": "15 min", "1h": "1 h", "6h": "6 h", "24h": "24 h" };

interface ActivityFiltersProps {
  filters: Filters;
  clusters: string[];
  namespaces: string[];
  onChange(next: Filters): void;
  csvHref: string;
}

/** Window presets, cluster / namespace / kind filters, the CSV export and the way to the audit log. */
export function ActivityFilters({ filters, clusters, namespaces, onChange, csvHref }: ActivityFiltersProps) {
  const window = filters.window ?? "1h";
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div role="group" aria-label="Time window" className="flex overflow-hidden rounded-md border border-slate-300 dark:border-slate-700">
        {(Object.keys(ACTIVITY_WINDOWS) as ActivityWindow[]).map((w) => (
          <button
            key={w}
            type="button"
            aria-pressed={w === window}
            data-testid={`activity-window-${w}`}
            onClick={() => onChange({ ...filters, window: w })}
            className={cn(
              "h-8 px-3 text-sm font-medium",
              w === window
                ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
                : "bg-white text-slate-700 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-300",
              focusRing,
            )}
          >
            Last {WINDOW_LABEL[w]}
          </button>
        ))}
      </div>
      <Select
        label="Cluster"
        allLabel="All clusters"
        options={clusters}
        value={filters.cluster ?? ""}
        onChange={(e) => onChange({ ...filters, cluster: e.target.value || undefined })}
      />
      <Select
        label="Namespace"
        allLabel="All namespaces"
        options={namespaces}
        value={filters.namespace ?? ""}
        onChange={(e) => onChange({ ...filters, namespace: e.target.value || undefined })}
      />
      <Select
        label="Kind of change"
        allLabel="All changes"
        options={[...ACTIVITY_KINDS]}
        value={filters.kind ?? ""}
        onChange={(e) => onChange({ ...filters, kind: (e.target.value || undefined) as Filters["kind"] })}
      />
      <div className="ml-auto flex gap-2">
        <a href={csvHref} className={buttonClasses("secondary")} data-testid="activity-export-csv" download>
          Export CSV
        </a>
        <Link href="/audit" className={buttonClasses("ghost")} data-testid="activity-audit-link">
          Rollscope actions (audit log)
        </Link>
      </div>
    </div>
  );
}
