"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { ActionExpectation } from "@/lib/actions/schema";
import { FetchError } from "@/lib/queries/fetch-json";
import { useRolloutActions, useRunRolloutAction } from "@/lib/queries/use-rollout-actions";
import { ConfirmActionDialog } from "./confirm-action-dialog";

interface Props {
  cluster: string;
  namespace: string;
  name: string;
  revision: number;
  images: readonly string[];
  /**
   * Where the outcome is shown: the card around the table, because a rollback can remove this revision's row (the
   * controller renumbers the ReplicaSet it reuses) before anyone has read the message.
   */
  onFeedback: (feedback: UndoFeedback | null) => void;
}

/** The outcome of a rollback, for the revisions card to show. */
export interface UndoFeedback {
  kind: "done" | "error";
  text: string;
}

/** A rollback's outcome as a status line (an alert when it failed). */
export function UndoFeedbackLine({ feedback }: { feedback: UndoFeedback }) {
  return (
    <p
      role={feedback.kind === "error" ? "alert" : "status"}
      data-testid={`undo-${feedback.kind}`}
      className={feedback.kind === "error" ? "text-xs text-rose-700 dark:text-rose-300" : "text-xs text-emerald-700 dark:text-emerald-300"}
    >
      {feedback.text}
    </p>
  );
}

/**
 * "Roll back" on one revision of the revisions table: `kubectl argo rollouts undo --to-revision N` through the same
 * authorization, red confirmation (the name typed in production), freshness check and audit as the other actions.
 */
export function UndoRevisionButton({ cluster, namespace, name, revision, images, onFeedback }: Props) {
  const { data: view } = useRolloutActions(cluster, namespace, name);
  const run = useRunRolloutAction(cluster, namespace, name);
  const [expected, setExpected] = useState<ActionExpectation | null>(null);
  const inFlight = useRef(false);
  const option = view?.actions.undo;
  if (!view || !option || view.readOnly) return null;

  const open = () => {
    const { resourceVersion, revision: rev, stepIndex, fingerprint } = view.expected;
    onFeedback(null);
    setExpected({ ...(resourceVersion ? { resourceVersion } : {}), ...(rev ? { revision: rev } : {}), stepIndex, fingerprint });
  };
  const confirm = () => {
    if (!expected || inFlight.current) return;
    inFlight.current = true;
    run.mutate(
      { action: "undo", expected, toRevision: revision },
      {
        onSuccess: (result) => onFeedback({ kind: "done", text: `Rollback to revision ${revision} sent: ${result.message}` }),
        onError: (err) =>
          onFeedback({ kind: "error", text: err instanceof FetchError || err instanceof Error ? err.message : String(err) }),
        onSettled: () => {
          inFlight.current = false;
          setExpected(null);
        },
      },
    );
  };

  return (
    <div className="flex flex-col gap-1">
      <span title={option.enabled ? `Roll back to revision ${revision}` : option.reason}>
        <Button
          data-testid="undo-revision"
          data-revision={revision}
          disabled={!option.enabled || run.isPending}
          onClick={open}
          className="px-2 py-0.5 text-xs"
        >
          Roll back
        </Button>
      </span>
      {expected && (
        <ConfirmActionDialog
          title={`Roll back ${name} to revision ${revision}`}
          effect={`Undo: the pod template goes back to revision ${revision}'s (${images.join(", ")}); the controller rolls it out as a new revision`}
          requests={option.requests.map((r) => r.replace("<the revision's pod template>", `<revision ${revision}'s pod template>`))}
          typedConfirmation={option.typedConfirmation ? name : null}
          clusterLabel={view.production ? "production" : ""}
          destructive
          pending={run.isPending}
          onConfirm={confirm}
          onCancel={() => !run.isPending && setExpected(null)}
        />
      )}
    </div>
  );
}
