import type { ApiPath, ApiRoute, ApiRoutes, UntypedPath } from "@/lib/contracts/routes";
import type { ErrorEnvelope } from "@/lib/errors/api-error";
import { withBasePath } from "@/lib/format/base-path";

export class FetchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * fetch + JSON with the API's error envelope turned into a FetchError carrying its message. A path built in
 * lib/contracts names its route, and the answer's type is that route's contract (ApiRoutes); only a URL of no route
 * takes its type from the caller.
 */
export async function fetchJson<R extends ApiRoute>(url: ApiPath<R>, init?: RequestInit): Promise<ApiRoutes[R]>;
export async function fetchJson<T>(url: UntypedPath, init?: RequestInit): Promise<T>;
export async function fetchJson(url: string, init?: RequestInit): Promise<unknown> {
  const res = await fetch(withBasePath(url), { ...init, headers: { accept: "application/json", ...init?.headers } });
  if (!res.ok) {
    let code = "http_error";
    let message = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as Partial<ErrorEnvelope>;
      if (body.error) ({ code, message } = body.error);
    } catch {
      /* not JSON */
    }
    throw new FetchError(res.status, code, message);
  }
  return res.json();
}

/** React Query retry policy: a 4xx (unknown rollout, forbidden) will not change by asking again. */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (error instanceof FetchError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}
