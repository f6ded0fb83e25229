package config

import (
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// parseValid reads the JSON value in src.data[start:end] into nodes, with
// the nodes and positions parseJSONAt's decoder gives, at a fraction of
// its cost (a tool file of 200 tools spent a third of its load in the
// decoder's tokens). It reads only text json.Valid accepts, so it never
// has to judge a syntax, and it reports false for invalid text and for a
// duplicate key, leaving parseJSONAt to say what is wrong.
func parseValid(src *source, start, end int) (*node, bool) {
	if !json.Valid(src.data[start:end]) {
		return nil, false
	}
	p := &validParser{src: src, data: src.data[:end], i: start}
	return p.value()
}

type validParser struct {
	src  *source
	data []byte
	i    int // offset in the file
	// pairs and items stack the members and elements of the objects and
	// arrays being read, innermost last; each copies its own out, to its
	// size, at its end, where appending to its node grew it again and
	// again.
	pairs []member
	items []*node
	// The nodes and the slices they keep come from slabs: a file of 200
	// tools has some 3,000 nodes, each an allocation of its own before.
	nodeSlab   slab[node]
	memberSlab slab[member]
	itemSlab   slab[*node]
	keys       map[string]string // the plain keys read, each its own value
}

func (p *validParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value reads one value; text that is valid JSON leaves only duplicate
// keys to refuse.
func (p *validParser) value() (*node, bool) {
	p.space()
	n := &p.nodeSlab.take(1)[0]
	n.src, n.off = p.src, p.i
	switch p.data[p.i] {
	case '{':
		n.kind = kindObject
		if !p.members(n) {
			return nil, false
		}
	case '[':
		n.kind = kindArray
		p.i++
		base := len(p.items)
		for p.space(); p.data[p.i] != ']'; p.space() {
			item, ok := p.value()
			if !ok {
				return nil, false
			}
			p.items = append(p.items, item)
			if p.space(); p.data[p.i] == ',' {
				p.i++
			}
		}
		p.i++
		n.items = popped(&p.items, base, &p.itemSlab)
	case '"':
		n.kind, n.text, n.literal = kindString, p.string(), true
	case 't':
		n.kind, n.bool = kindBool, true
		p.i += len("true")
	case 'f':
		n.kind = kindBool
		p.i += len("false")
	case 'n':
		n.kind = kindNull
		p.i += len("null")
	default:
		n.kind = kindNumber
		start := p.i
		for p.i < len(p.data) && isNumberByte(p.data[p.i]) {
			p.i++
		}
		n.text = string(p.data[start:p.i])
	}
	n.end = p.i
	return n, true
}

// members reads an object's keys and values, from its opening brace.
func (p *validParser) members(n *node) bool {
	p.i++
	base := len(p.pairs)
	for p.space(); p.data[p.i] != '}'; p.space() {
		koff := p.i
		key := p.key()
		if slices.ContainsFunc(p.pairs[base:], func(m member) bool { return m.key == key }) {
			return false
		}
		p.space()
		p.i++ // the colon
		v, ok := p.value()
		if !ok {
			return false
		}
		p.pairs = append(p.pairs, member{key, koff, v})
		if p.space(); p.data[p.i] == ',' {
			p.i++
		}
	}
	p.i++
	n.members = popped(&p.pairs, base, &p.memberSlab)
	return true
}

// popped takes what *stack holds from base up off it, as a slice of its
// own from s (nil when empty, as appending to a node left it).
func popped[E any](stack *[]E, base int, s *slab[E]) []E {
	var out []E
	if len(*stack) > base {
		out = s.take(len(*stack) - base)
		copy(out, (*stack)[base:])
	}
	*stack = (*stack)[:base]
	return out
}

// slab hands out slices of chunks it allocates, each chunk about twice the
// size of the one before up to maxSlabChunk values, so that small
// documents (a Markdown field, often one value) stay small and large ones
// cost a few dozen allocations. A chunk is never grown, so what it handed out stays where it
// is; a slice handed out has no room beyond its length, so appending to it
// copies.
type slab[E any] struct {
	free  []E
	chunk int // the size of the last chunk
}

// maxSlabChunk and the sizes below it are one less than a power of two:
// the runtime puts an 8-byte header before a chunk that holds pointers, and
// 128 nodes and their header took the next size class up, a tenth more.
const maxSlabChunk = 127

// take returns n zero values.
func (s *slab[E]) take(n int) []E {
	if n > len(s.free) {
		s.chunk = min(2*s.chunk+1, maxSlabChunk)
		s.free = make([]E, max(n, s.chunk))
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// key reads an object's key. A tool file writes the same few dozen keys
// again and again, so each plain one is allocated once per document.
func (p *validParser) key() string {
	lit, plain := p.literal()
	if !plain {
		return decoded(lit)
	}
	body := lit[1 : len(lit)-1]
	if k, ok := p.keys[string(body)]; ok {
		return k
	}
	if p.keys == nil {
		p.keys = map[string]string{}
	}
	k := string(body)
	p.keys[k] = k
	return k
}

// string reads a string literal. One without escapes that is valid UTF-8
// is its own text; any other is decoded by encoding/json, so escapes,
// surrogates and invalid bytes come out exactly as the decoder has them.
func (p *validParser) string() string {
	lit, plain := p.literal()
	if plain {
		return string(lit[1 : len(lit)-1])
	}
	return decoded(lit)
}

// literal reads a string literal, quotes included, and says whether it is
// plain: valid UTF-8 without escapes, its own text.
func (p *validParser) literal() (lit []byte, plain bool) {
	start := p.i
	plain = true
	p.i++
	for p.data[p.i] != '"' {
		if p.data[p.i] == '\\' {
			plain = false
			p.i++
		}
		p.i++
	}
	p.i++
	lit = p.data[start:p.i]
	return lit, plain && utf8.Valid(lit[1:len(lit)-1])
}

// decoded is the text of a valid string literal, as encoding/json has it.
func decoded(lit []byte) string {
	var s string
	_ = json.Unmarshal(lit, &s) // valid JSON: it cannot fail
	return s
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
