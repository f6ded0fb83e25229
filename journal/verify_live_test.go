package journal

import (
	"fmt"
	"sync"
	"testing"
)

// TestVerify_WhileWriting verifies a journal that is being appended to,
// sealed and rotated all the while: what is read is always intact.
func TestVerify_WhileWriting(t *testing.T) {
	j := openTest(t, Options{MaxSize: 16 << 10, SealEvery: 3})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	// The writer reports with t.Error, which may be called from any
	// goroutine; t.Fatal may not.
	wg.Go(func() {
		for i := range 1000 {
			select {
			case <-stop:
				return
			default:
			}
			for _, r := range lifeOfCall(fmt.Sprintf("c%d", i)) {
				if _, err := j.Append(r); err != nil {
					t.Error(err)
					return
				}
			}
		}
	})
	for range 5 {
		rep, err := Verify(j.Dir())
		if err != nil {
			t.Error(err)
			break
		}
		if !rep.Intact() || rep.Segments[0].State != SegmentOpen {
			t.Errorf("Verify of a journal being written = %+v", rep)
			break
		}
	}
	close(stop)
	wg.Wait()
}
