import type { ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";
import { WarningIcon } from "./icons";

interface ErrorStateProps {
  title: ReactNode;
  /** The server's message, shown as is. */
  message?: string | null;
  onRetry?: () => void;
  className?: string;
  children?: ReactNode;
}

export function ErrorState({ title, message, onRetry, className, children }: ErrorStateProps) {
  return (
    <div
      role="alert"
      data-testid="error-state"
      className={cn(
        "flex items-start gap-3 rounded-md border border-rose-300 bg-rose-50 px-4 py-3 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-200",
        className,
      )}
    >
      <WarningIcon className="mt-0.5 size-4 shrink-0 text-rose-600 dark:text-rose-400" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{title}</p>
        {message && <p className="mt-0.5 break-words font-mono text-xs opacity-90">{message}</p>}
        {children}
      </div>
      {onRetry && (
        <Button variant="secondary" onClick={onRetry} className="shrink-0">
          Retry
        </Button>
      )}
    </div>
  );
}
