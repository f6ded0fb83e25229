package policy

import "testing"

func TestDecide_ArgvTokens(t *testing.T) {
	tests := []struct {
		name  string
		argv  string // the rule's argv patterns, as JSON
		path  string
		input []string
		want  bool
	}{
		{"exact length", `["rm","-rf","/tmp/*"]`, "/bin/rm", []string{"rm", "-rf", "/tmp/x"}, true},
		// The sudoers pitfall: * must not reach into a further argv element.
		{"star stays in its element", `["rm","-rf","/tmp/*"]`, "/bin/rm", []string{"rm", "-rf", "/tmp/x", "/etc/passwd"}, false},
		{"one element with a space", `["rm","-rf","/tmp/*"]`, "/bin/rm", []string{"rm", "-rf", "/tmp/x /etc/passwd"}, true},
		{"too short", `["rm","-rf","/tmp/*"]`, "/bin/rm", []string{"rm", "-rf"}, false},
		{"rest matches none", `["git","status","**"]`, "/usr/bin/git", []string{"git", "status"}, true},
		{"rest matches many", `["git","status","**"]`, "/usr/bin/git", []string{"git", "status", "-s", "--", "a b"}, true},
		{"rest needs the prefix", `["git","status","**"]`, "/usr/bin/git", []string{"git"}, false},
		{"only rest", `["**"]`, "/bin/true", []string{}, true},
		{"star token is one element", `["rm","*"]`, "/bin/rm", []string{"rm", "a", "b"}, false},
		{"base name matches template name", `["grep","**"]`, "/usr/bin/grep", []string{"grep", "x"}, true},
		{"base name matches written path", `["grep","**"]`, "/usr/bin/grep", []string{"/usr/bin/grep", "x"}, true},
		{"base name glob", `["python3*","**"]`, "/usr/bin/python3.12", []string{"python3.12"}, true},
		{"path pattern matches resolved path", `["/usr/bin/grep","**"]`, "/usr/bin/grep", []string{"grep"}, true},
		{"path pattern refuses other path", `["/usr/bin/grep","**"]`, "/opt/evil/grep", []string{"grep"}, false},
		{"path glob", `["/usr/*/grep","**"]`, "/usr/local/bin/grep", []string{"grep"}, true},
		{"path falls back to argv0", `["/usr/bin/grep"]`, "", []string{"/usr/bin/grep"}, true},
		{"regex token", `["tar",{"regex":"-[a-z]*x[a-z]*"},"**"]`, "/bin/tar", []string{"tar", "-xzf", "a.tgz"}, true},
		{"regex token anchored", `["tar",{"regex":"x"},"**"]`, "/bin/tar", []string{"tar", "-xzf", "a.tgz"}, false},
		{"exact token keeps star literal", `["echo",{"exact":"*"}]`, "/bin/echo", []string{"echo", "anything"}, false},
		{"exact token", `["echo",{"exact":"*"}]`, "/bin/echo", []string{"echo", "*"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPolicy(t, `[{"id":"r","decision":"deny","argv":`+tt.argv+`}]`)
			d := p.Decide(Input{Tool: "t", Path: tt.path, Argv: tt.input})
			if got := d.Action == Deny; got != tt.want {
				t.Errorf("argv %s vs %q (path %q): matched = %v, want %v", tt.argv, tt.input, tt.path, got, tt.want)
			}
		})
	}
}

// When the template's program name and the resolved path's base name differ
// (a link), a deny or ask rule by base name needs either to match, an allow
// rule both.
func TestDecide_ProgramNameReadConservatively(t *testing.T) {
	in := Input{Tool: "py", Path: "/usr/bin/python3.12", Argv: []string{"python3", "-c", "x"}}
	tests := []struct {
		decision string
		pattern  string
		want     Action
	}{
		{"deny", "python3", Deny},
		{"deny", "python3.12", Deny},
		{"ask", "python3", Ask},
		{"allow", "python3", Ask},      // the path's base name is not python3: no match, so no-match ask
		{"allow", "python3*", Allow},   // both names match
		{"allow", "python3.12", Ask},   // argv[0] does not match
		{"allow", "/usr/bin/*", Allow}, // a path pattern looks at Path only
	}
	for _, tt := range tests {
		t.Run(tt.decision+" "+tt.pattern, func(t *testing.T) {
			p := mustPolicy(t, `[{"decision":"`+tt.decision+`","argv":["`+tt.pattern+`","**"]}]`)
			if got := p.Decide(in).Action; got != tt.want {
				t.Errorf("decision = %s, want %s", got, tt.want)
			}
		})
	}
}
