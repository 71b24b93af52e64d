import type { HTMLAttributes } from "react";
import { cn } from "./cn";

export type Tone = "neutral" | "green" | "blue" | "amber" | "red" | "violet";

const TONES: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700",
  green: "bg-emerald-50 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-400/30",
  blue: "bg-sky-50 text-sky-800 ring-sky-600/30 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-400/30",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/30 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-400/30",
  red: "bg-rose-50 text-rose-800 ring-rose-600/30 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-400/30",
  violet: "bg-violet-50 text-violet-800 ring-violet-600/30 dark:bg-violet-500/10 dark:text-violet-300 dark:ring-violet-400/30",
};

export const DOT_TONES: Record<Tone, string> = {
  neutral: "bg-slate-400",
  green: "bg-emerald-500",
  blue: "bg-sky-500",
  amber: "bg-amber-500",
  red: "bg-rose-500",
  violet: "bg-violet-500",
};

interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: Tone;
  /** A leading status dot in the tone's colour. */
  dot?: boolean;
}

export function Badge({ tone = "neutral", dot = false, className, children, ...rest }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 whitespace-nowrap rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset",
        TONES[tone],
        className,
      )}
      {...rest}
    >
      {dot && <span aria-hidden className={cn("size-1.5 rounded-full", DOT_TONES[tone])} />}
      {children}
    </span>
  );
}
