// Package meter forwards Argo Rollouts plugin RPCs to the real plugin and counts them.
package meter

// Version is what the binary reports (--version and rollscope_plugin_meter_info{version}).
const Version = "0.1.0"

// The metric family, as declared in plugin-meter/metrics.json (a test fails when the two differ).
const (
	CallsMetric    = "rollscope_plugin_calls_total"
	DurationMetric = "rollscope_plugin_call_duration_seconds"
	RestartsMetric = "rollscope_plugin_restarts_total"
	InfoMetric     = "rollscope_plugin_meter_info"
)

// Outcome of one call.
type Outcome string

const (
	// OutcomeOK: the plugin answered without an error.
	OutcomeOK Outcome = "ok"
	// OutcomeError: the plugin answered with an error (a non-empty RpcError, an Error phase, or an error from its RPC server).
	OutcomeError Outcome = "error"
	// OutcomeTransport: the call failed on the wire or the plugin process died.
	OutcomeTransport Outcome = "transport"
	// OutcomeTimeout: no answer within --call-timeout (counted when the timeout passes; the answer still goes through).
	OutcomeTimeout Outcome = "timeout"
)

// Outcomes in the order of metrics.json.
var Outcomes = []Outcome{OutcomeOK, OutcomeError, OutcomeTransport, OutcomeTimeout}

// DurationBuckets are the histogram's upper bounds in seconds.
var DurationBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}
