"use client";

import { formatAbsoluteTime, formatRelativeTime } from "@/lib/format/relative-time";
import { cn } from "./cn";
import { useNow } from "./use-now";

interface RelativeTimeProps {
  at: string | null | undefined;
  /** Pass a shared clock from a list; otherwise the element keeps its own 10-second one. */
  now?: number;
  className?: string;
  prefix?: string;
}

/** "5m ago", with the absolute time on hover and in the `dateTime` attribute. */
export function RelativeTime({ at, now, className, prefix }: RelativeTimeProps) {
  const ownNow = useNow(10_000);
  if (!at) return <span className={className}>—</span>;
  return (
    <time dateTime={at} title={formatAbsoluteTime(at)} className={cn("whitespace-nowrap tabular-nums", className)}>
      {prefix}
      {formatRelativeTime(at, now ?? ownNow)}
    </time>
  );
}
