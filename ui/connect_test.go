package ui

import (
	"fmt"
	"strings"
	"testing"
)

// longToken is as long as the tokens assent makes (256 bits, base64url).
const longToken = "Zm9vYmFyYmF6cXV4LWNvbm5lY3QtZGlhbG9nLXRva2Vu"

// TestConnect_TokenNeverBroken opens the connect help at several widths:
// every snippet shows the token and the URL whole, on one line, so that
// copying from the screen gives them back exactly.
func TestConnect_TokenNeverBroken(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {100, 30}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := sizedHarness(t, size[0], size[1]+20, func(o *Options) { o.Token = longToken }) // room for every snippet
			h.press("c")
			scr := h.screen()
			// The header, Claude Code, Cursor and VS Code snippets.
			if n := strings.Count(scr, longToken); n != 4 {
				t.Errorf("the whole token is on screen %d times, want 4:\n%s", n, scr)
			}
			if n := strings.Count(scr, "http://127.0.0.1:7323/mcp"); n < 5 {
				t.Errorf("the whole URL is on screen %d times, want the header's and 5 snippets':\n%s", n, scr)
			}
		})
	}
}

// TestConnect_CopiesTheSnippet copies the chosen snippet with y, through
// the terminal's clipboard (OSC 52), and shows the token file.
func TestConnect_CopiesTheSnippet(t *testing.T) {
	h := sizedHarness(t, 120, 50, func(o *Options) { o.TokenFile = "/home/me/.local/state/assent/token" })
	h.press("c")
	if !strings.Contains(h.screen(), "token file /home/me/.local/state/assent/token") {
		t.Errorf("the token file is not shown:\n%s", h.screen())
	}
	h.press("down", "down", "y")
	want := "claude mcp add -s user --transport http assent http://127.0.0.1:7323/mcp --header 'Authorization: Bearer " + testToken + "'"
	if len(h.clips) != 1 || h.clips[0] != want {
		t.Errorf("clipboard got %q, want %q", h.clips, want)
	}
	if !strings.Contains(h.m.status.text, "copied the Claude Code snippet") || h.m.dialog == nil {
		t.Errorf("status %+v, dialog %T", h.m.status, h.m.dialog)
	}
}
