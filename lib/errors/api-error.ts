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
  upstream_unavailable: 503,
  internal: 500,
};

/** The one error type routes throw; the route wrapper turns it into `{error:{code,message}}`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export interface ErrorEnvelope {
  error: { code: ApiErrorCode; message: string };
}
