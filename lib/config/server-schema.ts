import { z } from "zod";
import { parseAllowedHost } from "@/lib/net/host-check";
import { cidr } from "./auth-schema";

/** How the server meets the network: where it listens, which Host names it answers, whom it believes, how much it reads. */
export const serverConfigSchema = z.strictObject({
  /**
   * The address `npm start` and the demo listen on (ROLLSCOPE_LISTEN overrides it). Default: 127.0.0.1 in auth mode
   * none, where whoever reaches the port acts with the kubeconfig's credentials; all interfaces otherwise.
   */
  listen: z.string().min(1).optional(),
  /**
   * Host names (optionally `name:port`) requests may be addressed to; anything else gets 421, which stops DNS
   * rebinding. Default: localhost, 127.0.0.1 and [::1]. auth.baseUrl's host is always allowed.
   */
  allowedHosts: z
    .array(
      z.string().refine((entry) => parseAllowedHost(entry) !== null, { message: "must be a host name or address, optionally with :port" }),
    )
    .optional(),
  /** Reverse proxies whose X-Forwarded-For names the client (for the audit log); auth.proxy.trustedProxies count too. */
  trustedProxies: z.array(cidr).default([]),
  /**
   * `host:port` of the Prometheus metrics listener (GET /metrics), apart from the pages' port so it is never behind
   * the ingress, the Host check or sign-in; ROLLSCOPE_METRICS_LISTEN overrides. Default: no listener.
   */
  metricsListen: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, { message: "must be host:port, e.g. 0.0.0.0:9464" })
    .optional(),
  /**
   * `host:port` of the probe listener: GET /api/healthz and /api/readyz answered by a worker thread of their own, so
   * no load on the pages' port (thousands of connections, a busy event loop) makes the kubelet's probes time out and
   * restart the pod; ROLLSCOPE_PROBE_LISTEN overrides. It answers only `{alive}` / `{ready}`, no detail. Default: none
   * (the probes are then answered on the pages' port).
   */
  probeListen: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, { message: "must be host:port, e.g. 0.0.0.0:3001" })
    .optional(),
  /**
   * Open live streams (`/api/stream`, one per browser tab) allowed at once: `perUser` for one signed-in user (in auth
   * mode none, for one client address), `total` for the whole server. Past either the stream is refused with 429 and
   * a Retry-After; the tab's stream retries with backoff and the pages poll meanwhile.
   */
  streams: z
    .strictObject({
      perUser: z.number().int().min(1).max(10_000).default(16),
      total: z.number().int().min(1).max(100_000).default(256),
    })
    .default({ perUser: 16, total: 256 }),
  /**
   * The URL prefix every page, API route, stream and asset is served under (e.g. `/rollscope` behind an ingress);
   * "" for the root. Next fixes it at build time: build with ROLLSCOPE_BASE_PATH set to the same value (the server
   * refuses to start when the two differ). docs/deploy.md.
   */
  basePath: z
    .string()
    .regex(/^((\/[A-Za-z0-9._~-]+)+)?$/, { message: "must be empty or a path such as /rollscope, without a trailing slash" })
    .default(""),
  /** Largest request body accepted, in bytes (an action's body is held to 8 KiB whatever this says). */
  maxRequestBodyBytes: z
    .number()
    .int()
    .min(1_024)
    .max(10 * 1024 * 1024)
    .default(64 * 1024),
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;
