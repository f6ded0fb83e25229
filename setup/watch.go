package setup

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long the watcher waits after a file event for
// more: one save is often several events (truncate then write; write a
// temporary file, then rename it over the original).
const DefaultDebounce = 100 * time.Millisecond

// Watch reloads the loader's tool and policy files whenever one of them
// changes, after debounce (DefaultDebounce when zero) of quiet, and sends
// what would change on the returned channel, without applying it. A reload
// that changes nothing sends nothing (unless the previous Change was an
// error). The channel is closed when ctx ends. Directories are watched,
// not the files, so an editor's save by rename is seen, and a file that
// is a symlink is watched at both ends.
// In the config directory and its tools.d, a tool or policy file added
// counts as a change too. It returns a nil channel when there is nothing
// to watch (the embedded pack, or tool files given as bytes).
func (r *Reloader) Watch(ctx context.Context, debounce time.Duration) (<-chan Change, error) {
	files := r.loader.Files()
	found, err := r.loader.files()
	if err != nil {
		return nil, err
	}
	if len(files) == 0 && len(found.dirs) == 0 {
		return nil, nil
	}
	files = append(files, Programs(r.Current().Config)...)
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching tool files: %w", err)
	}
	names := map[string]bool{}
	dirs := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s: %w", f, err)
		}
		names[abs] = true
		dirs[filepath.Dir(abs)] = true
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			names[real] = true
			dirs[filepath.Dir(real)] = true
		}
	}
	// Any tool or policy file in these counts; they are watched when they
	// exist (tools.d may be made later, and is then seen as a change of
	// the config directory).
	configDirs := map[string]bool{}
	for _, d := range found.dirs {
		configDirs[d] = true
		if exists(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		if err := w.Add(d); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s: %w", d, err)
		}
	}
	counts := func(name string) bool {
		name = filepath.Clean(name)
		return names[name] || (configDirs[filepath.Dir(name)] && (isToolFileName(filepath.Base(name)) ||
			filepath.Base(name) == configToolsD))
	}
	out := make(chan Change)
	go r.watchLoop(ctx, w, counts, debounce, out)
	return out, nil
}

func (r *Reloader) watchLoop(ctx context.Context, w *fsnotify.Watcher, counts func(string) bool, debounce time.Duration, out chan<- Change) {
	defer close(out)
	defer w.Close()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	failed := false // the last Change sent was an error
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if counts(ev.Name) && !ev.Has(fsnotify.Chmod) {
				timer.Reset(debounce)
			}
			if ev.Has(fsnotify.Create) && filepath.Base(ev.Name) == configToolsD {
				_ = w.Add(ev.Name) // a tools.d made after the watch began
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			// An overflow of the event queue may have hidden a save:
			// reload as if the files changed.
			_ = err
			timer.Reset(debounce)
		case <-timer.C:
			c := r.Reload()
			if c.Err == nil && len(c.Summary) == 0 && !failed {
				continue
			}
			failed = c.Err != nil
			select {
			case out <- c:
			case <-ctx.Done():
				return
			}
		}
	}
}
