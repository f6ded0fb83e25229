package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
)

// handHTTPEnv, set in the driver's own environment, makes it serve the
// hand HTTP server instead of measuring.
const handHTTPEnv = "ASSENT_LOAD_HAND_HTTP"

// serveHandHTTP is the hand server over HTTP, in one of these builds: with
// net/http ("nethttp": one POST endpoint, each message answered in the
// handler) or with HTTP/1.1 written by hand on the TCP socket ("tcp": a
// goroutine per connection reads each request and answers it in turn;
// "tcp-watch": each request is answered on a goroutine of its own while
// the connection's goroutine reads on, as it must to see a client go
// away; "tcp-blocking": "tcp" on a blocking socket). Nothing is checked in
// any. With the raw client, the first is what net/http costs a call, the
// floor under assent's HTTP number as long as assent serves HTTP with
// net/http; "tcp" is what HTTP itself costs, and "tcp-watch" what it costs
// a server that ends a call when its client goes away, as assent does.
// It prints its address on stdout.
func serveHandHTTP() error {
	spawn, done, err := handSpawn()
	if err != nil {
		return err
	}
	defer done()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println("serving MCP on", ln.Addr())
	if build := os.Getenv(handHTTPEnv); build != "nethttp" {
		for {
			c, err := ln.Accept()
			if err != nil {
				return err
			}
			var rw io.ReadWriter = c
			if build == "tcp-blocking" {
				f, err := c.(*net.TCPConn).File()
				if err != nil {
					return err
				}
				c.Close()
				f.Fd() // the socket in blocking mode: reads wait in the kernel
				rw = f
			}
			if build == "tcp-watch" {
				go serveHandConnWatching(rw, spawn)
			} else {
				go serveHandConn(rw, spawn)
			}
		}
	}
	return http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		answer, err := handAnswer(spawn, body)
		switch {
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		case answer == nil:
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", "hand")
			w.Write(answer)
		}
	}))
}

// serveHandConn answers the HTTP/1.1 requests of one keep-alive
// connection, reading only the Content-Length header.
func serveHandConn(c io.ReadWriter, spawn func() ([]byte, error)) {
	defer c.(io.Closer).Close()
	br, bw := bufio.NewReader(c), bufio.NewWriter(c)
	for {
		body, ok := readHandRequest(br)
		if !ok || !writeHandAnswer(bw, spawn, body) {
			return
		}
	}
}

// serveHandConnWatching is serveHandConn as a server must be that notices
// a client going away while its call runs (to end the call): each request
// is answered on a goroutine of its own while the connection's goroutine
// goes on reading. net/http does the same with its background read. Here
// the read only waits for the next request; nothing is ended.
func serveHandConnWatching(c io.ReadWriter, spawn func() ([]byte, error)) {
	defer c.(io.Closer).Close()
	br, bw := bufio.NewReader(c), bufio.NewWriter(c)
	for {
		body, ok := readHandRequest(br)
		if !ok {
			return
		}
		answered := make(chan bool, 1)
		go func() { answered <- writeHandAnswer(bw, spawn, body) }()
		_, err := br.Peek(1) // the next request, or the client gone
		if !<-answered || err != nil {
			return
		}
	}
}

// readHandRequest reads one request and returns its body.
func readHandRequest(br *bufio.Reader) (body []byte, ok bool) {
	length := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, false
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Content-Length") {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if length < 0 {
		return nil, false
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, false
	}
	return body, true
}

// writeHandAnswer answers body and reports whether the answer was sent.
func writeHandAnswer(bw *bufio.Writer, spawn func() ([]byte, error), body []byte) bool {
	answer, err := handAnswer(spawn, body)
	if err != nil {
		return false
	}
	if answer == nil {
		bw.WriteString("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
	} else {
		fmt.Fprintf(bw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: hand\r\nContent-Length: %d\r\n\r\n", len(answer))
		bw.Write(answer)
	}
	return bw.Flush() == nil
}

// handHTTP starts this driver as the hand HTTP server, built on net/http
// or by hand on TCP (build "nethttp" or "tcp"), running echo with os/exec
// or with assent's runner.
func (s *rig) handHTTP(ctx context.Context, build string, runner bool) (target, error) {
	self, err := os.Executable()
	if err != nil {
		return target{}, err
	}
	cmd := osexec.Command(self)
	cmd.Env = serverEnv(handHTTPEnv + "=" + build)
	name := "hand http (raw)"
	if build != "nethttp" {
		name = "hand " + build + " http (raw)"
	}
	if runner {
		name = onRunner(cmd, name)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return target{}, err
	}
	if err := cmd.Start(); err != nil {
		return target{}, err
	}
	stop := func() error {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "serving MCP on ")
	if !ok {
		return target{}, errors.Join(fmt.Errorf("the hand HTTP server said %q", line), stop())
	}
	return startRawHTTP(ctx, name, "http://"+addr+"/mcp", token, stop)
}
