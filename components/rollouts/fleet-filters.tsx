"use client";

import { useEffect, useRef, type Ref } from "react";
import { Button, focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { SearchIcon } from "@/components/ui/icons";
import { Kbd } from "@/components/ui/kbd";
import { Select } from "@/components/ui/select";
import type { FleetFacets, FleetView } from "@/lib/overview/fleet-query";

interface FleetFiltersProps {
  view: FleetView;
  facets: FleetFacets;
  onChange: (patch: Partial<FleetView>) => void;
  onClear: () => void;
  searchRef?: Ref<HTMLInputElement>;
}

const SEARCH_DEBOUNCE_MS = 150;

/**
 * Search and select filters. The search box is uncontrolled and debounced so typing never waits for a
 * 5,000-row re-filter; its `key` (from the parent) resets it when the filters are cleared.
 */
export function FleetFilters({ view, facets, onChange, onClear, searchRef }: FleetFiltersProps) {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const filtered = Boolean(view.q || view.cluster || view.namespace || view.phase || view.router);

  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="flex min-w-64 flex-1 flex-col gap-0.5 text-xs text-slate-500 lg:max-w-md dark:text-slate-400">
        <span>Search</span>
        <span className="relative">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-slate-400" />
          <input
            ref={searchRef}
            type="search"
            data-testid="search"
            // The URL holds the search: a value the browser restored on back/forward would not be the one applied.
            autoComplete="off"
            defaultValue={view.q}
            placeholder="name, namespace, cluster, message, plugin…"
            onChange={(e) => {
              const value = e.currentTarget.value;
              window.clearTimeout(timer.current);
              timer.current = window.setTimeout(() => onChange({ q: value, page: 1 }), SEARCH_DEBOUNCE_MS);
            }}
            onKeyDown={(e) => {
              // Esc leaves the box with the filter kept (a search input would otherwise clear itself).
              if (e.key === "Escape") {
                e.preventDefault();
                e.currentTarget.blur();
              }
            }}
            className={cn(
              "h-8 w-full rounded-md border border-slate-300 bg-white pr-8 pl-8 text-sm text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:placeholder:text-slate-400 dark:bg-slate-900 dark:text-slate-100",
              focusRing,
            )}
          />
          <span className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2">
            <Kbd>/</Kbd>
          </span>
        </span>
      </label>
      <Select
        label="Cluster"
        allLabel="All clusters"
        data-testid="filter-cluster"
        options={facets.clusters}
        value={view.cluster}
        onChange={(e) => onChange({ cluster: e.currentTarget.value, namespace: "", page: 1 })}
      />
      <Select
        label="Namespace"
        allLabel="All namespaces"
        data-testid="filter-namespace"
        options={facets.namespaces}
        value={view.namespace}
        onChange={(e) => onChange({ namespace: e.currentTarget.value, page: 1 })}
      />
      <Select
        label="Router / plugin"
        allLabel="All routers"
        data-testid="filter-router"
        options={facets.routers}
        value={view.router}
        onChange={(e) => onChange({ router: e.currentTarget.value, page: 1 })}
      />
      {filtered && (
        <Button variant="ghost" onClick={onClear} data-testid="clear-filters">
          Clear filters
        </Button>
      )}
    </div>
  );
}
