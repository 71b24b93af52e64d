import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP pass-through on loopback between one client (Traefik) and the API server, which can cut that client off:
 * `freeze()` closes every open connection (its watches end) and refuses new ones, so the client keeps serving the
 * last configuration it read — a proxy that has lost its API access, the data-plane fault Rollscope's stuck-router
 * finding is about. `follow()` lets it through again; its informers list again and catch up.
 */
export interface ApiGate {
  url: string;
  readonly following: boolean;
  freeze(): void;
  follow(): void;
  stop(): Promise<void>;
}

export async function startApiGate(port: number, apiServerPort: number): Promise<ApiGate> {
  let following = true;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!following) return void client.destroy();
    const upstream = connect(apiServerPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once("close", () => open.delete(socket));
      socket.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `https://127.0.0.1:${port}`,
    get following() {
      return following;
    },
    freeze() {
      following = false;
      for (const socket of open) socket.destroy();
    },
    follow() {
      following = true;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
