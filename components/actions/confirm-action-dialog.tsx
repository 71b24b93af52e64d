"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button, focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

export interface ConfirmActionDialogProps {
  title: string;
  /** What will happen, e.g. "Canary 30 % → 60 % (skips pause at step 2 of 4)". */
  effect: string;
  /** Said below the effect when the rollout no longer is as the effect describes it. */
  notice?: string | null;
  /** The exact requests, shown folded for those who want to check them. */
  requests: readonly string[];
  /** Set to the rollout name when the user must type it (production). */
  typedConfirmation: string | null;
  clusterLabel: string;
  destructive: boolean;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Fields the action needs (set image's container and image), shown above the buttons. */
  children?: ReactNode;
  /** Keeps the confirm button disabled while those fields are incomplete. */
  incomplete?: boolean;
}

/** A modal confirmation: states the effect, may ask for the rollout name, and confirms once. */
export function ConfirmActionDialog(props: ConfirmActionDialogProps) {
  const {
    title,
    effect,
    notice,
    requests,
    typedConfirmation,
    clusterLabel,
    destructive,
    pending,
    onConfirm,
    onCancel,
    children,
    incomplete,
  } = props;
  const [typed, setTyped] = useState("");
  const titleId = useId();
  const effectId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const canConfirm = !pending && !incomplete && (typedConfirmation === null || typed === typedConfirmation);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.querySelector<HTMLElement>("select, input, button")?.focus();
    return () => previous?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !pending) {
        e.preventDefault();
        onCancel();
      } else if (e.key === "Tab" && dialogRef.current) {
        // Keep focus inside the dialog.
        const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>("button:not([disabled]), select, input, summary")];
        if (focusable.length === 0) return;
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onCancel, pending]);

  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/40 p-4"
      onMouseDown={(e) => e.target === e.currentTarget && !pending && onCancel()}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={effectId}
        data-testid="confirm-action-dialog"
        className="w-full max-w-lg rounded-lg border border-slate-200 bg-white p-5 shadow-xl dark:border-slate-700 dark:bg-slate-900"
      >
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <p id={effectId} data-testid="action-effect" className="mt-2 text-sm text-slate-800 dark:text-slate-200">
          {effect}
        </p>
        {notice && (
          <p role="status" data-testid="action-effect-changed" className="mt-1 text-xs text-amber-800 dark:text-amber-300">
            {notice}
          </p>
        )}
        {clusterLabel && (
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            Cluster label: <span className="font-medium">{clusterLabel}</span>
          </p>
        )}
        {requests.length > 0 && (
          <details className="mt-3 text-xs text-slate-600 dark:text-slate-400">
            <summary className={cn("cursor-pointer rounded", focusRing)}>Requests sent to the cluster</summary>
            <ol className="mt-1 flex flex-col gap-0.5 font-mono">
              {requests.map((r, i) => (
                <li key={i} className="break-all">
                  {r}
                </li>
              ))}
            </ol>
          </details>
        )}
        {children}
        {typedConfirmation !== null && (
          <label className="mt-4 flex flex-col gap-1 text-sm">
            <span>
              This is a production cluster. Type <span className="font-mono font-semibold">{typedConfirmation}</span> to confirm.
            </span>
            <input
              data-testid="typed-confirmation"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              className={cn(
                "h-8 rounded-md border border-slate-300 bg-white px-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950",
                focusRing,
              )}
            />
          </label>
        )}
        <div className="mt-5 flex justify-end gap-2">
          <Button onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button
            variant={destructive ? "danger" : "primary"}
            data-testid="confirm-action"
            data-destructive={destructive}
            disabled={!canConfirm}
            onClick={onConfirm}
          >
            {pending ? "Sending…" : title}
          </Button>
        </div>
      </div>
    </div>
  );
}
