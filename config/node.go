package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// kind is the JSON type of a node.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// node is a JSON value that remembers where it was written, so that every
// error about a tool file can name the file, line and column at fault. Tool
// files come from three syntaxes (JSON array, JSON object, Markdown); all of
// them are turned into nodes and read by the same code.
//
// A file of 200 tools has some 3,000 nodes, so the fields are few and the
// small ones share a word: at the start of a process every fresh page of
// heap costs a page fault.
type node struct {
	src *source
	off int // byte offset of the value in src
	end int // byte offset just past the value (JSON only)

	// text is a string's decoded text or a number as written.
	text    string
	members []member // an object's keys and values, in file order
	items   []*node  // an array's elements

	kind kind
	bool bool
	// literal says the string was a JSON literal, whose escapes move the
	// decoded text's bytes away from where they were written (see
	// offsetIn); a Markdown string sits verbatim at off.
	literal bool
}

// member is one key of an object node and its value.
type member struct {
	key string
	off int // where the key was written
	val *node
}

// source is one tool file's bytes, for turning offsets into line:column.
type source struct {
	name string
	data []byte
	// newlines are the offsets of data's newlines, found at the first
	// position asked: every tool's position is asked, and counting from
	// the start each time made a file of n tools cost n² to load.
	newlines []int
}

// position returns "name:line:col" for a byte offset.
func (s *source) position(off int) string {
	if off < 0 || s.data == nil {
		return s.name
	}
	if off > len(s.data) {
		off = len(s.data)
	}
	if s.newlines == nil {
		s.newlines = make([]int, 0, bytes.Count(s.data, []byte("\n")))
		for i, b := range s.data {
			if b == '\n' {
				s.newlines = append(s.newlines, i)
			}
		}
	}
	before, _ := slices.BinarySearch(s.newlines, off) // the newlines before off
	col := off + 1
	if before > 0 {
		col = off - s.newlines[before-1]
	}
	// Written in one buffer: every tool's position is asked, and the
	// concatenation and its numbers were three allocations.
	var buf [64]byte
	b := append(append(buf[:0], s.name...), ':')
	b = append(strconv.AppendInt(b, int64(before+1), 10), ':')
	return string(strconv.AppendInt(b, int64(col), 10))
}

// where returns the position of the node.
func (n *node) where() string { return n.src.position(n.off) }

// get returns the value of key in an object node, or nil.
func (n *node) get(key string) *node {
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// add appends a member to an object node.
func (n *node) add(key string, off int, val *node) {
	n.members = append(n.members, member{key, off, val})
}

// number returns a number node's text as encoding/json gives it.
func (n *node) number() json.Number { return json.Number(n.text) }

// raw returns the JSON text of the node as written.
func (n *node) raw() []byte { return n.src.data[n.off:n.end] }

// parseJSON reads a whole JSON document into a node tree. Duplicate keys
// are errors: a tool file where the second "command" silently wins is a file
// whose reviewer saw the first.
func parseJSON(src *source) (*node, error) {
	return parseJSONAt(src, 0, len(src.data))
}

// parseJSONAt reads the JSON document in src.data[start:end]; positions
// stay relative to the whole file (Markdown embeds JSON values).
func parseJSONAt(src *source, start, end int) (*node, error) {
	if n, ok := parseValid(src, start, end); ok {
		return n, nil
	}
	return parseDecoded(src, start, end)
}

// parseDecoded is parseJSONAt on encoding/json's decoder, whose errors say
// what is wrong with text parseValid refused.
func parseDecoded(src *source, start, end int) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(src.data[start:end]))
	dec.UseNumber()
	p := &jsonParser{src: src, dec: dec, base: start, end: end}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: unexpected data after the JSON value", src.position(p.skip(p.offset())))
	}
	return n, nil
}

type jsonParser struct {
	src       *source
	dec       *json.Decoder
	base, end int
}

// offset is the decoder's position in the file.
func (p *jsonParser) offset() int { return p.base + int(p.dec.InputOffset()) }

// skip returns the offset of the next token at or after off, past
// whitespace and the separators the decoder consumes silently.
func (p *jsonParser) skip(off int) int {
	for off < p.end && strings.IndexByte(" \t\r\n,:", p.src.data[off]) >= 0 {
		off++
	}
	return off
}

func (p *jsonParser) syntaxError(err error) error {
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Errorf("%s: invalid JSON: %s", p.src.position(p.base+int(se.Offset)), se.Error())
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%s: invalid JSON: unexpected end of input", p.src.position(p.end))
	}
	return fmt.Errorf("%s: invalid JSON: %v", p.src.position(p.offset()), err)
}

func (p *jsonParser) value() (*node, error) {
	start := p.skip(p.offset())
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntaxError(err)
	}
	n := &node{src: p.src, off: start}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			n.kind = kindArray
			for p.dec.More() {
				item, err := p.value()
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, item)
			}
		} else {
			n.kind = kindObject
			for p.dec.More() {
				koff := p.skip(p.offset())
				kt, err := p.dec.Token()
				if err != nil {
					return nil, p.syntaxError(err)
				}
				key := kt.(string)
				if n.get(key) != nil {
					return nil, fmt.Errorf("%s: key %q appears twice in the same object", p.src.position(koff), key)
				}
				v, err := p.value()
				if err != nil {
					return nil, err
				}
				n.add(key, koff, v)
			}
		}
		if _, err := p.dec.Token(); err != nil { // closing delimiter
			return nil, p.syntaxError(err)
		}
	case string:
		n.kind, n.text = kindString, t
	case json.Number:
		n.kind, n.text = kindNumber, string(t)
	case bool:
		n.kind, n.bool = kindBool, t
	case nil:
		n.kind = kindNull
	}
	n.end = p.offset()
	n.literal = n.kind == kindString
	return n, nil
}

// stringOffsets maps each byte of a decoded JSON string literal to the
// offset in the file where it was written, so a column reported by the shell
// parser inside a command points at the right place in the file even when
// the string holds escapes. lit includes the quotes and is valid JSON.
func stringOffsets(lit []byte, base int) []int {
	var m []int
	for i := 1; i < len(lit)-1; {
		width, decoded := 1, 1
		if lit[i] == '\\' {
			width = 2
			if lit[i+1] == 'u' {
				width = 6
				r, _ := strconv.ParseUint(string(lit[i+2:i+6]), 16, 32)
				decoded = utf8.RuneLen(rune(r))
				if utf16.IsSurrogate(rune(r)) {
					decoded = 3 // a lone surrogate decodes to U+FFFD
					if i+12 <= len(lit)-1 && lit[i+6] == '\\' && lit[i+7] == 'u' {
						width, decoded = 12, 4
					}
				}
			}
		}
		for range decoded {
			m = append(m, base+i)
		}
		i += width
	}
	return m
}
