package policy

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// glob is a compiled wildcard pattern: `*` matches any run of characters
// (including none, and including '/'), `?` matches exactly one character, and
// a backslash makes the next character literal. `[` is refused rather than
// read as a literal, so nobody writes a character class that silently never
// matches; anything richer is written as a regex. Matching is case-sensitive
// and compares the whole string.
//
// Most rule globs are a literal, a prefix or a suffix, so those shapes are
// matched with one string operation; the rest run a two-pointer matcher that
// backtracks only to the last star and so stays linear in practice.
type glob struct {
	text  string     // the pattern as written
	shape globShape  // which matcher applies
	lit   string     // the literal for the one-operation shapes
	elems []globElem // the pattern for globGeneral
}

type globShape uint8

const (
	globExact    globShape = iota // no wildcard: string equality
	globAny                       // "*"
	globPrefix                    // "lit*"
	globSuffix                    // "*lit"
	globContains                  // "*lit*"
	globGeneral                   // anything else
)

// GlobMatcher compiles pattern in the rules' glob dialect (see glob) and
// returns a function reporting whether a whole string matches it, so that a
// filter on the command line reads a glob exactly as a rule would.
func GlobMatcher(pattern string) (func(string) bool, error) {
	g, err := compileGlob(pattern)
	if err != nil {
		return nil, err
	}
	return g.match, nil
}

// globElem is one piece of a general pattern: a star, a single-character
// wildcard, or a literal run.
type globElem struct {
	star bool
	one  bool
	lit  string
}

// compileGlob parses a wildcard pattern.
func compileGlob(text string) (glob, error) {
	var elems []globElem
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			elems = append(elems, globElem{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\\':
			if i+1 == len(text) {
				return glob{}, errors.New("glob ends with a lone backslash")
			}
			i++
			lit.WriteByte(text[i])
		case '*':
			flush()
			if len(elems) == 0 || !elems[len(elems)-1].star {
				elems = append(elems, globElem{star: true})
			}
		case '?':
			flush()
			elems = append(elems, globElem{one: true})
		case '[':
			return glob{}, errors.New(`"[" is not supported in globs (write \[ for a literal bracket, or use {"regex": ...})`)
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return shapeGlob(text, elems), nil
}

// literalGlob is a glob that matches exactly s, whatever characters s holds.
// It is how a value an agent sent becomes a pattern without becoming a
// wildcard.
func literalGlob(s string) glob {
	return glob{text: EscapeGlob(s), shape: globExact, lit: s}
}

// EscapeGlob writes s as a glob of the rules' dialect that matches only s:
// the console writes an agent's value so when it proposes a glob.
func EscapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeGlob is glob text with each escape replaced by the character it
// escapes, wildcards left as they are: every literal run of the glob, as
// the text it matches.
func unescapeGlob(text string) string {
	if !strings.Contains(text, `\`) {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && i+1 < len(text) {
			i++
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// shapeGlob picks the cheapest matcher for a parsed pattern.
func shapeGlob(text string, elems []globElem) glob {
	g := glob{text: text, shape: globGeneral, elems: elems}
	isLit := func(e globElem) bool { return !e.star && !e.one }
	switch {
	case len(elems) == 0:
		g.shape = globExact
	case len(elems) == 1 && elems[0].star:
		g.shape = globAny
	case len(elems) == 1 && isLit(elems[0]):
		g.shape, g.lit = globExact, elems[0].lit
	case len(elems) == 2 && isLit(elems[0]) && elems[1].star:
		g.shape, g.lit = globPrefix, elems[0].lit
	case len(elems) == 2 && elems[0].star && isLit(elems[1]):
		g.shape, g.lit = globSuffix, elems[1].lit
	case len(elems) == 3 && elems[0].star && isLit(elems[1]) && elems[2].star:
		g.shape, g.lit = globContains, elems[1].lit
	}
	if g.shape != globGeneral {
		g.elems = nil
	}
	return g
}

// isLiteral reports whether the glob matches exactly one string.
func (g *glob) isLiteral() bool { return g.shape == globExact }

// match reports whether s matches the whole pattern.
func (g *glob) match(s string) bool {
	switch g.shape {
	case globExact:
		return s == g.lit
	case globAny:
		return true
	case globPrefix:
		return strings.HasPrefix(s, g.lit)
	case globSuffix:
		return strings.HasSuffix(s, g.lit)
	case globContains:
		return strings.Contains(s, g.lit)
	}
	return matchElems(g.elems, s)
}

// matchElems is the classic wildcard matcher: walk pattern and string
// together, remember the last star, and on a mismatch let that star swallow
// one more character. Backtracking further than the last star is never
// needed, because a later star can absorb anything an earlier one could.
func matchElems(elems []globElem, s string) bool {
	pi, si := 0, 0
	starP, starS := -1, 0
	for {
		if pi < len(elems) {
			e := elems[pi]
			switch {
			case e.star:
				if pi == len(elems)-1 {
					return true // a trailing star takes the rest
				}
				starP, starS = pi, si
				pi++
				continue
			case e.one:
				if si < len(s) {
					_, n := utf8.DecodeRuneInString(s[si:])
					si += n
					pi++
					continue
				}
			case strings.HasPrefix(s[si:], e.lit):
				si += len(e.lit)
				pi++
				continue
			}
		} else if si == len(s) {
			return true
		}
		if starP < 0 || starS >= len(s) {
			return false
		}
		_, n := utf8.DecodeRuneInString(s[starS:])
		starS += n
		pi, si = starP+1, starS
	}
}
