import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import { z } from "zod";
import { kubeStatusOf } from "@/lib/errors/kube-errors";
import { messageOf } from "@/lib/errors/message-of";
import { kubeRequest } from "./kube-request";

const listSchema = z.object({ items: z.array(z.unknown()) });

/**
 * The Deployments of the controller's namespace, read on demand (the fleet does not watch them): `items: null` with
 * the reason when the API server does not serve them, refuses, or fails — the cluster page then shows the Pods only.
 */
export async function listControllerDeployments(
  kubeConfig: KubeConfig,
  namespace: string,
): Promise<{ items: unknown[] | null; note: string | null }> {
  try {
    const list = listSchema.parse(
      await kubeRequest<unknown>(kubeConfig, `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments`, {
        timeoutMs: 10_000,
      }),
    );
    return { items: list.items, note: null };
  } catch (err) {
    const status = kubeStatusOf(err);
    if (status === 404) return { items: null, note: "this API server does not serve apps/v1 Deployments" };
    if (status === 403) return { items: null, note: `not permitted to list Deployments in ${namespace}` };
    return { items: null, note: `Deployments could not be read: ${messageOf(err)}` };
  }
}
