import type { ServerResponse } from "node:http";
import { StoreError } from "../store/object-store";

export type StatusReason =
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Invalid"
  | "Expired"
  | "BadRequest"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "UnsupportedMediaType"
  | "RequestEntityTooLarge"
  | "TooManyRequests"
  | "InternalError"
  | "ServiceUnavailable";

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  retryAfterSeconds?: number;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A request that fails with a `kind: Status` body. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }
}

export function notFoundPath(): ApiError {
  return new ApiError(404, "NotFound", "the server could not find the requested resource");
}

export function methodNotAllowed(): ApiError {
  return new ApiError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, "BadRequest", message);
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreError) return new ApiError(err.code, err.reason, err.message, err.details);
  const message = err instanceof Error ? err.message : String(err);
  return new ApiError(500, "InternalError", `Internal error occurred: ${message}`);
}

/** The Status body; empty detail fields are omitted as Go's `omitempty` does. */
export function statusOf(err: ApiError): Status {
  const status: Status = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: err.message,
    reason: err.reason,
    code: err.code,
  };
  if (err.details) {
    const details: StatusDetails = {};
    if (err.details.name) details.name = err.details.name;
    if (err.details.group) details.group = err.details.group;
    if (err.details.kind) details.kind = err.details.kind;
    if (err.details.retryAfterSeconds) details.retryAfterSeconds = err.details.retryAfterSeconds;
    if (Object.keys(details).length > 0) {
      // Keep Kubernetes' field order: details comes before code.
      return { ...status, details, code: err.code };
    }
  }
  return status;
}

export const JSON_HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-cache, private" } as const;

export function sendJson(res: ServerResponse, code: number, body: string | object, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(code, { ...JSON_HEADERS, ...headers, "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

export function sendStatus(res: ServerResponse, err: ApiError): void {
  const headers: Record<string, string> = {};
  if (err.details?.retryAfterSeconds) headers["Retry-After"] = String(err.details.retryAfterSeconds);
  sendJson(res, err.code, statusOf(err), headers);
}
