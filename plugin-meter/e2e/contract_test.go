package e2e

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/rollscope/rollscope/plugin-meter/internal/meter"
)

// contract is plugin-meter/metrics.json, the family the simulator and Rollscope's reader are written against.
type contract struct {
	Outcomes []string `json:"outcomes"`
	Kinds    []string `json:"kinds"`
	Metrics  map[string]struct {
		Name    string    `json:"name"`
		Type    string    `json:"type"`
		Labels  []string  `json:"labels"`
		Buckets []float64 `json:"buckets"`
	} `json:"metrics"`
}

// The family a running meter exports, after calls of every outcome it can produce here and a restart, is exactly
// the one metrics.json declares: names, types, label names, buckets, outcome and kind values.
func TestExportedFamilyEqualsMetricsJSON(t *testing.T) {
	data, err := os.ReadFile("../metrics.json")
	if err != nil {
		t.Fatal(err)
	}
	var spec contract
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}

	router, control, metrics, _ := meteredRouter(t, "--call-timeout=1s")
	control.inject(t, "SetWeight", "fail", 1, 0, "")
	router.SetWeight(rollout("checkout"), 10, nil)
	control.inject(t, "SetWeight", "delay", 1, 2500*time.Millisecond, "")
	router.SetWeight(rollout("checkout"), 10, nil)
	router.SetWeight(rollout("checkout"), 10, nil)
	families := scrape(t, metrics)

	exported := map[string]*dto.MetricFamily{}
	for name, family := range families {
		if strings.HasPrefix(name, "rollscope_") {
			exported[name] = family
		}
	}
	declared := map[string]bool{}
	for key, m := range spec.Metrics {
		declared[m.Name] = true
		family := exported[m.Name]
		if family == nil {
			t.Errorf("metrics.json declares %s (%s), the meter does not export it", m.Name, key)
			continue
		}
		if got := strings.ToLower(family.GetType().String()); got != m.Type {
			t.Errorf("%s is a %s, metrics.json says %s", m.Name, got, m.Type)
		}
		want := append([]string(nil), m.Labels...)
		sort.Strings(want)
		for _, series := range family.GetMetric() {
			var names []string
			for _, l := range series.GetLabel() {
				names = append(names, l.GetName())
			}
			sort.Strings(names)
			if !reflect.DeepEqual(names, want) {
				t.Errorf("%s has labels %v, metrics.json says %v", m.Name, names, want)
			}
			l := labelsOf(series)
			if l["kind"] != meter.TrafficRouter.Name || l["plugin"] != "rollscope/faulty" {
				t.Errorf("%s{kind=%q,plugin=%q}", m.Name, l["kind"], l["plugin"])
			}
			if v, ok := l["version"]; ok && v != meter.Version {
				t.Errorf("%s{version=%q}, want %q", m.Name, v, meter.Version)
			}
			if family.GetType() == dto.MetricType_HISTOGRAM {
				var bounds []float64
				for _, b := range series.GetHistogram().GetBucket() {
					if !math.IsInf(b.GetUpperBound(), 1) { // the text format's +Inf bucket is implied by every histogram
						bounds = append(bounds, b.GetUpperBound())
					}
				}
				if !reflect.DeepEqual(bounds, m.Buckets) {
					t.Errorf("%s buckets %v, metrics.json says %v", m.Name, bounds, m.Buckets)
				}
			}
		}
	}
	for name := range exported {
		if !declared[name] {
			t.Errorf("the meter exports %s, which metrics.json does not declare", name)
		}
	}

	outcomes := map[string]bool{}
	for _, series := range exported[meter.CallsMetric].GetMetric() {
		outcomes[labelsOf(series)["outcome"]] = true
	}
	var seen []string
	for o := range outcomes {
		seen = append(seen, o)
	}
	sort.Strings(seen)
	wantOutcomes := append([]string(nil), spec.Outcomes...)
	sort.Strings(wantOutcomes)
	if !reflect.DeepEqual(seen, wantOutcomes) {
		t.Errorf("outcomes %v, metrics.json says %v", seen, wantOutcomes)
	}
	var kinds []string
	for _, k := range meter.Kinds {
		kinds = append(kinds, k.Name)
	}
	if !reflect.DeepEqual(kinds, spec.Kinds) {
		t.Errorf("kinds %v, metrics.json says %v", kinds, spec.Kinds)
	}
	if got := calls(families)["SetWeight"]; got["ok"] != 1 || got["error"] != 1 || got["timeout"] != 1 {
		t.Errorf("SetWeight outcomes %v, want ok 1, error 1, timeout 1", got)
	}
}
