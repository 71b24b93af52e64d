"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { parsePluginsFilter, serializePluginsFilter, type PluginsFilter } from "@/lib/plugins/plugins-filter";

/** The filter the address bar holds now (Next's router may not have seen it yet). */
function filterInAddressBar(): PluginsFilter {
  return parsePluginsFilter(new URLSearchParams(window.location.search));
}

/**
 * The plugins pages' filters, read from the URL and written with history.pushState, which Next's router picks up:
 * each change is a history entry, so back and forward step through them and a reload shows the same view.
 */
export function usePluginsFilter(): [PluginsFilter, (patch: Partial<PluginsFilter>) => void] {
  const params = useSearchParams();
  const filter = useMemo(() => parsePluginsFilter(params), [params]);
  // A back or forward press while the page still hydrated (right after a reload) moves the URL before Next's router
  // listens for it: the page would go on showing the filter it was rendered with. Once, after Next's own effects have
  // run (a timer, as they run after this one), the URL the browser shows is handed to the router if it holds another
  // filter than the page was hydrated with (Next picks up replaceState). Only then: later back presses are Next's, and
  // a check after each change could hand it a URL it is already restoring.
  const hydratedWith = useRef(filter);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (serializePluginsFilter(filterInAddressBar()) !== serializePluginsFilter(hydratedWith.current))
        window.history.replaceState(null, "", window.location.href);
    }, 0);
    return () => window.clearTimeout(timer);
  }, []);
  const update = useCallback((patch: Partial<PluginsFilter>) => {
    const next = { ...filterInAddressBar(), ...patch };
    const query = serializePluginsFilter(next);
    const url = query ? `${window.location.pathname}?${query}` : window.location.pathname;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", url);
  }, []);
  return [filter, update];
}
