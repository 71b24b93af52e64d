"use client";

import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from "react";

// One timer per interval for the whole page, however many clocks and countdowns are on it.
const tickers = new Map<number, { listeners: Set<() => void>; timer: ReturnType<typeof setInterval> }>();

function subscribe(intervalMs: number, listener: () => void): () => void {
  let ticker = tickers.get(intervalMs);
  if (!ticker) {
    const listeners = new Set<() => void>();
    ticker = { listeners, timer: setInterval(() => listeners.forEach((l) => l()), intervalMs) };
    tickers.set(intervalMs, ticker);
  }
  ticker.listeners.add(listener);
  return () => {
    const current = tickers.get(intervalMs);
    if (!current) return;
    current.listeners.delete(listener);
    if (current.listeners.size === 0) {
      clearInterval(current.timer);
      tickers.delete(intervalMs);
    }
  };
}

// Whole seconds: stable between React's consecutive reads, never more than a second behind.
const currentSecond = () => Math.floor(Date.now() / 1000) * 1000;

/**
 * The time a server-rendered page was rendered at. Server rendering and hydration both read it, so "5s ago" and
 * countdowns come out the same on both sides (a mismatch makes React throw the server's HTML away and render the
 * whole page again in the browser); the clocks move on right after hydration.
 */
const RenderTimeContext = createContext<number | null>(null);

export function RenderTimeProvider({ at, children }: { at: number | null; children: ReactNode }) {
  return createElement(RenderTimeContext.Provider, { value: at }, children);
}

/**
 * The current time (epoch ms, whole seconds), re-rendering the caller every `intervalMs`: 1 s for countdowns,
 * longer for "5m ago" labels.
 */
export function useNow(intervalMs = 1_000): number {
  const renderedAt = useContext(RenderTimeContext);
  return useSyncExternalStore(
    (listener) => subscribe(intervalMs, listener),
    currentSecond,
    () => renderedAt ?? currentSecond(),
  );
}
