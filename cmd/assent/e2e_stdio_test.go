package main

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/server/servertest"
)

// stdioServer starts `assent stdio --headless` with args as a client's
// child and returns the client, the child and its stderr.
func (e *e2e) stdioServer(opts []client.ClientOption, n *servertest.Notes, args ...string) (*client.Client, *osexec.Cmd, *servertest.Buffer) {
	e.t.Helper()
	return e.stdioChild(e.env, opts, n, append([]string{"stdio", "--headless", "--tools", e.tools}, args...)...)
}

// stdioChild starts assent with args and env as a client's child and
// returns the client, the child and its stderr.
func (e *e2e) stdioChild(env []string, opts []client.ClientOption, n *servertest.Notes, args ...string) (*client.Client, *osexec.Cmd, *servertest.Buffer) {
	e.t.Helper()
	var cmd *osexec.Cmd
	stderr := &servertest.Buffer{}
	tr := transport.NewStdioWithOptions(e.bin, nil, args, transport.WithCommandFunc(
		func(ctx context.Context, _ string, _ []string, args []string) (*osexec.Cmd, error) {
			cmd = e.command(ctx, args...)
			cmd.Env = env
			cmd.Stderr = stderr
			return cmd, nil
		}))
	c := client.NewClient(tr, opts...)
	servertest.Connect(e.t, c, "e2e-agent", n)
	e.t.Cleanup(func() {
		_ = c.Close()
		if e.t.Failed() {
			e.t.Logf("assent's stderr:\n%s", stderr)
		}
	})
	return c, cmd, stderr
}

func TestE2E_Stdio(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			e := newE2E(t)
			var n servertest.Notes
			c, _, _ := e.stdioServer(era.Options, &n)
			scenario(t, e, c, &n)
		})
	}
}

func TestE2E_StdioListChangedAfterEditingTheToolFile(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			e := newE2E(t)
			var n servertest.Notes
			c, _, stderr := e.stdioServer(era.Options, &n, "--watch")
			e.writeTools(strings.Replace(e2eTools, `{"name": "burn"`,
				`{"name": "fresh", "description": "New", "command": "id", "read_only": true}, {"name": "burn"`, 1))
			servertest.WaitFor(t, "tools/list_changed", func() bool {
				return len(n.Messages(mcp.MethodNotificationToolsListChanged)) > 0
			})
			res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil || len(res.Tools) != 6 {
				t.Fatalf("tools after the edit: %v %v", res, err)
			}
			if !strings.Contains(stderr.String(), `change="+ tool fresh: runs`) {
				t.Fatalf("the change was not logged:\n%s", stderr)
			}
		})
	}
}

func TestE2E_StdioWithoutWatchKeepsTheTools(t *testing.T) {
	e := newE2E(t)
	var n servertest.Notes
	c, _, stderr := e.stdioServer(nil, &n)
	e.writeTools(strings.Replace(e2eTools, `{"name": "burn"`, `{"name": "fresh", "command": "id"}, {"name": "burn"`, 1))
	servertest.WaitFor(t, "the change to be logged", func() bool { return strings.Contains(stderr.String(), "change not applied") })
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil || len(res.Tools) != 5 {
		t.Fatalf("tools: %v %v", res, err)
	}
}

// TestE2E_StdioEnds ends a server with a call running, by closing its
// stdin or by a signal: it exits 0, the child is gone, and the journal
// ends the call and verifies.
func TestE2E_StdioEnds(t *testing.T) {
	tests := []struct {
		name string
		end  func(c *client.Client, cmd *osexec.Cmd) error
		// answer is the start of the running call's answer, "" when the
		// client is gone before one can come.
		answer string
	}{
		{"stdin closed", func(c *client.Client, _ *osexec.Cmd) error { return c.Close() }, ""},
		{"SIGTERM", func(c *client.Client, cmd *osexec.Cmd) error {
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				return err
			}
			// It must exit by itself, with its stdin still open; Close
			// then only reaps it.
			if err := awaitExit(cmd.Process.Pid); err != nil {
				return err
			}
			return c.Close()
		}, "cancelled while running: assent shut down"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newE2E(t)
			var n servertest.Notes
			c, cmd, stderr := e.stdioServer(nil, &n)
			marker := "end-" + strings.ReplaceAll(tc.name, " ", "-") + ".log"
			writeFile(t, e.dir+"/work/"+marker, "x\n")
			answer := make(chan string, 1)
			go func() {
				res, err := servertest.Call(context.Background(), c, "follow", map[string]any{"path": marker}, "")
				if err != nil {
					answer <- "error: " + err.Error()
					return
				}
				answer <- servertest.Text(res)
			}()
			servertest.WaitFor(t, "the call to run", func() bool { return len(processesWith(marker)) > 0 })
			if err := tc.end(c, cmd); err != nil {
				t.Fatalf("exit: %v\n%s", err, stderr)
			}
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Fatalf("exit status %d\n%s", code, stderr)
			}
			if got := <-answer; tc.answer != "" && !strings.HasPrefix(got, tc.answer) {
				t.Fatalf("the running call was answered %q", got)
			}
			servertest.WaitFor(t, "the child to be gone", func() bool { return len(processesWith(marker)) == 0 })
			recs, err := journal.Read(e.dir + "/state/assent/journal")
			if err != nil {
				t.Fatal(err)
			}
			if last := recs[len(recs)-1]; last.Event != journal.Finished {
				t.Fatalf("last journal record %s", last.Event)
			}
			if _, err := run(t, "log", "--verify", "--journal", e.dir+"/state/assent/journal"); err != nil {
				t.Fatalf("journal does not verify: %v", err)
			}
		})
	}
}

func TestE2E_StdioRefusesAToolFileAToolCanWrite(t *testing.T) {
	e := newE2E(t)
	// The tool file moves into work/, where touch_it writes.
	e.tools = e.dir + "/work/tools.json"
	e.writeTools(e2eTools)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := e.command(ctx, "stdio", "--headless", "--tools", e.tools).CombinedOutput()
	if err == nil {
		t.Fatal("started")
	}
	want := `tool file ` + e.tools + ` lies under ` + e.dir + `/work, where tool "burn" (working directory) and tool "touch_it" (path parameter {file})`
	if !strings.Contains(string(out), want) {
		t.Fatalf("output %s\nwant %s", out, want)
	}
}

// TestE2E_StdioSealsWhatItInherited starts assent with a descriptor it
// inherits without close-on-exec, as a careless parent passes one, and
// finds it marked close-on-exec once assent answers: no program it runs
// gets it, however its child is forked.
func TestE2E_StdioSealsWhatItInherited(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("descriptor flags are read from /proc, and only Linux seals them")
	}
	e := newE2E(t)
	leak, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer leak.Close()
	var cmd *osexec.Cmd
	tr := transport.NewStdioWithOptions(e.bin, nil, []string{"stdio", "--headless", "--tools", e.tools}, transport.WithCommandFunc(
		func(ctx context.Context, _ string, _ []string, args []string) (*osexec.Cmd, error) {
			cmd = e.command(ctx, args...)
			cmd.ExtraFiles = []*os.File{leak} // descriptor 3, without close-on-exec
			return cmd, nil
		}))
	c := client.NewClient(tr)
	var n servertest.Notes
	servertest.Connect(t, c, "e2e-agent", &n)
	t.Cleanup(func() { _ = c.Close() })
	info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/3", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	var flags int64
	for _, line := range strings.Split(string(info), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err = strconv.ParseInt(strings.TrimSpace(v), 8, 64)
		}
	}
	if err != nil || flags&syscall.O_CLOEXEC == 0 {
		t.Fatalf("assent's descriptor 3 has flags %#o (%v); want O_CLOEXEC among them:\n%s", flags, err, info)
	}
}
