package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long the watcher waits after a file event for
// more: one save is often several events (truncate then write; write a
// temporary file, then rename it over the original).
const DefaultDebounce = 100 * time.Millisecond

// WatchOptions configure Watch.
type WatchOptions struct {
	// Files are the tool and policy files to watch.
	Files []string
	// Load reads the files again, with every check made at startup
	// (including that no tool may write to assent's own files).
	Load func() (Loaded, error)
	// Debounce is the quiet time after an event before reloading; default
	// DefaultDebounce.
	Debounce time.Duration
}

// Watch reloads the files whenever one of them changes and sends what
// would change on the returned channel, without applying it. A reload
// that changes nothing sends nothing (unless the previous Change was an
// error). The channel is closed when ctx ends. Directories are watched,
// not the files, so an editor's save by rename is seen, and a file that
// is a symlink is watched at both ends.
func (s *Server) Watch(ctx context.Context, o WatchOptions) (<-chan Change, error) {
	if o.Load == nil {
		return nil, errors.New("server: Watch needs a Load function")
	}
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching tool files: %w", err)
	}
	names := map[string]bool{}
	dirs := map[string]bool{}
	for _, f := range o.Files {
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
	for d := range dirs {
		if err := w.Add(d); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s: %w", d, err)
		}
	}
	out := make(chan Change)
	go s.watchLoop(ctx, w, names, o, out)
	return out, nil
}

func (s *Server) watchLoop(ctx context.Context, w *fsnotify.Watcher, names map[string]bool, o WatchOptions, out chan<- Change) {
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
			if names[filepath.Clean(ev.Name)] && !ev.Has(fsnotify.Chmod) {
				timer.Reset(o.Debounce)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			s.log.Warn("watching tool files", "err", err)
		case <-timer.C:
			c := s.reload(o.Load)
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

// reload loads the files and describes the change, or why they do not
// load.
func (s *Server) reload(load func() (Loaded, error)) Change {
	next, err := load()
	if err != nil {
		return Change{Err: err}
	}
	return s.Diff(next)
}
