"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { retryUnlessClientError } from "@/lib/queries/fetch-json";
import { LiveStreamProvider } from "@/lib/queries/live-stream";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: retryUnlessClientError } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <LiveStreamProvider>{children}</LiveStreamProvider>
    </QueryClientProvider>
  );
}
