"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { activityExportPath, activityPath, type ActivityFilters } from "@/lib/contracts/activity";
import { fetchJson, retryUnlessClientError } from "./fetch-json";
import { queryKeys } from "./keys";

/** The timeline follows the fleet as it changes: the recorder stores a change within seconds. */
const LIVE_REFRESH_MS = 5_000;

/** Every change in the window, newest first (`GET /api/activity`), refreshed while the page is open. */
const activityQuery = (filters: ActivityFilters) =>
  queryOptions({
    queryKey: queryKeys.activity(filters),
    queryFn: ({ signal }) => fetchJson(activityPath(filters), { signal }),
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: (previous) => previous,
    retry: retryUnlessClientError,
  });

export function useActivity(filters: ActivityFilters) {
  return useQuery(activityQuery(filters));
}

export function activityExportHref(filters: ActivityFilters): string {
  return activityExportPath(filters);
}
