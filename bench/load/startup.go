package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/assent-sh/assent/server/servertest"
)

// startup measures, runs times each and interleaved, the time from
// starting `assent stdio --headless` with a file of tools tools to its
// answer to tools/list (after initialize), and from starting each floor to
// its answer to initialize: a bare Go program (bench/startfloor/bare), the
// same with mcp-go's server package linked (bench/startfloor/mcpgo), and
// the hand server (this driver: mcp-go and assent's packages linked).
// With against, the assent binary there starts in the same rounds too.
func (s *rig) startup(against string, tools, runs int) error {
	file := filepath.Join(s.dir, "startup.json")
	if err := os.WriteFile(file, []byte(servertest.ManyTools(tools)), 0o600); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	assent := func(bin, journal string) *osexec.Cmd {
		a := osexec.Command(bin, "stdio", "--headless", "--tools", file, "--journal", filepath.Join(s.dir, journal))
		a.Env, a.Dir = s.env, s.dir
		return a
	}
	floors := map[string]string{}
	for _, f := range []string{"bare", "mcpgo"} {
		floors[f] = filepath.Join(s.dir, "floor-"+f)
		if out, err := goBuild(floors[f], "./bench/startfloor/"+f).CombinedOutput(); err != nil {
			return fmt.Errorf("building the %s floor (run from the repository root): %v\n%s", f, err, out)
		}
	}
	type start struct {
		name string
		cmd  func() *osexec.Cmd
		list bool
	}
	starts := []start{
		{"assent stdio --headless, to tools/list", func() *osexec.Cmd { return assent(s.bin, "startup-journal") }, true},
		{"bare Go program, to its first answer", func() *osexec.Cmd { return floorCmd(floors["bare"]) }, false},
		{"the same with mcp-go's server linked", func() *osexec.Cmd { return floorCmd(floors["mcpgo"]) }, false},
		{"hand server (this driver), to initialize", func() *osexec.Cmd {
			h := osexec.Command(self)
			h.Env = serverEnv(handEnv + "=1")
			return h
		}, false},
	}
	if against != "" {
		starts = append(starts, start{"-against binary, to tools/list", func() *osexec.Cmd { return assent(against, "startup-journal-against") }, true})
	}
	took := make([][]time.Duration, len(starts))
	for i := range runs + 1 {
		for j, st := range starts {
			d, err := timeToList(st.cmd(), st.list)
			if err != nil {
				return fmt.Errorf("%s: %w", st.name, err)
			}
			if i > 0 { // the first run warms the page cache
				took[j] = append(took[j], d)
			}
		}
	}
	fmt.Printf("startup to the first answer, median of %d runs, %d tools\n", runs, tools)
	for j, st := range starts {
		slices.Sort(took[j])
		fmt.Printf("  %-42s %v\n", st.name, took[j][len(took[j])/2].Round(10*time.Microsecond))
	}
	return nil
}

// timeToList starts cmd, initializes, and (when list) asks for tools/list,
// returning the time from the start to the last answer; then it closes
// cmd's stdin and waits for it.
func timeToList(cmd *osexec.Cmd, list bool) (time.Duration, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	cmd.Stderr = io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { in.Close(); _ = cmd.Wait() }()
	msgs := initializeBody + "\n" + initializedBody + "\n"
	want := `"id":0`
	if list {
		msgs += `{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"
		want = `"id":1`
	}
	if _, err := io.WriteString(in, msgs); err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), want) {
			return time.Since(start), nil
		}
	}
	return 0, fmt.Errorf("no answer with %s (%v)", want, sc.Err())
}

// runStartup builds a rig and measures startup.
func runStartup(bin, against string, tools, runs int) error {
	r, err := newRig(bin, "")
	if err != nil {
		return err
	}
	defer r.cleanup()
	return r.startup(against, tools, runs)
}

// floorCmd is a command that starts the built floor at path, in a server's
// environment.
func floorCmd(path string) *osexec.Cmd {
	c := osexec.Command(path)
	c.Env = serverEnv()
	return c
}
