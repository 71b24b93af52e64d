import "server-only";
import type { ApiRoute, ApiRoutes } from "@/lib/contracts/routes";

/**
 * The JSON answer of `route`, typed by its contract (ApiRoutes in lib/contracts/routes.ts): a service whose result
 * is not the shape the browser reads fails typecheck here. `route` is the handler's own `METHOD /api/…` path, as its
 * folder names it (lib/http/respond.test.ts holds every route to that).
 */
export function respond<R extends ApiRoute>(_route: R, body: NoInfer<ApiRoutes[R]>, init?: ResponseInit): Response {
  return Response.json(body, init);
}

declare const serializedOf: unique symbol;

/** JSON text of a `T`: lets a service serialize an answer once for many requests and still hand the route its type. */
export type SerializedJson<T> = string & { readonly [serializedOf]: T };

export function serializeJson<T>(value: T): SerializedJson<T> {
  return JSON.stringify(value) as SerializedJson<T>;
}

/** As {@link respond}, for an answer already serialized by {@link serializeJson}. */
export function respondSerialized<R extends ApiRoute>(
  _route: R,
  json: SerializedJson<NoInfer<ApiRoutes[R]>>,
  init?: ResponseInit,
): Response {
  const headers = new Headers(init?.headers);
  headers.set("content-type", "application/json");
  return new Response(json, { ...init, headers });
}
