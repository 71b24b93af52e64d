import { execFileSync } from "node:child_process";
import path from "node:path";
import { startControlServer } from "../../test/harness/control-server";
import { startDemoStack } from "../../test/harness/demo-stack";

/** The prefix this pass serves everything under, as an ingress path would. */
export const BASE_PATH = "/rollscope";
/** Its own build directory: Next's basePath is compiled into the build, so the root pass's `.next` stays as it is. */
const DIST_DIR = ".next-rollscope";

/**
 * Builds Rollscope with ROLLSCOPE_BASE_PATH=/rollscope (into .next-rollscope), then starts the demo fleet and that
 * build with `server.basePath: /rollscope`. Specs reach the app at ROLLSCOPE_E2E_URL (the origin; every page is under
 * ROLLSCOPE_E2E_BASE_PATH).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const env = { ROLLSCOPE_BASE_PATH: BASE_PATH, ROLLSCOPE_DIST_DIR: DIST_DIR };
  execFileSync(path.resolve(import.meta.dirname, "../../node_modules/.bin/next"), ["build"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  const stack = await startDemoStack({ timeScale: 30, seed: 7 }, env, { server: { basePath: BASE_PATH } });
  const control = await startControlServer(stack);
  process.env.ROLLSCOPE_E2E_URL = stack.app.url;
  process.env.ROLLSCOPE_E2E_BASE_PATH = BASE_PATH;
  process.env.ROLLSCOPE_E2E_CONTROL = control.url;
  process.env.ROLLSCOPE_E2E_KUBECONFIG = stack.sim.kubeconfigPath;
  process.env.ROLLSCOPE_E2E_CONFIG = stack.configPath;
  process.env.ROLLSCOPE_E2E_DIR = stack.dir;
  return async () => {
    await control.close();
    await stack.stop();
  };
}
