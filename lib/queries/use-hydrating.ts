"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * True while React hydrates the server's HTML (and on the server), false in every browser render after. Data that
 * the page's server render used must be rendered unchanged until then: the live stream may have patched the cache
 * before a slow Suspense boundary hydrates, and any difference makes React discard the server's HTML.
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}
