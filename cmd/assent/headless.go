package main

import (
	"log/slog"

	"github.com/assent-sh/assent/setup"
)

// followChanges reports each change to the tool and policy files, and in
// headless mode applies it only when apply (--watch) is set: otherwise the
// change is logged and the tools and rules in force stay, since an agent
// that could write a tool file could grant itself anything.
func followChanges(changes <-chan setup.Change, apply bool, log *slog.Logger) {
	for c := range changes {
		logChange(log, c)
		if c.Err != nil || len(c.Summary) == 0 {
			continue
		}
		if !apply {
			log.Warn("change not applied: restart assent, or run it with --watch to apply saved changes")
			continue
		}
		if err := c.Apply(); err != nil {
			log.Error("change not applied", "err", err)
			continue
		}
		log.Info("change applied; clients were told the tool list changed")
	}
}

// logChange logs what a change to the tool and policy files is: files
// that do not load, files that match what is in force again, or each line
// of what changed. Headless mode and the console log changes alike.
func logChange(log *slog.Logger, c setup.Change) {
	switch {
	case c.Err != nil:
		log.Error("the changed tool or policy files do not load; the tools and rules in force stay", "err", c.Err)
	case len(c.Summary) == 0:
		log.Info("the tool and policy files load again and match the tools and rules in force")
	}
	for _, line := range c.Summary {
		log.Info("tool or policy files changed", "change", line)
	}
}
