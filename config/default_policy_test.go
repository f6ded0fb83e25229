package config

import (
	"strings"
	"testing"
)

func TestSettings_DefaultPolicy(t *testing.T) {
	tests := []struct {
		name, file string
		on, set    bool
		err        string
	}{
		{name: "left out", file: `{"tools": []}`, on: true},
		{name: "off", file: `{"settings": {"default_policy": false}}`, on: false, set: true},
		{name: "on", file: `{"settings": {"default_policy": true}}`, on: true, set: true},
		{name: "not a boolean", file: `{"settings": {"default_policy": "no"}}`, err: `settings.default_policy: want true or false, got a string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := load(t, testOptions(t), "tools.json", tc.file)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Settings.DefaultPolicyOn(); got != tc.on || (c.Settings.DefaultPolicy != nil) != tc.set {
				t.Errorf("DefaultPolicyOn() = %v (set %v), want %v (set %v)", got, c.Settings.DefaultPolicy != nil, tc.on, tc.set)
			}
		})
	}
	_, err := Load(testOptions(t), Source{Name: "a.json", Data: []byte(`{"settings": {"default_policy": false}}`)},
		Source{Name: "b.json", Data: []byte(`{"settings": {"default_policy": true}}`)})
	if err == nil || !strings.Contains(err.Error(), "settings.default_policy is already set by a.json") {
		t.Errorf("set twice: err = %v", err)
	}
}
