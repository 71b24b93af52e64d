// rollscope-plugin-meter stands in for an Argo Rollouts plugin: registered in argo-rollouts-config in the plugin's
// place, it starts the real plugin as its child, forwards every RPC unchanged and serves Prometheus metrics of the
// calls (plugin-meter/README.md).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/rollscope/rollscope/plugin-meter/internal/meter"
)

func main() {
	flags := flag.NewFlagSet("rollscope-plugin-meter", flag.ContinueOnError)
	kind := flags.String("kind", "", "the plugin's kind: trafficRouter, metricProvider or step")
	name := flags.String("name", "", "the plugin's name as registered in argo-rollouts-config (<org>/<name>): the `plugin` label")
	plugin := flags.String("plugin", "", "path of the real plugin's executable")
	var pluginArgs []string
	flags.Func("plugin-arg", "an argument for the real plugin (repeatable; arguments after -- are passed too)", func(v string) error {
		pluginArgs = append(pluginArgs, v)
		return nil
	})
	sum := flags.String("sha256", "", "the real plugin's sha256 (hex): the meter refuses to start a file that differs")
	metricsAddress := flags.String("metrics-address", "127.0.0.1:9465", "where to serve /metrics (host:port; empty: not served)")
	stateDir := flags.String("state-dir", "", "where counts and restarts outlive a meter process (default: <tmp>/rollscope-plugin-meter/<kind>-<name>)")
	callTimeout := flags.Duration("call-timeout", 0, "count a call still unanswered after this long as outcome=timeout (0: never); the answer is still passed on")
	version := flags.Bool("version", false, "print the version and exit")
	if err := flags.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *version {
		fmt.Printf("rollscope-plugin-meter %s (Argo Rollouts v1.9.1 plugin RPC, %s)\n", meter.Version, runtime.Version())
		return
	}
	k, err := meter.KindNamed(*kind)
	if err == nil && *name == "" {
		err = fmt.Errorf("--name is required: the plugin's name as registered in argo-rollouts-config")
	}
	if err == nil && *plugin == "" {
		err = fmt.Errorf("--plugin is required: the real plugin's executable")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rollscope-plugin-meter: %v\n", err)
		os.Exit(2)
	}
	if *stateDir == "" {
		*stateDir = meter.DefaultStateDir(k.Name, *name)
	}
	os.Exit(meter.Run(meter.Config{
		Kind:           k,
		Name:           *name,
		PluginPath:     *plugin,
		PluginArgs:     append(pluginArgs, flags.Args()...),
		SHA256:         *sum,
		MetricsAddress: *metricsAddress,
		StateDir:       *stateDir,
		CallTimeout:    *callTimeout,
	}))
}
