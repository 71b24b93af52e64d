import { describe, expect, it } from "vitest";
import { impersonatedGroups, kubernetesGroups, parseServiceAccountUser } from "./service-account";

describe("service-account users", () => {
  it("parses system:serviceaccount:<namespace>:<name> as kube-apiserver does, and nothing else", () => {
    expect(parseServiceAccountUser("system:serviceaccount:ci:deployer")).toStrictEqual({ namespace: "ci", name: "deployer" });
    expect(parseServiceAccountUser("system:serviceaccount:ci:deployer.v2")).toStrictEqual({ namespace: "ci", name: "deployer.v2" });
    for (const other of [
      "alice",
      "system:serviceaccounts:ci",
      "system:serviceaccount:ci",
      "system:serviceaccount:ci:a:b",
      "system:serviceaccount::x",
      "system:serviceaccount:CI:x",
    ]) {
      expect(parseServiceAccountUser(other), other).toBeNull();
    }
  });

  it("adds the account's groups for reviews; impersonation sends them only when other groups are sent too", () => {
    const sa = "system:serviceaccount:ci:deployer";
    expect(kubernetesGroups(sa, [])).toStrictEqual(["system:serviceaccounts", "system:serviceaccounts:ci"]);
    expect(kubernetesGroups(sa, ["ci-bots", "system:serviceaccounts"])).toStrictEqual([
      "ci-bots",
      "system:serviceaccounts",
      "system:serviceaccounts:ci",
    ]);
    expect(impersonatedGroups(sa, [])).toStrictEqual([]);
    expect(impersonatedGroups(sa, ["ci-bots"])).toStrictEqual(["ci-bots", "system:serviceaccounts", "system:serviceaccounts:ci"]);
    expect(kubernetesGroups("alice", ["sre"])).toStrictEqual(["sre"]);
    expect(impersonatedGroups("alice", ["sre"])).toStrictEqual(["sre"]);
  });
});
