import type { ReactNode } from "react";
import { cn } from "./cn";

interface EmptyStateProps {
  title: ReactNode;
  children?: ReactNode;
  className?: string;
}

export function EmptyState({ title, children, className }: EmptyStateProps) {
  return (
    <div data-testid="empty-state" className={cn("flex flex-col items-center justify-center gap-1 px-4 py-10 text-center", className)}>
      <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{title}</p>
      {children && <div className="max-w-prose text-sm text-slate-500 dark:text-slate-400">{children}</div>}
    </div>
  );
}
