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
	"strings"
	"sync/atomic"
)

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
