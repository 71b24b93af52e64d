"use client";

import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { retryUnlessClientError } from "@/lib/queries/fetch-json";
import { LiveStreamProvider } from "@/lib/queries/live-stream";
import { createSignInRedirect } from "./_components/sign-in-redirect";

/** A request answered 401 (signed out, or the session ended): the sign-in page, instead of an error on every panel. */
const goToSignIn = createSignInRedirect(
  (target) => window.location.assign(target),
  () => window.location,
);

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: goToSignIn }),
        defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: retryUnlessClientError } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <LiveStreamProvider>{children}</LiveStreamProvider>
    </QueryClientProvider>
  );
}
