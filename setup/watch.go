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
// counts as a change too. The programs of the tools in force are watched
// as well (a replaced one is a change to apply, since exec refuses its
// calls until then), and when a set-up is applied the files are looked for
// again, so a tool file or a program the change brought is watched from
// then on. Once its watches are in place it loads the files once, after
// debounce, since a change made before then sent no event. It returns a
// nil channel when there is nothing to watch (the embedded pack, or tool
// files given as bytes).
func (r *Reloader) Watch(ctx context.Context, debounce time.Duration) (<-chan Change, error) {
	current, applied := r.inForce()
	set, err := r.watchSet(current)
	if err != nil {
		return nil, err
	}
	if !set.any {
		return nil, nil
	}
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching tool files: %w", err)
	}
	for d := range set.dirs {
		if err := w.Add(d); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s: %w", d, err)
		}
	}
	out := make(chan Change)
	go r.watchLoop(ctx, w, set, applied, debounce, out)
	return out, nil
}

// watchSet is what the watcher looks at for one set-up in force.
type watchSet struct {
	names      map[string]bool // files whose change counts, both ends of a symlink
	dirs       map[string]bool // the directories that hold them, watched
	configDirs map[string]bool // where any tool or policy file counts
	any        bool            // there are tool or policy files, or a config directory
}

// watchSet finds the files the next load reads and the programs the tools
// of current run.
func (r *Reloader) watchSet(current Loaded) (watchSet, error) {
	found, err := r.loader.files()
	if err != nil {
		return watchSet{}, err
	}
	files := found.paths()
	s := watchSet{names: map[string]bool{}, dirs: map[string]bool{}, configDirs: map[string]bool{},
		any: len(files) > 0 || len(found.dirs) > 0}
	for _, t := range current.Config.Tools {
		files = append(files, t.Programs()...)
	}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return watchSet{}, fmt.Errorf("watching %s: %w", f, err)
		}
		if s.names[abs] {
			continue // many tools run one program; a name already in is resolved already
		}
		s.names[abs] = true
		s.dirs[filepath.Dir(abs)] = true
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			s.names[real] = true
			s.dirs[filepath.Dir(real)] = true
		}
	}
	// Any tool or policy file in these counts; they are watched when they
	// exist (tools.d may be made later, and is then seen as a change of
	// the config directory).
	for _, d := range found.dirs {
		s.configDirs[d] = true
		if exists(d) {
			s.dirs[d] = true
		}
	}
	return s, nil
}

// counts reports whether an event on name may change what a load gives.
func (s watchSet) counts(name string) bool {
	name = filepath.Clean(name)
	return s.names[name] || (s.configDirs[filepath.Dir(name)] && (isToolFileName(filepath.Base(name)) ||
		filepath.Base(name) == configToolsD))
}

// watchLoop runs the watch until ctx ends. It alone reads and changes set.
func (r *Reloader) watchLoop(ctx context.Context, w *fsnotify.Watcher, set watchSet, applied <-chan struct{},
	debounce time.Duration, out chan<- Change) {
	defer close(out)
	defer w.Close()
	// A file changed between the load in force and these watches sent no
	// event (a watch may begin well after the load: headless mode starts
	// it beside the serving): look once, as after a change is applied.
	timer := time.NewTimer(debounce)
	defer timer.Stop()
	failed := false // the last Change sent was an error
	for {
		select {
		case <-ctx.Done():
			return
		case <-applied:
			// Another set-up is in force: watch what it reads and runs.
			// Directories no longer needed stay watched; their events no
			// longer count. One that cannot be watched any more is left
			// to the reload below, which says why the files do not load.
			var current Loaded
			current, applied = r.inForce()
			if next, err := r.watchSet(current); err == nil {
				for d := range next.dirs {
					_ = w.Add(d)
				}
				set = next
			}
			// A file changed between the load that was applied and these
			// watches sent no event: look once.
			timer.Reset(debounce)
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if set.counts(ev.Name) && !ev.Has(fsnotify.Chmod) {
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
