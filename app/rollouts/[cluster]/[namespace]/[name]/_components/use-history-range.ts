"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import type { HistoryRange } from "@/lib/rollouts/detail-types";

/** Same list as the API's HISTORY_RANGES; `satisfies` keeps it in step with the contract type. */
export const RANGES = ["15m", "1h", "6h", "24h", "7d"] as const satisfies readonly HistoryRange[];
const DEFAULT_RANGE: HistoryRange = "1h";

/** The chart range, kept in the URL (`?range=6h`, via history.replaceState) so a shared link shows the same window. */
export function useHistoryRange(): [HistoryRange, (range: HistoryRange) => void] {
  const value = useSearchParams().get("range");
  const range = (RANGES as readonly string[]).includes(value ?? "") ? (value as HistoryRange) : DEFAULT_RANGE;
  const setRange = useCallback((next: HistoryRange) => {
    const params = new URLSearchParams(window.location.search);
    if (next === DEFAULT_RANGE) params.delete("range");
    else params.set("range", next);
    const query = params.toString();
    window.history.replaceState(null, "", query ? `${window.location.pathname}?${query}` : window.location.pathname);
  }, []);
  return [range, setRange];
}
