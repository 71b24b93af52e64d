/** A LabelSelector as Kubernetes objects carry it (`spec.selector`). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** `metav1.LabelSelectorAsSelector(...).String()`: the `labelSelector` query parameter for a list; "" selects all. */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  const parts = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const { key, operator, values = [] } of selector?.matchExpressions ?? []) {
    if (operator === "In") parts.push(`${key} in (${values.join(",")})`);
    else if (operator === "NotIn") parts.push(`${key} notin (${values.join(",")})`);
    else if (operator === "Exists") parts.push(key);
    else if (operator === "DoesNotExist") parts.push(`!${key}`);
  }
  return parts.join(",");
}
