import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import https from "node:https";
import { findResourceType } from "../resources";
import type { ObjectStore } from "../store/object-store";
import { ApiError, sendStatus } from "./status";

/** The annotation on a Service whose value is the base URL its proxy subresource forwards to. */
export const PROXY_TARGET_ANNOTATION = "sim.rollscope.dev/proxy-target";

export type ServiceProxyResolver = (namespace: string, service: string, port: string) => string | null;

/** Resolves a service to the base URL in its `sim.rollscope.dev/proxy-target` annotation, so whoever creates the Service decides the target. */
export function serviceProxyFromStore(store: ObjectStore): ServiceProxyResolver {
  const services = findResourceType("", "v1", "services")!;
  return (namespace, service) => store.tryGet(services, namespace, service)?.metadata.annotations?.[PROXY_TARGET_ANNOTATION] ?? null;
}

/** `[scheme:]name[:port]`, as net.SplitSchemeNamePort parses the name segment of a proxy URL. */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | null {
  const parts = id.split(":");
  const [scheme, name, port] =
    parts.length === 3 ? parts : parts.length === 2 ? ["", parts[0], parts[1]] : parts.length === 1 ? ["", parts[0], ""] : [];
  if (!name || !["", "http", "https"].includes(scheme ?? "")) return null;
  return { scheme: scheme ?? "", name, port: port ?? "" };
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "host"]);

function forwardHeaders(headers: IncomingMessage["headers"]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(headers)) {
    // The authentication and impersonation filters strip credentials before a request is proxied.
    if (value === undefined || HOP_BY_HOP.has(key) || key === "authorization" || key.startsWith("impersonate-")) continue;
    out[key] = value;
  }
  return out;
}

export interface ProxyRequest {
  namespace: string;
  /** The raw name segment: `name`, `name:port` or `scheme:name:port`. */
  nameSegment: string;
  /** The still-encoded path after `/proxy`. */
  rawSubpath: string;
  search: string;
}

/** Forwards the request to the service's target and streams the answer back; 503 when there is no target or it is down. */
export function proxyToService(
  req: IncomingMessage,
  res: ServerResponse,
  p: ProxyRequest,
  resolve: ServiceProxyResolver,
  store: ObjectStore,
): void {
  const id = splitSchemeNamePort(p.nameSegment);
  if (!id) throw new ApiError(400, "BadRequest", `invalid service request "${p.nameSegment}"`);
  const base = resolve(p.namespace, id.name, id.port);
  if (!base) {
    const services = findResourceType("", "v1", "services")!;
    store.get(services, p.namespace, id.name); // 404 when the Service itself is missing
    throw new ApiError(503, "ServiceUnavailable", `no endpoints available for service "${id.name}"`);
  }
  const target = new URL(base);
  const path = `${target.pathname.replace(/\/$/, "")}${p.rawSubpath || "/"}${p.search}`;
  const client = target.protocol === "https:" ? https : http;
  const upstream = client.request(
    {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path,
      headers: { ...forwardHeaders(req.headers), host: target.host },
    },
    (answer) => {
      const headers: OutgoingHttpHeaders = {};
      for (const [key, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(key)) headers[key] = value;
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    },
  );
  upstream.on("error", (err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendStatus(res, new ApiError(503, "ServiceUnavailable", `error trying to reach service: ${err.message}`));
  });
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
