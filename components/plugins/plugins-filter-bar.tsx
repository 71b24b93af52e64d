"use client";

import { RangeSelector } from "@/components/charts/range-selector";
import { Select } from "@/components/ui/select";
import { PLUGIN_KINDS, type PluginKind } from "@/lib/plugins/config";
import type { PluginsFilter } from "@/lib/plugins/plugins-filter";
import { HEALTH_RANGES } from "@/lib/plugins/view-types";

interface Props {
  filter: PluginsFilter;
  clusters: string[];
  plugins: string[];
  onChange: (patch: Partial<PluginsFilter>) => void;
}

/** Cluster, plugin, kind and range of the plugins page; the values live in the URL (see usePluginsFilter). */
export function PluginsFilterBar({ filter, clusters, plugins, onChange }: Props) {
  return (
    <div role="search" aria-label="Filter plugins" className="flex flex-wrap items-end gap-3" data-testid="plugins-filters">
      <Select
        label="Cluster"
        allLabel="All clusters"
        options={clusters}
        value={filter.cluster ?? ""}
        onChange={(e) => onChange({ cluster: e.target.value || null })}
      />
      <Select
        label="Plugin"
        allLabel="All plugins"
        options={plugins}
        value={filter.plugin ?? ""}
        onChange={(e) => onChange({ plugin: e.target.value || null })}
      />
      <Select
        label="Kind"
        allLabel="All kinds"
        options={[...PLUGIN_KINDS]}
        value={filter.kind ?? ""}
        onChange={(e) => onChange({ kind: (e.target.value || null) as PluginKind | null })}
      />
      <div className="flex flex-col gap-0.5 text-xs text-slate-500 dark:text-slate-400">
        <span>Health range</span>
        <RangeSelector ranges={HEALTH_RANGES} value={filter.range} onChange={(range) => onChange({ range })} />
      </div>
    </div>
  );
}
