import { z } from "zod";
import { FLEET_SORT_KEYS, PAGE_SIZE, PHASES } from "./fleet-query";
import type { FleetPageRequest } from "./fleet-page";

/**
 * The query string of `GET /api/rollouts`, in the overview URL's own names (`ns`, not `namespace`), so a shared
 * overview link and an API call read the same. Unknown values are refused rather than silently ignored.
 */
export const FleetPageQuery = z
  .object({
    q: z.string().max(200).default(""),
    cluster: z.string().max(253).default(""),
    ns: z.string().max(253).default(""),
    router: z.string().max(253).default(""),
    phase: z.enum(["", ...PHASES]).default(""),
    sort: z.enum(FLEET_SORT_KEYS).default("cluster"),
    dir: z.enum(["asc", "desc"]).default("asc"),
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(1_000).default(PAGE_SIZE),
  })
  .strict()
  .transform(({ ns, ...rest }): FleetPageRequest => ({ ...rest, namespace: ns }));

export function parseFleetPageQuery(params: URLSearchParams): FleetPageRequest {
  return FleetPageQuery.parse(Object.fromEntries(params));
}
