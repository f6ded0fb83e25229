package journal

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  string
	}{
		{in: "256MiB", want: 256 << 20},
		{in: "1 GiB", want: 1 << 30},
		{in: "64kib", want: 64 << 10},
		{in: "1048576", want: 1 << 20},
		{in: "1KiB", err: "below the least"},
		{in: "256MB", err: "is not a size"},
		{in: "-5MiB", err: "is not a size"},
		{in: "", err: "is not a size"},
		{in: "9999999999GiB", err: "is not a size"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("ParseSize(%q) = %d, %v; want an error saying %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestOptions_Resolve(t *testing.T) {
	o, err := Options{}.resolve("/j")
	if err != nil || o.MaxSize != DefaultMaxSize || o.SealEvery != DefaultSealEvery ||
		o.SealInterval != DefaultSealInterval || o.KeyPath != "/j/key" {
		t.Errorf("defaults = %+v, %v", o, err)
	}
	if _, err := (Options{MaxSize: -1}).resolve("/j"); err == nil {
		t.Error("a negative max size was accepted")
	}
}
