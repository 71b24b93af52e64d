"use client";

import Link from "next/link";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { attentionHref } from "@/lib/overview/attention";
import type { AttentionReason } from "@/lib/rollouts/view-model";

interface Props {
  rollout: { cluster: string; namespace: string | null; name: string };
  reason: AttentionReason;
}

/** After a "needs attention" reason on the detail page: the link to its finding (plugins page entry or section below). */
export function AttentionFindingLink({ rollout, reason }: Props) {
  const href = attentionHref({ cluster: rollout.cluster, namespace: rollout.namespace ?? "", name: rollout.name }, reason);
  if (!href) return null;
  return (
    <Link
      href={href}
      prefetch={false}
      data-testid="attention-finding-link"
      className={cn("ml-1 whitespace-nowrap underline underline-offset-2", focusRing)}
    >
      {href.startsWith("/plugins") ? "see the finding" : "see below"}
    </Link>
  );
}
