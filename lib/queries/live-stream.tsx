"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, use, useEffect, useState, type ReactNode } from "react";
import type { LiveDelta, LiveSnapshot } from "@/lib/live/live-types";
import { createThrottledInvalidate, writeLiveDeltas, writeLiveSnapshot } from "./live-stream-cache";
import { recentDeltasOf } from "./recent-deltas";

export type LiveStatus = "connecting" | "live" | "reconnecting";

export interface LiveState {
  status: LiveStatus;
  /** When the stream entered this status (epoch ms); null before the browser has connected. */
  since: number | null;
}

const LiveStateContext = createContext<LiveState>({ status: "connecting", since: null });

/**
 * Deltas are gathered until the next animation frame, so a burst costs one cache write and one render, and a change
 * shows within a frame of arriving. Hidden tabs get no frames; the timer takes over there.
 */
const FLUSH_FALLBACK_MS = 20;
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
    let flushFrame: number | undefined;
    let retryTimer: number | undefined;
    let retryMs = 1_000;
    let sawSnapshot = false;
    let closed = false;
    const throttle = createThrottledInvalidate(client);

    const setStatus = (status: LiveStatus) =>
      setState((prev) => (prev.status === status ? prev : { status, since: Date.now() }));

    const recent = recentDeltasOf(client);
    const flush = () => {
      window.clearTimeout(flushTimer);
      if (flushFrame !== undefined) window.cancelAnimationFrame(flushFrame);
      flushTimer = undefined;
      flushFrame = undefined;
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
        const message = e as MessageEvent<string>;
        const delta = JSON.parse(message.data) as LiveDelta;
        recent.record(Number(message.lastEventId), delta);
        pending.push(delta);
        if (flushTimer === undefined) {
          flushTimer = window.setTimeout(flush, FLUSH_FALLBACK_MS);
          flushFrame = window.requestAnimationFrame(flush);
        }
      });
    };

    open();
    return () => {
      closed = true;
      source?.close();
      window.clearTimeout(flushTimer);
      if (flushFrame !== undefined) window.cancelAnimationFrame(flushFrame);
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
