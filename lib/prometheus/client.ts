import "server-only";
import { readFile } from "node:fs/promises";
import type { PrometheusConfig } from "@/lib/config/schema";
import { redactErrorText, rememberSecrets } from "@/lib/errors/known-secrets";
import { queryResponseSchema, type MatrixResult } from "./matrix";
import { observePrometheusQuery } from "@/lib/telemetry/observe";

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

type BasicCredentials = { username: string; password: string };

/** The configured URL without user-info, and the user-info as basic credentials (fetch refuses URLs carrying them). */
function splitUserInfo(url: string): { base: string; basic: BasicCredentials | null } {
  const parsed = new URL(url);
  const basic =
    parsed.username || parsed.password
      ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) }
      : null;
  parsed.username = "";
  parsed.password = "";
  return { base: parsed.toString().replace(/\/$/, ""), basic };
}

function basicHeader({ username, password }: BasicCredentials): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

async function authorizationHeader(auth: PrometheusConfig["auth"], fromUrl: BasicCredentials | null): Promise<string | undefined> {
  if (!auth) return fromUrl ? basicHeader(fromUrl) : undefined;
  if ("bearerToken" in auth) return `Bearer ${auth.bearerToken}`;
  if ("bearerTokenFile" in auth) {
    const token = (await readFile(auth.bearerTokenFile, "utf8")).trim();
    rememberSecrets([token]);
    return `Bearer ${token}`;
  }
  return basicHeader(auth.basic);
}

/** Every credential of a Prometheus configuration, remembered so error text can be scrubbed of them. */
function rememberPrometheusSecrets(config: PrometheusConfig, fromUrl: BasicCredentials | null): void {
  const auth = config.auth;
  rememberSecrets([fromUrl?.password]);
  if (auth && "bearerToken" in auth) rememberSecrets([auth.bearerToken]);
  if (auth && "basic" in auth) rememberSecrets([auth.basic.password]);
}

/**
 * Prometheus HTTP API client (`/api/v1/query_range`) for one configured server. The address, credentials and
 * timeout come from the Rollscope configuration only.
 */
export function createPrometheusClient(config: PrometheusConfig): PrometheusClient {
  const { base, basic: basicFromUrl } = splitUserInfo(config.url);
  rememberPrometheusSecrets(config, basicFromUrl);
  const shown = redactErrorText(base);

  /** One query, timed and counted (rollscope_prometheus_query_*). */
  async function post(path: string, params: Record<string, string>): Promise<unknown> {
    const startedAt = performance.now();
    try {
      const data = await postOnce(path, params);
      observePrometheusQuery(startedAt, null);
      return data;
    } catch (err) {
      observePrometheusQuery(startedAt, err instanceof PrometheusError ? err.kind : "upstream_error");
      throw err;
    }
  }

  async function postOnce(path: string, params: Record<string, string>): Promise<unknown> {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    const authorization = await authorizationHeader(config.auth, basicFromUrl).catch((err: unknown) => {
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
      throw new PrometheusError(kind, redactErrorText(`${parsed.data.errorType}: ${parsed.data.error}`));
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
