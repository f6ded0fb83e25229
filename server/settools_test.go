package server

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/server/servertest"
)

// withNewTool is testTools with one more tool and one rule fewer.
var withNewTool = strings.Replace(strings.Replace(testTools,
	`{"name": "burn"`, `{"name": "fresh", "description": "new", "command": "id"}, {"name": "burn"`, 1),
	`,
    {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}`, "", 1)

// A replaced tool set is offered at once and announced to connected
// clients with tools/list_changed, in both eras.
func TestSetTools_AnnouncesTheChange(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			var n servertest.Notes
			c := f.inProcess(era.Options, &n)
			next := f.LoadTools(withNewTool).Config
			f.s.SetTools(next)
			if f.s.Config() != next {
				t.Fatal("Config() is not the tool set just set")
			}
			servertest.WaitFor(t, "tools/list_changed", func() bool {
				return len(n.Messages(mcp.MethodNotificationToolsListChanged)) > 0
			})
			res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) != 4 {
				t.Fatalf("%d tools after the change, want 4", len(res.Tools))
			}
		})
	}
}

// announcing is a connected session that looks, at the moment mcp-go
// hands it tools/list_changed, at the tool set the server offers then.
type announcing struct {
	s    *Server
	ch   chan mcp.JSONRPCNotification
	seen []*config.Config
}

func (a *announcing) Initialize()       {}
func (a *announcing) Initialized() bool { return true }
func (a *announcing) SessionID() string { return "announcing" }
func (a *announcing) NotificationChannel() chan<- mcp.JSONRPCNotification {
	a.seen = append(a.seen, a.s.Config())
	return a.ch
}

// tools/list_changed goes out only once the new set is offered: a client
// of the initialize era that lists the tools the moment it hears of the
// change is answered from the set, and used to get the old one when it
// asked before the set was stored.
func TestSetTools_AnnouncesOnlyWhatItOffers(t *testing.T) {
	f := newFixture(t, nil)
	a := &announcing{s: f.s, ch: make(chan mcp.JSONRPCNotification, 1)}
	if err := f.s.MCP().RegisterSession(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	defer f.s.MCP().UnregisterSession(context.Background(), a.SessionID())
	next := f.LoadTools(withNewTool).Config
	f.s.SetTools(next)
	if len(a.seen) != 1 {
		t.Fatalf("the session was handed %d notifications, want 1", len(a.seen))
	}
	if a.seen[0] != next {
		t.Error("tools/list_changed went out while the old tool set was offered")
	}
}
