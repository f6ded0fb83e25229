package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Rules are decoded by hand, one member at a time, rather than into tagged
// structs: encoding/json silently accepts null for a string, keeps the last of
// two duplicate keys, and reports type errors without the path an operator
// needs. A rule file is security configuration, so every one of those is an
// error here, and every error carries the field it is about.

// fieldError is an error about one field, with the field's dotted path
// (args.path, except[1].tool, examples.match[0]).
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return fmt.Sprintf("field %q: %v", e.field, e.err) }
func (e *fieldError) Unwrap() error { return e.err }

// inField puts err under field, joining paths when err is already about a
// field inside it.
func inField(field string, err error) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		sep := "."
		if strings.HasPrefix(fe.field, "[") {
			sep = ""
		}
		return &fieldError{field: field + sep + fe.field, err: fe.err}
	}
	return &fieldError{field: field, err: err}
}

// member is one key and its raw value, in the order written.
type member struct {
	key string
	raw json.RawMessage
}

// decodeObject splits a JSON object into its members, refusing duplicate keys
// and anything after the closing brace.
func decodeObject(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := openDelim(dec, '{', raw); err != nil {
		return nil, err
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		for _, m := range out {
			if m.key == key {
				return nil, &fieldError{field: key, err: errors.New("duplicate key")}
			}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key: key, raw: v})
	}
	return out, closeDelim(dec)
}

// decodeArray splits a JSON array into its raw elements.
func decodeArray(raw []byte) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := openDelim(dec, '[', raw); err != nil {
		return nil, err
	}
	var out []json.RawMessage
	for dec.More() {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, closeDelim(dec)
}

// openDelim reads the opening bracket of the value the caller expects.
func openDelim(dec *json.Decoder, want json.Delim, raw []byte) error {
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("empty input")
	}
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		kind := "an object"
		if want == '[' {
			kind = "an array"
		}
		return fmt.Errorf("want %s, got %s", kind, jsonKind(raw))
	}
	return nil
}

// closeDelim reads the closing bracket and checks nothing follows it.
func closeDelim(dec *json.Decoder) error {
	if _, err := dec.Token(); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

// jsonKind names the JSON type of raw for error messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// decodeString decodes a JSON string and nothing else (not null).
func decodeString(raw []byte) (string, error) {
	var s string
	if jsonKind(raw) != "a string" {
		return "", fmt.Errorf("want a string, got %s", jsonKind(raw))
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", err
	}
	return s, nil
}

// decodeBool decodes a JSON boolean and nothing else.
func decodeBool(raw []byte) (bool, error) {
	var b bool
	if jsonKind(raw) != "a boolean" {
		return false, fmt.Errorf("want true or false, got %s", jsonKind(raw))
	}
	err := json.Unmarshal(raw, &b)
	return b, err
}

// decodeStrings decodes a string, or an array of strings, into a list.
func decodeStrings(raw []byte) ([]string, error) {
	if jsonKind(raw) == "a string" {
		s, err := decodeString(raw)
		return []string{s}, err
	}
	if jsonKind(raw) != "an array" {
		return nil, fmt.Errorf("want a string or an array of strings, got %s", jsonKind(raw))
	}
	items, err := decodeArray(raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		s, err := decodeString(it)
		if err != nil {
			return nil, inField(fmt.Sprintf("[%d]", i), err)
		}
		out = append(out, s)
	}
	return out, nil
}

// marshalText writes v as JSON with '<', '>' and '&' left as they are:
// rules are read by people, and "a&b" is clearer than "a\u0026b". indent
// "" gives one line.
func marshalText(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// compactJSON is raw without insignificant whitespace, for showing a value
// back to the operator in an error or a listing.
func compactJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
