import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import fetch, { Headers, type RequestInit } from "node-fetch";
import { redactErrorText } from "@/lib/errors/known-secrets";
import { ROLLSCOPE_FIELD_MANAGER } from "@/lib/rollouts/field-manager";

/** A Kubernetes API failure with the Status body the server sent; the message is safe to show (redacted). */
export class KubeApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(redactErrorText(message));
  }
}

export interface KubeRequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: Record<string, string | undefined>;
  body?: unknown;
  contentType?: string;
  /** A list sends the header once per value, as `Impersonate-Group` needs (one group per header line). */
  headers?: Record<string, string | readonly string[]>;
  timeoutMs?: number;
}

/**
 * One request to the cluster's API server through the kubeconfig's transport (TLS, client certs, tokens, exec
 * plugins — all applied by client-node), returning the JSON exactly as the server sent it. The typed client-node
 * APIs turn timestamps into Date objects, which would make listed and watched objects differ.
 */
export async function kubeRequest<T>(kubeConfig: KubeConfig, path: string, opts: KubeRequestOptions = {}): Promise<T> {
  const server = kubeConfig.getCurrentCluster()?.server;
  if (!server) throw new KubeApiError(0, "NoServer", "the kubeconfig context has no server");
  const url = new URL(server.replace(/\/$/, "") + path);
  // Rollscope's writes carry its own field manager (as kubectl's carry kubectl-patch), not the HTTP client's user agent.
  if (opts.method === "PATCH" || opts.method === "PUT") url.searchParams.set("fieldManager", ROLLSCOPE_FIELD_MANAGER);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const base = (await kubeConfig.applyToFetchOptions({})) as RequestInit;
  // client-node hands back a node-fetch Headers (Authorization lives there); spreading it into an object would drop it.
  const headers = new Headers(base.headers);
  headers.set("accept", "application/json");
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    headers.delete(name);
    for (const item of typeof value === "string" ? [value] : value) headers.append(name, item);
  }
  const init: RequestInit = { ...base, method: opts.method ?? "GET", headers };
  if (opts.body !== undefined) {
    init.body = JSON.stringify(opts.body);
    headers.set("content-type", opts.contentType ?? "application/json");
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 15_000);
  init.signal = controller.signal as RequestInit["signal"];
  try {
    const res = await fetch(url.toString(), init);
    const text = await res.text();
    if (!res.ok) {
      let reason = res.statusText;
      let message = `${res.status} ${res.statusText}`;
      try {
        const status = JSON.parse(text) as { reason?: string; message?: string };
        reason = status.reason ?? reason;
        message = status.message ?? message;
      } catch {
        /* not a Status body */
      }
      throw new KubeApiError(res.status, reason, message);
    }
    return JSON.parse(text) as T;
  } catch (err) {
    if (err instanceof KubeApiError) throw err;
    if ((err as Error).name === "AbortError")
      throw new KubeApiError(0, "Timeout", `request to the cluster timed out after ${opts.timeoutMs ?? 15_000} ms`);
    // node-fetch names the request URL, user-info included; the KubeApiError constructor redacts it.
    throw new KubeApiError(0, "Unreachable", `cluster unreachable: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
