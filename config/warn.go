package config

import (
	"fmt"
	"strings"
)

// warnings lists what `assent check` points out about a tool that loads.
func (t *Tool) warnings() []Warning {
	var ws []Warning
	warn := func(format string, args ...any) {
		ws = append(ws, Warning{t.Where, t.Name, fmt.Sprintf(format, args...)})
	}
	if strings.TrimSpace(t.Description) == "" {
		warn("no description: agents see only the tool's name")
	}
	dashdash := -1
	for i, w := range t.argv {
		if w.fixed() && w.literal() == "--" {
			dashdash = i
			break
		}
	}
	for i, w := range t.argv {
		if w.fixed() {
			if m := braceTypo(w.literal()); m != "" {
				warn("argv word %q contains %s, which is literal text, not a placeholder (names are letters, digits and _)", w.literal(), m)
			}
			continue
		}
		if !w.leadingParam() {
			continue
		}
		p := t.params[w[0].param]
		if p.Type != String {
			continue
		}
		// A slot right after a fixed option such as -e or -name is most
		// likely that option's argument, which no program reads as an
		// option itself.
		prev := t.argv[i-1]
		optionArg := prev.fixed() && strings.HasPrefix(prev.literal(), "-") && !strings.Contains(prev.literal(), "=")
		if (dashdash < 0 || i < dashdash) && !optionArg {
			warn("{%s} fills a whole word with no \"--\" before it: assent refuses values starting with '-', but a program that treats other words specially (+format, @file) may still read it as an option; add \"--\" before it if the program supports it", p.Name)
		}
		if t.ReadOnly && len(p.Enum) == 0 && p.pattern == nil {
			warn("read-only tool with a free-text slot {%s}: the default policy runs it without asking, so make sure no value can make it write", p.Name)
		}
	}
	for _, sp := range t.SecondPrograms {
		warn("runs a second program through find: %s", sp)
	}
	for _, name := range t.cwd.params() {
		if t.params[name].Type != Path {
			reach := "read and write"
			if t.ReadOnly {
				reach = "read"
			}
			warn("cwd comes from {%s}, a %s, so it is not confined to a directory and the sandbox lets calls %s everywhere (\"/\"); declare it as type path", name, t.params[name].Type, reach)
		}
	}
	if t.Unconfined {
		warn("\"sandbox\": false: its calls run unconfined, able to read and write whatever assent's user can, network included")
	}
	return ws
}

// braceTypo returns literal text in s that looks like a placeholder whose
// name is not valid, such as {file-name} or {1st}: most likely a mistake.
func braceTypo(s string) string {
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return ""
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return ""
		}
		inner := s[i+1 : i+j]
		wordy := inner != "" && strings.Trim(inner, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
		if wordy && !isName(inner) {
			return s[i : i+j+1]
		}
		s = s[i+1:]
	}
}
