import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import net, { type AddressInfo, type Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { findResourceType } from "../resources";
import { Authenticator, impersonate, unauthorized } from "./auth";
import { FaultState } from "./faults";
import { isAnonymousPath, serveNonResource } from "./non-resource";
import { Authorizer, forbidden, forbiddenPath, isPublicPath, SUPERUSER_GROUP } from "./rbac";
import { parseRequestInfo } from "./request-info";
import { handleResource, type ServerEnv } from "./resource-handlers";
import { serviceProxyFromStore } from "./service-proxy";
import { notFoundPath, sendStatus, toApiError } from "./status";
import { selfSignedCertificate } from "./tls-cert";
import type { ApiServerHandle, ApiServerOptions } from "./types";

const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

/** Only loopback addresses: the demo cluster's tokens are well-known demo values and its certificate is throwaway. */
function loopbackHost(host: string): string {
  if (host === "localhost") return "127.0.0.1";
  if (host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return host;
  throw new Error(`the simulated API server only binds loopback addresses, not "${host}"`);
}

/** Whether the authenticated user may skip RBAC for this resource (every authenticated user may create SSARs, via system:basic-user). */
function implicitlyAllowed(group: string, resource: string, verb: string): boolean {
  return group === "authorization.k8s.io" && resource === "selfsubjectaccessreviews" && verb === "create";
}

async function handleRequest(
  req: IncomingMessage,
  res: ServerResponse,
  env: ServerEnv,
  authenticator: Authenticator,
  serverAddress: string,
): Promise<void> {
  if (env.faults.latencyMs > 0) await delay(env.faults.latencyMs);
  // Concatenated rather than resolved, so a path starting with "//" stays a path.
  const url = new URL(`http://apiserver.local${req.url ?? "/"}`);
  const info = parseRequestInfo(req.method ?? "GET", url);
  const authenticated = authenticator.authenticate(req);
  if (authenticated === "none") {
    if (!info.isResourceRequest && isAnonymousPath(info.path)) return serveNonResource(req, res, info.path, serverAddress);
    throw unauthorized();
  }
  const user = impersonate(req, authenticated, env.authorizer);

  if (!info.isResourceRequest) {
    if (!isPublicPath(info.path) && !user.groups.includes(SUPERUSER_GROUP)) throw forbiddenPath(user, info.verb, info.path);
    return serveNonResource(req, res, info.path, serverAddress);
  }

  // Injected failures hit resource requests only; discovery, version and health keep answering.
  const failure = env.faults.takeFailure();
  if (failure) throw failure;
  const attrs = {
    verb: info.verb,
    group: info.group,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
  if (!implicitlyAllowed(info.group, info.resource, info.verb)) {
    const decision = env.authorizer.authorize(user, attrs);
    if (!decision.allowed) throw forbidden(user, attrs, decision.reason);
  }
  const type = findResourceType(info.group, info.version, info.resource);
  if (!type) throw notFoundPath();
  await handleResource({ req, res, url, info, type, user, env });
}

/**
 * Starts the demo cluster's Kubernetes API server on a loopback port that answers plain HTTP (`url`) and TLS with a
 * self-signed certificate (`httpsUrl`, for kubectl). The port survives stop()/start().
 */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServerHandle> {
  const host = loopbackHost(options.host ?? "127.0.0.1");
  const faults = new FaultState();
  const env: ServerEnv = {
    store: options.store,
    faults,
    authorizer: new Authorizer(options.rbac),
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS,
    resolveServiceProxy: options.resolveServiceProxy ?? serviceProxyFromStore(options.store),
  };
  const authenticator = new Authenticator(options.users);
  const sockets = new Set<Socket>();
  let port = options.port ?? 0;
  let running = false;
  let serverAddress = "";

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handleRequest(req, res, env, authenticator, serverAddress).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else sendStatus(res, toApiError(err));
    });
  };
  const httpServer = http.createServer(onRequest);
  const httpsServer = https.createServer(selfSignedCertificate(), onRequest);
  // One port speaks both: plain HTTP for in-process clients, TLS because client-go (kubectl) sends a kubeconfig's
  // credentials only over TLS. The first byte of a TLS connection is a handshake record (0x16).
  const dispatch = (socket: Socket) => {
    const first = socket.read(1) as Buffer | null;
    if (first === null) {
      socket.once("readable", () => dispatch(socket));
      return;
    }
    socket.unshift(first);
    (first[0] === 0x16 ? httpsServer : httpServer).emit("connection", socket);
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    dispatch(socket);
  });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        port = (server.address() as AddressInfo).port;
        serverAddress = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
        running = true;
        resolve();
      });
    });
  await listen();

  const handle: ApiServerHandle = {
    url: `http://${serverAddress}`,
    httpsUrl: `https://${serverAddress}`,
    port,
    faults,
    get running() {
      return running;
    },
    async start() {
      if (!running) await listen();
    },
    async stop() {
      if (!running) return;
      running = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  return handle;
}
