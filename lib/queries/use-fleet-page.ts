"use client";

import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { fleetPagePath, type FleetView, type InitialFleetPage } from "@/lib/contracts/fleet-page";
import { ALL_ROWS } from "@/lib/contracts/stream";
import { patchFleetPage } from "@/lib/overview/fleet-page";
import { serializeFleetView } from "@/lib/overview/fleet-query";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { useFallbackInterval, useStreamRows } from "./live-stream";
import { recentDeltasOf } from "./recent-deltas";
import { useHydrating } from "./use-hydrating";

/** Longer than the server's page sharing window (lib/services/fleet-page.ts, 1 s). */
const QUIET_FOLLOW_UP_MS = 1_200;

/**
 * One page of the fleet overview for a view (`GET /api/rollouts?…`). The tab's live stream patches the rows it
 * holds at once and asks again, at most every two seconds, for what only the server can tell (counts, membership).
 */
const fleetPageQuery = (view: FleetView) =>
  queryOptions({
    queryKey: queryKeys.fleetPage(serializeFleetView(view)),
    queryFn: async ({ signal, client, queryKey }) => {
      const recent = recentDeltasOf(client);
      const page = await fetchJson(fleetPagePath(view), { signal });
      // Older than the stream this tab listens to: changes in between were never streamed here. Show it now and
      // ask again right after, rather than keep the first paint waiting for a second request.
      if (page.seq < recent.streamStart) setTimeout(() => void client.invalidateQueries({ queryKey }, { cancelRefetch: false }), 0);
      // The server shares a page for up to a second, so an answer may predate the last change this tab saw; deltas
      // fix the rows shown, not which rows match. If the fleet then stays quiet (no delta would trigger another
      // request), ask once more after the sharing window.
      const newest = recent.newestSeq();
      if (page.seq < newest) {
        setTimeout(() => {
          if (recent.newestSeq() === newest) void client.invalidateQueries({ queryKey }, { cancelRefetch: false });
        }, QUIET_FOLLOW_UP_MS);
      }
      return patchFleetPage(page, recent.after(page.seq));
    },
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

/**
 * The page for `view`. While a new view loads, the previous page stays on screen. `initial` is the page the server
 * rendered into the HTML; it is used for the view it was rendered for, and replaced once the live stream has opened
 * (its seq is older). `rows` is whose changes the tab's stream carries for it: `*` (every Rollout's: the page's
 * counts cover the fleet) or, for a page that shows only one cluster's counts and queue, that cluster's name.
 */
export function useFleetPage(view: FleetView, initial: InitialFleetPage | null = null, rows: string = ALL_ROWS) {
  useStreamRows(rows);
  const query = serializeFleetView(view);
  const initialPage = initial && initial.query === query ? initial.page : undefined;
  const result = useQuery({
    ...fleetPageQuery(view),
    initialData: initialPage,
    initialDataUpdatedAt: initialPage ? Date.parse(initialPage.generatedAt) : undefined,
    refetchInterval: useFallbackInterval(),
  });
  // Hydration shows exactly what the server rendered; the patched cache takes over on the next render. A proxy, not
  // a spread: spreading would read (and so subscribe this component to) every field React Query tracks.
  const hydrating = useHydrating();
  return hydrating && initialPage
    ? new Proxy(result, { get: (target, key) => (key === "data" ? initialPage : Reflect.get(target, key)) })
    : result;
}
