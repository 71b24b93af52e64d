import Link from "next/link";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { rolloutHref } from "@/lib/format/hrefs";
import type { PluginUserView } from "@/lib/plugins/view-types";

/** Who uses a plugin in one cluster, every one listed: Rollouts link to their detail page. */
export function PluginUsers({
  cluster,
  users,
}: {
  cluster: string;
  users: readonly Pick<PluginUserView, "kind" | "namespace" | "name" | "viaTemplate">[];
}) {
  if (users.length === 0) return <span className="text-slate-500 dark:text-slate-400">unused</span>;
  return (
    <ul className="flex flex-col gap-0.5" data-testid="plugin-users">
      {users.map((u) => {
        const label = `${u.namespace ? `${u.namespace}/` : ""}${u.name}`;
        return (
          <li key={`${u.kind}/${label}/${u.viaTemplate ?? ""}`} className="wrap-anywhere">
            <span className="text-slate-500 dark:text-slate-400">{u.kind} </span>
            {u.kind === "Rollout" && u.namespace ? (
              <Link
                href={rolloutHref(cluster, u.namespace, u.name)}
                className={cn("font-mono underline-offset-2 hover:underline", focusRing)}
                data-testid="plugin-user-link"
              >
                {label}
              </Link>
            ) : (
              <span className="font-mono">{label}</span>
            )}
            {u.viaTemplate && <span className="text-slate-500 dark:text-slate-400"> (via {u.viaTemplate})</span>}
          </li>
        );
      })}
    </ul>
  );
}
