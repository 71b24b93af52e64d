const enc = encodeURIComponent;

export function clusterApiPath(cluster: string): string {
  return `/api/clusters/${enc(cluster)}`;
}

export function rolloutApiPath(cluster: string, namespace: string, name: string): string {
  return `${clusterApiPath(cluster)}/rollouts/${enc(namespace)}/${enc(name)}`;
}
