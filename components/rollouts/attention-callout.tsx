"use client";

import Link from "next/link";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { attentionHref, attentionLabel } from "@/lib/overview/attention";
import type { AttentionReason } from "@/lib/rollouts/view-model";

interface Props {
  rollout: { cluster: string; namespace: string | null; name: string; attention: AttentionReason[] };
}

/** The detail page's "needs attention" box: the same reasons the fleet queue shows, each linked to its finding. */
export function AttentionCallout({ rollout }: Props) {
  if (rollout.attention.length === 0) return null;
  const where = { cluster: rollout.cluster, namespace: rollout.namespace ?? "", name: rollout.name };
  return (
    <section
      aria-labelledby="attention-callout-title"
      data-testid="attention-callout"
      className="rounded-md border border-rose-300 bg-rose-50 p-3 text-rose-950 dark:border-rose-900 dark:bg-rose-950/30 dark:text-rose-100"
    >
      <h2 id="attention-callout-title" className="text-sm font-semibold">
        Needs attention
      </h2>
      <ul className="mt-1 flex flex-col gap-1 text-sm">
        {rollout.attention.map((reason, i) => {
          const href = attentionHref(where, reason);
          return (
            <li key={`${reason.code}-${i}`} data-testid="attention-callout-reason" data-code={reason.code} className="flex min-w-0 flex-wrap gap-x-2">
              <span className="shrink-0 font-semibold">{attentionLabel(reason.code)}</span>
              <span className="min-w-0 wrap-anywhere">{reason.message}</span>
              {href && (
                <Link href={href} prefetch={false} className={cn("shrink-0 underline underline-offset-2", focusRing)}>
                  {href.startsWith("/plugins") ? "see the finding" : "see below"}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
