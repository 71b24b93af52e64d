import { z } from "zod";
import { formatIssues, type ParseResult } from "./parse-result";

// core/v1 Event. Timestamps are nullable: core events leave eventTime null, events.k8s.io ones firstTimestamp.
const kubeEventSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string().optional(), namespace: z.string().optional(), uid: z.string().optional() }).optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  type: z.string().optional(),
  count: z.number().int().optional(),
  firstTimestamp: z.string().nullish(),
  lastTimestamp: z.string().nullish(),
  eventTime: z.string().nullish(),
  involvedObject: z.looseObject({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    uid: z.string().optional(),
  }),
  source: z.looseObject({ component: z.string().optional(), host: z.string().optional() }).optional(),
  reportingComponent: z.string().optional(),
});

export type KubeEvent = z.infer<typeof kubeEventSchema>;

export function parseKubeEvent(obj: unknown): ParseResult<"event", KubeEvent> {
  const result = kubeEventSchema.safeParse(obj);
  if (result.success) return { ok: true, event: result.data };
  return { ok: false, error: formatIssues(result.error) };
}
