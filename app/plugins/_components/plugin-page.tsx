"use client";

import { PluginDetailView } from "@/components/plugins/plugin-detail-view";
import { usePluginsFilter } from "./use-plugins-filter";

export function PluginPage({ name }: { name: string }) {
  const [filter, update] = usePluginsFilter();
  return <PluginDetailView name={name} range={filter.range} onRangeChange={(range) => update({ range })} />;
}
