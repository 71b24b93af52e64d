"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, use, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  ALL_ROWS,
  NO_ROWS,
  rowScopeCovers,
  streamPath,
  type FocusedRollout,
  type LiveDelta,
  type LiveSnapshot,
  type RowScope,
} from "@/lib/contracts/stream";
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

/**
 * Deltas are gathered until the next animation frame, so a burst costs one cache write and one render, and a change
 * shows within a frame of arriving. Hidden tabs get no frames; the timer takes over there.
 */
const FLUSH_FALLBACK_MS = 20;
const MAX_RETRY_MS = 30_000;

/** What the stream is asked for: the focused Rollouts' whole views, and whose overview rows. */
interface StreamSubscription {
  focus: string[];
  rows: RowScope;
  /** Equal for equal subscriptions. */
  id: string;
}

/**
 * What the mounted components ask the tab's stream to carry, counted (two components may ask for the same).
 * Components register in their effects; the stream reads the registry when it opens and is told of each change.
 */
export class StreamRegistry {
  private readonly focus = new Map<string, number>();
  /** `*` (every row) or a cluster's name. */
  private readonly rows = new Map<string, number>();
  private onChange: () => void = () => {};

  /** Calls `listener` after each registration and unregistration (one listener: the tab's stream); returns the stop. */
  listen(listener: () => void): () => void {
    this.onChange = listener;
    return () => {
      if (this.onChange === listener) this.onChange = () => {};
    };
  }

  /** Follow this Rollout's whole view (`cluster/namespace/name`); returns the unregister function. */
  registerFocus(key: string): () => void {
    return this.count(this.focus, key);
  }

  /** Carry the overview rows of this scope: `*` for every Rollout's, or a cluster's name. */
  registerRows(scope: string): () => void {
    return this.count(this.rows, scope);
  }

  current(): StreamSubscription {
    const focus = [...this.focus.keys()].sort();
    const scopes = [...this.rows.keys()].sort();
    const rows: RowScope = scopes.length === 0 ? NO_ROWS : scopes.includes(ALL_ROWS) ? ALL_ROWS : scopes;
    return { focus, rows, id: JSON.stringify([focus, rows]) };
  }

  private count(counts: Map<string, number>, key: string): () => void {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    this.onChange();
    let registered = true;
    return () => {
      if (!registered) return;
      registered = false;
      const left = (counts.get(key) ?? 1) - 1;
      if (left > 0) counts.set(key, left);
      else counts.delete(key);
      this.onChange();
    };
  }
}

const LiveStateContext = createContext<LiveState>({ status: "connecting", since: null });
const RegistryContext = createContext<StreamRegistry | null>(null);

/**
 * Opens the one /api/stream EventSource of this tab and writes what it carries into the React Query cache.
 * EventSource resumes by itself with Last-Event-ID; when the browser gives up (the server answered with an error),
 * we open a new one with backoff and the server starts over with a snapshot.
 *
 * The stream carries what the mounted components ask for: an overview every Rollout's row, a cluster page its
 * cluster's rows, a detail page only its focused Rollout; every page gets the cluster states. A detail page thus
 * takes one Rollout's changes, not the fleet's (about 500 a second at 5,000 Rollouts). When that changes (a page
 * opens or closes), the stream is opened again, once for all the registrations of one navigation: from the last
 * sequence number it delivered when the new stream carries no row the old one left out, else from a fresh snapshot,
 * after which what the cache holds of the fleet is asked for again (it missed changes never streamed here).
 */
export function LiveStreamProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>({ status: "connecting", since: null });
  const [registry] = useState(() => new StreamRegistry());
  const sawSnapshot = useRef(false);

  useEffect(() => {
    // The components mounted with the provider have registered already: their effects ran before this one.
    let subscription = registry.current();
    let focused = new Set(subscription.focus);
    let source: EventSource | null = null;
    let pending: LiveDelta[] = [];
    let flushTimer: number | undefined;
    let flushFrame: number | undefined;
    let retryTimer: number | undefined;
    let retryMs = 1_000;
    let closed = false;
    let changeQueued = false;
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
      const since = resume && sawSnapshot.current ? recent.newestSeq() : null;
      const es = new EventSource(withBasePath(streamPath(subscription.focus, since, subscription.rows)));
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
      es.addEventListener("position", (e) => recent.advance(Number((e as MessageEvent<string>).lastEventId)));
      es.addEventListener("rollout", (e) => {
        flush();
        writeFocusedRollout(client, JSON.parse((e as MessageEvent<string>).data) as FocusedRollout, throttle.invalidate);
      });
    };

    const close = () => {
      source?.close();
      source = null;
      if (pending.length > 0) flush();
      window.clearTimeout(retryTimer);
    };

    // One navigation unregisters the old page and registers the new one: the stream is opened again once, after both.
    const stopListening = registry.listen(() => {
      if (changeQueued) return;
      changeQueued = true;
      queueMicrotask(() => {
        changeQueued = false;
        const next = registry.current();
        if (closed || next.id === subscription.id) return;
        const resume = rowScopeCovers(subscription.rows, next.rows);
        close();
        subscription = next;
        focused = new Set(next.focus);
        open(resume);
      });
    });

    open(true);
    return () => {
      closed = true;
      stopListening();
      close();
      window.clearTimeout(flushTimer);
      if (flushFrame !== undefined) window.cancelAnimationFrame(flushFrame);
      throttle.dispose();
    };
  }, [client, registry]);

  return (
    <RegistryContext value={registry}>
      <LiveStateContext value={state}>{children}</LiveStateContext>
    </RegistryContext>
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
  const registry = use(RegistryContext);
  const key = useMemo(() => rolloutKeyOf(rollout), [rollout]);
  useEffect(() => registry?.registerFocus(key), [registry, key]);
}

/**
 * Asks the tab's stream to carry overview rows while the calling component is mounted: `*` for every Rollout's (an
 * overview of the fleet), or a cluster's name (that cluster's rows only).
 */
export function useStreamRows(scope: string): void {
  const registry = use(RegistryContext);
  useEffect(() => registry?.registerRows(scope), [registry, scope]);
}
