import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import { z } from "zod";
import { kubeRequest } from "@/lib/k8s/kube-request";

/** One `resourceAttributes` of a (Self)SubjectAccessReview. */
export interface AccessAttributes {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** Whom to ask about: the dashboard's own identity (SelfSubjectAccessReview) or a user (SubjectAccessReview). */
export type AccessSubject =
  { readonly kind: "self" } | { readonly kind: "user"; readonly user: string; readonly groups: readonly string[] };

const ReviewResponse = z.looseObject({
  status: z
    .looseObject({
      allowed: z.boolean().default(false),
      denied: z.boolean().optional(),
      reason: z.string().optional(),
      evaluationError: z.string().optional(),
    })
    .optional(),
});

export interface AccessDecision {
  readonly allowed: boolean;
  /** The authorizer's reason or evaluation error, when it gave one. */
  readonly reason: string | null;
}

const CACHE_MS = 15_000;
const cache = new Map<string, { at: number; decision: Promise<AccessDecision> }>();

/**
 * Asks the cluster whether the subject may do this, as `kubectl auth can-i` does. The user's groups get
 * `system:authenticated` added, as the API server adds it to an impersonated user. Answers are cached for 15 s.
 */
export function reviewAccess(
  clusterKey: string,
  kubeConfig: KubeConfig,
  subject: AccessSubject,
  attributes: AccessAttributes,
): Promise<AccessDecision> {
  const key = JSON.stringify([clusterKey, subject, attributes]);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.decision;
  const decision = sendReview(kubeConfig, subject, attributes);
  cache.set(key, { at: now, decision });
  decision.catch(() => cache.delete(key));
  if (cache.size > 5_000) for (const [k, v] of cache) if (now - v.at >= CACHE_MS) cache.delete(k);
  return decision;
}

async function sendReview(kubeConfig: KubeConfig, subject: AccessSubject, attributes: AccessAttributes): Promise<AccessDecision> {
  const resourceAttributes = { ...attributes };
  const self = subject.kind === "self";
  const spec = self
    ? { resourceAttributes }
    : { user: subject.user, groups: [...new Set([...subject.groups, "system:authenticated"])], resourceAttributes };
  const kind = self ? "SelfSubjectAccessReview" : "SubjectAccessReview";
  const body = { apiVersion: "authorization.k8s.io/v1", kind, spec };
  const raw = await kubeRequest<unknown>(kubeConfig, `/apis/authorization.k8s.io/v1/${kind.toLowerCase()}s`, { method: "POST", body });
  const status = ReviewResponse.parse(raw).status;
  return { allowed: status?.allowed === true && status.denied !== true, reason: status?.reason || status?.evaluationError || null };
}
