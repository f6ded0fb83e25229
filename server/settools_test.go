package server

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

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
