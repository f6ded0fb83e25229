package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
)

// handEnv, set in the driver's own environment, makes it serve the hand
// server on stdio instead of measuring.
const handEnv = "ASSENT_LOAD_HAND"

// serveHand is the smallest JSON-RPC server that can answer the calls: it
// reads a line, runs echo with os/exec on the same goroutine when the line
// is a tools/call, and writes the answer. No MCP library, no goroutine per
// request, nothing checked: near the physical limit of a call over stdio.
func serveHand() error {
	echo, err := osexec.LookPath("echo")
	if err != nil {
		return err
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		answer, err := handAnswer(echo, in.Bytes())
		if err != nil {
			return err
		}
		if answer == nil {
			continue // a notification
		}
		out.Write(append(answer, '\n'))
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

// handAnswer is the hand servers' answer to one message: nil for a
// notification.
func handAnswer(echo string, msg []byte) ([]byte, error) {
	var req struct {
		ID     *json.RawMessage `json:"id"`
		Method string           `json:"method"`
	}
	if json.Unmarshal(msg, &req) != nil || req.ID == nil {
		return nil, nil
	}
	var result string
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hand","version":"1"}}`
	case "tools/call":
		text, err := osexec.Command(echo, "hello").Output()
		if err != nil {
			return nil, err
		}
		quoted, _ := json.Marshal(string(text))
		result = fmt.Sprintf(`{"content":[{"type":"text","text":%s}],"isError":false}`, quoted)
	default:
		result = `{}`
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`, *req.ID, result), nil
}

// hand spawns this driver as the hand server.
func (s *rig) hand(ctx context.Context) (target, error) {
	self, err := os.Executable()
	if err != nil {
		return target{}, err
	}
	cmd := osexec.Command(self)
	cmd.Env = append(os.Environ(), handEnv+"=1")
	return startRawStdio(ctx, "hand server (raw)", "hello", cmd)
}
