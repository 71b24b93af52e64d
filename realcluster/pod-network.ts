import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import { CoreV1Api, KubeConfig, makeInformer, type Informer, type V1Pod } from "@kubernetes/client-node";

/**
 * The pods' network on loopback: kwok's pods have addresses but no process behind them, so this answers for every
 * Running pod — at its IP and container port — with its name and `rollouts-pod-template-hash`, and counts the
 * requests it answered per pod-template hash. It follows pods through the API server (an informer), so the pods of
 * a new ReplicaSet answer as soon as kwok reports them Running.
 *
 * Why one loopback listener rather than binding each pod's IP: pod IPs inside 127.0.0.0/8 would need no set-up to
 * bind, but the API server refuses loopback addresses in EndpointSlices (`ValidateEndpointIP`: "may not be in the
 * loopback range"), so no proxy reading EndpointSlices could route to them. Pods therefore keep kwok's addresses
 * (10.0.1.0/24, routed nowhere) and the proxy reaches them through this listener as its SOCKS5 proxy
 * (`HTTP_PROXY=socks5://…`, which Go's HTTP transport honours): each connection names the pod's IP and port in its
 * SOCKS CONNECT, is refused when no Running pod has that address (the proxy sees a failed dial, as from a pod that is
 * gone), and otherwise carries plain HTTP answered as that pod. An HTTP forward proxy would not do: Go writes the
 * Host header's name, not the address it dialled, into a proxied request's target. Nothing leaves loopback.
 * By hand: `curl --socks5 127.0.0.1:<port> http://10.0.1.7:8080/`.
 */

const HASH_LABEL = "rollouts-pod-template-hash";
/** Per-second counts are kept this long (the longest window a test or Rollscope compares). */
const KEEP_SECONDS = 3_600;

export interface ServedPod {
  namespace: string;
  name: string;
  hash: string;
  address: string;
}

export interface PodNetwork {
  /** `socks5://127.0.0.1:<port>`: the proxy's HTTP_PROXY. */
  proxyUrl: string;
  /** Pods answering now, by `ip:port`. */
  pods(): ServedPod[];
  /** Requests answered per pod-template hash in [fromMs, toMs) (whole seconds), optionally of one namespace. */
  countsByHash(fromMs: number, toMs: number, namespace?: string): Record<string, number>;
  /** Prometheus text exposition of the per-pod counters. */
  metricsText(): string;
  stop(): Promise<void>;
}

/** The `ip:port` addresses a pod answers on: its containers' declared ports, or `ip:*` (any port) when none are. */
function podAddresses(pod: V1Pod): string[] {
  const ip = pod.status?.podIP;
  if (!ip || pod.status?.phase !== "Running" || pod.metadata?.deletionTimestamp) return [];
  const ports = (pod.spec?.containers ?? []).flatMap((c) => (c.ports ?? []).map((p) => p.containerPort));
  return ports.length > 0 ? ports.map((port) => `${ip}:${port}`) : [`${ip}:*`];
}

/** `namespace`, `pod` and hash as a label set; values escaped for the text exposition. */
function labels(values: Record<string, string>): string {
  const escape = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  return Object.entries(values)
    .map(([k, v]) => `${k}="${escape(v)}"`)
    .join(",");
}

export async function startPodNetwork(port: number, adminKubeconfigPath: string): Promise<PodNetwork> {
  const byAddress = new Map<string, ServedPod>();
  const addressesOf = new Map<string, string[]>();
  /** second → `namespace/hash` → requests answered. */
  const perSecond = new Map<number, Map<string, number>>();
  /** `namespace/pod/hash` → requests answered since start. */
  const totals = new Map<string, { namespace: string; pod: string; hash: string; count: number }>();

  const forget = (key: string) => {
    for (const address of addressesOf.get(key) ?? []) byAddress.delete(address);
    addressesOf.delete(key);
  };
  const track = (pod: V1Pod) => {
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    forget(key);
    const addresses = podAddresses(pod);
    if (addresses.length === 0) return;
    const served = {
      namespace: pod.metadata?.namespace ?? "",
      name: pod.metadata?.name ?? "",
      hash: pod.metadata?.labels?.[HASH_LABEL] ?? "",
    };
    for (const address of addresses) byAddress.set(address, { ...served, address });
    addressesOf.set(key, addresses);
  };

  const kc = new KubeConfig();
  kc.loadFromFile(adminKubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  const informer: Informer<V1Pod> = makeInformer(kc, "/api/v1/pods", () => core.listPodForAllNamespaces());
  let stopped = false;
  informer.on("add", track);
  informer.on("update", track);
  informer.on("delete", (pod) => forget(`${pod.metadata?.namespace}/${pod.metadata?.name}`));
  // The informer stops on an error (the API server restarting, a watch cut off): list and watch again.
  informer.on("error", () => {
    if (!stopped) setTimeout(() => void informer.start().catch(() => {}), 1_000);
  });

  const count = (pod: ServedPod) => {
    const second = Math.floor(Date.now() / 1000);
    let bucket = perSecond.get(second);
    if (!bucket) {
      bucket = new Map();
      perSecond.set(second, bucket);
      for (const old of perSecond.keys()) if (old < second - KEEP_SECONDS) perSecond.delete(old);
    }
    const key = `${pod.namespace}/${pod.hash}`;
    bucket.set(key, (bucket.get(key) ?? 0) + 1);
    const totalKey = `${pod.namespace}/${pod.name}/${pod.hash}`;
    const total = totals.get(totalKey) ?? { namespace: pod.namespace, pod: pod.name, hash: pod.hash, count: 0 };
    total.count += 1;
    totals.set(totalKey, total);
  };

  /** The pod each SOCKS connection was opened to. */
  const podOfSocket = new WeakMap<Socket, ServedPod>();
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const opened = podOfSocket.get(req.socket);
    // A connection to a pod that has stopped since: reset, as the pod's address no longer answers.
    const pod = opened && byAddress.get(opened.address) === opened ? opened : undefined;
    if (!pod) return void req.socket.destroy();
    count(pod);
    res.writeHead(200, { "content-type": "application/json", "x-pod-name": pod.name, "x-pod-template-hash": pod.hash });
    res.end(`${JSON.stringify({ pod: pod.name, namespace: pod.namespace, [HASH_LABEL]: pod.hash })}\n`);
  };
  const http = createServer({ keepAliveTimeout: 30_000 }, answer);
  const lookup = (ip: string, port: number) => byAddress.get(`${ip}:${port}`) ?? byAddress.get(`${ip}:*`);
  const server = createTcpServer((socket) => {
    socket.on("error", () => {});
    socks5Handshake(socket, lookup, (pod, rest) => {
      podOfSocket.set(socket, pod);
      if (rest.length > 0) socket.unshift(rest);
      http.emit("connection", socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  await informer.start();

  return {
    proxyUrl: `socks5://127.0.0.1:${port}`,
    pods: () => [...byAddress.values()],
    countsByHash(fromMs, toMs, namespace) {
      const result: Record<string, number> = {};
      for (const [second, bucket] of perSecond) {
        if (second * 1000 < fromMs || (second + 1) * 1000 > toMs) continue;
        for (const [key, n] of bucket) {
          const [ns, hash] = key.split("/");
          if (namespace === undefined || ns === namespace) result[hash] = (result[hash] ?? 0) + n;
        }
      }
      return result;
    },
    metricsText() {
      const lines = [
        "# HELP rollscope_pod_requests_total Requests the real cluster's pods answered (realcluster/pod-network.ts).",
        "# TYPE rollscope_pod_requests_total counter",
      ];
      for (const t of totals.values()) {
        lines.push(
          `rollscope_pod_requests_total{${labels({ namespace: t.namespace, pod: t.pod, [HASH_LABEL.replace(/-/g, "_")]: t.hash })}} ${t.count}`,
        );
      }
      return `${lines.join("\n")}\n`;
    },
    async stop() {
      stopped = true;
      await informer.stop().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The server side of a SOCKS5 CONNECT without authentication (RFC 1928): reads the greeting and the request, refuses
 * what is not a CONNECT to an IPv4 address a pod answers on (reply 5, connection refused; 7 for other commands, 8
 * for other address types), and otherwise replies success and hands over the socket with any bytes read past the
 * request.
 */
function socks5Handshake(
  socket: Socket,
  lookup: (ip: string, port: number) => ServedPod | undefined,
  connected: (pod: ServedPod, rest: Buffer) => void,
): void {
  let buffered = Buffer.alloc(0);
  let greeted = false;
  const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
  const fail = (code: number) => {
    socket.removeListener("data", onData);
    socket.end(reply(code));
  };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (!greeted) {
      if (buffered.length < 2) return;
      if (buffered[0] !== 5) return void socket.destroy();
      const length = 2 + buffered[1];
      if (buffered.length < length) return;
      buffered = buffered.subarray(length);
      greeted = true;
      socket.write(Buffer.from([5, 0]));
    }
    if (buffered.length < 4) return;
    const [version, command, , addressType] = buffered;
    if (version !== 5) return void socket.destroy();
    if (command !== 1) return fail(7);
    if (addressType !== 1) return fail(8);
    if (buffered.length < 10) return;
    const ip = [...buffered.subarray(4, 8)].join(".");
    const pod = lookup(ip, buffered.readUInt16BE(8));
    if (!pod) return fail(5);
    socket.removeListener("data", onData);
    socket.pause();
    socket.write(reply(0));
    connected(pod, buffered.subarray(10));
  };
  socket.on("data", onData);
}
