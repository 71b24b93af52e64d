import { cn } from "@/components/ui/cn";
import type { TrafficRouter } from "@/lib/rollouts/routers";

/** Plugins show their short name ("gatewayAPI") with the full ConfigMap key on hover; built-ins as named. */
export function RouterList({ routers, className }: { routers: Array<Pick<TrafficRouter, "kind" | "name">>; className?: string }) {
  if (routers.length === 0) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span className={cn("flex min-w-0 flex-wrap gap-1", className)}>
      {routers.map((r) => (
        <span
          key={`${r.kind}:${r.name}`}
          data-testid="router"
          data-kind={r.kind}
          title={r.kind === "plugin" ? `Traffic-router plugin ${r.name}` : `Built-in router ${r.name}`}
          className={cn(
            "truncate rounded px-1 py-px text-xs",
            r.kind === "plugin"
              ? "bg-violet-50 font-mono text-violet-800 dark:bg-violet-500/10 dark:text-violet-300"
              : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
          )}
        >
          {r.kind === "plugin" ? r.name.slice(r.name.lastIndexOf("/") + 1) : r.name}
        </span>
      ))}
    </span>
  );
}
