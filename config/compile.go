package config

import (
	"errors"
	"fmt"

	"github.com/assent-sh/assent/exec"
)

// compileTool turns one tool node into a Tool, or an error that names the
// file, position, tool and field.
func compileTool(n *node, opts Options, settings Settings) (*Tool, []Warning, error) {
	if n.kind != kindObject {
		return nil, nil, fieldError(n, "", "a tool is an object with name, description and command; got %s", n.kind)
	}
	t := &Tool{Where: n.where(), workDir: opts.WorkDir, params: map[string]*Param{}, memo: opts.memo}
	defer func() { t.memo = nil }() // a loaded tool keeps nothing of its Load
	nameNode := n.get("name")
	if nameNode == nil {
		return nil, nil, fieldError(n, "", "tool has no name")
	}
	name, err := readString(nameNode, "name")
	if err != nil {
		return nil, nil, err
	}
	if !isToolName(name) {
		return nil, nil, fieldError(nameNode, "name", "%q is not a valid tool name (1–64 letters, digits, '_', '-' or '.')", name)
	}
	t.Name = name
	// Every later error names the tool.
	fail := func(at *node, field, format string, args ...any) error {
		return fieldError(at, fmt.Sprintf("tool %q: %s", name, field), format, args...)
	}
	if err := checkKeys(n, fmt.Sprintf("tool %q", name), "name", "description", "command", "params",
		"read_only", "shell", "timeout", "cwd", "env", "stdin", "max_output", "on_overflow", "sandbox", "network"); err != nil {
		return nil, nil, err
	}
	if d := n.get("description"); d != nil {
		if t.Description, err = readString(d, "description"); err != nil {
			return nil, nil, fail(d, "description", "want a string, got %s", d.kind)
		}
		if p := textProblem(t.Description, true); p != "" {
			return nil, nil, fail(d, "description", "contains %s", p)
		}
	}
	if err := t.readCommand(n.get("command"), n, fail); err != nil {
		return nil, nil, err
	}
	if err := t.readFlags(n, settings, fail); err != nil {
		return nil, nil, err
	}
	if err := t.readSandbox(n, fail); err != nil {
		return nil, nil, err
	}
	if err := t.readTemplates(n, fail); err != nil {
		return nil, nil, err
	}
	if err := t.readParams(n.get("params"), n.get("command"), fail); err != nil {
		return nil, nil, err
	}
	if err := t.checkPrograms(n, opts, fail); err != nil {
		return nil, nil, err
	}
	t.markFindPaths()
	t.computeSandbox(opts, settings)
	return t, t.warnings(), nil
}

func isToolName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

type failFunc func(at *node, field, format string, args ...any) error

// readCommand splits the command into template words.
func (t *Tool) readCommand(c, tool *node, fail failFunc) error {
	if c == nil {
		return fail(tool, "command", "missing; give a command string like \"ls -la {directory}\" or an array of words")
	}
	var words []string
	switch c.kind {
	case kindString:
		var err error
		words, err = splitCommand(c.text)
		if err != nil {
			var se *splitError
			if errors.As(err, &se) {
				return fmt.Errorf("%s: tool %q: command: %s", c.src.position(c.offsetIn(se.Offset)), t.Name, se.Msg)
			}
			return fail(c, "command", "%v", err)
		}
	case kindArray:
		if len(c.items) == 0 {
			return fail(c, "command", "the array is empty; its first word is the program")
		}
		var err error
		if words, err = readStrings(c, "command"); err != nil {
			return fail(c, "command", "want an array of strings")
		}
	default:
		return fail(c, "command", "want a string or an array of strings, got %s", c.kind)
	}
	t.argv, t.Template = make([]word, 0, len(words)), make([]string, 0, len(words))
	parts := make([]part, 0, len(words)) // most words are one part
	for i, w := range words {
		if p := textProblem(w, false); p != "" {
			return fail(c, fmt.Sprintf("command word %d", i), "contains %s", p)
		}
		var pw word
		var err error
		parts, pw, err = appendWord(parts, w)
		if err != nil {
			return fail(c, "command", "%v", err)
		}
		t.argv = append(t.argv, pw)
		t.Template = append(t.Template, pw.String())
	}
	if !t.argv[0].fixed() {
		return fail(c, "command", "the program (first word) must be fixed text, not a placeholder")
	}
	return nil
}

// offsetIn maps an offset within a string node's decoded text to the file.
// It is asked only for an error's position.
func (n *node) offsetIn(i int) int {
	if n.literal {
		if m := stringOffsets(n.src.data[n.off:n.end], n.off); i < len(m) {
			return m[i]
		}
		return n.end - 1
	}
	return n.off + i
}

// readFlags reads the tool's plain fields.
func (t *Tool) readFlags(n *node, s Settings, fail failFunc) error {
	var err error
	if v := n.get("read_only"); v != nil {
		if t.ReadOnly, err = readBool(v, "read_only"); err != nil {
			return fail(v, "read_only", "want true or false, got %s", v.kind)
		}
	}
	if v := n.get("shell"); v != nil {
		if t.Shell, err = readBool(v, "shell"); err != nil {
			return fail(v, "shell", "want true or false, got %s", v.kind)
		}
	}
	t.Timeout = s.TimeoutOrDefault()
	if v := n.get("timeout"); v != nil {
		if t.Timeout, err = readDuration(v, fmt.Sprintf("tool %q: timeout", t.Name)); err != nil {
			return err
		}
		if max := s.MaxTimeoutOrDefault(); t.Timeout < MinTimeout || t.Timeout > max {
			return fail(v, "timeout", "%v is outside [%v, %v]; raise settings.max_timeout to allow more", t.Timeout, MinTimeout, max)
		}
	}
	t.MaxOutput = s.MaxOutputOrDefault()
	if v := n.get("max_output"); v != nil {
		if t.MaxOutput, err = readSize(v, fmt.Sprintf("tool %q: max_output", t.Name)); err != nil {
			return err
		}
	}
	t.OnOverflow = exec.Drain
	if v := n.get("on_overflow"); v != nil {
		s, err := readString(v, "on_overflow")
		if err != nil || (s != string(exec.Drain) && s != string(exec.Kill)) {
			return fail(v, "on_overflow", "want \"drain\" or \"kill\"")
		}
		t.OnOverflow = exec.Overflow(s)
	}
	return nil
}
