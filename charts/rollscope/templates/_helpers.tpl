{{/* Names and labels. */}}
{{- define "rollscope.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "rollscope.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "rollscope.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "rollscope.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "rollscope.selectorLabels" -}}
app.kubernetes.io/name: {{ include "rollscope.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "rollscope.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "rollscope.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "rollscope.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "rollscope.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The cluster Rollscope reaches through this pod's ServiceAccount (`inCluster: true` in config.clusters), as JSON;
"{}" when every cluster is remote (then the chart grants nothing in this cluster).
*/}}
{{- define "rollscope.inCluster" -}}
{{- $found := dict }}
{{- range .Values.config.clusters }}
{{- if and (not $found.name) .inCluster }}{{- $found = . }}{{- end }}
{{- end }}
{{- toJson $found }}
{{- end }}

{{/*
What the RBAC follows, derived from the configuration exactly as Rollscope decides it (lib/auth, lib/services):
- perUser: signed-in users (auth.mode proxy/oidc) are authorized by the cluster: SubjectAccessReviews for reads and,
  unless read-only, actions sent impersonated (so the dashboard itself needs no patch rights);
- actionsAsDashboard: actions run with the dashboard's own identity (auth.mode none, or roleMappings without
  impersonation), so it needs get and patch on Rollouts;
- scrape: no Prometheus configured for the cluster, so the controller's metrics are read through the service proxy.
*/}}
{{- define "rollscope.access" -}}
{{- $cluster := include "rollscope.inCluster" . | fromJson }}
{{- $config := .Values.config }}
{{- $auth := $config.auth | default dict }}
{{- $authz := $config.authorization | default dict }}
{{- $mode := $auth.mode | default "none" }}
{{- $impersonate := true }}
{{- if hasKey $authz "impersonate" }}{{- $impersonate = $authz.impersonate }}{{- end }}
{{- $perCluster := $authz.clusters | default dict }}
{{- if and $cluster.name (hasKey $perCluster $cluster.name) }}{{- $impersonate = (get $perCluster $cluster.name).impersonate }}{{- end }}
{{- $readOnly := $config.readOnly | default false }}
{{- $perUser := and (ne $mode "none") $impersonate }}
{{- $metrics := $config.metrics | default dict }}
{{- $scrape := $metrics.scrape | default dict }}
{{- toJson (dict
  "enabled" (and .Values.rbac.create (not (empty $cluster.name)))
  "controllerNamespace" ($cluster.controllerNamespace | default "argo-rollouts")
  "perUser" $perUser
  "impersonate" (and $perUser (not $readOnly))
  "actionsAsDashboard" (and (not $readOnly) (not $perUser))
  "scrapeService" (ternary "" ($scrape.service | default "argo-rollouts-metrics:8090") (hasKey $cluster "prometheus"))
) }}
{{- end }}

{{/* Where the Secrets are mounted. */}}
{{- define "rollscope.secretsDir" -}}/etc/rollscope/secrets{{- end }}

{{/*
The configuration file as mounted: config, plus the Secret file paths the chart mounts and, unless given, the
Host names the Service, Ingress and HTTPRoute are reached by (anything else is answered 421).
*/}}
{{- define "rollscope.configFile" -}}
{{- $config := deepCopy .Values.config }}
{{- $auth := $config.auth | default dict }}
{{- if .Values.secrets.oidcClientSecret.existingSecret }}
{{- $oidc := $auth.oidc | default dict }}
{{- $_ := set $oidc "clientSecretFile" (printf "%s/oidc/%s" (include "rollscope.secretsDir" .) .Values.secrets.oidcClientSecret.key) }}
{{- $_ := set $auth "oidc" $oidc }}
{{- end }}
{{- if .Values.secrets.sessionSecret.existingSecret }}
{{- $_ := set $auth "sessionSecretFile" (printf "%s/session/%s" (include "rollscope.secretsDir" .) .Values.secrets.sessionSecret.key) }}
{{- end }}
{{- if $auth }}{{- $_ := set $config "auth" $auth }}{{- end }}
{{- $server := $config.server | default dict }}
{{- if not (hasKey $server "allowedHosts") }}
{{- $name := include "rollscope.fullname" . }}
{{- $hosts := list "localhost" "127.0.0.1" $name (printf "%s.%s" $name .Release.Namespace) (printf "%s.%s.svc" $name .Release.Namespace) (printf "%s.%s.svc.cluster.local" $name .Release.Namespace) }}
{{- if .Values.ingress.enabled }}{{- range .Values.ingress.hosts }}{{- $hosts = append $hosts .host }}{{- end }}{{- end }}
{{- if .Values.httpRoute.enabled }}{{- range .Values.httpRoute.hostnames }}{{- $hosts = append $hosts . }}{{- end }}{{- end }}
{{- $_ := set $server "allowedHosts" (uniq $hosts) }}
{{- $_ := set $config "server" $server }}
{{- end }}
{{- toYaml $config }}
{{- end }}
