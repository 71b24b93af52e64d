package meter

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Recorder holds the counts of one plugin and serves them as the metric family of metrics.json. Its state lives in
// a file of the state directory as well, so that the counts and the number of starts survive the meter's own exit:
// when the plugin dies the meter exits too (the controller then restarts both), and a scrape after the restart
// still sees the calls that failed with it.
type Recorder struct {
	plugin, kind string
	stateFile    string
	mu           sync.Mutex
	state        persisted
	dirty        bool

	callsDesc, durationDesc, restartsDesc, infoDesc *prometheus.Desc
}

// persisted is the state file's content.
type persisted struct {
	Plugin string `json:"plugin"`
	Kind   string `json:"kind"`
	// Starts counts the meter processes started for this plugin; restarts = starts − 1.
	Starts uint64 `json:"starts"`
	// Calls: method → outcome → count.
	Calls map[string]map[Outcome]uint64 `json:"calls"`
	// Durations: method → histogram.
	Durations map[string]*histogram `json:"durations"`
}

type histogram struct {
	// Buckets: one count per upper bound of DurationBuckets (not cumulative), then the +Inf overflow.
	Buckets []uint64 `json:"buckets"`
	Sum     float64  `json:"sum"`
	Count   uint64   `json:"count"`
}

// errOtherPlugin: the state directory holds another plugin's state, which is left alone.
var errOtherPlugin = errors.New("the state directory belongs to another plugin")

// DefaultStateDir is os.TempDir()/rollscope-plugin-meter/<kind>-<plugin name with unsafe characters replaced>.
func DefaultStateDir(kind, plugin string) string {
	return filepath.Join(os.TempDir(), "rollscope-plugin-meter", kind+"-"+regexp.MustCompile(`[^A-Za-z0-9._-]`).ReplaceAllString(plugin, "_"))
}

// OpenRecorder loads the state of stateDir (if any), counts this start and writes it back at once. A state
// directory that cannot be written does not stop the meter: the error is returned beside a working recorder whose
// counts then begin at zero with each process.
func OpenRecorder(kind *Kind, plugin, stateDir string) (*Recorder, error) {
	r := &Recorder{plugin: plugin, kind: kind.Name}
	r.state = persisted{Plugin: plugin, Kind: kind.Name}
	r.callsDesc = prometheus.NewDesc(CallsMetric, "Plugin RPC calls forwarded by the meter, by method and outcome.",
		[]string{"plugin", "kind", "method", "outcome"}, nil)
	r.durationDesc = prometheus.NewDesc(DurationMetric, "Duration of plugin RPC calls as the meter saw them, by method.",
		[]string{"plugin", "kind", "method"}, nil)
	r.restartsDesc = prometheus.NewDesc(RestartsMetric, "Times the plugin (meter and its child) was started again after its first start.",
		[]string{"plugin", "kind"}, nil)
	r.infoDesc = prometheus.NewDesc(InfoMetric, "The plugin meter in front of this plugin; always 1.",
		[]string{"plugin", "kind", "version"}, nil)

	var err error
	if stateDir != "" {
		r.stateFile = filepath.Join(stateDir, "state.json")
		err = r.withLock(func() error {
			if loadErr := r.load(); errors.Is(loadErr, errOtherPlugin) {
				return loadErr
			} else if loadErr != nil {
				fmt.Fprintf(os.Stderr, "rollscope-plugin-meter: ignoring the state in %s: %v\n", r.stateFile, loadErr)
			}
			r.state.Starts++
			return r.write()
		})
		if err != nil {
			r.stateFile = ""
			r.state = persisted{Plugin: plugin, Kind: kind.Name, Starts: 1}
		}
	} else {
		r.state.Starts = 1
	}
	// Every method × outcome exists from the start at zero, so that rate() and increase() see the first error.
	for _, method := range kind.Methods {
		for _, outcome := range Outcomes {
			r.calls(method)[outcome] += 0
		}
		r.histogram(method)
	}
	return r, err
}

func (r *Recorder) calls(method string) map[Outcome]uint64 {
	if r.state.Calls == nil {
		r.state.Calls = map[string]map[Outcome]uint64{}
	}
	m := r.state.Calls[method]
	if m == nil {
		m = map[Outcome]uint64{}
		r.state.Calls[method] = m
	}
	return m
}

func (r *Recorder) histogram(method string) *histogram {
	if r.state.Durations == nil {
		r.state.Durations = map[string]*histogram{}
	}
	h := r.state.Durations[method]
	if h == nil {
		h = &histogram{Buckets: make([]uint64, len(DurationBuckets)+1)}
		r.state.Durations[method] = h
	}
	return h
}

// Count adds one call of method with outcome (used alone for a timeout, when it passes).
func (r *Recorder) Count(method string, outcome Outcome) {
	r.mu.Lock()
	r.calls(method)[outcome]++
	r.dirty = true
	r.mu.Unlock()
}

// Observe records a finished call's duration, and its outcome when count is true.
func (r *Recorder) Observe(method string, elapsed time.Duration, outcome Outcome, count bool) {
	seconds := elapsed.Seconds()
	bucket := sort.SearchFloat64s(DurationBuckets, seconds) // first bound ≥ seconds: Prometheus' `le`
	r.mu.Lock()
	if count {
		r.calls(method)[outcome]++
	}
	h := r.histogram(method)
	h.Buckets[bucket]++
	h.Sum += seconds
	h.Count++
	r.dirty = true
	r.mu.Unlock()
}

// Restarts is the number of starts after the first.
func (r *Recorder) Restarts() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state.Starts - 1
}

func (r *Recorder) Describe(ch chan<- *prometheus.Desc) {
	ch <- r.callsDesc
	ch <- r.durationDesc
	ch <- r.restartsDesc
	ch <- r.infoDesc
}

func (r *Recorder) Collect(ch chan<- prometheus.Metric) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for method, outcomes := range r.state.Calls {
		for outcome, n := range outcomes {
			ch <- prometheus.MustNewConstMetric(r.callsDesc, prometheus.CounterValue, float64(n), r.plugin, r.kind, method, string(outcome))
		}
	}
	for method, h := range r.state.Durations {
		cumulative := make(map[float64]uint64, len(DurationBuckets))
		var running uint64
		for i, bound := range DurationBuckets {
			running += h.Buckets[i]
			cumulative[bound] = running
		}
		ch <- prometheus.MustNewConstHistogram(r.durationDesc, h.Count, h.Sum, cumulative, r.plugin, r.kind, method)
	}
	ch <- prometheus.MustNewConstMetric(r.restartsDesc, prometheus.CounterValue, float64(r.state.Starts-1), r.plugin, r.kind)
	ch <- prometheus.MustNewConstMetric(r.infoDesc, prometheus.GaugeValue, 1, r.plugin, r.kind, Version)
}

// Flush writes the counts to the state file if they changed since the last write.
func (r *Recorder) Flush() error {
	if r.stateFile == "" {
		return nil
	}
	r.mu.Lock()
	if !r.dirty {
		r.mu.Unlock()
		return nil
	}
	r.dirty = false
	r.mu.Unlock()
	return r.withLock(r.write)
}

// FlushEvery flushes every interval until stop is closed.
func (r *Recorder) FlushEvery(interval time.Duration, stop <-chan struct{}, logf func(format string, args ...any)) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-stop:
			return
		case <-ticker.C:
			if err := r.Flush(); err != nil {
				logf("writing the state file: %v", err)
			}
		}
	}
}

// withLock runs fn holding an exclusive lock on the state directory, so that two meter processes of one plugin
// (one exiting, the next starting) do not interleave their read and write.
func (r *Recorder) withLock(fn func() error) error {
	dir := filepath.Dir(r.stateFile)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing the file unlocks it too
	return fn()
}

func (r *Recorder) load() error {
	data, err := os.ReadFile(r.stateFile)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var loaded persisted
	if err := json.Unmarshal(data, &loaded); err != nil {
		return err
	}
	if loaded.Plugin != r.plugin || loaded.Kind != r.kind {
		return fmt.Errorf("%w: %s %s", errOtherPlugin, loaded.Kind, loaded.Plugin)
	}
	for method, h := range loaded.Durations {
		if h == nil || len(h.Buckets) != len(DurationBuckets)+1 {
			return fmt.Errorf("the histogram of %s has other buckets", method)
		}
	}
	r.state = loaded
	return nil
}

// write replaces the state file (called with the lock held).
func (r *Recorder) write() error {
	r.mu.Lock()
	data, err := json.Marshal(r.state)
	r.mu.Unlock()
	if err != nil {
		return err
	}
	tmp := r.stateFile + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, r.stateFile)
}
