"use client";

import { PluginsView } from "@/components/plugins/plugins-view";
import { usePluginsFilter } from "./use-plugins-filter";

export function PluginsPage() {
  const [filter, update] = usePluginsFilter();
  return <PluginsView filter={filter} onFilterChange={update} />;
}
