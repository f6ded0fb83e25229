package main

import (
	"fmt"
	"os"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/examples"
)

// loadConfig loads the given tool files, or the embedded default pack when
// there are none, against this process's working directory and PATH.
func loadConfig(files []string) (*config.Config, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	srcs := []config.Source{{Name: examples.DefaultName, Data: examples.DefaultPack()}}
	if len(files) > 0 {
		if srcs, err = config.ReadSources(files...); err != nil {
			return nil, err
		}
	}
	return config.Load(config.Options{WorkDir: wd, PATH: os.Getenv("PATH")}, srcs...)
}
