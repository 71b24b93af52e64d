package meter

import (
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// ServeMetrics serves /metrics on addr: the recorder's family and the meter process's own (process_*: CPU, RSS).
// The port belongs to one meter process at a time; the next one (after a restart) may find it still held for a
// moment, so binding is retried for a while. A metrics port that cannot be had never stops the plugin.
func ServeMetrics(addr string, recorder *Recorder, logf func(format string, args ...any)) {
	registry := prometheus.NewRegistry()
	registry.MustRegister(recorder, collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))

	var listener net.Listener
	var err error
	for deadline := time.Now().Add(30 * time.Second); ; {
		if listener, err = net.Listen("tcp", addr); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil {
		logf("metrics not served: %v", err)
		return
	}
	server := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logf("metrics server stopped: %v", err)
	}
}
