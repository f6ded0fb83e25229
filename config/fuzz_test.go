package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assent-sh/assent/exec"
)

// FuzzSplitCommand checks that splitting a command string never panics,
// and that the words it yields, when clean, read back identically after
// display quoting: what check and the console show is what was split.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{`ls -la {directory}`, `date +{format}`, `grep -r "{pattern}" {path}`,
		`find / -name "a*" -exec grep -l "{p}" {} \;`, `echo 'a b' "c" d\ e`, `ls | sh`, `a $(b)`, `x ~ *`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if fast, ok := plainWords(src); ok {
			parsed, err := parseWords(src, false)
			if err != nil || !slices.Equal(fast, parsed) {
				t.Fatalf("plain words %q, the parser %q (%v)", fast, parsed, err)
			}
		}
		words, err := splitCommand(src)
		if err != nil {
			var se *splitError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("error %v has no usable position", err)
			}
			return
		}
		if len(words) == 0 {
			t.Fatal("split yielded no words without an error")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			if textProblem(w, false) != "" {
				return
			}
			quoted[i] = exec.Quote(w)
		}
		again, err := splitCommand(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("quoted form %q of %q does not split: %v", strings.Join(quoted, " "), words, err)
		}
		if strings.Join(again, "\x00") != strings.Join(words, "\x00") {
			t.Fatalf("round trip %q -> %q", words, again)
		}
	})
}

// FuzzExpand checks the expansion invariants on arbitrary values: the argv
// has exactly the template's shape (one word per scalar, one per list
// item), a value is never split or merged, and nothing refused by the
// rules gets through.
func FuzzExpand(f *testing.F) {
	opts := testOptions(f)
	c, err := Load(opts, Source{Name: "fuzz.json", Data: []byte(`[{"name": "t",
	  "command": ["uname", "-x", "{a}", "pre{b}post", "--", "{c...}"],
	  "params": {"a": {"flags": ["-q"]}, "b": {"secret": true}, "c": {"required": false}}}]`)})
	if err != nil {
		f.Fatal(err)
	}
	tool := c.Tool("t")
	for _, s := range [][4]string{{"x", "y", "z", "w"}, {"-q", "", "-rf", "ok"}, {"a\nb", "\x1b", "\u202e", "\x00"}, {"--fil=x", "-", "a b", "$(id)"}} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, a, b, c1, c2 string) {
		cmd, err := tool.Expand(map[string]any{"a": a, "b": b, "c": []any{c1, c2}})
		bad := func(s string) bool { return textProblem(s, false) != "" }
		refusable := bad(a) || bad(b) || bad(c1) || bad(c2) ||
			(strings.HasPrefix(a, "-") && a != "-q") || strings.HasPrefix(c1, "-") || strings.HasPrefix(c2, "-")
		if err != nil {
			var ae *ArgError
			if !errors.As(err, &ae) {
				t.Fatalf("non-ArgError %T: %v", err, err)
			}
			if !refusable && ae.Rule != "length" && ae.Rule != "size" {
				t.Fatalf("clean values refused: %v", err)
			}
			return
		}
		if refusable {
			t.Fatalf("refusable values accepted: %q", cmd.Argv)
		}
		want := []string{"uname", "-x", a, "pre" + b + "post", "--", c1, c2}
		if strings.Join(cmd.Argv, "\x00") != strings.Join(want, "\x00") || len(cmd.Argv) != len(want) {
			t.Fatalf("argv %q, want %q", cmd.Argv, want)
		}
		// The secret b is masked where it went, and nowhere else, however
		// often the other values repeat it.
		e, _ := tool.Prepare(map[string]any{"a": a, "b": b, "c": []any{c1, c2}})
		want[3] = "pre\x00post"
		if masked := e.Masked("\x00"); strings.Join(masked.Argv, "\x01") != strings.Join(want, "\x01") {
			t.Fatalf("masked argv %q, want %q", masked.Argv, want)
		}
	})
}

// FuzzLoad checks that no tool file, however broken, panics the loader,
// and that any tool that loads has a clean, non-empty template and its
// input schema as the document's.
func FuzzLoad(f *testing.F) {
	f.Add("t.json", `[{"name": "a", "command": "ls {x}"}]`)
	f.Add("t.json", `{"tools": [{"name": "a", "command": ["ls", "{x...}"], "params": {"x": {"type": "path"}}}], "rules": []}`)
	f.Add("t.md", "## a\n\ndesc\n\n```\nls {x}\n```\n\n- read_only: true\n")
	f.Add("t.md", "## a\n\n```json\n[\"ls\"]\n```\n- params: {\"x\": 1}\n")
	f.Add("t.json", `{"settings": {"sandbox": "off"}, "tools": [{"name": "a", "command": "tar -x {f}", "shell": true, "sandbox": {"read": ["."]}, "network": true}]}`)
	opts := testOptions(f)
	f.Fuzz(func(t *testing.T, name, text string) {
		if !strings.HasSuffix(name, ".md") {
			name = "t.json"
		}
		c, err := Load(opts, Source{Name: name, Data: []byte(text)})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		for _, tl := range c.Tools {
			if len(tl.Template) == 0 || tl.Program == "" && tl.system == nil {
				t.Fatalf("tool %q loaded without a program", tl.Name)
			}
			if (tl.ShellReason != "") != tl.Shell {
				t.Fatalf("tool %q: shell %v with reason %q", tl.Name, tl.Shell, tl.ShellReason)
			}
			sb, _ := tl.Sandbox()
			for _, p := range append(sb.Read, sb.Write...) {
				if !filepath.IsAbs(p) {
					t.Fatalf("tool %q: sandbox entry %q is not absolute", tl.Name, p)
				}
			}
			if tl.ReadOnly && len(sb.Write) > 0 {
				t.Fatalf("read-only tool %q may write %q", tl.Name, sb.Write)
			}
			checkSchema(t, tl)
		}
	})
}
