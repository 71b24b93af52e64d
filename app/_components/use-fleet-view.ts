"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { DEFAULT_FLEET_VIEW, parseFleetView, serializeFleetView, type FleetView } from "@/lib/overview/fleet-query";

function currentView(): FleetView {
  return parseFleetView(new URLSearchParams(window.location.search));
}

/**
 * The overview's filter/sort/page state, read with useSearchParams and written with history.replaceState, which
 * Next's router picks up (replace, not push: filtering is not navigation). replaceState changes the URL at once,
 * unlike router.replace, so a click right after a debounced search merges into the right URL instead of losing it.
 */
export function useFleetView() {
  const params = useSearchParams();
  const [resetKey, setResetKey] = useState(0);
  const view = useMemo(() => parseFleetView(params), [params]);

  const replace = useCallback((next: FleetView) => {
    const query = serializeFleetView(next);
    window.history.replaceState(null, "", query ? `${window.location.pathname}?${query}` : window.location.pathname);
  }, []);

  const update = useCallback((patch: Partial<FleetView>) => replace({ ...currentView(), ...patch }), [replace]);

  const clear = useCallback(() => {
    const { sort, dir } = currentView();
    replace({ ...DEFAULT_FLEET_VIEW, sort, dir });
    setResetKey((k) => k + 1);
  }, [replace]);

  return { view, update, clear, resetKey };
}
