import type { ReactNode } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";

/** The four states every chart has; the caller decides which one applies, the frame draws it. */
export type ChartState<T> =
  | { status: "loading" }
  | { status: "error"; message: string; onRetry?: () => void }
  | { status: "empty"; message: string }
  | { status: "data"; data: T };

interface ChartFrameProps<T> {
  state: ChartState<T>;
  height: number;
  title: string;
  children: (data: T) => ReactNode;
}

export function ChartFrame<T>({ state, height, title, children }: ChartFrameProps<T>) {
  switch (state.status) {
    case "loading":
      return (
        <div role="status" style={{ height }} className="flex flex-col justify-end gap-2">
          <span className="sr-only">Loading {title}…</span>
          <Skeleton className="h-full w-full" />
        </div>
      );
    case "error":
      return (
        <div style={{ minHeight: height }} className="flex items-center">
          <ErrorState title={`Could not load ${title}`} message={state.message} onRetry={state.onRetry} className="w-full" />
        </div>
      );
    case "empty":
      return (
        <div
          style={{ height }}
          className="flex items-center justify-center rounded-md border border-dashed border-slate-300 dark:border-slate-700"
        >
          <EmptyState title={state.message} />
        </div>
      );
    case "data":
      return <>{children(state.data)}</>;
  }
}
