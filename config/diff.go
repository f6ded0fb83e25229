package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
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

// String is the change as one line: "+ tool x", "- tool y",
// "~ tool z: command changed, read_only false → true".
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
			out = append(out, ToolChange{Tool: t.Name, Kind: ToolAdded})
		}
	}
	return out
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
// shell) and limits are shown with both values, since those are what an
// operator must weigh; templates and parameters are only named.
func diffTool(a, b *Tool) []string {
	var out []string
	changed := func(what string, x, y any) {
		if fmt.Sprint(x) != fmt.Sprint(y) {
			out = append(out, what+" changed")
		}
	}
	valued := func(what string, x, y any) {
		if xs, ys := fmt.Sprint(x), fmt.Sprint(y); xs != ys {
			out = append(out, fmt.Sprintf("%s %s → %s", what, xs, ys))
		}
	}
	changed("description", a.Description, b.Description)
	changed("command", []any{a.Program, a.Template, a.SecondPrograms}, []any{b.Program, b.Template, b.SecondPrograms})
	changed("parameters", paramFacts(a), paramFacts(b))
	valued("read_only", a.ReadOnly, b.ReadOnly)
	valued("shell", a.Shell, b.Shell)
	valued("timeout", a.Timeout, b.Timeout)
	changed("cwd", a.Cwd, b.Cwd)
	changed("env", a.Env, b.Env)
	changed("stdin", a.Stdin, b.Stdin)
	valued("max_output", a.MaxOutput, b.MaxOutput)
	valued("on_overflow", a.OnOverflow, b.OnOverflow)
	return out
}

// paramFacts is everything about a tool's parameters that a call or its
// checks depend on, one string per parameter.
func paramFacts(t *Tool) []string {
	out := make([]string, 0, len(t.Params))
	for _, p := range t.Params {
		out = append(out, fmt.Sprintf("%s|%s|%s|%q", p.Name, p.Summary(), p.Description, p.Default))
	}
	if t.system != nil {
		out = append(out, fmt.Sprint(t.system.allowed(), slices.Sorted(maps.Keys(t.system.missing))))
	}
	return out
}
