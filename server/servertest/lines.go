package servertest

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// Lines speaks raw JSON-RPC lines to a line-delimited MCP server (stdio,
// the relay), for the messages a client library never sends: batches,
// null ids, a cancellation whose request must then go unanswered.
type Lines struct {
	t   testing.TB
	w   io.Writer
	got chan string
}

// NewLines writes to w and reads lines from r until r ends.
func NewLines(t testing.TB, w io.Writer, r io.Reader) *Lines {
	l := &Lines{t: t, w: w, got: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			l.got <- sc.Text()
		}
		close(l.got)
	}()
	return l
}

// Send writes text (one or more lines) in a single write.
func (l *Lines) Send(text string) {
	l.t.Helper()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if _, err := io.WriteString(l.w, text); err != nil {
		l.t.Fatal(err)
	}
}

// Next returns the next line, failing the test after 10 s.
func (l *Lines) Next() string {
	l.t.Helper()
	select {
	case s, ok := <-l.got:
		if !ok {
			l.t.Fatal("the server closed its output")
		}
		return s
	case <-time.After(10 * time.Second):
		l.t.Fatal("no line from the server")
	}
	return ""
}

// Response returns the response with the id (raw JSON, e.g. `3` or
// `"a"`), and every line that came before it.
func (l *Lines) Response(id string) (resp string, before []string) {
	l.t.Helper()
	for {
		line := l.Next()
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Method == "" && string(m.ID) == id {
			return line, before
		}
		before = append(before, line)
	}
}

// Initialize is a 2025-11-25 initialize request with id 1 from client.
func Initialize(client string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"` +
		client + `","version":"1"}}}`
}

// Initialized is the notification that follows initialize.
const Initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
