package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"sync"

	assentexec "github.com/assent-sh/assent/exec"
)

// handEnv, set in the driver's own environment, makes it serve the hand
// server on stdio instead of measuring.
const handEnv = "ASSENT_LOAD_HAND"

// handRunnerEnv, set beside handEnv or handHTTPEnv, makes the hand server
// run echo with assent's runner instead of os/exec: what the runner saves
// against os/exec, apart from what the rest of assent costs.
const handRunnerEnv = "ASSENT_LOAD_HAND_RUNNER"

// handSpawn returns how a hand server runs `echo hello`, and what ends it.
func handSpawn() (spawn func() ([]byte, error), done func(), err error) {
	echo, err := osexec.LookPath("echo")
	if err != nil {
		return nil, nil, err
	}
	if os.Getenv(handRunnerEnv) == "" {
		env := echoEnv()
		return func() ([]byte, error) {
			cmd := osexec.Command(echo, "hello")
			cmd.Env = env
			return cmd.Output()
		}, func() {}, nil
	}
	l := assentexec.NewLocal(assentexec.Options{})
	cmd := assentexec.Command{Path: echo, Argv: []string{"echo", "hello"}}
	return func() ([]byte, error) {
		res := l.Run(context.Background(), cmd, nil)
		if res.ExitCode != 0 || res.StartError != "" {
			return nil, fmt.Errorf("echo: exit %d %s", res.ExitCode, res.StartError)
		}
		return res.Stdout.Data, nil
	}, func() { l.Close() }, nil
}

// echoEnv is the environment every echo run without assent's runner gets:
// the one the runner gives its children, so that no target's child starts
// cheaper or dearer than another's for its environment alone. A glibc echo
// given LANG=C.UTF-8, as the runner gives it, starts about 0.18 ms later
// than one given no LANG (it loads the locale from a dozen files), so bare
// exec in a shell without LANG would otherwise be a fifth of a spawn ahead.
func echoEnv() []string {
	l := assentexec.NewLocal(assentexec.Options{})
	defer l.Close()
	return l.Environ(nil)
}

// serveHand is the smallest JSON-RPC server that can answer the calls: it
// reads a line, runs echo with os/exec on the same goroutine when the line
// is a tools/call, and writes the answer. No MCP library, no goroutine per
// request, nothing checked: near the physical limit of a call over stdio.
// With handEnv set to "concurrent" it answers each line on a goroutine of
// its own, writing under a lock: the least a server process that runs
// calls side by side costs, the floor of the throughput targets.
func serveHand() error {
	spawn, done, err := handSpawn()
	if err != nil {
		return err
	}
	defer done()
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	var failed error
	write := func(answer []byte, err error) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil:
			failed = cmp.Or(failed, err)
		case answer != nil: // nil: a notification
			out.Write(append(answer, '\n'))
			failed = cmp.Or(failed, out.Flush())
		}
	}
	concurrent := os.Getenv(handEnv) == "concurrent"
	var wg sync.WaitGroup
	for in.Scan() {
		if !concurrent {
			write(handAnswer(spawn, in.Bytes()))
			continue
		}
		line := bytes.Clone(in.Bytes())
		wg.Go(func() { write(handAnswer(spawn, line)) })
	}
	wg.Wait()
	return cmp.Or(failed, in.Err())
}

// handAnswer is the hand servers' answer to one message: nil for a
// notification.
func handAnswer(spawn func() ([]byte, error), msg []byte) ([]byte, error) {
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
		text, err := spawn()
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

// hand spawns this driver as the hand server, answering each call on the
// reading goroutine or, concurrent, on a goroutine of its own.
func (s *rig) hand(ctx context.Context, concurrent, runner bool) (target, error) {
	self, err := os.Executable()
	if err != nil {
		return target{}, err
	}
	cmd := osexec.Command(self)
	name, mode := "hand server (raw)", "1"
	if concurrent {
		name, mode = "hand server, concurrent (raw)", "concurrent"
	}
	cmd.Env = serverEnv(handEnv + "=" + mode)
	if runner {
		name = onRunner(cmd, name)
	}
	return startRawStdio(ctx, name, "hello", cmd)
}

// onRunner makes the hand server cmd run echo with assent's runner, and
// returns its target's name saying so.
func onRunner(cmd *osexec.Cmd, name string) string {
	cmd.Env = append(cmd.Env, handRunnerEnv+"=1")
	return strings.Replace(name, " (raw)", ", assent's runner (raw)", 1)
}
