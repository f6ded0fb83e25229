package server

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

const testToken = "test-token-0123456789abcdef"

// serveHTTP starts the fixture's server on a free loopback port and stops
// it when the test ends.
func (f *fixture) serveHTTP(o HTTPOptions) *HTTP {
	f.T.Helper()
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Token == "" {
		o.Token = testToken
	}
	h, err := f.s.ListenHTTP(o)
	if err != nil {
		f.T.Fatal(err)
	}
	serveUntilCleanup(f.T, "HTTP", h.Serve, h.Shutdown)
	return h
}

// serveUntilCleanup runs serve and, when the test ends, shuts it down
// (within 5 s) and checks both ended cleanly.
func serveUntilCleanup(t testing.TB, what string, serve func() error, shutdown func(context.Context) error) {
	served := make(chan error, 1)
	go func() { served <- serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdown(ctx); err != nil {
			t.Errorf("%s shutdown: %v", what, err)
		}
		if err := <-served; err != nil {
			t.Errorf("%s serve: %v", what, err)
		}
	})
}

// httpClient returns a started Streamable HTTP client of the era.
func (f *fixture) httpClient(h *HTTP, opts []client.ClientOption, n *servertest.Notes, topts ...transport.StreamableHTTPCOption) *client.Client {
	f.T.Helper()
	hc := &http.Client{Transport: &http.Transport{}}
	f.T.Cleanup(hc.CloseIdleConnections)
	topts = append([]transport.StreamableHTTPCOption{
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}),
		transport.WithHTTPBasicClient(hc),
	}, topts...)
	tr, err := transport.NewStreamableHTTP(h.URL(), topts...)
	if err != nil {
		f.T.Fatal(err)
	}
	c := client.NewClient(tr, opts...)
	servertest.Connect(f.T, c, "test-agent", n)
	return c
}

func TestHTTP_CallsInBothEras(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			hold := make(chan struct{})
			f.Runner.Expect("uname", "p").Stdout("first\n").Hold = hold
			h := f.serveHTTP(HTTPOptions{})
			var n servertest.Notes
			c := f.httpClient(h, era.Options, &n)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil || len(list.Tools) != 3 {
				t.Fatalf("list: %v %v", list, err)
			}
			res, err := servertest.Call(ctx, c, "burn", map[string]any{"x": "y"}, "")
			if err != nil || !res.IsError || servertest.Text(res) != "denied by rule no-burn: never burn" {
				t.Fatalf("denied call: %+v %v", res, err)
			}
			done := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, err := servertest.Call(ctx, c, "look", map[string]any{"what_thing": "p"}, "tok")
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			servertest.WaitFor(t, "progress over HTTP", func() bool {
				m := n.Messages(mcp.MethodNotificationProgress)
				return len(m) > 0 && m[0] == "first"
			})
			close(hold)
			if res := <-done; res == nil || res.IsError || structured(t, res).Stdout != "first\n" {
				t.Fatalf("result %+v", res)
			}
			got, err := f.Queue.Call(2)
			if err != nil || got.Client != "test-agent" {
				t.Fatalf("client name in the queue: %q %v", got.Client, err)
			}
		})
	}
}

func TestHTTP_ClientGoneEndsTheCall(t *testing.T) {
	// A call that runs long, or waits for an operator, is slow: its
	// connection is watched, and the client going away ends it.
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		status     queue.Status
		check      func(queue.Call) bool
	}{
		{"running", "look", map[string]any{"what_thing": "long"}, queue.Running,
			func(c queue.Call) bool { return c.Status == queue.Done && c.Result != nil && c.Result.Cancelled }},
		{"pending", "change", map[string]any{"file": "x"}, queue.Pending,
			func(c queue.Call) bool { return c.Status == queue.Cancelled && c.Decider == queue.ByClient }},
	} {
		for _, era := range servertest.Eras() {
			t.Run(tt.name+"/"+era.Name, func(t *testing.T) {
				f := newFixture(t, nil)
				if tt.status == queue.Running {
					f.Runner.Expect("uname", "long").Hold = make(chan struct{})
				}
				h := f.serveHTTP(HTTPOptions{})
				c := f.httpClient(h, era.Options, nil)
				ctx, cancel := context.WithCancel(context.Background())
				errc := make(chan error, 1)
				go func() {
					_, err := servertest.Call(ctx, c, tt.tool, tt.args, "")
					errc <- err
				}()
				id := f.callIn(tt.status)
				cancel()
				if err := <-errc; err == nil {
					t.Fatal("the cancelled call returned a result")
				}
				f.Wait(id, "ended by its client", tt.check)
			})
		}
	}
}

func TestHTTP_ListChanged(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			h := f.serveHTTP(HTTPOptions{})
			var n servertest.Notes
			var c *client.Client
			if era.Options == nil {
				c = f.httpClient(h, era.Options, &n)
				stop, err := c.ListenAsync(context.Background(), mcp.SubscriptionFilter{ToolsListChanged: true}, func(err error) { t.Error(err) })
				if err != nil {
					t.Fatal(err)
				}
				defer stop()
			} else {
				c = f.httpClient(h, era.Options, &n, transport.WithContinuousListening())
			}
			// The listen stream opens asynchronously: apply until the
			// notification arrives.
			servertest.WaitFor(t, "tools/list_changed", func() bool {
				f.s.SetTools(f.LoadTools(withNewTool).Config)
				return len(n.Messages(mcp.MethodNotificationToolsListChanged)) > 0
			})
			list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil || len(list.Tools) != 4 {
				t.Fatalf("list after change: %v %v", list, err)
			}
		})
	}
}

func TestListenHTTP_Refusals(t *testing.T) {
	f := newFixture(t, nil)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name string
		o    HTTPOptions
		want string
	}{
		{name: "busy port", o: HTTPOptions{Addr: busy.Addr().String(), Token: testToken}, want: busy.Addr().String() + " is already in use"},
		{name: "all interfaces without --allow-remote", o: HTTPOptions{Addr: ":0", Token: testToken}, want: "pass --allow-remote"},
		{name: "a LAN address without --allow-remote", o: HTTPOptions{Addr: "192.0.2.1:7323", Token: testToken}, want: "pass --allow-remote"},
		{name: "short token", o: HTTPOptions{Addr: "127.0.0.1:0", Token: "short"}, want: "at least 16"},
		{name: "no token", o: HTTPOptions{Addr: "127.0.0.1:0"}, want: "at least 16"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := f.s.ListenHTTP(tc.o)
			if err == nil {
				_ = h.Shutdown(context.Background())
				t.Fatal("listened")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// A name accepted as loopback before it was resolved must resolve to
// loopback: a DNS answer for "localhost" (asked when /etc/hosts has no line
// for it) must not put the listener on a LAN address.
func TestLoopbackOnly(t *testing.T) {
	for _, ip := range []string{"127.0.0.1", "127.0.1.1", "::1"} {
		if err := loopbackOnly("localhost:7323", &net.TCPAddr{IP: net.ParseIP(ip), Port: 7323}); err != nil {
			t.Errorf("%s: %v", ip, err)
		}
	}
	err := loopbackOnly("localhost:7323", &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 7323})
	if err == nil || !strings.Contains(err.Error(), "localhost:7323 resolved to 192.0.2.7:7323") || !strings.Contains(err.Error(), "--allow-remote") {
		t.Fatalf("err %v, want a refusal that names the address it resolved to", err)
	}
	h, err := newFixture(t, nil).s.ListenHTTP(HTTPOptions{Addr: "localhost:0", Token: testToken})
	if err != nil {
		t.Fatalf("localhost: %v", err)
	}
	_ = h.Shutdown(context.Background())
}

// TestHTTP_ShutdownEndsListeningStreams: a modern client's
// subscriptions/listen request never ends by itself; shutdown must not
// wait for it.
func TestHTTP_ShutdownEndsListeningStreams(t *testing.T) {
	f := newFixture(t, nil)
	h, err := f.s.ListenHTTP(HTTPOptions{Addr: "127.0.0.1:0", Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- h.Serve() }()
	var n servertest.Notes
	c := f.httpClient(h, nil, &n)
	stop, err := c.ListenAsync(context.Background(), mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	servertest.WaitFor(t, "the listening stream", func() bool {
		f.s.SetTools(f.Config())
		return len(n.Messages(mcp.MethodNotificationToolsListChanged)) > 0
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := h.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("shutdown took %v", d)
	}
}

// liveConns is how many connections h still serves.
func liveConns(h *HTTP) int {
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	return len(h.srv.conns)
}

func TestHTTP_ClientGoneEndsItsStream(t *testing.T) {
	// mcp-go's event streams flush as they start, which is the notice
	// that starts the watch: a client that leaves a legacy session's GET
	// stream, or a 2026-07-28 subscriptions/listen, ends its handler.
	gone := func(t *testing.T, h *HTTP, want int) {
		t.Helper()
		servertest.WaitFor(t, "the stream's handler to end", func() bool { return liveConns(h) == want })
	}
	t.Run("legacy GET", func(t *testing.T) {
		f := newFixture(t, nil)
		h := f.serveHTTP(HTTPOptions{})
		hc := &http.Client{Transport: &http.Transport{}}
		sid := (&rawHTTP{t: t, hc: hc, url: h.URL()}).initialize()
		hc.CloseIdleConnections()
		gone(t, h, 0)
		ctx, cancel := context.WithCancel(context.Background())
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Session-Id": sid,
			"Mcp-Protocol-Version": "2025-11-25", "Accept": "text/event-stream"} {
			req.Header.Set(k, v)
		}
		resp, err := hc.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET: %v %v", resp, err)
		}
		time.Sleep(20 * time.Millisecond)
		cancel()
		resp.Body.Close()
		gone(t, h, 0)
	})
	t.Run("subscriptions/listen", func(t *testing.T) {
		f := newFixture(t, nil)
		h := f.serveHTTP(HTTPOptions{})
		var n servertest.Notes
		c := f.httpClient(h, nil, &n)
		stop, err := c.ListenAsync(context.Background(), mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		servertest.WaitFor(t, "the listening stream", func() bool {
			f.s.SetTools(f.Config())
			return len(n.Messages(mcp.MethodNotificationToolsListChanged)) > 0
		})
		before := liveConns(h)
		stop()
		gone(t, h, before-1)
	})
}
