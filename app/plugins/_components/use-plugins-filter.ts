"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parsePluginsFilter, serializePluginsFilter, type PluginsFilter } from "@/lib/plugins/plugins-filter";

/**
 * The plugins pages' filters, read from the URL and written with history.pushState, which Next's router picks up:
 * each change is a history entry, so back and forward step through them and a reload shows the same view.
 */
export function usePluginsFilter(): [PluginsFilter, (patch: Partial<PluginsFilter>) => void] {
  const params = useSearchParams();
  const filter = useMemo(() => parsePluginsFilter(params), [params]);
  const update = useCallback((patch: Partial<PluginsFilter>) => {
    const next = { ...parsePluginsFilter(new URLSearchParams(window.location.search)), ...patch };
    const query = serializePluginsFilter(next);
    const url = query ? `${window.location.pathname}?${query}` : window.location.pathname;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", url);
  }, []);
  return [filter, update];
}
