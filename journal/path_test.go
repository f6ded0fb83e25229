package journal

import "testing"

func TestDefaultPath_FollowsXDG(t *testing.T) {
	tests := []struct {
		name, state, home, want string
	}{
		{"XDG_STATE_HOME set", "/xdg/state", "/home/me", "/xdg/state/assent/journal"},
		{"unset", "", "/home/me", "/home/me/.local/state/assent/journal"},
		{"relative is ignored", "rel/state", "/home/me", "/home/me/.local/state/assent/journal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", tt.state)
			t.Setenv("HOME", tt.home)
			got, err := DefaultPath()
			if err != nil || got != tt.want {
				t.Errorf("DefaultPath() = %q, %v; want %q", got, err, tt.want)
			}
			if legacyFile(got) != got+".jsonl" {
				t.Errorf("the old default beside %s is not %s.jsonl", got, got)
			}
		})
	}
}
