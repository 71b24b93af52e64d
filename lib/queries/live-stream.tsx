"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, use, useEffect, useState, type ReactNode } from "react";
import type { LiveDelta, LiveSnapshot } from "@/lib/live/delta-log";
import { createThrottledInvalidate, writeLiveDeltas, writeLiveSnapshot } from "./live-stream-cache";

export type LiveStatus = "connecting" | "live" | "reconnecting";

export interface LiveState {
  status: LiveStatus;
  /** When the stream entered this status (epoch ms); null before the browser has connected. */
  since: number | null;
}

const LiveStateContext = createContext<LiveState>({ status: "connecting", since: null });

/** How long deltas are gathered before one cache write: keeps 5,000-row tables calm, well inside the 1 s budget. */
const FLUSH_MS = 250;
const MAX_RETRY_MS = 30_000;

/**
 * Opens the one /api/stream EventSource of this tab and writes what it carries into the React Query cache.
 * EventSource resumes by itself with Last-Event-ID; when the browser gives up (the server answered with an error),
 * we open a new one with backoff and the server starts over with a snapshot.
 */
export function LiveStreamProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>({ status: "connecting", since: null });

  useEffect(() => {
    let source: EventSource | null = null;
    let pending: LiveDelta[] = [];
    let flushTimer: number | undefined;
    let retryTimer: number | undefined;
    let retryMs = 1_000;
    let sawSnapshot = false;
    let closed = false;
    const throttle = createThrottledInvalidate(client);

    const setStatus = (status: LiveStatus) =>
      setState((prev) => (prev.status === status ? prev : { status, since: Date.now() }));

    const flush = () => {
      flushTimer = undefined;
      const batch = pending;
      pending = [];
      writeLiveDeltas(client, batch, throttle.invalidate);
    };

    const open = () => {
      const es = new EventSource("/api/stream");
      source = es;
      es.addEventListener("open", () => {
        retryMs = 1_000;
        setStatus("live");
      });
      es.addEventListener("error", () => {
        setStatus("reconnecting");
        if (es.readyState === EventSource.CLOSED && !closed) {
          retryTimer = window.setTimeout(open, retryMs);
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
        }
      });
      es.addEventListener("snapshot", (e) => {
        pending = [];
        writeLiveSnapshot(client, JSON.parse((e as MessageEvent<string>).data) as LiveSnapshot, sawSnapshot);
        sawSnapshot = true;
        setStatus("live");
      });
      es.addEventListener("delta", (e) => {
        pending.push(JSON.parse((e as MessageEvent<string>).data) as LiveDelta);
        flushTimer ??= window.setTimeout(flush, FLUSH_MS);
      });
    };

    open();
    return () => {
      closed = true;
      source?.close();
      window.clearTimeout(flushTimer);
      window.clearTimeout(retryTimer);
      throttle.dispose();
    };
  }, [client]);

  return <LiveStateContext value={state}>{children}</LiveStateContext>;
}

/** The stream's connection state, for the header indicator and for hooks that poll while it is down. */
export function useLiveState(): LiveState {
  return use(LiveStateContext);
}

/** Poll interval for queries the stream normally keeps fresh: none while live, a slow poll while it is not. */
export function useFallbackInterval(ms = 15_000): number | false {
  return useLiveState().status === "live" ? false : ms;
}
