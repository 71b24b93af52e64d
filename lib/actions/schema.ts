import { z } from "zod";

/**
 * The actions Rollscope can send to a Rollout. All but `pause`/`resume` mirror a
 * `kubectl argo rollouts` command; `resume` is the Argo CD-style unpause that does not promote; `undo` rolls the
 * pod template back to an earlier revision (`toRevision`, default the previous one); `set-image` is `set image
 * ROLLOUT CONTAINER=IMAGE` (`container` may be `*`).
 */
export const RolloutAction = z.enum(["promote", "promote-full", "abort", "retry", "pause", "resume", "restart", "undo", "set-image"]);
export type RolloutAction = z.infer<typeof RolloutAction>;

export const ROLLOUT_ACTIONS: readonly RolloutAction[] = RolloutAction.options;

/**
 * What the user saw when they clicked, so the server can refuse to act on a Rollout that has moved on.
 * `stepIndex: null` means the Rollout had no `status.currentStepIndex`.
 */
export const ActionExpectation = z.strictObject({
  resourceVersion: z.string().min(1).optional(),
  revision: z.string().regex(/^\d+$/, "revision is the numeric rollout.argoproj.io/revision annotation").optional(),
  stepIndex: z.number().int().min(0).nullable().optional(),
  /** From `GET …/actions`: lets a later resourceVersion through when nothing the action depends on changed. */
  fingerprint: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "fingerprint is the value GET …/actions returned")
    .optional(),
});
export type ActionExpectation = z.infer<typeof ActionExpectation>;

/** Body of the rollout-action API request. The server, not the client, picks `restartAt`. */
export const RolloutActionRequest = z
  .strictObject({
    action: RolloutAction,
    expected: ActionExpectation,
    /** Undo only: the revision to go back to (`--to-revision`); absent means the previous revision. */
    toRevision: z.number().int().min(1).optional(),
    /** Set-image only: a container name (a DNS label) or `*` for all of them. */
    container: z
      .string()
      .max(63)
      .regex(/^(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$/, "container is a container name or *")
      .optional(),
    /** Set-image only: the new image reference. */
    image: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[^\s=]+$/, "image is an image reference, without spaces or =")
      .optional(),
  })
  .refine((r) => r.action !== "set-image" || (r.container !== undefined && r.image !== undefined), {
    message: "set-image needs container and image",
    path: ["image"],
  })
  .refine((r) => r.action === "set-image" || (r.container === undefined && r.image === undefined), {
    message: "container and image belong to set-image only",
    path: ["action"],
  });
export type RolloutActionRequest = z.infer<typeof RolloutActionRequest>;

/** An action request is a few hundred bytes; anything over this is refused (413) before it is read further. */
export const MAX_ACTION_BODY_BYTES = 8 * 1024;
