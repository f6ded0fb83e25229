package config

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/assent-sh/assent/exec"
)

func TestSplitCommand_Words(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`cat {filename}`, []string{"cat", "{filename}"}},
		{`grep -r {pattern} {path}`, []string{"grep", "-r", "{pattern}", "{path}"}},
		{`date +{format}`, []string{"date", "+{format}"}},
		{`uname -a`, []string{"uname", "-a"}},
		{`ls -la {directory}`, []string{"ls", "-la", "{directory}"}},
		{`find /search/path/ -maxdepth 2 -type f -name "pattern*" -exec grep -l "{pattern}" {} \;`,
			[]string{"find", "/search/path/", "-maxdepth", "2", "-type", "f", "-name", "pattern*", "-exec", "grep", "-l", "{pattern}", "{}", ";"}},
		{`sh -c {command}`, []string{"sh", "-c", "{command}"}},
		{`echo 'a b' "c d" e\ f`, []string{"echo", "a b", "c d", "e f"}},
		{`echo "it's" 'say "hi"'`, []string{"echo", "it's", `say "hi"`}},
		{`echo "\$HOME" '$HOME' \$HOME`, []string{"echo", "$HOME", "$HOME", "$HOME"}},
		{`echo '*' "?" \[x]`, []string{"echo", "*", "?", "[x]"}},
		{`echo '~' a~b`, []string{"echo", "~", "a~b"}},
		{`ls {files...}`, []string{"ls", "{files...}"}},
		{`echo "#" a#b`, []string{"echo", "#", "a#b"}},
		{"ls \\\n -la", []string{"ls", "-la"}},
		{`echo ""`, []string{"echo", ""}},
		{`printf '%s\n' {x}`, []string{"printf", `%s\n`, "{x}"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, err := splitCommand(tt.src)
			if err != nil {
				t.Fatalf("splitCommand: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSplitCommand_RefusesShell(t *testing.T) {
	tests := []struct {
		src    string
		offset int    // byte offset the error points at
		msg    string // part of the message
	}{
		{`ls | grep x`, 3, "pipe"},
		{`ls |& grep x`, 3, "pipe"},
		{`ls; rm -rf /`, 4, "more than one command"},
		{`echo hi;`, 7, `a ';' after the command ends it, as any list operator does; to pass ';' as an argument (find -exec … \;), write \; or ";"`},
		{`echo hi ; `, 8, "a ';' after the command ends it"},
		{`find . -exec grep -l x {} \\;`, 28, "write \\; or"},
		{"ls\nrm -rf /", 3, "more than one command"},
		{`ls && rm x`, 3, "command list"},
		{`ls || rm x`, 3, "command list"},
		{`ls > out`, 3, "redirection \">\""},
		{`ls >> out`, 3, "redirection \">>\""},
		{`cat < in`, 4, "redirection \"<\""},
		{`ls 2>&1`, 3, "redirection"},
		{"cat <<EOF\nx\nEOF", 4, "redirection"},
		{`echo $(id)`, 5, "command substitution"},
		{"echo `id`", 5, "command substitution"},
		{`echo "$(id)"`, 6, "command substitution"},
		{`echo $HOME`, 5, "variable expansion $HOME"},
		{`echo ${HOME}`, 5, "variable expansion"},
		{`echo "$HOME"`, 6, "variable expansion"},
		{`cat <(ls)`, 4, "process substitution"},
		{`echo $((1+1))`, 5, "arithmetic"},
		{`ls *.go`, 3, "unquoted glob character '*'"},
		{`ls a?`, 4, "unquoted glob character '?'"},
		{`ls [ab]`, 3, "unquoted glob character '['"},
		{`ls "a"*`, 6, "glob"},
		{`ls ~`, 3, "tilde"},
		{`ls ~root/x`, 3, "tilde"},
		{`echo {a,b}`, 5, "brace expansion"},
		{`echo x{1..3}`, 6, "brace expansion"},
		{`FOO=1 env`, 0, "variable assignment"},
		{`sleep 1 &`, 0, "background"},
		{`! ls`, 0, "negation"},
		{`ls # comment`, 3, "comment"},
		{`echo $'\x41'`, 5, "ANSI-C quoting"},
		{`echo $"x"`, 5, "locale quoting"},
		{`(ls)`, 0, "compound command"},
		{`{ ls; }`, 0, "compound command"},
		{`if true; then ls; fi`, 0, "compound command"},
		{`for i in a; do ls; done`, 0, "compound command"},
		{`f() { ls; }`, 0, "compound command"},
		{`[[ -f x ]]`, 0, "compound command"},
		{`ls @(a|b)`, 3, "extended glob"},
		{`echo 'unterminated`, 5, "not a simple command"},
		{``, 0, "empty"},
		{`coproc ls`, 0, "compound command"},
		{`time ls`, 0, "compound command"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := splitCommand(tt.src)
			var se *splitError
			if !errors.As(err, &se) {
				t.Fatalf("splitCommand(%q) = %v, want a splitError", tt.src, err)
			}
			if !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("message %q does not mention %q", se.Msg, tt.msg)
			}
			if se.Offset != tt.offset {
				t.Errorf("offset %d, want %d (%q)", se.Offset, tt.offset, se.Msg)
			}
		})
	}
}

func TestSplitWords_ReadsDisplayQuoting(t *testing.T) {
	argv := []string{"grep", "-rn", "--", "TODO\x1b[2K", "a b", "it's", "", "txt\u202eexe", "A=1"}
	var quoted []string
	for _, a := range argv {
		quoted = append(quoted, exec.Quote(a))
	}
	got, err := SplitWords(strings.Join(quoted, " "))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, argv) {
		t.Fatalf("got %q, want %q", got, argv)
	}
	for _, bad := range []string{"ls | sh", "rm $(x)", "a; b", "x > y", "ls *"} {
		if _, err := SplitWords(bad); err == nil {
			t.Errorf("SplitWords(%q) accepted shell syntax", bad)
		}
	}
	if _, err := SplitWords("ls $HOME"); err == nil || !strings.Contains(err.Error(), "at byte 3: variable expansion") {
		t.Errorf("error does not say where: %v", err)
	}
}

// The fast path for plain commands splits exactly as the parser does.
func TestPlainWords_AgreesWithTheParser(t *testing.T) {
	for _, src := range []string{"ls -la {directory}", "date +{format}", "grep -rnI --color=never -e {pattern} -- {path}",
		"find {path} -maxdepth {depth} -type f -name {glob}", "find . -exec grep -l {pattern} {} ;", "uname -a", "a:b@c%d",
		"x=1 ls", "time ls", "ls {a,b}", "ls {1..3}", "ls ../x", "{ ls; }", "ls  two   spaces",
		"export a", "declare -x a", "local a", "readonly a", "typeset a", "nameref a", "let a+1"} {
		fast, ok := plainWords(src)
		parsed, err := parseWords(src, false)
		if ok && (err != nil || !slices.Equal(fast, parsed)) {
			t.Errorf("plainWords(%q) = %q, the parser says %q (%v)", src, fast, parsed, err)
		}
	}
}
