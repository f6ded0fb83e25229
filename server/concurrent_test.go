package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/assent-sh/assent/server/servertest"
)

// TestConcurrentCalls_OneResponseEach makes 200 calls at once, a third
// auto-approved, a third denied by a rule and a third refused, over each
// transport in each era, and requires exactly one fitting answer for every
// call. Auto-approved calls beyond the running limit are refused with the
// retryable limit error, which is an answer too.
func TestConcurrentCalls_OneResponseEach(t *testing.T) {
	const calls = 200
	transports := []struct {
		name    string
		connect func(f *fixture, opts []client.ClientOption) *client.Client
	}{
		{"in-process", func(f *fixture, opts []client.ClientOption) *client.Client { return f.inProcess(opts, nil) }},
		{"stdio", func(f *fixture, opts []client.ClientOption) *client.Client {
			c, _, _ := f.stdioPipe(opts, nil)
			return c
		}},
		{"http", func(f *fixture, opts []client.ClientOption) *client.Client {
			return f.httpClient(f.serveHTTP(HTTPOptions{}), opts, nil)
		}},
	}
	for _, tr := range transports {
		for _, era := range servertest.Eras() {
			t.Run(tr.name+"/"+era.Name, func(t *testing.T) {
				f := newFixture(t, nil)
				f.Runner.Expect("uname", "ok").Stdout("fine\n").Repeat = true
				c := tr.connect(f, era.Options)
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				answers := servertest.CallAll(ctx, c, calls, func(i int) (string, map[string]any) {
					switch i % 3 {
					case 1:
						return "burn", map[string]any{"x": fmt.Sprint(i)}
					case 2:
						return "look", map[string]any{"what_thing": "-" + fmt.Sprint(i)}
					}
					return "look", map[string]any{"what_thing": "ok"}
				})
				ran := 0
				for i, a := range answers {
					var ok bool
					switch i % 3 {
					case 0:
						ok = strings.HasPrefix(a, "fine\n[exit 0 · ") || a == "too many calls running (limit 16); retry shortly"
						if strings.HasPrefix(a, "fine") {
							ran++
						}
					case 1:
						ok = a == "denied by rule no-burn: never burn"
					case 2:
						ok = strings.HasPrefix(a, `tool "look": parameter "what_thing" starts with '-'`)
					}
					if !ok {
						t.Fatalf("call %d answered %q", i, a)
					}
				}
				if ran == 0 {
					t.Fatal("no call ran")
				}
				if n := len(f.Runner.Ran()); n != ran {
					t.Fatalf("%d commands ran for %d results", n, ran)
				}
				if f.responses != nil {
					// On stdio every response is visible: count them. The
					// handshake and list are answered too, hence at least.
					counts := f.responses.counts()
					for id, n := range counts {
						if n != 1 {
							t.Fatalf("request %s got %d responses", id, n)
						}
					}
					if len(counts) < calls {
						t.Fatalf("%d responses for %d calls", len(counts), calls)
					}
				}
			})
		}
	}
}
