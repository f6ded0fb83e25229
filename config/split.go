package config

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// splitError is a shell construct found in a command string. Offset is the
// byte offset in the command string, so the loader can point into the file.
type splitError struct {
	Offset int
	Msg    string
}

func (e *splitError) Error() string { return e.Msg }

// splitCommand turns a command string into argv words exactly once, at load
// time, with a real shell parser, and refuses everything a shell would
// interpret rather than pass through as text. What is left is a plain list
// of words with quotes and backslashes removed; placeholders are still in
// them as text and are parsed afterwards.
//
// Parsing as bash is deliberate: it is the strictest grammar, so constructs
// that only bash knows (process substitution, extended globs, $'...') are
// recognised and refused instead of slipping through as odd literals.
func splitCommand(src string) ([]string, error) {
	return split(src, false)
}

// plainWords splits a command made only of characters no shell treats
// specially, separated by single-byte spaces: letters, digits and
// _ . / : @ % + - { }, and = after the first word. Such a command means the
// same to every parser (no quoting, expansion, operator or comment can be
// in it), so it is split on its spaces without building a syntax tree,
// which is most of what loading a large tool file costs. A ',' or ".."
// (brace expansion), an '=' in the first word (an assignment) and anything
// else go to the parser.
func plainWords(src string) ([]string, bool) {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if !(c == ' ' || c == '=' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("_./:@%+-{}", c) >= 0) {
			return nil, false
		}
	}
	words := strings.Fields(src)
	if len(words) == 0 || strings.Contains(src, "..") || strings.Contains(words[0], "=") {
		return nil, false
	}
	for _, w := range words {
		if w == "{" || w == "}" {
			return nil, false // a group command
		}
	}
	switch words[0] {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
		"do", "done", "in", "function", "time", "coproc",
		"export", "declare", "local", "readonly", "typeset", "nameref", "let":
		return nil, false // a word the parser reads as shell syntax, and refuses with its name
	}
	return words, true
}

// SplitWords reads a command line an operator typed, such as an edit of a
// command shown by the console, into argv words. It takes the same
// quoting as a tool file's command and also $'...', the form the console
// uses to show invisible characters, and refuses everything a shell would
// interpret, naming it and its byte offset.
func SplitWords(src string) ([]string, error) {
	words, err := split(src, true)
	var se *splitError
	if errors.As(err, &se) {
		return nil, fmt.Errorf("at byte %d: %s", se.Offset, se.Msg)
	}
	return words, err
}

func split(src string, ansiC bool) ([]string, error) {
	if words, ok := plainWords(src); ok {
		return words, nil
	}
	return parseWords(src, ansiC)
}

// parseWords splits src with a shell parser, refusing what a shell would
// interpret.
func parseWords(src string, ansiC bool) ([]string, error) {
	parser := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	f, err := parser.Parse(strings.NewReader(src), "")
	if err != nil {
		if pe, ok := err.(syntax.ParseError); ok {
			return nil, &splitError{int(pe.Pos.Offset()), "not a simple command: " + pe.Text}
		}
		return nil, &splitError{0, err.Error()}
	}
	if len(f.Last) > 0 {
		return nil, &splitError{int(f.Last[0].Pos().Offset()), "comment (#...) in the command; a # that is part of an argument must be quoted"}
	}
	switch len(f.Stmts) {
	case 0:
		return nil, &splitError{0, "the command is empty"}
	case 1:
	default:
		return nil, &splitError{int(f.Stmts[1].Pos().Offset()), "more than one command (a ';', '&' or newline separates commands); a tool runs exactly one program"}
	}
	st := f.Stmts[0]
	if err := checkStmt(st); err != nil {
		return nil, err
	}
	if off := int(st.Semicolon.Offset()); st.Semicolon.IsValid() && off < len(src) && src[off] == ';' {
		// A shell ends the command at a bare ';' and drops it: "echo hi;"
		// would load as echo hi, and a find terminator written {} \\; (an
		// escaped backslash, then the operator) as a last word "\\".
		return nil, &splitError{off, `a ';' after the command ends it, as any list operator does; ` +
			`to pass ';' as an argument (find -exec … \;), write \; or ";"`}
	}
	call := st.Cmd.(*syntax.CallExpr)
	argv := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		if err := checkWord(src, w, ansiC); err != nil {
			return nil, err
		}
		fields, err := expand.Fields(nil, w)
		if err != nil || len(fields) != 1 {
			return nil, &splitError{int(w.Pos().Offset()), "word does not expand to exactly one argument"}
		}
		argv = append(argv, fields[0])
	}
	return argv, nil
}

// checkStmt refuses everything about a statement except a plain call.
func checkStmt(st *syntax.Stmt) error {
	at := func(n syntax.Node, what string) error {
		return &splitError{int(n.Pos().Offset()), what}
	}
	switch {
	case len(st.Comments) > 0:
		return &splitError{int(st.Comments[0].Pos().Offset()), "comment (#...) in the command; a # that is part of an argument must be quoted"}
	case st.Background:
		return at(st, "background operator '&'")
	case st.Coprocess:
		return at(st, "coprocess operator '|&'")
	case st.Negated:
		return at(st, "negation '!'")
	case st.Disown:
		return at(st, "disown operator '&|'")
	case len(st.Redirs) > 0:
		return at(st.Redirs[0], fmt.Sprintf("redirection %q; a tool cannot redirect (use the tool's stdin field for input)", st.Redirs[0].Op.String()))
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return at(c.Assigns[0], "variable assignment before the command; use the tool's env field")
		}
		if len(c.Args) == 0 {
			return at(st, "no program to run")
		}
		return nil
	case *syntax.BinaryCmd:
		return &splitError{int(c.OpPos.Offset()), fmt.Sprintf("%s %q; a tool runs exactly one program with no shell", binaryName(c.Op), c.Op.String())}
	case nil:
		return at(st, "no program to run")
	default:
		return at(st, fmt.Sprintf("shell compound command (%s); a tool runs exactly one program with no shell", nodeName(c)))
	}
}

func binaryName(op syntax.BinCmdOperator) string {
	switch op {
	case syntax.Pipe, syntax.PipeAll:
		return "pipe"
	case syntax.AndStmt, syntax.OrStmt:
		return "command list"
	}
	return "operator"
}

func nodeName(n syntax.Node) string {
	return strings.ToLower(strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax."))
}

// checkWord refuses every expansion a shell would perform on a word:
// parameters, command and process substitution, arithmetic, globs, brace
// expansion, tilde and ANSI-C or locale quoting.
func checkWord(src string, w *syntax.Word, ansiC bool) error {
	if err := checkParts(w.Parts, false, ansiC); err != nil {
		return err
	}
	first, _ := w.Parts[0].(*syntax.Lit)
	if first != nil && strings.HasPrefix(first.Value, "~") {
		return &splitError{int(first.Pos().Offset()), "tilde expansion '~'; write the path out or quote the ~"}
	}
	braces := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	syntax.SplitBraces(braces)
	for _, p := range braces.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			// Positions inside a split word are synthetic; point at the
			// first brace of the word as written.
			start, end := int(w.Pos().Offset()), int(w.End().Offset())
			return &splitError{start + max(0, strings.IndexByte(src[start:end], '{')), "brace expansion like {a,b} or {1..3}; placeholders are {name} with a plain name"}
		}
	}
	return nil
}

func checkParts(parts []syntax.WordPart, quoted, ansiC bool) error {
	for _, p := range parts {
		off := int(p.Pos().Offset())
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				continue
			}
			if i := unescapedGlob(p.Value); i >= 0 {
				return &splitError{off + i, fmt.Sprintf("unquoted glob character %q; quote it to pass it literally", p.Value[i])}
			}
		case *syntax.SglQuoted:
			if p.Dollar && !ansiC {
				return &splitError{off, "ANSI-C quoting $'...'; write the command as a JSON array of words instead"}
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return &splitError{off, `locale quoting $"..."`}
			}
			if err := checkParts(p.Parts, true, ansiC); err != nil {
				return err
			}
		case *syntax.ParamExp:
			return &splitError{off, "variable expansion $" + paramName(p) + "; values come from placeholders like {name}, or the tool's env field"}
		case *syntax.CmdSubst:
			return &splitError{off, "command substitution $(...) or `...`"}
		case *syntax.ArithmExp:
			return &splitError{off, "arithmetic expansion $((...))"}
		case *syntax.ProcSubst:
			return &splitError{off, "process substitution <(...) or >(...)"}
		case *syntax.ExtGlob:
			return &splitError{off, "extended glob pattern"}
		default:
			return &splitError{off, "shell expansion " + nodeName(p)}
		}
	}
	return nil
}

func paramName(p *syntax.ParamExp) string {
	if p.Param != nil {
		return p.Param.Value
	}
	return ""
}

// unescapedGlob returns the index of the first glob metacharacter in an
// unquoted literal that is not escaped by a backslash, or -1.
func unescapedGlob(lit string) int {
	for i := 0; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return i
		}
	}
	return -1
}
