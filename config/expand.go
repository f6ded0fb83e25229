package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/assent-sh/assent/exec"
)

// ArgError is a call refused before it reaches the queue: the tool, the
// parameter ("" for the call as a whole), the rule broken and what to do.
type ArgError struct {
	// Tool is the tool called.
	Tool string
	// Param is the parameter at fault, or "".
	Param string
	// Rule is a short stable name of the check that failed: unknown,
	// missing, type, text, length, enum, pattern, range, option, path,
	// find-operand, size, cwd, not-allowed, unavailable, env.
	Rule string
	// Msg says what was wrong, in words an agent can act on. It continues
	// the sentence `parameter "p" …` ("is required"), unless it starts
	// with a capital letter and stands alone ("Command not allowed: rm",
	// the seed's wording), when a colon separates the two.
	Msg string
}

func (e *ArgError) Error() string {
	switch {
	case e.Param == "":
		return fmt.Sprintf("tool %q: %s", e.Tool, e.Msg)
	case e.Msg != "" && unicode.IsUpper(rune(e.Msg[0])):
		return fmt.Sprintf("tool %q: parameter %q: %s", e.Tool, e.Param, e.Msg)
	}
	return fmt.Sprintf("tool %q: parameter %q %s", e.Tool, e.Param, e.Msg)
}

// Expansion is a call's arguments checked and turned into a command.
type Expansion struct {
	// Command is exactly what would run.
	Command exec.Command
	// Values holds each parameter's text after defaults and path
	// resolution: one element for a single value, one per item for a list.
	Values map[string][]string
	// Secrets are the values of parameters marked secret, for masking.
	Secrets []string
}

// Expand checks args (as decoded from JSON) against the tool's parameters
// and returns the exact command the call would run.
func (t *Tool) Expand(args map[string]any) (exec.Command, error) {
	e, err := t.Prepare(args)
	return e.Command, err
}

// Prepare is Expand that also returns the checked values, for policy and
// for the journal's masking of secrets.
func (t *Tool) Prepare(args map[string]any) (Expansion, error) {
	if t.system != nil {
		return t.system.expand(t, args)
	}
	if err := t.checkNames(args); err != nil {
		return Expansion{}, err
	}
	e := Expansion{Values: make(map[string][]string, len(t.Params))}
	scalar := make(map[string]string, len(t.Params))
	base := t.workDir
	if t.cwd != nil && t.cwd.fixed() {
		base = absFrom(t.workDir, t.cwd.literal())
	}
	for _, p := range t.Params {
		v, ok := args[p.Name]
		if !ok || v == nil {
			if p.Required {
				return Expansion{}, &ArgError{t.Name, p.Name, "missing", "is required" + describeParam(p)}
			}
			v = p.Default
		}
		vals, verr := p.values(v, base)
		if verr != nil {
			if p.Secret {
				verr = verr.withoutValue(p)
			}
			return Expansion{}, &ArgError{t.Name, p.Name, verr.rule, verr.msg}
		}
		e.Values[p.Name] = vals
		if !p.List {
			scalar[p.Name] = vals[0]
		}
		if p.Secret {
			for _, s := range append(vals, SecretTexts(v)...) {
				if !slices.Contains(e.Secrets, s) {
					e.Secrets = append(e.Secrets, s)
				}
			}
		}
	}
	argv, err := t.fillArgv(e.Values, scalar)
	if err != nil {
		return Expansion{}, err
	}
	dir, err := t.fillCwd(scalar)
	if err != nil {
		return Expansion{}, err
	}
	env := make([]string, 0, len(t.env))
	for _, ev := range t.env {
		env = append(env, ev.name+"="+ev.value.fill(scalar))
	}
	e.Command = exec.Command{
		Path:       t.Program,
		Argv:       argv,
		Dir:        dir,
		Env:        env,
		Stdin:      t.stdin.fill(scalar),
		Timeout:    t.Timeout,
		MaxOutput:  t.MaxOutput,
		OnOverflow: t.OnOverflow,
	}
	return e, nil
}

// checkNames refuses arguments the tool does not have.
func (t *Tool) checkNames(args map[string]any) error {
	var unknown []string
	for k := range args {
		if t.params[k] == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	known := make([]string, len(t.Params))
	for i, p := range t.Params {
		known[i] = p.Name
	}
	msg := fmt.Sprintf("has no parameter %s", quoteList(unknown))
	if len(known) > 0 {
		msg += fmt.Sprintf(" (its parameters: %s)", strings.Join(known, ", "))
	} else {
		msg += " (it takes no arguments)"
	}
	return &ArgError{Tool: t.Name, Rule: "unknown", Msg: msg}
}

// fillArgv builds argv: one element per template word, one per item for a
// list placeholder, and refuses any value that would make its word an
// option or a find expression.
func (t *Tool) fillArgv(vals map[string][]string, scalar map[string]string) ([]string, error) {
	argv := make([]string, 0, len(t.argv))
	for i, w := range t.argv {
		if name, ok := w.listParam(); ok {
			for _, item := range vals[name] {
				if err := t.checkWordValue(i, name, item); err != nil {
					return nil, err
				}
				argv = append(argv, item)
			}
			continue
		}
		s := w.fill(scalar)
		if w.leadingParam() {
			if err := t.checkWordValue(i, w[0].param, s); err != nil {
				return nil, err
			}
		}
		argv = append(argv, s)
	}
	if err := CheckLimits(argv); err != nil {
		return nil, &ArgError{t.Name, "", "size", err.Error()}
	}
	return argv, nil
}

// checkWordValue enforces the option rules on a word whose first character
// comes from the value of param. A word starting with '-' would be read as
// an option; flag-name deny lists cannot work (GNU tools accept unique
// abbreviations and read options after operands), so the only options let
// through are the exact tokens the parameter lists, the operator's own enum
// values, and negative numbers when the operator declared a negative minimum.
func (t *Tool) checkWordValue(i int, param, s string) error {
	p := t.params[param]
	whole := len(t.argv[i]) == 1
	if strings.HasPrefix(s, "-") {
		allowed := whole && (contains(p.Flags, s) || contains(p.Enum, s) ||
			((p.Type == Integer || p.Type == Number) && p.minSet && *p.Min < 0))
		if !allowed {
			msg := "starts with '-', so the program would read it as an option; "
			if len(p.Flags) > 0 {
				msg += "the only options allowed here are " + quoteList(p.Flags)
			} else {
				msg += "this parameter takes no options (to pass text that starts with '-', use a pattern or path form that does not, such as [-]x or ./-x)"
			}
			return &ArgError{t.Name, param, "option", msg}
		}
	}
	if t.findPaths[i] && s != "" && strings.ContainsRune("!(),", rune(s[0])) {
		return &ArgError{t.Name, param, "find-operand", fmt.Sprintf("starts with %q, which find would read as part of its expression, not as a starting point", s[:1])}
	}
	return nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// fillCwd returns the absolute working directory of the call, which must be
// an existing directory.
func (t *Tool) fillCwd(scalar map[string]string) (string, error) {
	if t.cwd == nil {
		return t.workDir, nil
	}
	dir := absFrom(t.workDir, t.cwd.fill(scalar))
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		param := ""
		if ps := t.cwd.params(); len(ps) > 0 {
			param = ps[0]
		}
		return "", &ArgError{t.Name, param, "cwd", fmt.Sprintf("working directory %s is not an existing directory", dir)}
	}
	return dir, nil
}

func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// describeParam adds the parameter's description to a "missing" message.
func describeParam(p *Param) string {
	if p.Description == "" {
		return fmt.Sprintf(" (%s)", p.Type)
	}
	return fmt.Sprintf(" (%s: %s)", p.Type, p.Description)
}
