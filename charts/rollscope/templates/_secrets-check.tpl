{{/*
A Secret the values name must exist, with its key, before the pod is created: against a cluster (`helm install`,
`helm upgrade`) the chart looks each one up and stops with the value named. `helm template` has no cluster to ask
(lookup answers nothing, not even the `default` namespace), so it skips the check.
*/}}
{{- define "rollscope.checkSecrets" -}}
{{- if lookup "v1" "Namespace" "" "default" }}
{{- range $value, $ref := dict "databaseUrl" .Values.secrets.databaseUrl "oidcClientSecret" .Values.secrets.oidcClientSecret "sessionSecret" .Values.secrets.sessionSecret "kubeconfigs" .Values.secrets.kubeconfigs }}
{{- with $ref.existingSecret }}
{{- $secret := lookup "v1" "Secret" $.Release.Namespace . }}
{{- if not $secret }}
{{- fail (printf "secrets.%s.existingSecret: Secret %q does not exist in namespace %s; create it first (the chart never creates Secrets)" $value . $.Release.Namespace) }}
{{- end }}
{{- if and $ref.key (not (hasKey ($secret.data | default dict) $ref.key)) }}
{{- fail (printf "secrets.%s: Secret %q in namespace %s has no key %q" $value . $.Release.Namespace $ref.key) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
