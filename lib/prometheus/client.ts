import "server-only";
import { readFile } from "node:fs/promises";
import type { PrometheusConfig } from "@/lib/config/schema";
import { queryResponseSchema, type MatrixResult } from "./matrix";

export type PrometheusErrorKind = "unreachable" | "timeout" | "bad_query" | "upstream_error" | "unauthorized";

/** A failed Prometheus call; `message` is safe to show (it never contains credentials). */
export class PrometheusError extends Error {
  constructor(
    readonly kind: PrometheusErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface PrometheusClient {
  /** The server as configured, without credentials, for "signal" labels. */
  readonly describe: string;
  queryRange(promql: string, startMs: number, endMs: number, stepSeconds: number): Promise<MatrixResult>;
}

async function authorizationHeader(config: PrometheusConfig): Promise<string | undefined> {
  const auth = config.auth;
  if (!auth) return undefined;
  if ("bearerToken" in auth) return `Bearer ${auth.bearerToken}`;
  if ("bearerTokenFile" in auth) return `Bearer ${(await readFile(auth.bearerTokenFile, "utf8")).trim()}`;
  return `Basic ${Buffer.from(`${auth.basic.username}:${auth.basic.password}`).toString("base64")}`;
}

/** The URL with any user-info removed, so it can be shown and logged. */
function redactUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.toString().replace(/\/$/, "");
}

/**
 * Prometheus HTTP API client (`/api/v1/query_range`) for one configured server. The address, credentials and
 * timeout come from the Rollscope configuration only.
 */
export function createPrometheusClient(config: PrometheusConfig): PrometheusClient {
  const base = config.url.replace(/\/$/, "");
  const shown = redactUrl(base);

  async function post(path: string, params: Record<string, string>): Promise<unknown> {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    const authorization = await authorizationHeader(config).catch((err: unknown) => {
      throw new PrometheusError("unauthorized", `cannot read the Prometheus credentials: ${(err as Error).message}`);
    });
    if (authorization) headers.authorization = authorization;
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: "POST",
        headers,
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (err) {
      const name = (err as Error).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new PrometheusError("timeout", `Prometheus ${shown} did not answer within ${config.timeoutMs} ms`);
      }
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new PrometheusError("unreachable", `Prometheus ${shown} is unreachable${cause ? ` (${cause})` : ""}`);
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403) {
      throw new PrometheusError("unauthorized", `Prometheus ${shown} refused the credentials (HTTP ${res.status})`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new PrometheusError("upstream_error", `Prometheus ${shown} answered HTTP ${res.status} without a JSON body`);
    }
    const parsed = queryResponseSchema.safeParse(body);
    if (!parsed.success) throw new PrometheusError("upstream_error", `Prometheus ${shown} sent an answer Rollscope does not understand`);
    if (parsed.data.status === "error") {
      const kind = parsed.data.errorType === "bad_data" ? "bad_query" : parsed.data.errorType === "timeout" ? "timeout" : "upstream_error";
      throw new PrometheusError(kind, `${parsed.data.errorType}: ${parsed.data.error}`);
    }
    return parsed.data.data;
  }

  return {
    describe: shown,
    async queryRange(promql, startMs, endMs, stepSeconds) {
      const data = (await post("/api/v1/query_range", {
        query: promql,
        start: String(startMs / 1000),
        end: String(endMs / 1000),
        step: String(stepSeconds),
        timeout: `${Math.max(1, Math.floor(config.timeoutMs / 1000))}s`,
      })) as { resultType: string; result: unknown };
      if (data.resultType !== "matrix") throw new PrometheusError("upstream_error", `expected a matrix, got ${data.resultType}`);
      return data.result as MatrixResult;
    },
  };
}
