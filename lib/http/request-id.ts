import { randomUUID } from "node:crypto";

/** What a client may pass as its own id for a request (`x-request-id`): a plain token, echoed as `x-correlation-id`. */
const CORRELATION_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

export interface RequestIds {
  /** Generated here for every request: what the logs and the audit log record. */
  readonly requestId: string;
  /** The client's own `x-request-id` when it is a plain token; never used as the request id. */
  readonly correlationId: string | null;
}

export function assignRequestIds(headers: Headers): RequestIds {
  const offered = headers.get("x-request-id")?.trim();
  return { requestId: randomUUID(), correlationId: offered && CORRELATION_ID.test(offered) ? offered : null };
}

/** The response headers that name a request's ids. */
export function requestIdHeaders(ids: RequestIds): Record<string, string> {
  return ids.correlationId ? { "x-request-id": ids.requestId, "x-correlation-id": ids.correlationId } : { "x-request-id": ids.requestId };
}
