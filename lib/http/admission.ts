import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { isAllowedHost } from "@/lib/net/host-check";
import type { ServerSettings } from "@/lib/server/server-settings";

/**
 * The probes answer whatever the Host: the kubelet and a container engine's health check address the server by its
 * IP, and what they return (alive; ready, with redacted reasons) is worth nothing to a rebinding page.
 */
const PROBE_PATHS = new Set(["/api/healthz", "/api/readyz"]);

/**
 * 421 for a request addressed to a host this server does not answer for. A browser sends the name it resolved, so
 * a DNS-rebinding page (evil.example resolved to 127.0.0.1) arrives with its own name and stops here.
 */
export function hostRefusal(host: string | null | undefined, settings: ServerSettings, pathname: string): ApiError | null {
  if (PROBE_PATHS.has(pathname) || isAllowedHost(host, settings.allowedHosts)) return null;
  const shown = JSON.stringify((host ?? "").slice(0, 100));
  return new ApiError(
    "misdirected",
    `this server does not answer for host ${shown}: list it in server.allowedHosts (or ROLLSCOPE_ALLOWED_HOSTS)`,
  );
}

/** 413 for a body over `limit` bytes. */
export function bodyTooLarge(limit: number): ApiError {
  return new ApiError("payload_too_large", `the request body is larger than ${limit} bytes`);
}

/** 413 when the declared Content-Length is over the limit, before a byte of the body is read. */
export function declaredLengthRefusal(contentLength: string | null | undefined, limit: number): ApiError | null {
  const length = Number(contentLength);
  return contentLength && Number.isFinite(length) && length > limit ? bodyTooLarge(limit) : null;
}
