/**
 * The V8 heap a server keeps alive: asks a Node.js process started with `--inspect=127.0.0.1:<port>` (the bench
 * starts its server so; production never does) for full garbage collections over the inspector protocol, then for
 * its heap use, over the protocol's WebSocket (Node's global WebSocket). Alone:
 * `node --import tsx bench/inspector-heap.ts <port> [snapshot-file]` prints `{"usedSize":…,"totalSize":…}` (and with
 * a file, writes a heap snapshot there after the collections: open it in Chrome DevTools to see what the server keeps).
 */
import { createWriteStream } from "node:fs";

export interface HeapAfterGc {
  /** V8 heap bytes in use after the collections: what the process keeps alive, without the garbage RSS also holds. */
  usedSize: number;
  totalSize: number;
}

const COLLECTIONS = 3;

/** The heap the server on inspector `port` keeps alive (`snapshotFile`: also write a heap snapshot there). */
export async function readHeapAfterGc(port: number, snapshotFile?: string): Promise<HeapAfterGc> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 0;
  const call = (method: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++nextId;
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown>; error?: unknown };
        if (message.id !== id) return;
        socket.removeEventListener("message", onMessage);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result ?? {});
      };
      socket.addEventListener("message", onMessage);
      socket.send(JSON.stringify({ id, method }));
    });
  for (let i = 0; i < COLLECTIONS; i++) await call("HeapProfiler.collectGarbage");
  const usage = await call("Runtime.getHeapUsage");
  if (snapshotFile) await writeSnapshot(socket, call, snapshotFile);
  socket.close();
  return { usedSize: Number(usage.usedSize), totalSize: Number(usage.totalSize) };
}

/** Streams a heap snapshot's chunks into `file`. */
async function writeSnapshot(socket: WebSocket, call: (method: string) => Promise<unknown>, file: string): Promise<void> {
  const out = createWriteStream(file);
  const onChunk = (event: MessageEvent) => {
    const message = JSON.parse(String(event.data)) as { method?: string; params?: { chunk: string } };
    if (message.method === "HeapProfiler.addHeapSnapshotChunk") out.write(message.params?.chunk ?? "");
  };
  socket.addEventListener("message", onChunk);
  await call("HeapProfiler.takeHeapSnapshot");
  socket.removeEventListener("message", onChunk);
  await new Promise((resolve) => out.end(resolve));
}

if (process.argv[1] === import.meta.filename) {
  readHeapAfterGc(Number(process.argv[2]), process.argv[3]).then(
    (heap) => console.log(JSON.stringify(heap)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
