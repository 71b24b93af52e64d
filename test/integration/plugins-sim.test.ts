import { simBackend } from "@/test/harness/backend";
import { pluginsSuite } from "@/test/suites/plugins";

/* Plugin registry, findings and health on the simulator; test/real-cluster/plugins.test.ts: the real controller. */
pluginsSuite(() => simBackend({ prometheus: true }));
