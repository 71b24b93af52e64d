import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * No container engine runs here, so the image is never built in the tests: test/integration/standalone-image.test.ts
 * runs what it would run. This checks the Dockerfile's runtime stage says what that test assumes.
 */

const repoRoot = path.resolve(import.meta.dirname, "../..");
const dockerfile = readFileSync(path.join(repoRoot, "Dockerfile"), "utf8");
/** The instructions of the last stage (the image that runs), continuation lines joined. */
const runtime = dockerfile
  .replace(/\\\n\s*/g, " ")
  .split(/^FROM /m)
  .at(-1)!
  .split("\n")
  .filter((line) => line.trim() && !line.trim().startsWith("#"));
const instruction = (name: string) => runtime.filter((line) => line.startsWith(`${name} `));

describe("the Dockerfile's runtime stage", () => {
  it("runs as a numeric non-root user (so runAsNonRoot can verify it) and production Node", () => {
    const [user] = instruction("USER");
    expect(user).toMatch(/^USER [1-9]\d*:[1-9]\d*$/);
    expect(instruction("ENV").join(" ")).toMatch(/\bNODE_ENV=production\b/);
  });

  it("copies only the assembled standalone server from the build stage, and installs nothing", () => {
    expect(instruction("COPY")).toStrictEqual(["COPY --from=build /src/.next/standalone ./"]);
    expect(runtime.join("\n")).not.toMatch(/npm (ci|install)/);
  });

  it("starts through the entrypoint that applies migrations, and checks liveness with the script the build copies", () => {
    expect(instruction("ENTRYPOINT")).toStrictEqual(['ENTRYPOINT ["/app/scripts/image/entrypoint.sh"]']);
    expect(instruction("HEALTHCHECK")[0]).toContain('CMD ["node", "scripts/image/healthcheck.mjs"]');
    const assembly = readFileSync(path.join(repoRoot, "scripts/build-standalone.sh"), "utf8");
    for (const file of ["entrypoint.sh", "migrate.mjs", "healthcheck.mjs", "json-console.mjs"])
      expect(assembly).toContain(`scripts/image/${file}`);
    expect(readFileSync(path.join(repoRoot, "scripts/image/entrypoint.sh"), "utf8")).toMatch(/^node scripts\/image\/migrate\.mjs$/m);
  });

  it("runs the Node major of package.json's engines, and labels the image with its base", () => {
    const engines = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
    const base = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile);
    expect(`>=${base?.[1]}`).toBe(engines);
    expect(runtime[0]).toBe("${NODE_IMAGE}");
    expect(instruction("LABEL").join(" ")).toContain('org.opencontainers.image.base.name="${NODE_IMAGE}"');
  });

  it("answers the probes on a listener of their own, which the HEALTHCHECK asks", () => {
    expect(instruction("ENV").join(" ")).toMatch(/\bROLLSCOPE_PROBE_LISTEN=0\.0\.0\.0:3001\b/);
    expect(instruction("EXPOSE")[0].split(" ")).toContain("3001");
    expect(readFileSync(path.join(repoRoot, "scripts/image/healthcheck.mjs"), "utf8")).toContain("ROLLSCOPE_PROBE_LISTEN");
  });
});
