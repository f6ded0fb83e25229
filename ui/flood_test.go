package ui

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// floodRunner writes total bytes of output in chunks, as fast as the
// queue takes them, without keeping any of it.
type floodRunner struct {
	total int64
	chunk []byte
	sent  atomic.Int64
}

func (r *floodRunner) Run(ctx context.Context, _ exec.Command, out func(exec.Chunk)) exec.Result {
	for r.sent.Load() < r.total && ctx.Err() == nil {
		out(exec.Chunk{Stream: exec.Stdout, Data: r.chunk, Time: time.Now()})
		r.sent.Add(int64(len(r.chunk)))
	}
	return exec.Result{Stdout: exec.Output{Bytes: r.sent.Load(), Truncated: true}}
}

// heapPeak samples the heap in use until stop is closed.
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	peak := make(chan uint64, 1)
	go func() {
		var max uint64
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > max {
				max = ms.HeapInuse
			}
			select {
			case <-stop:
				peak <- max
				return
			case <-t.C:
			}
		}
	}()
	return peak
}

// TestFlood_StaysResponsiveAndBounded runs 100 MB of output through the
// queue into a running console, presses keys while it flows, and checks
// that they are handled, that the pane keeps only its bound, and that the
// heap stays bounded.
func TestFlood_StaysResponsiveAndBounded(t *testing.T) {
	line := strings.Repeat("flood \x1b[31mred\x1b[0m output line ", 3) + "\n"
	runner := &floodRunner{total: 100 << 20, chunk: []byte(strings.Repeat(line, (64<<10)/len(line)))}
	f := newFixture(t, func(o *queue.Options) { o.Runner = runner })

	var (
		mu        sync.Mutex
		keyAt     = map[string]time.Time{}
		keyDone   = map[string]time.Duration{}
		lines     int64
		status    queue.Status
		helpShown bool
	)
	// The queue asks for live output only while someone watches, so the
	// call goes in once the console has subscribed (its snapshot).
	subscribed := make(chan struct{})
	var once sync.Once
	filter := func(m tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(snapshotMsg); ok {
			once.Do(func() { close(subscribed) })
		}
		mu.Lock()
		defer mu.Unlock()
		mm := m.(Model)
		if e := mm.calls.byID[1]; e != nil {
			lines, status = e.out.end()-e.out.first, e.call.Status
		}
		_, helpShown = mm.dialog.(*helpDialog)
		if k, ok := msg.(tea.KeyPressMsg); ok {
			if at, ok := keyAt[k.String()]; ok {
				keyDone[k.String()] = time.Since(at)
			}
		}
		return msg
	}
	stopSampling := make(chan struct{})
	peak := heapPeak(stopSampling)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	keys, done := runConsole(t, t.Context(), Options{Queue: f.Queue, OutputLines: 10000}, tea.WithFilter(filter))
	select {
	case <-subscribed:
	case <-time.After(10 * time.Second):
		t.Fatal("the console never subscribed")
	}
	ch := f.submit("look", map[string]any{"what": "flood"})
	press := func(k string) {
		mu.Lock()
		keyAt[k] = time.Now()
		mu.Unlock()
		if _, err := keys.Write([]byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	// Keys while the flood runs: the help dialog opens and closes.
	for runner.sent.Load() < 10<<20 {
		time.Sleep(time.Millisecond)
	}
	press("?")
	for runner.sent.Load() < 50<<20 {
		time.Sleep(time.Millisecond)
	}
	press("q") // closes the help dialog
	s := f.result(ch)

	// The console may still be reading the flood's backlog; once it has
	// seen the call end, nothing waits or runs and q quits at once.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		seen := status
		mu.Unlock()
		if seen == queue.Done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the console never saw the call end: %s", seen)
		}
		if _, err := keys.Write([]byte("j")); err != nil { // a harmless key, for the filter to run
			t.Fatal(err)
		}
	}
	close(stopSampling)
	heap := <-peak
	mu.Lock()
	ask, closeHelp, kept := keyDone["?"], keyDone["q"], lines
	mu.Unlock()
	t.Logf("flood: %d MiB sent; call ended %s; pane kept %d lines; heap in use before %.1f MiB, peak %.1f MiB; keys handled after %v and %v",
		runner.sent.Load()>>20, s.Out.Call.Status, kept, float64(before.HeapInuse)/(1<<20), float64(heap)/(1<<20), ask, closeHelp)
	if runner.sent.Load() < 100<<20 || s.Out.Call.Status != queue.Done {
		t.Fatalf("the flood did not complete: %d bytes, %s", runner.sent.Load(), s.Out.Call.Status)
	}
	if ask == 0 || closeHelp == 0 {
		t.Fatalf("keys pressed during the flood were not handled: ? %v, q %v", ask, closeHelp)
	}
	if kept > 10000 {
		t.Errorf("the pane kept %d lines, over its bound of 10000", kept)
	}
	// The pane holds at most 4 MiB per call, the queue a 256 KiB tail and
	// each subscriber 4 MiB of backlog; the rest of the 100 MiB must be
	// gone. 64 MiB leaves room for the race detector and the GC's slack.
	if heap-before.HeapInuse > 64<<20 {
		t.Errorf("heap grew by %.1f MiB during a 100 MiB flood", float64(heap-before.HeapInuse)/(1<<20))
	}
	press("q")
	if err := waitRun(t, done); err != nil {
		t.Fatalf("Run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if helpShown {
		t.Error("the help dialog was still open at the end")
	}
}
