package journal

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestAppend_ConcurrentKeepsSeqAndChain(t *testing.T) {
	tests := []struct {
		name    string
		sync    SyncMode
		writers int
		each    int
	}{
		{"group commit", SyncGroup, 8, 250},
		{"sync always", SyncAlways, 4, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := openTest(t, Options{Sync: tt.sync})
			seqs := make([][]int64, tt.writers)
			var wg sync.WaitGroup
			for w := range tt.writers {
				wg.Go(func() {
					for i := range tt.each {
						r, err := j.Append(Record{Call: fmt.Sprintf("w%d-%d", w, i), Event: Decided,
							Decision: Deny, Argv: []string{"echo", fmt.Sprint(i)}})
						if err != nil {
							t.Error(err)
							return
						}
						if i%50 == 0 {
							if err := j.Wait(context.Background(), r.Seq); err != nil {
								t.Error(err)
							}
						}
						seqs[w] = append(seqs[w], r.Seq)
					}
				})
			}
			wg.Wait()
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}

			// Seals take seqs of their own among the records'.
			total := tt.writers * tt.each
			seen := make(map[int64]bool)
			for w, s := range seqs {
				for i, seq := range s {
					if seen[seq] {
						t.Fatalf("seq %d given twice", seq)
					}
					seen[seq] = true
					if i > 0 && seq <= s[i-1] {
						t.Errorf("writer %d got seq %d after %d", w, seq, s[i-1])
					}
				}
			}
			if len(seen) != total {
				t.Errorf("%d seqs given to %d records", len(seen), total)
			}
			mustVerify(t, j.Dir())
			if recs, err := Read(j.Dir()); err != nil || len(recs) != total {
				t.Errorf("Read: %d records, %v; want %d", len(recs), err, total)
			}
		})
	}
}

// gatedFile holds every Sync until released, and counts them.
type gatedFile struct {
	File
	entered chan struct{}
	release chan struct{}
	mu      sync.Mutex
	syncs   int
}

func (g *gatedFile) Sync() error {
	g.mu.Lock()
	g.syncs++
	g.mu.Unlock()
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.release
	return g.File.Sync()
}

func TestWait_GroupCommitSharesOneSync(t *testing.T) {
	gate := &gatedFile{entered: make(chan struct{}, 1), release: make(chan struct{})}
	j := openTest(t, Options{WrapFile: func(f File) File { gate.File = f; return gate }})
	first := mustAppend(t, j, Record{Call: "c0", Event: Received})

	// The flusher is now inside the first sync. Everything appended
	// meanwhile must share the next one.
	<-gate.entered
	var last Record
	for i := 1; i < 100; i++ {
		last = mustAppend(t, j, Record{Call: fmt.Sprint("c", i), Event: Received})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	if err := j.Wait(ctx, first.Seq); err != context.DeadlineExceeded {
		t.Errorf("Wait while the sync is held = %v, want the context's deadline", err)
	}
	cancel()
	close(gate.release)
	if err := j.Wait(context.Background(), last.Seq); err != nil {
		t.Fatal(err)
	}
	gate.mu.Lock()
	syncs := gate.syncs
	gate.mu.Unlock()
	if syncs != 2 {
		t.Errorf("100 records took %d syncs, want 2 (the one in flight and one for the rest)", syncs)
	}
	if err := j.Wait(context.Background(), last.Seq+1); err == nil {
		t.Error("Wait for a record never written returned nil")
	}
}

func TestAppend_AfterClose(t *testing.T) {
	j := openTest(t, Options{})
	j.Close()
	if _, err := j.Append(Record{Call: "c", Event: Received}); err != ErrClosed {
		t.Errorf("Append after Close = %v, want ErrClosed", err)
	}
	if err := j.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}
