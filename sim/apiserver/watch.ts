import type { ServerResponse } from "node:http";
import { groupVersion, type ResourceType } from "../resources";
import type { ObjectStore, StoreEvent } from "../store/object-store";
import type { FaultState } from "./faults";
import { objectJson } from "./http-io";
import { ApiError, JSON_HEADERS, statusOf, toApiError } from "./status";
import { type TableOptions, toTable } from "./table";

/** A watcher whose unsent backlog grows past this is closed, as the API server drops watchers that cannot keep up. */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;

export interface WatchRequest {
  type: ResourceType;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  timeoutSeconds?: number;
  allowBookmarks: boolean;
  /** The watch-list protocol (sendInitialEvents=true): initial ADDED events, then a BOOKMARK marking their end. */
  sendInitialEvents?: boolean;
  /** Set when the client asked for Table output (`kubectl get -w`). */
  table: TableOptions | null;
}

export interface WatchEnv {
  store: ObjectStore;
  faults: FaultState;
  bookmarkIntervalMs: number;
}

function line(type: string, objectText: string): string {
  return `{"type":"${type}","object":${objectText}}\n`;
}

/**
 * Streams watch events as JSON lines over a chunked 200 response. A resourceVersion older than the retained history
 * (or an injected expiry) is reported the way the watch cache does: a 200 stream holding one ERROR event with a
 * 410 Expired Status, then the end of the stream, so informers relist.
 */
export function serveWatch(res: ServerResponse, env: WatchEnv, w: WatchRequest): void {
  const { store, faults } = env;
  const encode = (event: StoreEvent): string => {
    const text = w.table
      ? JSON.stringify(toTable(w.type, [event.object], { resourceVersion: event.object.metadata.resourceVersion }, w.table))
      : objectJson(event.object);
    return line(event.type, text);
  };

  const sendExpired = (err: ApiError) => {
    res.writeHead(200, JSON_HEADERS);
    res.end(line("ERROR", JSON.stringify(statusOf(err))));
  };
  if (faults.takeExpire()) {
    sendExpired(new ApiError(410, "Expired", `too old resource version: ${w.resourceVersion ?? "0"} (${store.resourceVersion})`));
    return;
  }

  let resourceVersion = w.resourceVersion;
  // sendInitialEvents=false with no resourceVersion means "from now on", without the synthetic ADDED events.
  if (w.sendInitialEvents === false && (!resourceVersion || resourceVersion === "0")) resourceVersion = store.resourceVersion;
  if (w.sendInitialEvents) resourceVersion = undefined;

  let streaming = false;
  const initial: string[] = [];
  const send = (text: string) => {
    if (!streaming) {
      initial.push(text);
      return;
    }
    if (res.writableEnded || res.destroyed) return;
    res.write(text);
    if (res.writableLength > MAX_BACKLOG_BYTES) res.destroy();
  };

  let unsubscribe: () => void;
  try {
    unsubscribe = store.watch(
      w.type,
      { namespace: w.namespace, labelSelector: w.labelSelector, fieldSelector: w.fieldSelector, resourceVersion },
      (event) => send(encode(event)),
    );
  } catch (err) {
    const apiErr = toApiError(err);
    if (apiErr.code === 410) {
      sendExpired(apiErr);
      return;
    }
    throw apiErr;
  }

  const bookmark = (annotations?: Record<string, string>) => {
    const object = {
      kind: w.type.kind,
      apiVersion: groupVersion(w.type),
      metadata: { resourceVersion: store.resourceVersion, ...(annotations ? { annotations } : {}) },
    };
    return line("BOOKMARK", JSON.stringify(object));
  };
  if (w.sendInitialEvents) initial.push(bookmark({ "k8s.io/initial-events-end": "true" }));

  res.writeHead(200, JSON_HEADERS);
  res.flushHeaders();
  res.cork();
  for (const text of initial) res.write(text);
  process.nextTick(() => res.uncork());
  streaming = true;

  const timers: NodeJS.Timeout[] = [];
  let untrack = () => {};
  const finish = () => {
    unsubscribe();
    untrack();
    for (const t of timers) clearTimeout(t);
  };
  if (w.allowBookmarks && env.bookmarkIntervalMs > 0) {
    timers.push(setInterval(() => send(bookmark()), env.bookmarkIntervalMs));
  }
  if (w.timeoutSeconds && w.timeoutSeconds > 0) {
    timers.push(
      setTimeout(() => {
        finish();
        res.end();
      }, w.timeoutSeconds * 1000),
    );
  }
  untrack = faults.trackWatch(() => res.destroy());
  res.on("close", finish);
  // The client may already be gone (e.g. it gave up during injected latency): then "close" has fired already.
  if (res.destroyed || !res.socket || res.socket.destroyed) finish();
}
