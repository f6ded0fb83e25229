package config

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/assent-sh/assent/exec"
)

// SystemCommandName is the name of the built-in system_command tool.
const SystemCommandName = "system_command"

// systemTool is the built-in system_command: a whitelisted program with
// free arguments, cwd, env, stdin and timeout, as the second seed
// describes it. Its arguments are free text, and several whitelisted
// programs can run others through them (find -exec, env, sort
// --compress-program), so it is always a shell-class tool: shown with a
// warning and never approved by a rule.
type systemTool struct {
	programs map[string]string        // allowed name -> absolute path (installed only)
	sandbox  map[string]exec.Sandbox  // allowed name -> what a call of it may touch
	ids      map[string]exec.Identity // allowed name -> its program's identity at load
	missing  map[string]bool          // allowed but not installed
	envAllow []string                 // variables a call may set, sorted
	roots    []string                 // cwd must lie in one of these
	timeout  time.Duration            // default
	max      time.Duration            // ceiling
}

// newSystemCommand builds the system_command tool from its settings.
func newSystemCommand(sc *SystemCommand, opts Options, s Settings) (*Tool, []Warning, error) {
	st := &systemTool{programs: map[string]string{}, ids: map[string]exec.Identity{}, missing: map[string]bool{},
		envAllow: slices.Sorted(slices.Values(sc.Env)), timeout: s.TimeoutOrDefault(), max: s.MaxTimeoutOrDefault()}
	t := &Tool{
		Name:     SystemCommandName,
		Template: []string{"{command}", "{args...}"},
		Shell:    true,
		ShellReason: "system_command runs other programs or shell code (its arguments are free, and " +
			"an allowed program may run others through them)",
		Timeout:    st.timeout,
		MaxOutput:  s.MaxOutputOrDefault(),
		OnOverflow: exec.Drain,
		Where:      "settings.system_command",
		workDir:    opts.WorkDir,
		system:     st,
	}
	var warns []Warning
	for _, name := range sc.Allow {
		p, err := opts.memo.resolveProgram(name, opts.PATH)
		if err != nil {
			st.missing[name] = true
			warns = append(warns, Warning{t.Where, t.Name, fmt.Sprintf("%v; calls to it will be refused", err)})
			continue
		}
		id, err := opts.memo.identity(p)
		if err != nil {
			return nil, nil, fmt.Errorf("settings.system_command: program %s: %w", p, err)
		}
		st.programs[name], st.ids[name] = p, id
		if r := opts.memo.shellReason(name, p); r != "" {
			warns = append(warns, Warning{t.Where, t.Name, r})
		}
	}
	under := sc.Under
	if under == nil {
		under = []string{"."}
	}
	roots, err := resolveRoots(opts.WorkDir, under)
	if err != nil {
		return nil, nil, fmt.Errorf("settings.system_command.under: %v", err)
	}
	st.roots = roots
	allowed := st.allowed()
	// Only what is installed is offered: an agent told about a program
	// it cannot run wastes a call finding out.
	t.Description = "Run one whitelisted program with arguments, without a shell (pipes, redirects and " +
		"variables are not interpreted). Allowed programs: " + strings.Join(allowed, ", ") + "."
	maxMs := float64(st.max / time.Millisecond)
	minMs := float64(MinTimeout / time.Millisecond)
	t.Params = []*Param{
		// Not an enum in the schema: a program off the list gets the
		// seed's own refusal, "Command not allowed: rm", from expand.
		{Name: "command", Type: String, Required: true,
			Description: "Program to run (must be whitelisted: " + strings.Join(allowed, ", ") + ")"},
		{Name: "args", Type: String, List: true, Default: []any{}, Description: "Command arguments, one per element"},
		{Name: "cwd", Type: Path, Default: ".", Under: under, roots: roots, Description: "Working directory"},
		{Name: "timeout", Type: Integer, Default: float64(st.timeout / time.Millisecond), Min: &minMs, Max: &maxMs, minSet: true,
			Description: fmt.Sprintf("Timeout in ms (%d-%d, default: %d)", int(minMs), int(maxMs), st.timeout/time.Millisecond)},
		{Name: "stdin", Type: String, Multiline: true, Default: "", Description: "Input to send to stdin"},
	}
	// env is an object of strings, which no parameter type describes: it
	// is known by name for argument checking, and InputSchema adds it.
	t.params = map[string]*Param{"env": {Name: "env", Type: String}}
	for _, p := range t.Params {
		t.params[p.Name] = p
	}
	// Each program's calls may read and write below the cwd roots, and
	// read the program itself and its interpreters.
	t.writes = t.writePlaces(t.workPlaces(opts.memo))
	st.sandbox = map[string]exec.Sandbox{}
	for name, p := range st.programs {
		st.sandbox[name] = exec.Sandbox{Read: tidyPaths(slices.Concat(roots, opts.memo.programFiles(p, opts.PATH))),
			Write: dirsOf(t.writes), Network: sc.Network}
	}
	t.Network = sc.Network
	t.sandbox = exec.Sandbox{Read: slices.Clone(roots), Write: dirsOf(t.writes), Network: sc.Network}
	t.confined = s.SandboxOrDefault() != SandboxOff
	return t, warns, nil
}

func (st *systemTool) allowed() []string {
	out := make([]string, 0, len(st.programs))
	for name := range st.programs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// expand checks a system_command call. Unlike template tools, its
// arguments may be options: choosing them freely is what the tool is for,
// which is why it is never approved by a rule.
func (st *systemTool) expand(t *Tool, args map[string]any) (Expansion, error) {
	refuse := func(param, rule, format string, a ...any) (Expansion, error) {
		return Expansion{}, &ArgError{Tool: t.Name, Param: param, Rule: rule, Msg: fmt.Sprintf(format, a...)}
	}
	clause := func(param, rule, format string, a ...any) (Expansion, error) {
		return Expansion{}, clauseError(t.Name, param, rule, fmt.Sprintf(format, a...))
	}
	if err := t.checkNames(args); err != nil {
		return Expansion{}, err
	}
	name, ok := args["command"].(string)
	if !ok {
		return refuse("command", "missing", "is required: the name of a whitelisted program (%s)", strings.Join(st.allowed(), ", "))
	}
	path, ok := st.programs[name]
	if !ok {
		if st.missing[name] {
			return refuse("command", "unavailable", "Command not available on this machine: %s", printable(name))
		}
		// The seed's wording, which agents trained on it recognise.
		return refuse("command", "not-allowed", "Command not allowed: %s", printable(name))
	}
	e := Expansion{Values: map[string][]string{"command": {name}}}
	argv := []string{name}
	if v, ok := args["args"]; ok && v != nil {
		items, ok := v.([]any)
		if !ok {
			return clause("args", "type", "want an array of strings, got %s", jsonKind(v))
		}
		for i, it := range items {
			s, ok := it.(string)
			if !ok {
				return clause("args", "type", "item %d: want a string, got %s", i, jsonKind(it))
			}
			if p := textProblem(s, false); p != "" {
				return clause("args", "text", "item %d contains %s", i, p)
			}
			argv = append(argv, s)
		}
	}
	e.Values["args"] = argv[1:]
	// Without a cwd the call runs where assent runs, if that is inside
	// the allowed directories, else in the first of them.
	dir := st.roots[0]
	for _, r := range st.roots {
		if within(t.workDir, r) {
			dir = t.workDir
			break
		}
	}
	given := dir
	if v, ok := args["cwd"]; ok && v != nil {
		vals, verr := t.params["cwd"].values(v, t.workDir, nil)
		if verr != nil {
			return Expansion{}, valueArgError(t.Name, "cwd", verr)
		}
		dir, given = vals[0], givenPaths(v, t.workDir)[0]
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return clause("cwd", "cwd", "working directory %s is not an existing directory", dir)
	}
	e.Values["cwd"] = []string{dir}
	env, err := st.env(t, args["env"])
	if err != nil {
		return Expansion{}, err
	}
	e.Values["env"] = env
	timeout := st.timeout
	if v, ok := args["timeout"]; ok && v != nil {
		vals, verr := t.params["timeout"].values(v, "", nil)
		if verr != nil {
			return Expansion{}, valueArgError(t.Name, "timeout", verr)
		}
		var ms int64
		fmt.Sscan(vals[0], &ms)
		timeout = time.Duration(ms) * time.Millisecond
	}
	e.Values["timeout"] = []string{fmt.Sprint(timeout.Milliseconds())}
	stdin := ""
	if v, ok := args["stdin"]; ok && v != nil {
		vals, verr := t.params["stdin"].values(v, "", nil)
		if verr != nil {
			return Expansion{}, valueArgError(t.Name, "stdin", verr)
		}
		stdin = vals[0]
	}
	e.Values["stdin"] = []string{stdin}
	if err := CheckLimits(argv); err != nil {
		return clause("args", "size", "%v", err)
	}
	e.Command = exec.Command{Path: path, Program: st.ids[name], Argv: argv, Dir: dir, Env: env, Stdin: stdin,
		Timeout: timeout, MaxOutput: t.MaxOutput, OnOverflow: t.OnOverflow,
		Paths: []exec.PathCheck{{Given: given, Resolved: dir}}}
	e.Paths = []string{dir}
	if t.confined {
		sb := cloneSandbox(st.sandbox[name])
		e.Command.Sandbox = &sb
	}
	return e, nil
}

// printable shows a value in a message: a plain name as it is (so the
// seed's "Command not allowed: rm" reads exactly so), anything else quoted
// with every invisible character escaped.
func printable(s string) string {
	if s != "" && len(s) <= 64 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+") == "" {
		return s
	}
	if len(s) > 64 && utf8.ValidString(s) {
		s = string([]rune(s)[:min(64, utf8.RuneCountInString(s))]) + "…"
	}
	return fmt.Sprintf("%+q", s)
}
