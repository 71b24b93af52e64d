import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import fetch, { Headers, type RequestInit } from "node-fetch";
import { redactErrorText } from "@/lib/errors/known-secrets";

/** The service-proxy path of the controller's metrics Service (`/api/v1/namespaces/{ns}/services/{svc}:{port}/proxy/metrics`). */
function controllerMetricsProxyPath(namespace: string, service: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${encodeURIComponent(service).replace(/%3A/gi, ":")}/proxy/metrics`;
}

/**
 * GETs the controller's /metrics text through the API server's service proxy, with the cluster's kubeconfig
 * transport (TLS, tokens, exec plugins). `kubeRequest` parses JSON, so the text body needs this sibling.
 */
export async function fetchControllerMetrics(
  kubeConfig: KubeConfig,
  namespace: string,
  service: string,
  timeoutMs: number,
): Promise<string> {
  const server = kubeConfig.getCurrentCluster()?.server;
  if (!server) throw new Error("the kubeconfig context has no server");
  const url = server.replace(/\/$/, "") + controllerMetricsProxyPath(namespace, service);
  const base = (await kubeConfig.applyToFetchOptions({})) as RequestInit;
  // client-node hands back a Headers object (Authorization lives there); spreading it would drop the credentials.
  const headers = new Headers(base.headers);
  headers.set("accept", "text/plain;version=0.0.4");
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { ...base, headers, signal: controller.signal as RequestInit["signal"] });
    const text = await res.text();
    if (!res.ok) {
      let message = text.slice(0, 200);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        /* a plain-text error */
      }
      throw new Error(`the API server proxy to ${namespace}/${service} answered ${res.status}: ${message}`);
    }
    return text;
  } catch (err) {
    if ((err as Error).name === "AbortError") throw new Error(`scraping ${namespace}/${service} timed out after ${timeoutMs} ms`);
    // node-fetch names the request URL, user-info included; the proxy's answer could echo anything.
    throw new Error(redactErrorText((err as Error).message));
  } finally {
    clearTimeout(timer);
  }
}
