package queue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
)

// writesFile keeps the journal's writes, each as the events of its lines.
type writesFile struct {
	journal.File
	mu     sync.Mutex
	writes [][]string
}

func (f *writesFile) Write(p []byte) (int, error) {
	var evs []string
	for line := range bytes.Lines(p) {
		var r struct {
			Event string `json:"event"`
		}
		_ = json.Unmarshal(line, &r)
		evs = append(evs, r.Event)
	}
	f.mu.Lock()
	f.writes = append(f.writes, evs)
	f.mu.Unlock()
	return f.File.Write(p)
}

// since returns the writes after the first n.
func (f *writesFile) since(n int) [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]string(nil), f.writes[n:]...)
}

// An auto-approved call's records up to its start are written in one
// write, and before the start: the runner is called once they are in the
// file.
func TestSubmit_AutoApprovedCallIsJournaledInOneWriteBeforeItStarts(t *testing.T) {
	disk := &writesFile{}
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"), journal.Options{WrapFile: func(f journal.File) journal.File {
		disk.File = f
		return disk
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	f := newFixture(t, func(o *queue.Options) { o.Journal = j })
	opened := len(disk.since(0))
	run := f.Runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	res := f.SubmitAsync(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	<-run.Started
	if got, want := disk.since(opened), [][]string{{"received", "decided", "started"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("writes when the run began %v, want %v", got, want)
	}
	close(run.Hold)
	if r := <-res; r.Err != nil || r.Out.Call.Ending != queue.Exited {
		t.Fatalf("outcome %+v, %v", r.Out.Call, r.Err)
	}
	if got, want := disk.since(opened), [][]string{{"received", "decided", "started"}, {"finished"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("writes of the call %v, want %v", got, want)
	}
}
