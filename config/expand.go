package config

import (
	"fmt"
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
	// the sentence `parameter "p" …` ("is required"), unless it stands
	// alone, when a colon separates the two: a clause of its own ("want a
	// string, got a number", "11 is above the maximum 10") or one that
	// starts with a capital letter ("Command not allowed: rm", the seed's
	// wording).
	Msg string

	alone bool // Msg is a clause of its own, though it starts in lower case
}

// clauseError is an ArgError whose message is a clause of its own.
func clauseError(tool, param, rule, msg string) *ArgError {
	return &ArgError{Tool: tool, Param: param, Rule: rule, Msg: msg, alone: true}
}

// valueArgError is the ArgError of a refused value of param.
func valueArgError(tool, param string, verr *valueError) *ArgError {
	return &ArgError{Tool: tool, Param: param, Rule: verr.rule, Msg: verr.msg, alone: verr.alone}
}

func (e *ArgError) Error() string {
	switch {
	case e.Param == "":
		return fmt.Sprintf("tool %q: %s", e.Tool, e.Msg)
	case e.alone || e.Msg != "" && unicode.IsUpper(rune(e.Msg[0])):
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
	// Paths holds every value of every path parameter, list items
	// included, resolved as they appear in argv, in parameter order: what
	// policy's paths matcher sees (policy.Input.Paths).
	Paths []string
	// SecretSpans says where the values of secret parameters went in
	// Command; Masked and MaskedBy hide exactly those bytes.
	SecretSpans []SecretSpan
	// Secrets are the values of parameters marked secret, for checks (a
	// rule about to be remembered must not hold one). They are never
	// masked wherever they occur, which would let an agent that chooses a
	// secret hide other text: Masked, MaskedBy and SecretsForOutput mask.
	Secrets []string
}

// Expand checks args (as decoded from JSON) against the tool's parameters
// and returns the exact command the call would run.
func (t *Tool) Expand(args map[string]any) (exec.Command, error) {
	e, err := t.Prepare(args)
	return e.Command, err
}

// Prepare is Expand that also returns the checked values, for policy, and
// where secrets went, for masking.
func (t *Tool) Prepare(args map[string]any) (Expansion, error) {
	if t.system != nil {
		return t.system.expand(t, args)
	}
	if err := t.checkNames(args); err != nil {
		return Expansion{}, err
	}
	e := Expansion{Values: make(map[string][]string, len(t.Params))}
	f := &filling{tool: t, scalar: make(map[string]string, len(t.Params))}
	base := t.workDir
	if t.cwd != nil && t.cwd.fixed() {
		base = absFrom(t.workDir, t.cwd.literal())
	}
	var checks []exec.PathCheck
	for _, p := range t.Params {
		v, ok := args[p.Name]
		if !ok || v == nil {
			if p.Required {
				return Expansion{}, &ArgError{Tool: t.Name, Param: p.Name, Rule: "missing", Msg: "is required" + describeParam(p)}
			}
			v = p.Default
		}
		vals, verr := p.values(v, base, nil)
		if verr != nil {
			if p.Secret {
				verr = verr.withoutValue(p)
			}
			return Expansion{}, valueArgError(t.Name, p.Name, verr)
		}
		e.Values[p.Name] = vals
		if !p.List {
			f.scalar[p.Name] = vals[0]
		}
		if p.Type == Path {
			e.Paths = append(e.Paths, vals...)
			for i, given := range givenPaths(v, base) {
				if p.Secret {
					f.spans = append(f.spans, SecretSpan{In: "path", Index: len(checks), Param: p.Name})
				}
				checks = append(checks, exec.PathCheck{Given: given, Resolved: vals[i]})
			}
		}
		if p.Secret {
			for _, s := range append(vals, SecretTexts(v)...) {
				if !slices.Contains(e.Secrets, s) {
					e.Secrets = append(e.Secrets, s)
				}
			}
		}
	}
	argv, err := f.argv(e.Values)
	if err != nil {
		return Expansion{}, err
	}
	dir, err := f.cwd()
	if err != nil {
		return Expansion{}, err
	}
	env := make([]string, 0, len(t.env))
	for i, ev := range t.env {
		env = append(env, ev.name+"="+ev.value.fill(f.scalar, f.note("env", i, len(ev.name)+1)))
	}
	e.Command = exec.Command{
		Path:       t.Program,
		Argv:       argv,
		Dir:        dir,
		Env:        env,
		Stdin:      t.stdin.fill(f.scalar, f.note("stdin", 0, 0)),
		Timeout:    t.Timeout,
		MaxOutput:  t.MaxOutput,
		OnOverflow: t.OnOverflow,
		Sandbox:    t.sandboxFor(),
		Program:    t.ProgramID,
		Paths:      checks,
	}
	e.SecretSpans = f.spans
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
