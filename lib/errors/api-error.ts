export type ApiErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "csrf"
  | "not_found"
  | "conflict"
  | "stale"
  | "payload_too_large"
  | "misdirected"
  | "too_many_requests"
  | "upstream_unavailable"
  | "internal";

const STATUS: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  csrf: 403,
  not_found: 404,
  conflict: 409,
  stale: 409,
  payload_too_large: 413,
  misdirected: 421,
  too_many_requests: 429,
  upstream_unavailable: 503,
  internal: 500,
};

/** The HTTP status an error code answers with (a batch carries codes per item; the browser turns them back). */
export function statusOfCode(code: string): number {
  return STATUS[code as ApiErrorCode] ?? 500;
}

const API_ERROR = Symbol.for("rollscope.ApiError");

/**
 * The one error type routes throw; the route wrapper turns it into `{error:{code,message}}`. `instanceof` checks a
 * brand rather than the class: a production build holds several copies of this module (instrumentation's, each
 * route's), and an error thrown by the fleet instrumentation created must still be a 404, not a 500.
 */
export class ApiError extends Error {
  readonly [API_ERROR] = true;
  readonly status: number;

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [API_ERROR]?: unknown })[API_ERROR] === true;
  }

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    /** Sent as Retry-After (a 429's or 503's retry hint). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export interface ErrorEnvelope {
  error: { code: ApiErrorCode; message: string };
}
