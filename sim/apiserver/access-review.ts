import { type Authorizer, type Decision, type UserInfo } from "./rbac";
import { isObject } from "./http-io";
import { ApiError } from "./status";

const GROUP = "authorization.k8s.io";

function invalid(kind: string, message: string): ApiError {
  return new ApiError(422, "Invalid", `${kind}.${GROUP} "" is invalid: ${message}`, { group: GROUP, kind });
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function decide(kind: string, spec: Record<string, unknown>, subject: UserInfo, authorizer: Authorizer): Decision {
  const resource = spec.resourceAttributes;
  const nonResource = spec.nonResourceAttributes;
  if (resource !== undefined && nonResource !== undefined) {
    throw invalid(kind, 'spec.nonResourceAttributes: Invalid value: "": cannot be specified in combination with resourceAttributes');
  }
  if (isObject(resource)) {
    return authorizer.authorize(subject, {
      verb: str(resource.verb),
      group: str(resource.group),
      resource: str(resource.resource),
      subresource: str(resource.subresource),
      namespace: str(resource.namespace),
      name: str(resource.name),
    });
  }
  if (isObject(nonResource)) return authorizer.authorizeNonResource(subject, str(nonResource.verb), str(nonResource.path));
  throw invalid(
    kind,
    "spec.resourceAttributes: Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified",
  );
}

/**
 * Answers a SelfSubjectAccessReview (for the requesting user) or SubjectAccessReview (for spec.user/spec.groups)
 * from the same RBAC rules the server enforces, echoing the review with `status` filled in.
 */
export function reviewAccess(
  kind: "SelfSubjectAccessReview" | "SubjectAccessReview",
  body: unknown,
  requester: UserInfo,
  authorizer: Authorizer,
): object {
  if (!isObject(body)) throw new ApiError(400, "BadRequest", "the body of the request must be a JSON object");
  const spec = isObject(body.spec) ? body.spec : {};
  let subject = requester;
  if (kind === "SubjectAccessReview") {
    const groups = Array.isArray(spec.groups) ? spec.groups.filter((g): g is string => typeof g === "string") : [];
    if (!str(spec.user) && groups.length === 0)
      throw invalid(kind, 'spec.user: Invalid value: "": at least one of user or group must be specified');
    subject = { name: str(spec.user), groups };
  }
  const decision = decide(kind, spec, subject, authorizer);
  return {
    kind,
    apiVersion: `${GROUP}/v1`,
    metadata: isObject(body.metadata) ? body.metadata : {},
    spec,
    status: { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) },
  };
}
