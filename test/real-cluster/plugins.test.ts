import { describe } from "vitest";
import { realBackend, realBackendSkipReason } from "@/test/harness/real-backend";
import { pluginsSuite } from "@/test/suites/plugins";

/* Plugin registry, findings and health on the real controller and its sample plugin (simulator: test/integration). */
describe.skipIf(realBackendSkipReason() !== null)("real cluster", () => pluginsSuite(async () => realBackend()));
