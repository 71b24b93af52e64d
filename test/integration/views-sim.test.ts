import { simBackend } from "@/test/harness/backend";
import { viewsSuite } from "@/test/suites/views";

/* The overview and detail views on the simulator; test/real-cluster/views.test.ts runs the same on the real controller. */
viewsSuite(simBackend);
