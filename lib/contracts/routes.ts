import type { ActivityPage } from "./activity";
import type { AuditPage } from "./audit";
import type { ClusterDetailResponse, ClusterListResponse } from "./clusters";
import type { FleetPage } from "./fleet-page";
import type { ClusterPluginsResponse, PluginHealthReport, PluginsOverview } from "./plugins";
import type { Liveness, ReadinessAnswer } from "./readiness";
import type { RolloutActionResult, RolloutActionsBatch, RolloutActionsView } from "./rollout-actions";
import type { MeasuredTrafficResponse, RolloutDetail, RolloutHistory } from "./rollout-detail";
import type { RolloutWorkload } from "./rollout-workload";
import type { RolloutPermissionsView, SessionView, SignOutResult } from "./session";

/**
 * What every JSON route answers, by `METHOD /api/…` as its folder under app/api names it. The handler answers through
 * `respond(route, body)` (lib/http/respond.ts) and the browser's path builders return an `ApiPath` of the same route,
 * from which `fetchJson` takes its result type: a route and its fetcher name one type, and a service returning another
 * shape fails typecheck. Downloads, the event stream and redirects are not JSON and not here.
 */
export interface ApiRoutes {
  "GET /api/activity": ActivityPage;
  "GET /api/audit": AuditPage;
  "POST /api/auth/signout": SignOutResult;
  "GET /api/clusters": ClusterListResponse;
  "GET /api/clusters/[cluster]": ClusterDetailResponse;
  "GET /api/clusters/[cluster]/plugins": ClusterPluginsResponse;
  "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]": RolloutDetail;
  "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/actions": RolloutActionsView;
  "POST /api/clusters/[cluster]/rollouts/[namespace]/[name]/actions": RolloutActionResult;
  "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/history": RolloutHistory;
  "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/measured-traffic": MeasuredTrafficResponse;
  "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/replicasets": RolloutWorkload;
  "GET /api/healthz": Liveness;
  "GET /api/plugins": PluginsOverview;
  "GET /api/plugins/health": PluginHealthReport;
  "GET /api/readyz": ReadinessAnswer;
  "GET /api/rollouts": FleetPage;
  "GET /api/rollouts/actions": RolloutActionsBatch;
  "GET /api/session": SessionView;
  "GET /api/session/permissions": RolloutPermissionsView;
}

export type ApiRoute = keyof ApiRoutes;

declare const routeOf: unique symbol;

/** A URL that remembers the route it addresses (built by `apiPath`), so `fetchJson` knows the answer's type. */
export type ApiPath<R extends ApiRoute> = string & { readonly [routeOf]: R };

/** A URL of no route here: `fetchJson` takes its type from the caller then, and refuses an ApiPath that way. */
export type UntypedPath = string & { readonly [routeOf]?: never };
