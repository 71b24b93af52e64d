"use client";

import { useId, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { ROLLOUT_ACTIONS, type ActionExpectation, type RolloutAction } from "@/lib/actions/schema";
import { FetchError } from "@/lib/queries/fetch-json";
import {
  useLiveActionFingerprint,
  useRolloutActions,
  useRunRolloutAction,
  type RolloutActionsView,
} from "@/lib/queries/use-rollout-actions";
import { ACTION_LABELS, DESTRUCTIVE_ACTIONS } from "./action-labels";
import { ConfirmActionDialog } from "./confirm-action-dialog";

export interface RolloutActionsProps {
  cluster: string;
  namespace: string;
  name: string;
  /** `full` for the detail page; `compact` for a row of the attention queue. */
  variant?: "full" | "compact";
  /** Which buttons, in order. Default: all seven (full); promote, promote-full, abort, retry (compact). */
  actions?: readonly RolloutAction[];
  className?: string;
  /** Told what went through, for a parent that outlives this component (a queue card vanishes once acted on). */
  onDone?: (text: string) => void;
}

const COMPACT_ACTIONS: readonly RolloutAction[] = ["promote", "promote-full", "abort", "retry"];
/** The header's buttons: undo lives in the revisions table, one button per revision. */
const HEADER_ACTIONS: readonly RolloutAction[] = ROLLOUT_ACTIONS.filter((a) => a !== "undo");

/** What the dialog states, frozen once shown: the state the user is confirming against. */
interface Snapshot {
  expected: ActionExpectation;
  effect: string;
  requests: string[];
  typedConfirmation: boolean;
}

interface Pending {
  action: RolloutAction;
  /** Null while the current state is being read (the buttons' view was older than what the page showed). */
  snapshot: Snapshot | null;
  /** Set image: the container (or `*`) and the new image, edited in the dialog. */
  container?: string;
  image?: string;
}

type Feedback = { kind: "done" | "error"; text: string } | null;

function toExpectation(view: RolloutActionsView): ActionExpectation {
  const { resourceVersion, revision, stepIndex, fingerprint } = view.expected;
  return { ...(resourceVersion ? { resourceVersion } : {}), ...(revision ? { revision } : {}), stepIndex, fingerprint };
}

function snapshotOf(view: RolloutActionsView, action: RolloutAction): Snapshot {
  const option = view.actions[action];
  return { expected: toExpectation(view), effect: option.effect, requests: option.requests, typedConfirmation: option.typedConfirmation };
}

function errorText(error: unknown): string {
  if (error instanceof FetchError) {
    if (error.code === "stale") return `${error.message}. The buttons now show the current state.`;
    if (error.status === 403 && error.code !== "csrf") return `Permission denied: ${error.message}`;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Promote / promote full / abort / retry / pause / resume / restart for one Rollout. Each button is enabled only
 * when the Rollout's state allows the action and the user may do it (the server asks the cluster); a disabled
 * button carries the reason. Clicking opens a confirmation that states the effect; in a production cluster,
 * promote full and abort need the rollout's name typed. The request carries the state the dialog showed, so
 * the server refuses if the Rollout has moved on (the dialog says so as soon as the page shows it), and a second
 * click while one is in flight does nothing. On a detail page the live stream tells the newest state: a dialog
 * opened before the buttons caught up with it reads that state first, rather than state an effect already past.
 */
export function RolloutActions({ cluster, namespace, name, variant = "full", actions, className, onDone }: RolloutActionsProps) {
  const compact = variant === "compact";
  const shown = actions ?? (compact ? COMPACT_ACTIONS : HEADER_ACTIONS);
  // Asked for again by the live stream when the state the options depend on changes, not per resourceVersion.
  const { data: view, error, isPending, refetch } = useRolloutActions(cluster, namespace, name);
  const live = useLiveActionFingerprint(cluster, namespace, name);
  const run = useRunRolloutAction(cluster, namespace, name);
  const [pending, setPending] = useState<Pending | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const inFlight = useRef(false);
  /** Counts dialogs opened and closed: an answer for a dialog no longer open is dropped. */
  const dialogSeq = useRef(0);
  const descriptionId = useId();

  if (isPending) {
    return (
      <div className={cn("flex flex-wrap gap-1.5", className)} aria-hidden>
        {shown.map((a) => (
          <Skeleton key={a} className={compact ? "h-6 w-14" : "h-7 w-20"} />
        ))}
      </div>
    );
  }
  if (!view) {
    const message =
      error instanceof FetchError && error.status === 401 ? "Sign in to act on this rollout" : `Actions unavailable: ${errorText(error)}`;
    return (
      <p role="status" data-testid="rollout-actions-unavailable" className={cn("text-xs text-slate-500 dark:text-slate-400", className)}>
        {message}
      </p>
    );
  }
  if (view.readOnly) {
    return compact ? null : (
      <div className={className} data-testid="rollout-actions-read-only">
        <Badge tone="neutral" title={view.actingAs}>
          Read-only
        </Badge>
      </div>
    );
  }

  // The live stream has shown a state these buttons were not computed from (their refresh is on its way).
  const behind = typeof live === "string" && live !== view.expected.fingerprint;

  const open = (action: RolloutAction) => {
    const option = view.actions[action];
    if (!option.enabled || inFlight.current) return;
    setFeedback(null);
    run.reset();
    const seq = ++dialogSeq.current;
    const first = view.containers.find((c) => c.name) ?? null;
    const fields = action === "set-image" ? { container: first?.name ?? "", image: first?.image ?? "" } : {};
    if (!behind) {
      setPending({ action, snapshot: snapshotOf(view, action), ...fields });
      return;
    }
    setPending({ action, snapshot: null, ...fields });
    void refetch().then(({ data: fresh, error: readError }) => {
      if (dialogSeq.current !== seq) return;
      const freshOption = readError ? undefined : fresh?.actions[action];
      if (fresh && freshOption?.enabled) {
        setPending((p) => (p && !p.snapshot ? { ...p, snapshot: snapshotOf(fresh, action) } : p));
        return;
      }
      setPending(null);
      setFeedback({
        kind: "error",
        text: freshOption
          ? `${ACTION_LABELS[action]} is no longer possible: ${freshOption.reason}`
          : `Could not read the rollout's current state: ${errorText(readError)}`,
      });
    });
  };

  const cancel = () => {
    if (run.isPending) return;
    dialogSeq.current++;
    setPending(null);
  };

  const confirm = () => {
    if (!pending?.snapshot || inFlight.current) return;
    inFlight.current = true;
    const { action, container, image } = pending;
    const { expected } = pending.snapshot;
    // The promise, not mutate's callbacks: those are dropped when the component unmounts, as a queue card does as
    // soon as the live stream shows the Rollout moving on, often before the action's answer arrives.
    run
      .mutateAsync(action === "set-image" ? { action, expected, container, image: image?.trim() } : { action, expected })
      .then(
        (result) => {
          setPending(null);
          setFeedback({ kind: "done", text: `${ACTION_LABELS[action]} sent: ${result.message}` });
          onDone?.(`${ACTION_LABELS[action]} ${name} sent: ${result.message}`);
        },
        (err: unknown) => {
          // A stale or refused action closes the dialog: the buttons below now show the Rollout as it is.
          setPending(null);
          setFeedback({ kind: "error", text: errorText(err) });
        },
      )
      .finally(() => {
        inFlight.current = false;
      });
  };

  const deniedEverywhere = shown.every((a) => !view.actions[a].permitted);
  // What the page shows now (the stream's state on a detail page, else the buttons'), against what the dialog states.
  const movedOn = pending?.snapshot
    ? (typeof live === "string" ? live : view.expected.fingerprint) !== pending.snapshot.expected.fingerprint
    : false;
  const deniedReason = deniedEverywhere ? view.actions[shown[0]]?.reason : undefined;

  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", className)} data-testid="rollout-actions" data-variant={variant}>
      <div role="group" aria-label={`Actions for ${name}`} className="flex flex-wrap items-center gap-1.5">
        {shown.map((action) => {
          const option = view.actions[action];
          return (
            <span key={action} title={option.enabled ? option.effect : option.reason} data-testid={`action-${action}-wrapper`}>
              <Button
                data-testid={`action-${action}`}
                data-reason={option.reason}
                disabled={!option.enabled || run.isPending}
                aria-describedby={option.enabled ? undefined : `${descriptionId}-${action}`}
                onClick={() => open(action)}
                className={compact ? "px-2 py-0.5 text-xs" : undefined}
              >
                {ACTION_LABELS[action]}
              </Button>
              {!option.enabled && (
                <span id={`${descriptionId}-${action}`} className="sr-only">
                  {option.reason}
                </span>
              )}
            </span>
          );
        })}
      </div>
      {!compact && deniedReason && (
        <p data-testid="rollout-actions-denied" className="text-xs text-amber-800 dark:text-amber-300">
          {deniedReason}
        </p>
      )}
      {!compact && (
        <p data-testid="rollout-actions-acting-as" className="text-xs text-slate-500 dark:text-slate-400">
          {view.actingAs}
        </p>
      )}
      {feedback && (
        <p
          role={feedback.kind === "error" ? "alert" : "status"}
          data-testid={`rollout-action-${feedback.kind}`}
          className={cn(
            "text-xs",
            feedback.kind === "error" ? "text-rose-700 dark:text-rose-300" : "text-emerald-700 dark:text-emerald-300",
          )}
        >
          {feedback.text}
        </p>
      )}
      {pending && (
        <ConfirmActionDialog
          title={`${ACTION_LABELS[pending.action]} ${name}`}
          effect={pending.snapshot?.effect ?? "Reading the rollout's current state…"}
          notice={
            movedOn ? "The rollout has changed since this opened: confirming will be refused. Cancel to see its current state." : null
          }
          requests={pending.snapshot?.requests ?? []}
          typedConfirmation={pending.snapshot?.typedConfirmation ? name : null}
          clusterLabel={view.production ? "production" : ""}
          destructive={DESTRUCTIVE_ACTIONS.has(pending.action)}
          pending={run.isPending}
          onConfirm={confirm}
          onCancel={cancel}
          incomplete={!pending.snapshot || (pending.action === "set-image" && !(pending.container && pending.image?.trim()))}
        >
          {pending.action === "set-image" && (
            <SetImageFields
              containers={view.containers}
              container={pending.container ?? ""}
              image={pending.image ?? ""}
              onChange={(container, image) => setPending({ ...pending, container, image })}
            />
          )}
        </ConfirmActionDialog>
      )}
    </div>
  );
}

/** Set image's fields: which container (or all of them, as the CLI's `*`) and the image it gets. */
function SetImageFields({
  containers,
  container,
  image,
  onChange,
}: {
  containers: RolloutActionsView["containers"];
  container: string;
  image: string;
  onChange(container: string, image: string): void;
}) {
  const current = containers.find((c) => c.name === container)?.image;
  const field = "h-8 rounded-md border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-950";
  return (
    <div className="mt-3 flex flex-col gap-2 text-sm">
      <label className="flex flex-col gap-1">
        <span>Container</span>
        <select
          data-testid="set-image-container"
          value={container}
          onChange={(e) => onChange(e.target.value, containers.find((c) => c.name === e.target.value)?.image ?? image)}
          className={cn(field, focusRing)}
        >
          {containers.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
            </option>
          ))}
          {containers.length > 1 && <option value="*">all containers (*)</option>}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span>New image{current ? <span className="text-xs text-slate-500 dark:text-slate-400"> (now {current})</span> : null}</span>
        <input
          data-testid="set-image-image"
          value={image}
          onChange={(e) => onChange(container, e.target.value)}
          autoComplete="off"
          spellCheck={false}
          className={cn(field, "font-mono", focusRing)}
        />
      </label>
    </div>
  );
}
