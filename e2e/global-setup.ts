import { startControlServer } from "../test/harness/control-server";
import { startDemoStack } from "../test/harness/demo-stack";

/**
 * Starts the demo fleet (3 simulated clusters) and the production build of the app once for the whole e2e run.
 * Specs reach the app at ROLLSCOPE_E2E_URL and steer the fleet through ROLLSCOPE_E2E_CONTROL; the kubeconfig (with
 * `<cluster>-admin` contexts for direct changes) is at ROLLSCOPE_E2E_KUBECONFIG.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const stack = await startDemoStack({ timeScale: 30, seed: 7 });
  const control = await startControlServer(stack);
  process.env.ROLLSCOPE_E2E_URL = stack.app.url;
  process.env.ROLLSCOPE_E2E_CONTROL = control.url;
  process.env.ROLLSCOPE_E2E_KUBECONFIG = stack.sim.kubeconfigPath;
  process.env.ROLLSCOPE_E2E_CONFIG = stack.configPath;
  process.env.ROLLSCOPE_E2E_DIR = stack.dir;
  return async () => {
    await control.close();
    await stack.stop();
  };
}
