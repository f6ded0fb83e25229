package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The remembered-rules file is {"rules": [...]} in the same syntax as any
// rule, indented, so an operator can review and edit it by hand. It only ever
// holds allow rules, and since whoever can write it can allow anything, it is
// created 0600 and refused when group or others may write it.

// ReadRemembered reads the remembered-rules file at path. A missing file
// holds no rules. Every rule in it must be an allow rule.
func ReadRemembered(path string) ([]Rule, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("remembered-rules file: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("remembered-rules file: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return nil, fmt.Errorf("remembered-rules file %s may be written by group or others (mode %#o): run chmod 600 on it", path, perm)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("remembered-rules file %s: %w", path, err)
	}
	rules, err := parseRulesObject(path, data)
	if err != nil {
		return nil, err
	}
	for i := range rules {
		if rules[i].decision != Allow {
			return nil, &RuleError{Source: path, Index: i, ID: rules[i].id, Field: "decision", Err: errNotAllow}
		}
		rules[i].memory = Always
	}
	return rules, nil
}

// writeRemembered replaces the file at path with rules, atomically: the new
// content goes to a temporary file in the same directory, is synced, renamed
// over the old file, and the directory is synced so the rename itself
// survives a crash. Readers see the old file or the new one, never a mix.
func writeRemembered(path string, rules []Rule) error {
	data, err := marshalText(struct {
		Rules []Rule `json:"rules"`
	}{rules}, "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*") // created 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once the rename has happened
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
