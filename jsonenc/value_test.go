package jsonenc

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// encoded is encoding/json's encoding of v, with or without HTML
// escaping, or nil if it refuses v.
func encoded(t testing.TB, v any, html bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if enc.Encode(v) != nil {
		return nil
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var floats = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1.5, 100, 1e20, 1e21, -1e21, 123456789012345678901234.0,
	1e-6, 9.99e-7, 1e-7, 5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64, 1e-10, 1.25e-100, 3.0e+100}

func TestValue_AsEncodingJSON(t *testing.T) {
	values := []any{nil, true, false, "", "<a>&</a>", 0, -7, 1 << 40, []string(nil), []string{}, []string{"a", "<b>"},
		json.Number("100"), json.Number("-1.5e-7"), json.Number(""), []any(nil), []any{}, []any{1.5, "x", nil, []any{true}}, map[string]any(nil), map[string]any{},
		map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "string", "maxLength": 1000},
			"a": map[string]any{"minimum": 1.0, "maximum": 1e3, "default": 100.0, "enum": []string{"x", "y"}}},
			"required": []string{}, "additionalProperties": false, "é": "ü", "<k>": 1}}
	for _, f := range floats {
		values = append(values, f)
	}
	for _, v := range values {
		for _, html := range []bool{false, true} {
			got, ok := Value([]byte("x"), v, html)
			if want := append([]byte("x"), encoded(t, v, html)...); !ok || !bytes.Equal(got, want) {
				t.Errorf("Value(%#v, html %v) = %s, %v; encoding/json %s", v, html, got, ok, want)
			}
		}
	}
}

func TestValue_RefusesWhatItDoesNotWriteAndLeavesTheBufferAsItWas(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), json.Number(" 1"), json.Number("1 "), json.Number("01"), json.Number("1."),
		json.Number("x"), json.Number("-"), json.Number("1e"), json.Number("[1]"), float32(1), int64(1), struct{}{}, map[string]string{},
		[]any{1.0, math.Inf(-1)}, map[string]any{"a": 1.0, "b": []int{1}}} {
		if got, ok := Value([]byte("kept"), v, true); ok || string(got) != "kept" {
			t.Errorf("Value(%#v) = %q, %v; want refused with the buffer as it was", v, got, ok)
		}
	}
}

func TestValue_RefusesACycleAndLeavesDeepNestingToEncodingJSON(t *testing.T) {
	cyclic := map[string]any{"a": 1.0}
	cyclic["self"] = cyclic
	list := []any{nil}
	list[0] = list
	for _, v := range []any{cyclic, list} {
		if got, ok := Value([]byte("kept"), v, true); ok || string(got) != "kept" {
			t.Errorf("Value of a cycle = %q, %v; want refused", got, ok)
		}
	}
	deep := any("x")
	for range maxDepth + 1 {
		deep = []any{deep}
	}
	if _, ok := Value(nil, deep, true); ok {
		t.Error("Value wrote nesting deeper than maxDepth")
	}
	if _, ok := Value(nil, []any{[]any{[]any{"x"}}}, true); !ok {
		t.Error("Value refused shallow nesting")
	}
}

func FuzzValue(f *testing.F) {
	for _, x := range floats {
		f.Add(x, "s", int64(3), true)
	}
	f.Add(1.0, "-0.5e+3", int64(-1), false)
	f.Fuzz(func(t *testing.T, x float64, s string, n int64, html bool) {
		v := map[string]any{s: []any{x, s, int(n), json.Number(s), map[string]any{"n": float64(n), s + "2": []string{s}}}}
		want := encoded(t, v, html)
		got, ok := Value(nil, v, html)
		if ok != (want != nil) || (ok && !bytes.Equal(got, want)) {
			t.Fatalf("Value(%#v) = %s, %v; encoding/json %s", v, got, ok, want)
		}
	})
}
