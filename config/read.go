package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// fieldError is an error about one field of a tool file, with its position.
func fieldError(n *node, field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	if n == nil {
		return errors.New(msg)
	}
	return fmt.Errorf("%s: %s", n.where(), msg)
}

// checkKeys reports the first key of an object node that is not allowed.
// The error has a copy of what, so that what does not escape: a caller may
// build it on its stack ("params." + name) for every object it checks.
func checkKeys(n *node, what string, allowed ...string) error {
	for _, m := range n.members {
		if !slices.Contains(allowed, m.key) {
			known := slices.Sorted(slices.Values(allowed))
			return fmt.Errorf("%s: unknown key %q in %s (known keys: %s)", n.src.position(m.off), m.key, strings.Clone(what), strings.Join(known, ", "))
		}
	}
	return nil
}

// The readers below turn one node into a Go value, naming the field and the
// position when the node has the wrong type.

func readString(n *node, field string) (string, error) {
	if n.kind != kindString {
		return "", fieldError(n, field, "want a string, got %s", n.kind)
	}
	return n.text, nil
}

func readBool(n *node, field string) (bool, error) {
	if n.kind != kindBool {
		return false, fieldError(n, field, "want true or false, got %s", n.kind)
	}
	return n.bool, nil
}

func readStrings(n *node, field string) ([]string, error) {
	if n.kind != kindArray {
		return nil, fieldError(n, field, "want an array of strings, got %s", n.kind)
	}
	out := make([]string, 0, len(n.items))
	for i, it := range n.items {
		s, err := readString(it, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func readFloat(n *node, field string) (float64, error) {
	if n.kind != kindNumber {
		return 0, fieldError(n, field, "want a number, got %s", n.kind)
	}
	f, err := n.number().Float64()
	if err != nil {
		return 0, fieldError(n, field, "%q is not a usable number", n.text)
	}
	return f, nil
}

func readInt(n *node, field string) (int64, error) {
	if n.kind != kindNumber {
		return 0, fieldError(n, field, "want a whole number, got %s", n.kind)
	}
	i, err := strconv.ParseInt(n.text, 10, 64)
	if err != nil {
		return 0, fieldError(n, field, "want a whole number, got %s", n.text)
	}
	return i, nil
}

// readDuration reads a duration written as a Go duration string ("30s",
// "1m30s") or as a number of milliseconds (30000), the unit the
// system_command seed uses.
func readDuration(n *node, field string) (time.Duration, error) {
	switch n.kind {
	case kindNumber:
		ms, err := readInt(n, field)
		if err != nil || ms <= 0 {
			return 0, fieldError(n, field, "want a positive number of milliseconds or a duration like \"30s\", got %s", n.text)
		}
		return time.Duration(ms) * time.Millisecond, nil
	case kindString:
		d, err := time.ParseDuration(n.text)
		if err != nil || d <= 0 {
			return 0, fieldError(n, field, "want a duration like \"30s\" or \"2m\", got %q", n.text)
		}
		return d, nil
	}
	return 0, fieldError(n, field, "want a duration like \"30s\" or a number of milliseconds, got %s", n.kind)
}

// readSize reads a byte count written as a number or as a string with a
// unit: "64KiB", "1MiB", "1MB", "512B".
func readSize(n *node, field string) (int64, error) {
	bad := func() (int64, error) {
		return 0, fieldError(n, field, "want a positive size like 1048576 or \"1MiB\"")
	}
	switch n.kind {
	case kindNumber:
		v, err := readInt(n, field)
		if err != nil || v <= 0 {
			return bad()
		}
		return v, nil
	case kindString:
		v, ok := parseSize(n.text)
		if !ok {
			return bad()
		}
		return v, nil
	}
	return bad()
}

func parseSize(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
	if i == 0 {
		return 0, false
	}
	num, unit := s, ""
	if i > 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v <= 0 {
		return 0, false
	}
	mult := map[string]int64{
		"": 1, "B": 1,
		"KB": 1000, "MB": 1000 * 1000, "GB": 1000 * 1000 * 1000,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
	}[unit]
	if mult == 0 || v > (1<<62)/mult {
		return 0, false
	}
	return v * mult, true
}
