package config

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckLimits_NamesTheLimit(t *testing.T) {
	many := make([]string, MaxArgc+1)
	for i := range many {
		many[i] = "x"
	}
	big := strings.Repeat("a", MaxArgBytes+1)
	wide := make([]string, 10)
	for i := range wide {
		wide[i] = strings.Repeat("b", 110<<10)
	}
	tests := []struct {
		name  string
		argv  []string
		limit string
		index int
		msg   string
	}{
		{"fits", []string{"ls", "-la", strings.Repeat("c", MaxArgBytes)}, "", 0, ""},
		{"too many", many, "argument count", -1, "the command line would exceed the limit of 4096 arguments (it has 4097)"},
		{"one too long", []string{"echo", "ok", big}, "argument size", 2, "argument 2 would be 131072 bytes, over the limit of 131071 bytes per argument"},
		{"all too long", wide, "command-line size", -1, "the command line would exceed the limit of 1048576 bytes (it has 1126410)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckLimits(tt.argv)
			if tt.limit == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *SizeError
			if !errors.As(err, &se) || se.Limit != tt.limit || se.Index != tt.index || err.Error() != tt.msg {
				t.Fatalf("CheckLimits = %#v (%v), want limit %q index %d: %q", se, err, tt.limit, tt.index, tt.msg)
			}
		})
	}
}
