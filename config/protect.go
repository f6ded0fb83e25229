package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Names are not enough to keep assent's own files out of a tool's reach.
// A hard link gives a file a second name inside a write root, and writing
// through that name rewrites the file; a bind mount or a case-insensitive
// file system shows a root under a name that does not start with the
// root's. So files are compared by what the kernel calls them, device and
// inode, as well as by name.

// fileID names a file by device and inode, whatever names it has.
type fileID struct{ dev, ino uint64 }

// fileStat is what the protection checks need to know of a file.
type fileStat struct {
	id    fileID
	links uint64 // how many names (hard links) the file has
	mine  bool   // this process could change or replace it
}

// statPath stats path (following symlinks) for its identity.
func statPath(path string) (fileStat, os.FileInfo, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStat{}, nil, false
	}
	st, ok := statOf(path, fi)
	return st, fi, ok
}

// rootSet is the write roots of a config, with the identity of each root
// directory that exists.
type rootSet struct {
	roots []WritableRoot
	ids   map[fileID]string // root directory by identity
}

func newRootSet(roots []WritableRoot) *rootSet {
	rs := &rootSet{roots: roots, ids: map[fileID]string{}}
	for _, r := range roots {
		if st, _, ok := statPath(r.Dir); ok {
			rs.ids[st.id] = r.Dir
		}
	}
	return rs
}

// under returns the root directory that the absolute, clean path lies
// under, or "": by name, comparing path components, or by identity, when
// the path or a directory above it is a root seen through another name.
func (rs *rootSet) under(p string) string {
	for _, r := range rs.roots {
		if within(p, r.Dir) {
			return r.Dir
		}
	}
	for dir := p; ; dir = filepath.Dir(dir) {
		if st, _, ok := statPath(dir); ok {
			if root, hit := rs.ids[st.id]; hit {
				return root
			}
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// holds returns a root directory that lies under the directory dir, or "".
func (rs *rootSet) holds(dir string) string {
	own, _, ok := statPath(dir)
	for _, r := range rs.roots {
		if within(r.Dir, dir) {
			return r.Dir
		}
		if !ok {
			continue
		}
		for p := r.Dir; ; p = filepath.Dir(p) {
			if st, _, ok := statPath(p); ok && st.id == own.id {
				return r.Dir
			}
			if p == filepath.Dir(p) {
				break
			}
		}
	}
	return ""
}

// writers says which tools may write below root, for messages.
func (rs *rootSet) writers(root string) string {
	var by []string
	for _, r := range rs.roots {
		if r.Dir == root {
			by = append(by, fmt.Sprintf("tool %q (%s)", r.Tool, r.Via))
		}
	}
	return strings.Join(slices.Compact(by), " and ")
}

// maxLinkSearch bounds how many entries the search for other names walks.
const maxLinkSearch = 200_000

// otherName is a second name of a file, found under a write root.
type otherName struct {
	path, root string
}

// findNames walks the write roots for other names of the wanted files (same
// device and inode; own lists each file's known name, which is not
// "other"). A hard link cannot leave its device, so the walk stays on the
// devices the files are on. complete is false when it stopped at
// maxLinkSearch entries. A directory this process cannot read is skipped:
// a tool running as this process cannot read it either.
func (rs *rootSet) findNames(own map[fileID]string) (found map[fileID][]otherName, complete bool) {
	found, complete = map[fileID][]otherName{}, true
	devs := map[uint64]bool{}
	for id := range own {
		devs[id.dev] = true
	}
	seen := 0
	for _, dir := range rs.topDirs() {
		st, _, ok := statPath(dir)
		if !ok || !devs[st.id.dev] {
			continue
		}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if seen++; seen > maxLinkSearch {
				complete = false
				return filepath.SkipAll
			}
			if err != nil {
				return nil
			}
			if !d.IsDir() && !d.Type().IsRegular() {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			st, ok := statOf(p, fi)
			switch {
			case !ok:
			case d.IsDir() && !devs[st.id.dev]:
				return filepath.SkipDir
			case !d.IsDir() && own[st.id] != "" && own[st.id] != p:
				found[st.id] = append(found[st.id], otherName{path: p, root: dir})
			}
			return nil
		})
	}
	return found, complete
}

// topDirs lists the root directories that lie under no other root, so
// that no part of the tree is walked twice.
func (rs *rootSet) topDirs() []string {
	var dirs []string
	for _, r := range rs.roots {
		if !slices.Contains(dirs, r.Dir) {
			dirs = append(dirs, r.Dir)
		}
	}
	return slices.DeleteFunc(slices.Clone(dirs), func(d string) bool {
		return slices.ContainsFunc(dirs, func(o string) bool { return o != d && within(d, o) })
	})
}

// otherNames looks under the write roots for the other names of the files
// that have several, and refuses: a protected file in any case, since
// writing any of its names rewrites it; a program when another of its
// names lies under a write root, or when the search could not finish.
func (pr *protection) otherNames() {
	if len(pr.multi) == 0 {
		return
	}
	own := map[fileID]string{}
	for _, m := range pr.multi {
		own[m.id] = m.path
	}
	found, complete := pr.rs.findNames(own)
	for _, m := range pr.multi {
		subject := m.what + " " + m.path
		if m.what == "" {
			subject = fmt.Sprintf("program %s of tool %q", m.path, m.tool)
		}
		if names := found[m.id]; len(names) > 0 {
			o := names[0]
			pr.fail("%s has another name, %s, under %s, where %s may write, so an agent could rewrite it through that name; "+
				"remove that link", subject, o.path, o.root, pr.rs.writers(o.root))
			continue
		}
		switch {
		case m.what != "":
			pr.fail("%s has %d names (hard links), and whoever can write any of them rewrites it; "+
				"give it a single name (copy it, then move the copy over it)", subject, m.links)
		case !complete:
			pr.fail("%s has %d names (hard links), and assent could not search every root tools may write for them "+
				"(more than %d entries); give it a single name, or narrow the tools", subject, m.links, maxLinkSearch)
		}
	}
}
