package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/assent-sh/assent/queue"
)

// secretMask replaces a secret value wherever a call is shown.
const secretMask = "•••"

// partKind names the piece of a call a text shown comes from; where a
// secret may be masked depends on it.
type partKind uint8

const (
	partPath   partKind = iota // the program's path
	partArgv                   // argv element part.index (0 is the program as written)
	partEnv                    // the value of environment entry part.index
	partStdin                  // the text written to standard input
	partDir                    // the working directory
	partText                   // anything else: arguments, reasons, accounts of an ending
	partRule                   // a rule about to be remembered, as JSON
	partOutput                 // a line of the call's output
)

// part names one piece of a call the console shows.
type part struct {
	kind  partKind
	index int
}

// span is a byte range [start, end) of a text that a secret filled.
type span struct{ start, end int }

// A secretSource says which bytes of what the console shows of a call a
// secret filled. maskSecrets replaces exactly those bytes and nothing
// else; it is the console's one way of hiding a secret, so the source is
// the one thing to change when better knowledge of the secrets arrives.
//
// The console's source is positionSecrets, which reads the byte ranges
// config recorded as it filled each argv element, env value and stdin from
// a secret parameter, so nothing an agent merely repeats is masked; for
// text outside the command it falls back to repeatedSecrets.
type secretSource interface {
	// spans returns the ranges of text, which is p of call c, that a
	// secret filled, in order and not overlapping.
	spans(c *queue.Call, p part, text string) []span
}

// maskSecrets shows text, part p of call c, with every secret its source
// names replaced by secretMask. It runs on raw text, before quoting or
// escaping, so a secret is found whatever those would make of it.
func maskSecrets(src secretSource, c *queue.Call, p part, text string) string {
	if c == nil || len(c.Secrets) == 0 {
		return text
	}
	sp := src.spans(c, p, text)
	if len(sp) == 0 {
		return text
	}
	var b strings.Builder
	at := 0
	for _, s := range sp {
		b.WriteString(text[at:s.start])
		b.WriteString(secretMask)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String()
}

// Bounds of repeatedSecrets.
const (
	// minRepeatedSecret is the shortest secret masked inside other text:
	// a shorter one is masked only where it is the whole of a value, so a
	// secret "e" cannot erase every e of a command.
	minRepeatedSecret = 4
	// minOutputSecret is the shortest secret masked in output, and only
	// where the whole value occurs: output is the child's, and short
	// values occur in it by chance.
	minOutputSecret = 8
)

// repeatedSecrets finds secrets by their values, for want of knowing
// where a secret parameter filled a command. It never masks the program
// (its path and argv[0] come from the tool file, not the agent); a secret
// shorter than minRepeatedSecret characters is masked only where it is a
// whole value; a longer one wherever it occurs. What remains until the
// positions arrive: a secret of four or more characters that the agent
// also repeats in another argument masks that text too (a token
// "evil.example.net" hides the host of a URL argument), and a short one
// embedded in a longer value ("Bearer e") is shown.
type repeatedSecrets struct{}

func (repeatedSecrets) spans(c *queue.Call, p part, text string) []span {
	if p.kind == partPath || (p.kind == partArgv && p.index == 0) {
		return nil
	}
	var out []span
	for _, sec := range c.Secrets {
		n := utf8.RuneCountInString(sec)
		switch {
		case sec == "":
		case p.kind == partOutput:
			if n >= minOutputSecret {
				out = appendAll(out, text, sec)
			}
		case n < minRepeatedSecret:
			if text == sec {
				out = append(out, span{0, len(text)})
			}
		default:
			out = appendAll(out, text, sec)
			if p.kind == partRule {
				// The rule is shown as JSON, where a secret may be escaped.
				if q, err := json.Marshal(sec); err == nil {
					if esc := strings.Trim(string(q), `"`); esc != sec {
						out = appendAll(out, text, esc)
					}
				}
			}
		}
	}
	return mergeSpans(out)
}

// appendAll adds every occurrence of sec in text.
func appendAll(out []span, text, sec string) []span {
	for at := 0; ; {
		i := strings.Index(text[at:], sec)
		if i < 0 {
			return out
		}
		out = append(out, span{at + i, at + i + len(sec)})
		at += i + len(sec)
	}
}

// mergeSpans sorts spans and joins those that overlap.
func mergeSpans(sp []span) []span {
	if len(sp) < 2 {
		return sp
	}
	slices.SortFunc(sp, func(a, b span) int { return a.start - b.start })
	out := sp[:1]
	for _, s := range sp[1:] {
		if last := &out[len(out)-1]; s.start <= last.end {
			last.end = max(last.end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// positionSecrets masks, in the command, exactly the bytes that config
// recorded a secret parameter filled (queue.Call.SecretSpans): a value the
// agent merely repeated elsewhere stays readable, and a one-letter secret
// erases nothing but itself. Text that is not part of the command (the
// arguments of a refused call, a rule about to be saved, reasons) and the
// output have no positions; there repeatedSecrets' rules apply.
type positionSecrets struct{ others repeatedSecrets }

func (s positionSecrets) spans(c *queue.Call, p part, text string) []span {
	var in string
	switch p.kind {
	case partPath:
		return nil
	case partArgv:
		in = "argv"
	case partEnv:
		in = "env"
	case partStdin:
		in = "stdin"
	case partDir:
		in = "cwd"
	default:
		return s.others.spans(c, p, text)
	}
	offset := 0
	if in == "env" && p.index < len(c.Command.Env) {
		// The console shows an env entry's value; the spans count from
		// the start of NAME=value.
		if eq := strings.IndexByte(c.Command.Env[p.index], '='); eq >= 0 {
			offset = eq + 1
		}
	}
	var out []span
	for _, sp := range c.SecretSpans {
		if sp.In != in || (in != "stdin" && in != "cwd" && sp.Index != p.index) {
			continue
		}
		start, end := sp.Start-offset, sp.End-offset
		if start >= 0 && start <= end && end <= len(text) {
			out = append(out, span{start, end})
		}
	}
	slices.SortFunc(out, func(a, b span) int { return a.start - b.start })
	return mergeSpans(out)
}
