package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	osexec "os/exec"
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
