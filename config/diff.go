package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/assent-sh/assent/exec"
)

// ChangeKind says how a tool differs between two configs.
type ChangeKind string

const (
	// ToolAdded is a tool only the new config has.
	ToolAdded ChangeKind = "+"
	// ToolRemoved is a tool only the old config has.
	ToolRemoved ChangeKind = "-"
	// ToolChanged is a tool both have, defined differently.
	ToolChanged ChangeKind = "~"
)

// ToolChange is one difference between two tool sets, as an operator
// reviews it before a changed tool file takes effect.
type ToolChange struct {
	// Tool is the tool's name.
	Tool string
	// Kind says whether it was added, removed or changed.
	Kind ChangeKind
	// Fields, for a changed tool, say what changed, one phrase each:
	// "command changed", "read_only false → true", "timeout 30s → 1m0s".
	Fields []string
}

// String is the change as one line: "+ tool x: runs /usr/bin/ls -la --
// {dir}, read_only true", "- tool y", "~ tool z: command /usr/bin/cat --
// {f} → /usr/bin/rm -rf -- {f}, read_only false → true".
func (c ToolChange) String() string {
	s := fmt.Sprintf("%s tool %s", c.Kind, c.Tool)
	if len(c.Fields) > 0 {
		s += ": " + strings.Join(c.Fields, ", ")
	}
	return s
}

// Diff lists how the tools of next differ from those of prev: removed and
// changed tools in prev's order, then added tools in next's. Either config
// may be nil (no tools).
func Diff(prev, next *Config) []ToolChange {
	var out []ToolChange
	for _, t := range prev.tools() {
		n := next.lookup(t.Name)
		if n == nil {
			out = append(out, ToolChange{Tool: t.Name, Kind: ToolRemoved})
			continue
		}
		if fields := diffTool(t, n); len(fields) > 0 {
			out = append(out, ToolChange{Tool: t.Name, Kind: ToolChanged, Fields: fields})
		}
	}
	for _, t := range next.tools() {
		if prev.lookup(t.Name) == nil {
			out = append(out, ToolChange{Tool: t.Name, Kind: ToolAdded, Fields: describeTool(t)})
		}
	}
	return out
}

// describeTool says what an added tool would run and how policy would see
// it: an operator approving a change must see the command, not a name.
func describeTool(t *Tool) []string {
	out := []string{"runs " + commandLine(t)}
	if t.ReadOnly {
		out = append(out, "read_only true")
	}
	if t.Shell {
		out = append(out, "shell true")
	}
	return out
}

// commandLine is the tool's program and argv template, a word quoted
// only where its bounds would otherwise be unclear (a space, a quote):
// placeholders stay readable as {name}.
func commandLine(t *Tool) string {
	words := make([]string, 0, len(t.Template))
	for i, w := range t.Template {
		if i == 0 && t.Program != "" {
			w = t.Program
		}
		if q := exec.Quote(w); q == "'"+w+"'" && w != "" && !strings.ContainsAny(w, " '\"\\") {
			words = append(words, w)
		} else {
			words = append(words, q)
		}
	}
	return strings.Join(words, " ")
}

func (c *Config) tools() []*Tool {
	if c == nil {
		return nil
	}
	return c.Tools
}

func (c *Config) lookup(name string) *Tool {
	if c == nil {
		return nil
	}
	return c.Tool(name)
}

// diffTool compares every field that changes what a call runs, what the
// agent sees, or how policy treats it. Flags that policy keys on (read_only,
// shell), limits, the command and the environment are shown with both
// values, since those are what an operator must weigh; parameters are only
// named (check shows them whole).
func diffTool(a, b *Tool) []string {
	var out []string
	// Values are compared in an unambiguous encoding: printed with %v,
	// ["-e x"] and ["-e", "x"] would look the same.
	same := func(x, y any) bool {
		xj, xerr := json.Marshal(x)
		yj, yerr := json.Marshal(y)
		return xerr == nil && yerr == nil && bytes.Equal(xj, yj)
	}
	changed := func(what string, x, y any) {
		if !same(x, y) {
			out = append(out, what+" changed")
		}
	}
	valued := func(what string, x, y any) {
		if !same(x, y) {
			out = append(out, fmt.Sprintf("%s %v → %v", what, x, y))
		}
	}
	changed("description", a.Description, b.Description)
	if !same([]any{a.Program, a.Template, a.SecondPrograms}, []any{b.Program, b.Template, b.SecondPrograms}) {
		out = append(out, fmt.Sprintf("command %s → %s", commandLine(a), commandLine(b)))
	}
	if a.Program == b.Program && !a.ProgramID.Same(b.ProgramID) {
		out = append(out, programChanged(b.Program, b.ProgramID))
	}
	out = append(out, systemChanges(a.system, b.system)...)
	changed("parameters", paramFacts(a), paramFacts(b))
	valued("read_only", a.ReadOnly, b.ReadOnly)
	valued("shell", a.Shell, b.Shell)
	valued("timeout", a.Timeout, b.Timeout)
	changed("cwd", a.Cwd, b.Cwd)
	if !same(a.Env, b.Env) {
		out = append(out, fmt.Sprintf("env %s → %s", envLine(a.Env), envLine(b.Env)))
	}
	changed("stdin", a.Stdin, b.Stdin)
	valued("max_output", a.MaxOutput, b.MaxOutput)
	valued("on_overflow", a.OnOverflow, b.OnOverflow)
	valued("network", a.Network, b.Network)
	valued("sandbox", confinement(a), confinement(b))
	// The sets follow from fields compared above; what the tool adds to
	// them is shown as written.
	if !same([]any{a.sandboxRead, a.sandboxWrite}, []any{b.sandboxRead, b.sandboxWrite}) {
		out = append(out, fmt.Sprintf("sandbox adds read %s write %s → read %s write %s",
			pathList(a.sandboxRead), pathList(a.sandboxWrite), pathList(b.sandboxRead), pathList(b.sandboxWrite)))
	}
	return out
}

// programChanged says that the file at path is another than the one that
// loaded: a binary replaced or rewritten, or a symlink retargeted. exec
// refuses its calls until the change is applied.
func programChanged(path string, now exec.Identity) string {
	sum := ""
	if now.SHA256 != "" {
		sum = ", sha256 " + now.SHA256[:16] + "…"
	}
	return fmt.Sprintf("program %s changed since it loaded (now %s%s)", path, now, sum)
}

// systemChanges compares the programs two system_command tools allow by
// name: one that resolves to another path now, or whose file is another
// (names allowed or not are compared with the parameters).
func systemChanges(a, b *systemTool) []string {
	if a == nil || b == nil {
		return nil
	}
	var out []string
	for _, name := range b.allowed() {
		was, ok := a.programs[name]
		now := b.programs[name]
		switch {
		case !ok:
		case was != now:
			out = append(out, fmt.Sprintf("program %s %s → %s", name, was, now))
		case !a.ids[name].Same(b.ids[name]):
			out = append(out, programChanged(now, b.ids[name]))
		}
	}
	return out
}

// envLine shows a tool's environment additions, quoted.
func envLine(env []EnvVar) string {
	if len(env) == 0 {
		return "(none)"
	}
	parts := make([]string, len(env))
	for i, e := range env {
		parts[i] = exec.Quote(e.Name + "=" + e.Value)
	}
	return strings.Join(parts, " ")
}

// paramFacts is everything about a tool's parameters that a call or its
// checks depend on, one string per parameter.
func paramFacts(t *Tool) []string {
	out := make([]string, 0, len(t.Params))
	for _, p := range t.Params {
		out = append(out, fmt.Sprintf("%s|%s|%s|%q", p.Name, p.Summary(), p.Description, p.Default))
	}
	if t.system != nil {
		out = append(out, fmt.Sprint(t.system.allowed(), slices.Sorted(maps.Keys(t.system.missing)), t.system.envAllow))
	}
	return out
}

// confinement names whether a tool's calls are confined, for a diff.
func confinement(t *Tool) string {
	if t.confined {
		return "confined"
	}
	return "unconfined"
}

// pathList shows a sandbox set, quoted.
func pathList(ps []string) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = exec.Quote(p)
	}
	return "[" + strings.Join(q, " ") + "]"
}
