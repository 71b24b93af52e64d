import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";

export function Card({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return (
    <section
      className={cn("min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900", className)}
      {...rest}
    />
  );
}

interface CardHeaderProps {
  title: ReactNode;
  /** Small text next to the title: a count, a time. */
  meta?: ReactNode;
  /** Controls on the right: a range selector, a toggle. */
  actions?: ReactNode;
  id?: string;
}

export function CardHeader({ title, meta, actions, id }: CardHeaderProps) {
  return (
    <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 px-4 py-2.5 dark:border-slate-800">
      <h2 id={id} className="min-w-0 text-sm font-semibold tracking-tight wrap-anywhere">
        {title}
      </h2>
      {meta && <span className="text-xs text-slate-500 dark:text-slate-400">{meta}</span>}
      {actions && <div className="ml-auto flex items-center gap-2">{actions}</div>}
    </header>
  );
}

export function CardBody({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("p-4", className)} {...rest} />;
}
