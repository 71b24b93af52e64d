import { z } from "zod";
import { formatIssues, type ParseResult } from "./parse-result";

// The fields of ReplicaSets and Pods that `pkg/kubectl-argo-rollouts/info` reads; everything else passes through.
const stringMap = z.record(z.string(), z.string());
const ownerReferenceSchema = z.looseObject({
  uid: z.string(),
  kind: z.string().optional(),
  name: z.string().optional(),
  controller: z.boolean().optional(),
});
const metaSchema = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: z.string().nullish(),
  deletionTimestamp: z.string().nullish(),
  annotations: stringMap.optional(),
  labels: stringMap.optional(),
  ownerReferences: z.array(ownerReferenceSchema).optional(),
});
const containerSchema = z.looseObject({ name: z.string(), image: z.string().optional(), restartPolicy: z.string().optional() });

const replicaSetSchema = z.looseObject({
  metadata: metaSchema,
  spec: z
    .looseObject({
      replicas: z.number().int().optional(),
      template: z
        .looseObject({
          metadata: z.looseObject({ labels: stringMap.optional() }).optional(),
          spec: z
            .looseObject({ containers: z.array(containerSchema).optional(), initContainers: z.array(containerSchema).optional() })
            .optional(),
        })
        .optional(),
    })
    .optional(),
  status: z
    .looseObject({
      replicas: z.number().int().optional(),
      readyReplicas: z.number().int().optional(),
      availableReplicas: z.number().int().optional(),
      observedGeneration: z.number().int().optional(),
      conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional(),
    })
    .optional(),
});
export type ReplicaSetResource = z.infer<typeof replicaSetSchema>;

const containerStateSchema = z.looseObject({
  waiting: z.looseObject({ reason: z.string().optional() }).optional(),
  running: z.looseObject({}).optional(),
  terminated: z
    .looseObject({ reason: z.string().optional(), exitCode: z.number().int().optional(), signal: z.number().int().optional() })
    .optional(),
});
const containerStatusSchema = z.looseObject({
  name: z.string().optional(),
  ready: z.boolean().optional(),
  started: z.boolean().optional(),
  restartCount: z.number().int().optional(),
  state: containerStateSchema.optional(),
});
export type ContainerStatus = z.infer<typeof containerStatusSchema>;

const podSchema = z.looseObject({
  metadata: metaSchema,
  spec: z
    .looseObject({
      nodeName: z.string().optional(),
      containers: z.array(containerSchema).optional(),
      initContainers: z.array(containerSchema).optional(),
    })
    .optional(),
  status: z
    .looseObject({
      phase: z.string().optional(),
      reason: z.string().optional(),
      containerStatuses: z.array(containerStatusSchema).optional(),
      initContainerStatuses: z.array(containerStatusSchema).optional(),
    })
    .optional(),
});
export type PodResource = z.infer<typeof podSchema>;

export function parseReplicaSet(obj: unknown): ParseResult<"replicaSet", ReplicaSetResource> {
  const result = replicaSetSchema.safeParse(obj);
  return result.success ? { ok: true, replicaSet: result.data } : { ok: false, error: formatIssues(result.error) };
}

export function parsePod(obj: unknown): ParseResult<"pod", PodResource> {
  const result = podSchema.safeParse(obj);
  return result.success ? { ok: true, pod: result.data } : { ok: false, error: formatIssues(result.error) };
}

/** The fields of an Experiment that `info/experiment_info.go` reads. */
const experimentSchema = z.looseObject({
  metadata: metaSchema,
  status: z.looseObject({ phase: z.string().optional(), message: z.string().optional() }).optional(),
});
export type ExperimentResource = z.infer<typeof experimentSchema>;

export function parseExperiment(obj: unknown): ParseResult<"experiment", ExperimentResource> {
  const result = experimentSchema.safeParse(obj);
  return result.success ? { ok: true, experiment: result.data } : { ok: false, error: formatIssues(result.error) };
}
