"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { streamPath, type FocusedRollout, type LiveDelta, type LiveSnapshot } from "@/lib/contracts/stream";
import { rolloutKeyOf, type RolloutRef } from "@/lib/rollouts/rollout-ref";
import { createThrottledInvalidate, writeFocusedRollout, writeLiveDeltas, writeLiveSnapshot } from "./live-stream-cache";
import { recentDeltasOf } from "./recent-deltas";
import { withBasePath } from "@/lib/format/base-path";

export type LiveStatus = "connecting" | "live" | "reconnecting";

export interface LiveState {
  status: LiveStatus;
  /** When the stream entered this status (epoch ms); null before the browser has connected. */
  since: number | null;
}

const LiveStateContext = createContext<LiveState>({ status: "connecting", since: null });
/** Registers a Rollout the stream should follow with its whole view; returns the unregister function. */
const FocusContext = createContext<(key: string) => () => void>(() => () => {});

/**
 * Deltas are gathered until the next animation frame, so a burst costs one cache write and one render, and a change
 * shows within a frame of arriving. Hidden tabs get no frames; the timer takes over there.
 */
const FLUSH_FALLBACK_MS = 20;
const MAX_RETRY_MS = 30_000;

/** The focused keys of the tab, counted (two components may focus the same Rollout). */
function useFocusRegistry(): { focus: string[]; register: (key: string) => () => void } {
  const counts = useRef(new Map<string, number>());
  const [focus, setFocus] = useState<string[]>([]);
  const publish = useCallback(() => setFocus([...counts.current.keys()].sort()), []);
  const register = useCallback(
    (key: string) => {
      counts.current.set(key, (counts.current.get(key) ?? 0) + 1);
      publish();
      return () => {
        const left = (counts.current.get(key) ?? 1) - 1;
        if (left > 0) counts.current.set(key, left);
        else counts.current.delete(key);
        publish();
      };
    },
    [publish],
  );
  return { focus, register };
}

/**
 * Opens the one /api/stream EventSource of this tab and writes what it carries into the React Query cache.
 * EventSource resumes by itself with Last-Event-ID; when the browser gives up (the server answered with an error),
 * we open a new one with backoff and the server starts over with a snapshot. When the focused Rollouts change (a
 * detail page opens or closes), the stream is opened again from the last sequence number it delivered.
 */
export function LiveStreamProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>({ status: "connecting", since: null });
  const { focus, register } = useFocusRegistry();
  const sawSnapshot = useRef(false);
  const focusKey = focus.join("\n");

  useEffect(() => {
    const focused = new Set(focusKey ? focusKey.split("\n") : []);
    let source: EventSource | null = null;
    let pending: LiveDelta[] = [];
    let flushTimer: number | undefined;
    let flushFrame: number | undefined;
    let retryTimer: number | undefined;
    let retryMs = 1_000;
    let closed = false;
    const throttle = createThrottledInvalidate(client);

    const setStatus = (status: LiveStatus) => setState((prev) => (prev.status === status ? prev : { status, since: Date.now() }));

    const recent = recentDeltasOf(client);
    const flush = () => {
      window.clearTimeout(flushTimer);
      if (flushFrame !== undefined) window.cancelAnimationFrame(flushFrame);
      flushTimer = undefined;
      flushFrame = undefined;
      const batch = pending;
      pending = [];
      writeLiveDeltas(client, batch, throttle.invalidate, focused);
    };

    const open = (resume: boolean) => {
      const es = new EventSource(withBasePath(streamPath([...focused], resume && sawSnapshot.current ? recent.newestSeq() : null)));
      source = es;
      es.addEventListener("open", () => {
        retryMs = 1_000;
        setStatus("live");
      });
      es.addEventListener("error", () => {
        setStatus("reconnecting");
        if (es.readyState === EventSource.CLOSED && !closed) {
          retryTimer = window.setTimeout(() => open(false), retryMs);
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
        }
      });
      es.addEventListener("snapshot", (e) => {
        pending = [];
        writeLiveSnapshot(client, JSON.parse((e as MessageEvent<string>).data) as LiveSnapshot, sawSnapshot.current);
        sawSnapshot.current = true;
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
      es.addEventListener("rollout", (e) => {
        flush();
        writeFocusedRollout(client, JSON.parse((e as MessageEvent<string>).data) as FocusedRollout, throttle.invalidate);
      });
    };

    // A new focus continues from what this tab already has; the first stream starts with a snapshot.
    open(true);
    return () => {
      closed = true;
      source?.close();
      if (pending.length > 0) flush();
      window.clearTimeout(flushTimer);
      if (flushFrame !== undefined) window.cancelAnimationFrame(flushFrame);
      window.clearTimeout(retryTimer);
      throttle.dispose();
    };
  }, [client, focusKey]);

  return (
    <FocusContext value={register}>
      <LiveStateContext value={state}>{children}</LiveStateContext>
    </FocusContext>
  );
}

/** The stream's connection state, for the header indicator and for hooks that poll while it is down. */
export function useLiveState(): LiveState {
  return use(LiveStateContext);
}

/** Poll interval for queries the stream normally keeps fresh: none while live, a slow poll while it is not. */
export function useFallbackInterval(ms = 15_000): number | false {
  return useLiveState().status === "live" ? false : ms;
}

/** Asks the tab's stream to follow this Rollout's whole view while the calling component is mounted. */
export function useFocusedRollout(rollout: RolloutRef): void {
  const register = use(FocusContext);
  const key = useMemo(() => rolloutKeyOf(rollout), [rollout]);
  useEffect(() => register(key), [register, key]);
}
