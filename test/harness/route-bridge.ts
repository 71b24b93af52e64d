import http, { type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A Next.js route module: its exported method handlers. */
export type RouteModule = Record<string, unknown>;
type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface BridgedRoute {
  /** e.g. `/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions`, as the app/ folder names it. */
  path: string;
  module: RouteModule;
}

export interface RouteBridge {
  url: string;
  /** Adds routes after start (when the routes' config needs the bridge's URL). */
  add(routes: BridgedRoute[]): void;
  stop(): Promise<void>;
}

function compile(path: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = path.replace(/\[([^\]]+)\]/g, (_, key: string) => {
    keys.push(key);
    return "([^/]+)";
  });
  return { pattern: new RegExp(`^${source}$`), keys };
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
}

/**
 * Serves App Router route handlers from a plain Node HTTP server in the test's process: real sockets (so the peer
 * address stamp of lib/auth runs as under `next start`), real cookies and redirects, without a Next build.
 * Create it after importing a route module, as Next starts listening after loading instrumentation.
 */
export async function startRouteBridge(): Promise<RouteBridge> {
  const routes: Array<{ pattern: RegExp; keys: string[]; module: RouteModule }> = [];
  const dispatch = async (req: IncomingMessage): Promise<Response> => {
    const path = new URL(req.url ?? "/", "http://bridge").pathname;
    for (const route of routes) {
      const match = route.pattern.exec(path);
      const handler = match ? route.module[req.method ?? "GET"] : undefined;
      if (match && typeof handler === "function") {
        const params = Object.fromEntries(route.keys.map((key, i) => [key, decodeURIComponent(match[i + 1])]));
        return (handler as Handler)(await toRequest(req), { params: Promise.resolve(params) });
      }
    }
    return new Response("not found", { status: 404 });
  };
  const server: Server = http.createServer((req, res) => {
    dispatch(req)
      .then(async (response) => {
        const body = Buffer.from(await response.arrayBuffer());
        for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) res.setHeader("set-cookie", cookies);
        res.writeHead(response.status);
        res.end(body);
      })
      .catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(err));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    add(more) {
      for (const route of more) routes.push({ ...compile(route.path), module: route.module });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json<T>(): T;
}

export interface CallOptions {
  method?: string;
  /** Local address to send from (any 127.x.y.z), to play a trusted proxy or anyone else. */
  from?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One HTTP request without following redirects. */
export function httpCall(url: string, options: CallOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    const req = http.request(url, {
      method: options.method ?? "GET",
      localAddress: options.from ?? "127.0.0.1",
      headers: { ...(payload && typeof options.body !== "string" ? { "content-type": "application/json" } : {}), ...options.headers },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}
