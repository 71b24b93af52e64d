import { describe, expect, it } from "vitest";
import { kubeErrorToApiError, kubeStatusOf } from "./kube-errors";

describe("kubeStatusOf", () => {
  it("reads code or statusCode of any client's error, and ignores what is not an HTTP status", () => {
    expect(kubeStatusOf({ code: 403 })).toBe(403);
    expect(kubeStatusOf({ statusCode: 410 })).toBe(410);
    expect(kubeStatusOf({ code: "ECONNREFUSED" })).toBeUndefined();
    expect(kubeStatusOf({ code: 200 })).toBeUndefined();
    expect(kubeStatusOf(new Error("boom"))).toBeUndefined();
    expect(kubeStatusOf(null)).toBeUndefined();
  });
});

describe("kubeErrorToApiError", () => {
  it("maps refusals, conflicts, absences and outages to the API's codes", () => {
    expect(kubeErrorToApiError({ code: 401 })?.code).toBe("forbidden");
    expect(kubeErrorToApiError({ code: 403 }, 'user "bob" cannot patch')?.message).toBe('the cluster refused: user "bob" cannot patch');
    expect(kubeErrorToApiError({ code: 404 })?.code).toBe("not_found");
    expect(kubeErrorToApiError({ code: 409 })?.code).toBe("conflict");
    expect(kubeErrorToApiError({ code: 503 })?.code).toBe("upstream_unavailable");
    expect(kubeErrorToApiError({ code: 422 }, "spec.replicas: invalid")?.code).toBe("bad_request");
    expect(kubeErrorToApiError(new Error("not kube"))).toBeUndefined();
  });
});
