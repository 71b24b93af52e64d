import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "./redact-secrets";

describe("redactSecrets", () => {
  it("drops the user-info of every URL, whatever the scheme, and keeps the rest of the message", () => {
    const text =
      "request to https://admin:hunter2-pw@10.0.0.1:6443/apis/argoproj.io/v1alpha1/rollouts?watch=true failed, reason: connect ECONNREFUSED";
    expect(redactSecrets(text)).toBe(
      `request to https://${REDACTED}@10.0.0.1:6443/apis/argoproj.io/v1alpha1/rollouts?watch=true failed, reason: connect ECONNREFUSED`,
    );
    expect(redactSecrets("proxy socks5://u:p%40ss@proxy:1080 refused")).toBe(`proxy socks5://${REDACTED}@proxy:1080 refused`);
    expect(redactSecrets("see https://host/users/alice@example.com")).toBe("see https://host/users/alice@example.com");
  });

  it("drops bearer and basic credentials but not the ordinary words after them", () => {
    expect(redactSecrets("Authorization: Bearer sha256~AbC123xyz")).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactSecrets("header authorization: Basic YWRtaW46aHVudGVyMg==")).toBe(`header authorization: Basic ${REDACTED}`);
    expect(redactSecrets("the bearer token has expired; basic authentication is off")).toBe(
      "the bearer token has expired; basic authentication is off",
    );
  });

  it("drops the values of secret-named keys, in query strings, flags and echoed JSON", () => {
    expect(redactSecrets("GET /login?user=bob&access_token=abc.def&x=1")).toBe(`GET /login?user=bob&access_token=${REDACTED}&x=1`);
    expect(redactSecrets("exec: get-creds --token=s3cr3t --region eu")).toBe(`exec: get-creds --token=${REDACTED} --region eu`);
    expect(redactSecrets('{"kind":"ExecCredential","status":{"token":"abc def"}}')).toBe(
      `{"kind":"ExecCredential","status":{"token":"${REDACTED}"}}`,
    );
    expect(redactSecrets("client_secret = topsecret, password=pw123")).toBe(`client_secret = ${REDACTED}, password=${REDACTED}`);
  });

  it("drops JSON Web Tokens and private keys wherever they appear", () => {
    const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJl";
    expect(redactSecrets(`token rejected: ${jwt}`)).toBe(`token rejected: ${REDACTED}`);
    expect(redactSecrets("bad key -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- end")).toBe(
      `bad key ${REDACTED} end`,
    );
  });

  it("drops every known value exactly, also percent-encoded, longest first", () => {
    const known = ["plain-secret-value", "p@ss/word", "plain-secret"];
    expect(redactSecrets("refused plain-secret-value and plain-secret", known)).toBe(`refused ${REDACTED} and ${REDACTED}`);
    expect(redactSecrets("server http://10.1.1.1/?x=p%40ss%2Fword echoed p@ss/word", known)).toBe(
      `server http://10.1.1.1/?x=${REDACTED} echoed ${REDACTED}`,
    );
  });

  it("leaves ordinary messages and very short known values alone", () => {
    const message = 'rollouts.argoproj.io is forbidden: User "system:serviceaccount:rollscope:rollscope" cannot list resource "rollouts"';
    expect(redactSecrets(message, ["abc", ""])).toBe(message);
    expect(redactSecrets("HTTP 401: Unauthorized")).toBe("HTTP 401: Unauthorized");
  });
});
