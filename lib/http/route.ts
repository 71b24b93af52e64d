import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { authenticateRequest } from "@/lib/auth/authenticate";
import { installPeerAddressStamp } from "@/lib/auth/peer-address";
import type { AuthUser } from "@/lib/auth/types";
import { ApiError, type ErrorEnvelope } from "@/lib/errors/api-error";
import { kubeErrorToApiError } from "@/lib/errors/kube-errors";
import { getSessionStore } from "@/lib/server/app-context";

// Also installed from instrumentation; here so a route module loaded first still stamps later requests.
installPeerAddressStamp();

export interface RouteContext<P> {
  params: P;
  requestId: string;
  /** The signed-in user; in auth mode none, the kubeconfig identity. */
  user: AuthUser;
  /** The client as the audit log records it; null when it cannot be established. */
  clientAddress: string | null;
}

export interface PublicRouteContext<P> extends Omit<RouteContext<P>, "user"> {
  user: AuthUser | null;
}

/** Translates anything a handler throws into the JSON envelope; internals are logged, never echoed. */
export function toErrorResponse(err: unknown, requestId: string): Response {
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (err instanceof z.ZodError) {
    apiError = new ApiError("bad_request", err.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "));
  } else {
    const fromCluster = kubeErrorToApiError(err);
    if (fromCluster) apiError = fromCluster;
    else {
      console.error(`[${requestId}] unhandled error`, err);
      apiError = new ApiError("internal", `internal error (request ${requestId})`);
    }
  }
  const body: ErrorEnvelope = { error: { code: apiError.code, message: apiError.message } };
  return Response.json(body, { status: apiError.status, headers: { "x-request-id": requestId } });
}

type NextHandler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;

function wrap<P, C>(
  handler: (request: Request, ctx: C) => Promise<Response>,
  requireUser: boolean,
): NextHandler<P> {
  return async (request, ctx) => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    try {
      const params = ctx?.params ? await ctx.params : ({} as P);
      const identity = await authenticateRequest(request, { requireUser, sessions: getSessionStore() });
      return await handler(request, { params, requestId, ...identity } as C);
    } catch (err) {
      return toErrorResponse(err, requestId);
    }
  };
}

/**
 * The single try/catch of every route handler: parse → authorize → one service call → respond happens inside.
 * Before the handler runs, the wrapper resolves the user (401 without one in modes proxy and oidc) and, for any
 * method but GET/HEAD/OPTIONS, checks the CSRF token and Origin (403 `csrf`).
 */
export function withRoute<P = Record<string, never>>(handler: (request: Request, ctx: RouteContext<P>) => Promise<Response>): NextHandler<P> {
  return wrap<P, RouteContext<P>>(handler, true);
}

/** As {@link withRoute}, for the few routes a signed-out browser must reach (session, sign-in, callback). */
export function withPublicRoute<P = Record<string, never>>(
  handler: (request: Request, ctx: PublicRouteContext<P>) => Promise<Response>,
): NextHandler<P> {
  return wrap<P, PublicRouteContext<P>>(handler, false);
}
