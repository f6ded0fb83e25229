package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// filling is one call's values being put into a tool's templates. It
// notes where each secret parameter's value goes, so masking can go by
// position.
type filling struct {
	tool   *Tool
	scalar map[string]string // value of each scalar parameter
	spans  []SecretSpan
}

// note returns a callback for word.fill that records where a secret
// parameter's value went: element index of the field in ("argv", "env",
// "stdin"), offset being where the word starts in that element.
func (f *filling) note(in string, index, offset int) func(param string, start, end int) {
	return func(param string, start, end int) {
		if p := f.tool.params[param]; p != nil && p.Secret {
			f.spans = append(f.spans, SecretSpan{In: in, Index: index, Start: offset + start, End: offset + end, Param: param})
		}
	}
}

// argv builds argv: one element per template word, one per item for a
// list placeholder, and refuses any value that would make its word an
// option or a find expression.
func (f *filling) argv(vals map[string][]string) ([]string, error) {
	t := f.tool
	argv := make([]string, 0, len(t.argv))
	for i, w := range t.argv {
		if name, ok := w.listParam(); ok {
			for _, item := range vals[name] {
				if err := t.checkWordValue(i, name, item); err != nil {
					return nil, err
				}
				f.note("argv", len(argv), 0)(name, 0, len(item))
				argv = append(argv, item)
			}
			continue
		}
		s := w.fill(f.scalar, f.note("argv", len(argv), 0))
		if w.leadingParam() {
			if err := t.checkWordValue(i, w[0].param, s); err != nil {
				return nil, err
			}
		}
		argv = append(argv, s)
	}
	if err := CheckLimits(argv); err != nil {
		return nil, &ArgError{Tool: t.Name, Rule: "size", Msg: err.Error()}
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
		allowed := whole && (slices.Contains(p.Flags, s) || slices.Contains(p.Enum, s) ||
			((p.Type == Integer || p.Type == Number) && p.minSet && *p.Min < 0))
		if !allowed {
			msg := "starts with '-', so the program would read it as an option; "
			if len(p.Flags) > 0 {
				msg += "the only options allowed here are " + quoteList(p.Flags)
			} else {
				msg += "this parameter takes no options (to pass text that starts with '-', use a pattern or path form that does not, such as [-]x or ./-x)"
			}
			return &ArgError{Tool: t.Name, Param: param, Rule: "option", Msg: msg}
		}
	}
	if t.findPaths[i] && s != "" && strings.ContainsRune("!(),", rune(s[0])) {
		return &ArgError{Tool: t.Name, Param: param, Rule: "find-operand", Msg: fmt.Sprintf("starts with %q, which find would read as part of its expression, not as a starting point", s[:1])}
	}
	return nil
}

// cwd returns the absolute working directory of the call, which must be
// an existing directory. A secret in it hides the whole directory, since
// making it absolute moves the value's bytes.
func (f *filling) cwd() (string, error) {
	t := f.tool
	if t.cwd == nil {
		return t.workDir, nil
	}
	secret := false
	dir := absFrom(t.workDir, t.cwd.fill(f.scalar, func(param string, _, _ int) {
		secret = secret || t.params[param].Secret
	}))
	if secret {
		f.spans = append(f.spans, SecretSpan{In: "cwd", End: len(dir), Param: t.cwd.params()[0]})
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		param := ""
		if ps := t.cwd.params(); len(ps) > 0 {
			param = ps[0]
		}
		msg := fmt.Sprintf("working directory %s is not an existing directory", dir)
		if secret { // the reason is shown and journaled
			msg = "working directory is not an existing directory (the value is secret and not repeated)"
		}
		return "", clauseError(t.Name, param, "cwd", msg)
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
