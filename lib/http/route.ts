import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ApiError, type ErrorEnvelope } from "./api-error";

export interface RouteContext<P> {
  params: P;
  requestId: string;
}

function kubernetesStatusCode(err: unknown): number | undefined {
  if (typeof err === "object" && err !== null && "code" in err && typeof (err as { code: unknown }).code === "number") {
    const code = (err as { code: number }).code;
    return code >= 400 && code < 600 ? code : undefined;
  }
  return undefined;
}

/** Translates anything a handler throws into the JSON envelope; internals are logged, never echoed. */
export function toErrorResponse(err: unknown, requestId: string): Response {
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (err instanceof z.ZodError) {
    apiError = new ApiError("bad_request", err.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "));
  } else {
    const code = kubernetesStatusCode(err);
    if (code === 401 || code === 403) apiError = new ApiError("forbidden", "the cluster refused this request");
    else if (code === 404) apiError = new ApiError("not_found", "not found in the cluster");
    else if (code === 409) apiError = new ApiError("conflict", "the object changed in the cluster; reload and retry");
    else if (code && code >= 500) apiError = new ApiError("upstream_unavailable", "the cluster API is unavailable");
    else {
      console.error(`[${requestId}] unhandled error`, err);
      apiError = new ApiError("internal", `internal error (request ${requestId})`);
    }
  }
  const body: ErrorEnvelope = { error: { code: apiError.code, message: apiError.message } };
  return Response.json(body, { status: apiError.status, headers: { "x-request-id": requestId } });
}

/** The single try/catch of every route handler: parse → authorize → one service call → respond happens inside. */
export function withRoute<P = Record<string, never>>(
  handler: (request: Request, ctx: RouteContext<P>) => Promise<Response>,
): (request: Request, ctx: { params: Promise<P> }) => Promise<Response> {
  return async (request, ctx) => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    try {
      const params = ctx?.params ? await ctx.params : ({} as P);
      return await handler(request, { params, requestId });
    } catch (err) {
      return toErrorResponse(err, requestId);
    }
  };
}
