import type { KubeConfig } from "@kubernetes/client-node";
import { KubeApiError, kubeRequest } from "@/lib/k8s/kube-request";
import type { KubePatchRequest } from "@/lib/actions/plan";

/** The few API calls a scenario makes, the same on both back-ends. */

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{ uid: string }>;
  };
  [key: string]: unknown;
}

const PATHS: Record<string, string> = {
  "v1/Namespace": "/api/v1/namespaces",
  "v1/Service": "/api/v1/namespaces/{ns}/services",
  "v1/ConfigMap": "/api/v1/namespaces/{ns}/configmaps",
  "v1/Event": "/api/v1/namespaces/{ns}/events",
  "apps/v1/ReplicaSet": "/apis/apps/v1/namespaces/{ns}/replicasets",
  "networking.k8s.io/v1/Ingress": "/apis/networking.k8s.io/v1/namespaces/{ns}/ingresses",
  "argoproj.io/v1alpha1/Rollout": "/apis/argoproj.io/v1alpha1/namespaces/{ns}/rollouts",
  "argoproj.io/v1alpha1/AnalysisTemplate": "/apis/argoproj.io/v1alpha1/namespaces/{ns}/analysistemplates",
  "argoproj.io/v1alpha1/AnalysisRun": "/apis/argoproj.io/v1alpha1/namespaces/{ns}/analysisruns",
};

function collection(apiVersion: string, kind: string, namespace: string): string {
  const template = PATHS[`${apiVersion}/${kind}`];
  if (!template) throw new Error(`conformance client: no path for ${apiVersion}/${kind}`);
  return template.replace("{ns}", namespace);
}

export class Kube {
  constructor(readonly kubeConfig: KubeConfig) {}

  create(namespace: string, obj: KubeObject): Promise<KubeObject> {
    return kubeRequest(this.kubeConfig, collection(obj.apiVersion, obj.kind, namespace), {
      method: "POST",
      body: { ...obj, metadata: { ...obj.metadata, namespace } },
    });
  }

  async createNamespace(name: string): Promise<void> {
    await this.create("", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  }

  get<T = KubeObject>(apiVersion: string, kind: string, namespace: string, name: string): Promise<T> {
    return kubeRequest<T>(this.kubeConfig, `${collection(apiVersion, kind, namespace)}/${name}`);
  }

  async tryGet<T = KubeObject>(apiVersion: string, kind: string, namespace: string, name: string): Promise<T | undefined> {
    try {
      return await this.get<T>(apiVersion, kind, namespace, name);
    } catch (err) {
      if (err instanceof KubeApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  async list<T = KubeObject>(apiVersion: string, kind: string, namespace: string): Promise<T[]> {
    return (await kubeRequest<{ items: T[] }>(this.kubeConfig, collection(apiVersion, kind, namespace))).items;
  }

  /** A PUT of the whole object (its resourceVersion makes a concurrent change fail instead of being lost). */
  async replace(namespace: string, obj: KubeObject): Promise<void> {
    await kubeRequest(this.kubeConfig, `${collection(obj.apiVersion, obj.kind, namespace)}/${obj.metadata.name}`, {
      method: "PUT",
      body: obj,
    });
  }

  async delete(apiVersion: string, kind: string, namespace: string, name: string): Promise<void> {
    await kubeRequest(this.kubeConfig, `${collection(apiVersion, kind, namespace)}/${name}`, { method: "DELETE" });
  }

  /** A merge patch (or JSON patch) on a Rollout, its `/status` when `target` is "status". */
  async patchRollout(
    namespace: string,
    name: string,
    body: unknown,
    opts: { target?: KubePatchRequest["target"]; json?: boolean } = {},
  ): Promise<void> {
    const sub = opts.target === "status" ? "/status" : "";
    await kubeRequest(this.kubeConfig, `${collection("argoproj.io/v1alpha1", "Rollout", namespace)}/${name}${sub}`, {
      method: "PATCH",
      body,
      contentType: opts.json ? "application/json-patch+json" : "application/merge-patch+json",
    });
  }

  /** The patches of an action plan, honouring `onNotFound` as upstream's CLI does. */
  async sendPatches(namespace: string, name: string, patches: readonly KubePatchRequest[]): Promise<void> {
    for (const patch of patches) await this.patchRollout(namespace, name, patch.body, { target: patch.target });
  }
}
