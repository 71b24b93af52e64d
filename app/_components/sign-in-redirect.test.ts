import { describe, expect, it } from "vitest";
import { FetchError } from "@/lib/queries/fetch-json";
import { createSignInRedirect, signInRedirectFor } from "./sign-in-redirect";

const unauthorized = () => new FetchError(401, "unauthorized", "signed out");

describe("sign-in redirect", () => {
  it("sends a 401 to the sign-in page, told to come back to the page and its query; other errors stay", () => {
    expect(signInRedirectFor(unauthorized(), { pathname: "/", search: "?q=checkout" })).toBe("/signin?returnTo=%2F%3Fq%3Dcheckout");
    expect(signInRedirectFor(new FetchError(500, "upstream_error", "down"), { pathname: "/", search: "" })).toBeNull();
    expect(signInRedirectFor(unauthorized(), { pathname: "/signin", search: "" })).toBeNull();
  });

  it("navigates once for the 401s of every panel at once, and again once the first redirect could have been stopped", () => {
    const clock = { now: 1_000 };
    const went: string[] = [];
    const onError = createSignInRedirect(
      (target) => went.push(target),
      () => ({ pathname: "/rollouts", search: "" }),
      () => clock.now,
    );
    for (let i = 0; i < 5; i++) onError(unauthorized());
    onError(new Error("network"));
    expect(went).toEqual(["/signin?returnTo=%2Frollouts"]);
    clock.now += 10_000;
    onError(unauthorized());
    expect(went).toHaveLength(2);
  });
});
