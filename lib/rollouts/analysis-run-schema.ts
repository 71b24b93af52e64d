import { z } from "zod";
import { formatIssues, type ParseResult } from "./parse-result";
import { objectMetaSchema } from "./schema";

const measurementSchema = z.looseObject({
  value: z.string().optional(),
  phase: z.string(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  message: z.string().optional(),
});

const metricResultSchema = z.looseObject({
  name: z.string(),
  phase: z.string(),
  measurements: z.array(measurementSchema).optional(),
  message: z.string().optional(),
  count: z.number().int().optional(),
  successful: z.number().int().optional(),
  failed: z.number().int().optional(),
  inconclusive: z.number().int().optional(),
  error: z.number().int().optional(),
  consecutiveError: z.number().int().optional(),
  dryRun: z.boolean().optional(),
});

const analysisRunSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({ metrics: z.array(z.looseObject({ name: z.string() })).optional() }).optional(),
  status: z
    .looseObject({
      phase: z.string().optional(),
      message: z.string().optional(),
      startedAt: z.string().optional(),
      metricResults: z.array(metricResultSchema).optional(),
    })
    .optional(),
});

export type AnalysisRunResource = z.infer<typeof analysisRunSchema>;

export function parseAnalysisRun(obj: unknown): ParseResult<"analysisRun", AnalysisRunResource> {
  const result = analysisRunSchema.safeParse(obj);
  if (result.success) return { ok: true, analysisRun: result.data };
  return { ok: false, error: formatIssues(result.error) };
}
