package journal

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// streamCalls reads every call of the journal at path with a CallReader
// whose hold limit is limit, and returns their ids in the order returned.
func streamCalls(t *testing.T, path string, opts CallOptions, limit int) []string {
	t.Helper()
	c, err := NewCallReader(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.limit = limit
	var ids []string
	for {
		call, err := c.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return ids
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, call.ID+":"+string(call.State))
	}
}

// overlapping journals a call that stays open while two others come and go.
func overlapping(t *testing.T) *Journal {
	j := openTest(t, Options{})
	for _, r := range []Record{
		{Call: "long", Event: Received},
		{Call: "long", Event: Decided, Decision: Ask, Decider: ByRule},
		{Call: "quick1", Event: Received},
		{Call: "quick1", Event: Decided, Decision: Deny, Decider: ByRule},
		{Call: "quick2", Event: Received},
		{Call: "quick2", Event: Decided, Decision: Deny, Decider: ByRule},
		{Call: "long", Event: Decided, Decision: Deny, Decider: ByOperator},
	} {
		mustAppend(t, j, r)
	}
	return j
}

func TestCallReader_Order(t *testing.T) {
	j := overlapping(t)
	j.Close()
	tests := []struct {
		name  string
		limit int
		want  []string
	}{
		{"in the order calls began", holdLimit, []string{"long:decided", "quick1:decided", "quick2:decided"}},
		{"past the hold limit, as they end", 0, []string{"quick1:decided", "quick2:decided", "long:decided"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := streamCalls(t, j.Dir(), CallOptions{}, tt.limit); !slices.Equal(got, tt.want) {
				t.Errorf("calls = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCallReader_OpenCallOfAnEndedSegment(t *testing.T) {
	j := openTest(t, Options{})
	mustAppend(t, j, Record{Call: "stuck", Event: Received})
	mustAppend(t, j, Record{Call: "stuck", Event: Started})
	dir := j.Dir()
	crash(j) // its segment will get no more records
	later, err := Open(dir, Options{SealInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	// Recovery closed the dead segment; make a second, live one that the
	// reader reads to its end with a call still open.
	mustAppend(t, later, Record{Call: "waiting", Event: Received})
	got := streamCalls(t, dir, CallOptions{}, holdLimit)
	later.Close()
	if want := []string{"stuck:interrupted", "waiting:received"}; !slices.Equal(got, want) {
		t.Errorf("calls = %v, want %v", got, want)
	}
}

func TestCallReader_Since(t *testing.T) {
	j := openTest(t, Options{})
	mustAppend(t, j, Record{Call: "old", Event: Received})
	time.Sleep(2 * time.Millisecond)
	since := time.Now()
	time.Sleep(2 * time.Millisecond)
	mustAppend(t, j, Record{Call: "new", Event: Received})
	mustAppend(t, j, Record{Call: "old", Event: Decided, Decision: Deny})
	mustAppend(t, j, Record{Call: "new", Event: Decided, Decision: Deny})
	j.Close()
	if got := streamCalls(t, j.Dir(), CallOptions{Since: since}, holdLimit); !slices.Equal(got, []string{"new:decided"}) {
		t.Errorf("calls since = %v; want only the call that began after", got)
	}
}

// A CallReader reads Brief unless asked for records (Events) or whole
// calls (Whole, as replay needs): only then does a call hold its arguments
// and output, and only Events keeps the records.
func TestCallReader_EventsAndWhole(t *testing.T) {
	dir, _ := journalOf(t, 1, Options{})
	for _, tt := range []struct {
		name   string
		opts   CallOptions
		whole  bool
		events int
	}{
		{"brief", CallOptions{}, false, 0},
		{"whole", CallOptions{Whole: true}, true, 0},
		{"events", CallOptions{Events: true}, true, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewCallReader(dir, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			call, err := c.Next(context.Background())
			if err != nil || call.ID != "c1" || call.Ending != Exited {
				t.Fatalf("call %+v, %v", call, err)
			}
			whole := call.Args["pattern"] == "TODO" && string(call.Stdout.Data()) == "src/a.go:3: // TODO\n"
			if whole != tt.whole || len(call.Events) != tt.events {
				t.Errorf("args %v, stdout %v, %d events; want whole %v, %d events",
					call.Args, call.Stdout, len(call.Events), tt.whole, tt.events)
			}
		})
	}
}

func TestCallReader_Follows(t *testing.T) {
	j := overlapping(t)
	c, err := NewCallReader(j.Dir(), CallOptions{ReadOptions: ReadOptions{Follow: true, Poll: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got []string
	for len(got) < 4 {
		if len(got) == 3 {
			mustAppend(t, j, Record{Call: "later", Event: Decided, Decision: Deny})
		}
		call, err := c.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, call.ID)
	}
	if want := "quick1 quick2 long later"; strings.Join(got, " ") != want {
		t.Errorf("followed calls %v, want %s: each as it ends", got, want)
	}
}
