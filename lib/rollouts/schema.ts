import { z } from "zod";
import { formatIssues, type ParseResult } from "./parse-result";

// Every object is a looseObject: fields added by newer controllers or plugins survive parsing.
const stringMap = z.record(z.string(), z.string());
const intOrString = z.union([z.number().int(), z.string()]);

export const objectMetaSchema = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  generation: z.number().int().optional(),
  resourceVersion: z.string().optional(),
  creationTimestamp: z.string().nullish(),
  annotations: stringMap.optional(),
  labels: stringMap.optional(),
});

const labelSelectorSchema = z.looseObject({
  matchLabels: stringMap.optional(),
  matchExpressions: z.array(z.looseObject({ key: z.string(), operator: z.string(), values: z.array(z.string()).optional() })).optional(),
});

const containerSchema = z.looseObject({ name: z.string(), image: z.string().optional() });

const podTemplateSchema = z.looseObject({
  metadata: z.looseObject({ labels: stringMap.optional(), annotations: stringMap.optional() }).optional(),
  spec: z
    .looseObject({
      containers: z.array(containerSchema).optional(),
      initContainers: z.array(containerSchema).optional(),
    })
    .optional(),
});

const analysisTemplateRefSchema = z.looseObject({
  templateName: z.string().optional(),
  clusterScope: z.boolean().optional(),
});

const analysisArgSchema = z.looseObject({
  name: z.string(),
  value: z.string().optional(),
  valueFrom: z.looseObject({}).optional(),
});

const metadataSchema = z.looseObject({ labels: stringMap.optional(), annotations: stringMap.optional() });

const rolloutAnalysisSchema = z.looseObject({
  templates: z.array(analysisTemplateRefSchema).optional(),
  args: z.array(analysisArgSchema).optional(),
  dryRun: z.array(z.looseObject({ metricName: z.string() })).optional(),
  measurementRetention: z.array(z.looseObject({ metricName: z.string(), limit: z.number().int() })).optional(),
  analysisRunMetadata: metadataSchema.optional(),
});

const backgroundAnalysisSchema = rolloutAnalysisSchema.extend({
  startingStep: z.number().int().optional(),
});

const stringMatchSchema = z.looseObject({
  exact: z.string().optional(),
  prefix: z.string().optional(),
  regex: z.string().optional(),
});

const setHeaderRouteSchema = z.looseObject({
  name: z.string().optional(),
  match: z.array(z.looseObject({ headerName: z.string(), headerValue: stringMatchSchema })).optional(),
});

const setMirrorRouteSchema = z.looseObject({
  name: z.string(),
  match: z
    .array(
      z.looseObject({
        method: stringMatchSchema.optional(),
        path: stringMatchSchema.optional(),
        headers: z.record(z.string(), stringMatchSchema).optional(),
      }),
    )
    .optional(),
  percentage: z.number().int().optional(),
});

const experimentStepSchema = z.looseObject({
  duration: z.string().optional(),
  templates: z
    .array(
      z.looseObject({
        name: z.string(),
        specRef: z.string(),
        replicas: z.number().int().optional(),
        weight: z.number().int().optional(),
        selector: labelSelectorSchema.optional(),
        service: z.looseObject({ name: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  analyses: z
    .array(
      z.looseObject({
        name: z.string(),
        templateName: z.string(),
        clusterScope: z.boolean().optional(),
        args: z.array(analysisArgSchema).optional(),
        requiredForCompletion: z.boolean().optional(),
      }),
    )
    .optional(),
  dryRun: z.array(z.looseObject({ metricName: z.string() })).optional(),
  analysisRunMetadata: metadataSchema.optional(),
});

const canaryStepSchema = z.looseObject({
  setWeight: z.number().int().optional(),
  pause: z.looseObject({ duration: intOrString.optional() }).optional(),
  analysis: rolloutAnalysisSchema.optional(),
  experiment: experimentStepSchema.optional(),
  setCanaryScale: z
    .looseObject({
      weight: z.number().int().optional(),
      replicas: z.number().int().optional(),
      matchTrafficWeight: z.boolean().optional(),
    })
    .optional(),
  setHeaderRoute: setHeaderRouteSchema.optional(),
  setMirrorRoute: setMirrorRouteSchema.optional(),
  plugin: z.looseObject({ name: z.string(), config: z.unknown().optional() }).optional(),
});

const trafficRoutingSchema = z.looseObject({
  istio: z
    .looseObject({
      virtualService: z.looseObject({ name: z.string(), routes: z.array(z.string()).optional() }).optional(),
      virtualServices: z.array(z.looseObject({ name: z.string(), routes: z.array(z.string()).optional() })).optional(),
      destinationRule: z.looseObject({ name: z.string(), canarySubsetName: z.string(), stableSubsetName: z.string() }).optional(),
    })
    .optional(),
  nginx: z
    .looseObject({
      annotationPrefix: z.string().optional(),
      stableIngress: z.string().optional(),
      stableIngresses: z.array(z.string()).optional(),
    })
    .optional(),
  alb: z
    .looseObject({
      ingress: z.string().optional(),
      ingresses: z.array(z.string()).optional(),
      servicePort: z.number().int().optional(),
      rootService: z.string().optional(),
      annotationPrefix: z.string().optional(),
    })
    .optional(),
  smi: z.looseObject({ rootService: z.string().optional(), trafficSplitName: z.string().optional() }).optional(),
  ambassador: z.looseObject({ mappings: z.array(z.string()).optional() }).optional(),
  appMesh: z.looseObject({}).optional(),
  traefik: z.looseObject({ weightedTraefikServiceName: z.string().optional() }).optional(),
  apisix: z.looseObject({ route: z.looseObject({ name: z.string().optional() }).optional() }).optional(),
  managedRoutes: z.array(z.looseObject({ name: z.string() })).optional(),
  plugins: z.record(z.string(), z.unknown()).optional(),
  maxTrafficWeight: z.number().int().optional(),
});

const canaryStrategySchema = z.looseObject({
  canaryService: z.string().optional(),
  stableService: z.string().optional(),
  steps: z.array(canaryStepSchema).optional(),
  trafficRouting: trafficRoutingSchema.optional(),
  analysis: backgroundAnalysisSchema.optional(),
  maxSurge: intOrString.optional(),
  maxUnavailable: intOrString.optional(),
  dynamicStableScale: z.boolean().optional(),
  scaleDownDelaySeconds: z.number().int().optional(),
  abortScaleDownDelaySeconds: z.number().int().optional(),
  pingPong: z.looseObject({ pingService: z.string(), pongService: z.string() }).optional(),
  canaryMetadata: metadataSchema.optional(),
  stableMetadata: metadataSchema.optional(),
});

const blueGreenStrategySchema = z.looseObject({
  activeService: z.string().optional(),
  previewService: z.string().optional(),
  previewReplicaCount: z.number().int().optional(),
  autoPromotionEnabled: z.boolean().optional(),
  autoPromotionSeconds: z.number().int().optional(),
  maxUnavailable: intOrString.optional(),
  scaleDownDelaySeconds: z.number().int().optional(),
  scaleDownDelayRevisionLimit: z.number().int().optional(),
  abortScaleDownDelaySeconds: z.number().int().optional(),
  prePromotionAnalysis: rolloutAnalysisSchema.optional(),
  postPromotionAnalysis: rolloutAnalysisSchema.optional(),
  previewMetadata: metadataSchema.optional(),
  activeMetadata: metadataSchema.optional(),
});

const rolloutSpecSchema = z.looseObject({
  replicas: z.number().int().optional(),
  paused: z.boolean().optional(),
  restartAt: z.string().optional(),
  selector: labelSelectorSchema.optional(),
  template: podTemplateSchema.optional(),
  workloadRef: z.looseObject({ apiVersion: z.string().optional(), kind: z.string(), name: z.string() }).optional(),
  minReadySeconds: z.number().int().optional(),
  revisionHistoryLimit: z.number().int().optional(),
  progressDeadlineSeconds: z.number().int().optional(),
  progressDeadlineAbort: z.boolean().optional(),
  rollbackWindow: z.looseObject({ revisions: z.number().int().optional() }).optional(),
  strategy: z.looseObject({ canary: canaryStrategySchema.optional(), blueGreen: blueGreenStrategySchema.optional() }).optional(),
});

/** `{name, status, message}` as in `types.go` RolloutAnalysisRunStatus; `status` is an AnalysisPhase. */
const analysisRunStatusRefSchema = z.looseObject({
  name: z.string(),
  status: z.string(),
  message: z.string().optional(),
});

const weightDestinationSchema = z.looseObject({
  weight: z.number().int(),
  serviceName: z.string().optional(),
  podTemplateHash: z.string().optional(),
});

const trafficWeightsSchema = z.looseObject({
  canary: weightDestinationSchema,
  stable: weightDestinationSchema,
  additional: z.array(weightDestinationSchema).optional(),
  verified: z.boolean().optional(),
});

const stepPluginStatusSchema = z.looseObject({
  index: z.number().int(),
  name: z.string(),
  operation: z.string().optional(),
  phase: z.string().optional(),
  message: z.string().optional(),
  startedAt: z.string().optional(),
  updatedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  backoff: z.string().optional(),
  executions: z.number().int().optional(),
  disabled: z.boolean().optional(),
  status: z.unknown().optional(),
});

const rolloutConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastUpdateTime: z.string().optional(),
  lastTransitionTime: z.string().optional(),
});

const albStatusSchema = z.looseObject({
  loadBalancer: z.looseObject({}).optional(),
  canaryTargetGroup: z.looseObject({}).optional(),
  stableTargetGroup: z.looseObject({}).optional(),
  ingress: z.string().optional(),
});

const rolloutStatusSchema = z.looseObject({
  phase: z.string().optional(),
  message: z.string().optional(),
  // A string in the CRD; tolerate hand-written numbers so a comparison never silently fails.
  observedGeneration: z.union([z.string(), z.number()]).transform(String).optional(),
  currentStepIndex: z.number().int().optional(),
  currentStepHash: z.string().optional(),
  currentPodHash: z.string().optional(),
  stableRS: z.string().optional(),
  pauseConditions: z.array(z.looseObject({ reason: z.string(), startTime: z.string() })).optional(),
  controllerPause: z.boolean().optional(),
  abort: z.boolean().optional(),
  abortedAt: z.string().optional(),
  promoteFull: z.boolean().optional(),
  replicas: z.number().int().optional(),
  updatedReplicas: z.number().int().optional(),
  readyReplicas: z.number().int().optional(),
  availableReplicas: z.number().int().optional(),
  HPAReplicas: z.number().int().optional(),
  selector: z.string().optional(),
  restartedAt: z.string().optional(),
  collisionCount: z.number().int().optional(),
  workloadObservedGeneration: z.string().optional(),
  conditions: z.array(rolloutConditionSchema).optional(),
  canary: z
    .looseObject({
      currentStepAnalysisRunStatus: analysisRunStatusRefSchema.optional(),
      currentBackgroundAnalysisRunStatus: analysisRunStatusRefSchema.optional(),
      currentExperiment: z.string().optional(),
      weights: trafficWeightsSchema.optional(),
      stablePingPong: z.string().optional(),
      stepPluginStatuses: z.array(stepPluginStatusSchema).optional(),
    })
    .optional(),
  blueGreen: z
    .looseObject({
      previewSelector: z.string().optional(),
      activeSelector: z.string().optional(),
      scaleUpPreviewCheckPoint: z.boolean().optional(),
      prePromotionAnalysisRunStatus: analysisRunStatusRefSchema.optional(),
      postPromotionAnalysisRunStatus: analysisRunStatusRefSchema.optional(),
    })
    .optional(),
  alb: albStatusSchema.optional(),
  albs: z.array(albStatusSchema).optional(),
  duration: z
    .looseObject({
      rolloutStartedAt: z.string().optional(),
      manualPauseStartedAt: z.string().optional(),
      totalManualPauseDurationSeconds: z.number().optional(),
      finishedAt: z.string().optional(),
      completionStatus: z.string().optional(),
    })
    .optional(),
});

const rolloutSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: rolloutSpecSchema.optional(),
  status: rolloutStatusSchema.optional(),
});

export type RolloutResource = z.infer<typeof rolloutSchema>;
export type RolloutSpec = NonNullable<RolloutResource["spec"]>;
export type RolloutStatus = NonNullable<RolloutResource["status"]>;
export type CanaryStep = z.infer<typeof canaryStepSchema>;
export type CanaryStrategy = z.infer<typeof canaryStrategySchema>;
export type BlueGreenStrategy = z.infer<typeof blueGreenStrategySchema>;
export type AnalysisRunStatusRef = z.infer<typeof analysisRunStatusRefSchema>;
export type TrafficWeights = z.infer<typeof trafficWeightsSchema>;
export type RolloutCondition = z.infer<typeof rolloutConditionSchema>;

/** The Rollout schema with the spec taken as it is (the spec schema transforms nothing, so a valid spec reads the same). */
const rolloutWithReadSpecSchema = rolloutSchema.extend({ spec: z.unknown() });

/**
 * `specAlreadyRead`: the object's spec was parsed before at this uid and generation (a spec change bumps the
 * generation), so only the rest is checked; a status update then costs a fraction of a whole parse.
 */
export function parseRollout(obj: unknown, specAlreadyRead = false): ParseResult<"rollout", RolloutResource> {
  const result = specAlreadyRead ? rolloutWithReadSpecSchema.safeParse(obj) : rolloutSchema.safeParse(obj);
  if (result.success) return { ok: true, rollout: result.data as RolloutResource };
  return { ok: false, error: formatIssues(result.error) };
}
