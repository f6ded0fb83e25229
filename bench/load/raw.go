package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	osexec "os/exec"
	"strings"
	"sync"
	"sync/atomic"
)

// The raw targets speak JSON-RPC to assent themselves, with no MCP SDK on
// the client side: what an agent that writes its requests by hand pays,
// and the cost of the server alone. They use the initialize handshake
// (2025-11-25), as most agents do.

// rpcResponse is the part of a JSON-RPC response the raw clients read.
type rpcResponse struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// callBody is a tools/call request for a tool without parameters.
func callBody(id int64, tool string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, tool)
}

const initializeBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
	`"capabilities":{},"clientInfo":{"name":"load-driver-raw","version":"1"}}}`

const initializedBody = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// checkHello checks that a tools/call result ran echo.
func checkHello(r rpcResponse) error {
	if r.Error != nil {
		return errors.New(r.Error.Message)
	}
	if !bytes.Contains(r.Result, []byte(`hello\n`)) || bytes.Contains(r.Result, []byte(`"isError":true`)) {
		return fmt.Errorf("unexpected result %s", r.Result)
	}
	return nil
}

// rawStdio is a JSON-RPC client on a child's stdin and stdout: one reader
// goroutine hands each response to the call waiting for its id, so many
// calls can be in flight on the one pipe.
type rawStdio struct {
	cmd    *osexec.Cmd
	in     io.WriteCloser
	mu     sync.Mutex // serializes writes
	nextID atomic.Int64

	waitMu  sync.Mutex
	waiting map[int64]chan rpcResponse
	readErr error
	done    chan struct{}
}

// startRawStdio starts cmd and initializes an MCP session over its stdio.
func startRawStdio(ctx context.Context, name, tool string, cmd *osexec.Cmd) (target, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return target{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return target{}, err
	}
	if err := cmd.Start(); err != nil {
		return target{}, err
	}
	r := &rawStdio{cmd: cmd, in: in, waiting: map[int64]chan rpcResponse{}, done: make(chan struct{})}
	go r.read(out)
	closeFn := func() error {
		in.Close()
		<-r.done
		return cmd.Wait()
	}
	if _, err := r.roundTrip(ctx, 0, []byte(initializeBody)); err != nil {
		return target{}, errors.Join(err, closeFn())
	}
	if err := r.write([]byte(initializedBody)); err != nil {
		return target{}, errors.Join(err, closeFn())
	}
	return target{name: name, close: closeFn, call: func(ctx context.Context) error {
		id := r.nextID.Add(1)
		resp, err := r.roundTrip(ctx, id, callBody(id, tool))
		if err != nil {
			return err
		}
		return checkHello(resp)
	}}, nil
}

func (r *rawStdio) write(line []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.in.Write(append(line, '\n'))
	return err
}

func (r *rawStdio) roundTrip(ctx context.Context, id int64, body []byte) (rpcResponse, error) {
	ch := make(chan rpcResponse, 1)
	r.waitMu.Lock()
	if r.readErr != nil {
		r.waitMu.Unlock()
		return rpcResponse{}, r.readErr
	}
	r.waiting[id] = ch
	r.waitMu.Unlock()
	if err := r.write(body); err != nil {
		return rpcResponse{}, err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return rpcResponse{}, fmt.Errorf("the server closed its stdout: %v", r.readErr)
		}
		return resp, nil
	case <-ctx.Done():
		return rpcResponse{}, ctx.Err()
	}
}

// read hands responses to their callers until the child's stdout ends.
func (r *rawStdio) read(out io.Reader) {
	defer close(r.done)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var resp rpcResponse
		if json.Unmarshal(sc.Bytes(), &resp) != nil || (resp.Result == nil && resp.Error == nil) {
			continue // a notification
		}
		r.waitMu.Lock()
		ch := r.waiting[resp.ID]
		delete(r.waiting, resp.ID)
		r.waitMu.Unlock()
		if ch != nil {
			ch <- resp
		}
	}
	r.waitMu.Lock()
	r.readErr = errors.Join(errors.New("stdout ended"), sc.Err())
	for id, ch := range r.waiting {
		close(ch)
		delete(r.waiting, id)
	}
	r.waitMu.Unlock()
}

// rawHTTP posts JSON-RPC to a Streamable HTTP endpoint over HTTP/1.1 it
// writes itself, on keep-alive connections it holds one per caller at a
// time, reading a JSON or an SSE answer on the calling goroutine: no HTTP
// library's connection goroutines between the caller and the server.
type rawHTTP struct {
	addr, path, token, session string
	nextID                     atomic.Int64
	idle                       chan *httpConn
}

// httpConn is one keep-alive connection.
type httpConn struct {
	c  net.Conn
	br *bufio.Reader
}

// startRawHTTP initializes a session at url (http://host:port/path).
func startRawHTTP(ctx context.Context, name, url, token string, closeFn func() error) (target, error) {
	hostPath, ok := strings.CutPrefix(url, "http://")
	addr, path, found := strings.Cut(hostPath, "/")
	if !ok || !found {
		return target{}, errors.Join(fmt.Errorf("url %q: want http://host:port/path", url), closeFn())
	}
	r := &rawHTTP{addr: addr, path: "/" + path, token: token, idle: make(chan *httpConn, 4096)}
	closeAll := func() error {
		for {
			select {
			case hc := <-r.idle:
				hc.c.Close()
			default:
				return closeFn()
			}
		}
	}
	resp, header, err := r.post(ctx, []byte(initializeBody))
	if err == nil && resp.Error != nil {
		err = errors.New(resp.Error.Message)
	}
	if err != nil {
		return target{}, errors.Join(err, closeAll())
	}
	r.session = header.Get("Mcp-Session-Id")
	if _, _, err := r.post(ctx, []byte(initializedBody)); err != nil && !errors.Is(err, errNoBody) {
		return target{}, errors.Join(err, closeAll())
	}
	return target{name: name, close: closeAll, call: func(ctx context.Context) error {
		resp, _, err := r.post(ctx, callBody(r.nextID.Add(1), "hello"))
		if err != nil {
			return err
		}
		return checkHello(resp)
	}}, nil
}

// errNoBody is the answer to a notification: 202 and nothing to read.
var errNoBody = errors.New("no body")

// conn takes an idle connection, or dials one.
func (r *rawHTTP) conn(ctx context.Context) (*httpConn, error) {
	select {
	case hc := <-r.idle:
		return hc, nil
	default:
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", r.addr)
	if err != nil {
		return nil, err
	}
	return &httpConn{c: c, br: bufio.NewReaderSize(c, 64<<10)}, nil
}

func (r *rawHTTP) post(ctx context.Context, body []byte) (rpcResponse, http.Header, error) {
	hc, err := r.conn(ctx)
	if err != nil {
		return rpcResponse{}, nil, err
	}
	req := fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n",
		r.path, r.addr, r.token, len(body))
	if r.session != "" {
		req = fmt.Appendf(req, "Mcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\n", r.session)
	}
	req = append(append(req, "\r\n"...), body...)
	if _, err := hc.c.Write(req); err != nil {
		hc.c.Close()
		return rpcResponse{}, nil, err
	}
	res, err := http.ReadResponse(hc.br, nil)
	if err != nil {
		hc.c.Close()
		return rpcResponse{}, nil, err
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.Close {
		hc.c.Close()
	} else {
		r.idle <- hc
	}
	if err != nil {
		return rpcResponse{}, nil, err
	}
	if res.StatusCode == http.StatusAccepted && len(data) == 0 {
		return rpcResponse{}, res.Header, errNoBody
	}
	if res.StatusCode != http.StatusOK {
		return rpcResponse{}, nil, fmt.Errorf("HTTP %d: %s", res.StatusCode, data)
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		data = lastSSEData(data)
	}
	var resp rpcResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return rpcResponse{}, nil, fmt.Errorf("answer %q: %w", data, err)
	}
	return resp, res.Header, nil
}

// lastSSEData is the data of the last event of an SSE stream: the
// response, after any notifications.
func lastSSEData(stream []byte) []byte {
	var last []byte
	for _, line := range bytes.Split(stream, []byte("\n")) {
		if d, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:")); ok {
			last = bytes.TrimSpace(d)
		}
	}
	return last
}
