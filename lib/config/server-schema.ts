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
  /** Largest request body accepted, in bytes (an action's body is held to 8 KiB whatever this says). */
  maxRequestBodyBytes: z
    .number()
    .int()
    .min(1_024)
    .max(10 * 1024 * 1024)
    .default(64 * 1024),
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;
