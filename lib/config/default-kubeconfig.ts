import "server-only";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";

/** client-node's loadFromDefault, reading KUBECONFIG (one or several files) from the given environment. */
export function loadDefaultKubeConfig(env: Record<string, string | undefined> = process.env): KubeConfig {
  const kc = new KubeConfig();
  const files = (env.KUBECONFIG ?? "").split(path.delimiter).filter(Boolean);
  if (files.length === 0) {
    kc.loadFromDefault();
    return kc;
  }
  kc.loadFromFile(files[0]);
  for (const file of files.slice(1)) {
    const other = new KubeConfig();
    other.loadFromFile(file);
    kc.mergeConfig(other);
  }
  return kc;
}
