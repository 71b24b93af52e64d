"use client";

import { useState, type FormEvent } from "react";
import { Button, buttonClasses, focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/select";
import { AUDIT_OUTCOMES } from "@/lib/audit/schema";
import { ROLLOUT_ACTIONS } from "@/lib/actions/schema";
import type { AuditFilters as Filters } from "@/lib/queries/use-audit";

const TEXT_FIELDS = [
  { key: "namespace", label: "Namespace" },
  { key: "rollout", label: "Rollout" },
  { key: "user", label: "User contains" },
] as const;

const TIME_FIELDS = [
  { key: "from", label: "From" },
  { key: "to", label: "To" },
] as const;

function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

interface AuditFiltersProps {
  filters: Filters;
  clusters: string[];
  onChange: (filters: Filters) => void;
  csvHref: string;
  jsonHref: string;
}

/** Filter form of the audit page with the export links for the same filters. */
export function AuditFilters({ filters, clusters, onChange, csvHref, jsonHref }: AuditFiltersProps) {
  const [draft, setDraft] = useState<Filters>(filters);
  const set = (patch: Partial<Filters>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange(draft);
  };
  const inputBase = cn("h-8 rounded-md border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900", focusRing);
  const inputClass = cn(inputBase, "w-40");
  // Wide enough for the whole "mm/dd/yyyy, --:-- --" of a datetime input.
  const dateClass = cn(inputBase, "w-52");
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" data-testid="audit-filters" aria-label="Audit filters">
      <Select
        label="Cluster"
        allLabel="All clusters"
        options={clusters}
        value={draft.cluster ?? ""}
        onChange={(e) => set({ cluster: e.target.value })}
      />
      {TEXT_FIELDS.map((field) => (
        <label key={field.key} className="flex flex-col gap-0.5 text-xs text-slate-500 dark:text-slate-400">
          <span>{field.label}</span>
          <input
            name={field.key}
            className={inputClass}
            value={draft[field.key] ?? ""}
            onChange={(e) => set({ [field.key]: e.target.value })}
          />
        </label>
      ))}
      <Select
        label="Action"
        allLabel="All actions"
        options={[...ROLLOUT_ACTIONS]}
        value={draft.action ?? ""}
        onChange={(e) => set({ action: e.target.value })}
      />
      <Select
        label="Outcome"
        allLabel="All outcomes"
        options={[...AUDIT_OUTCOMES]}
        value={draft.outcome ?? ""}
        onChange={(e) => set({ outcome: e.target.value as Filters["outcome"] })}
      />
      {/* The time range moves to the next line as one (and wraps inside only on a narrow screen). */}
      <div className="flex flex-wrap gap-3">
        {TIME_FIELDS.map((field) => (
          <label key={field.key} className="flex flex-col gap-0.5 text-xs text-slate-500 dark:text-slate-400">
            <span>{field.label}</span>
            <input
              type="datetime-local"
              className={dateClass}
              value={toLocalInput(draft[field.key])}
              onChange={(e) => set({ [field.key]: fromLocalInput(e.target.value) })}
            />
          </label>
        ))}
      </div>
      {/* Apply and Clear wrap together. */}
      <div className="flex gap-2">
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Button
          onClick={() => {
            setDraft({});
            onChange({});
          }}
        >
          Clear
        </Button>
      </div>
      <div className="ml-auto flex gap-2">
        <a href={csvHref} className={buttonClasses("secondary")} data-testid="audit-export-csv" download>
          Export CSV
        </a>
        <a href={jsonHref} className={buttonClasses("secondary")} data-testid="audit-export-json" download>
          Export JSON
        </a>
      </div>
    </form>
  );
}
