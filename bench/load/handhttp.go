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
	"strings"
)

// handHTTPEnv, set in the driver's own environment, makes it serve the
// hand HTTP server instead of measuring.
const handHTTPEnv = "ASSENT_LOAD_HAND_HTTP"

// serveHandHTTP is the hand server over HTTP: net/http, one POST endpoint,
// each message answered in the handler with a JSON body, nothing checked.
// With the raw client it is what HTTP itself costs a call: the floor under
// assent's HTTP number. It prints its address on stdout.
func serveHandHTTP() error {
	echo, err := osexec.LookPath("echo")
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println("serving MCP on", ln.Addr())
	return http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		answer, err := handAnswer(echo, body)
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

// handHTTP starts this driver as the hand HTTP server.
func (s *rig) handHTTP(ctx context.Context) (target, error) {
	self, err := os.Executable()
	if err != nil {
		return target{}, err
	}
	cmd := osexec.Command(self)
	cmd.Env = append(os.Environ(), handHTTPEnv+"=1")
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
	return startRawHTTP(ctx, "hand http (raw)", "http://"+addr+"/mcp", token, stop)
}
