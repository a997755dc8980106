package wasip2

import (
	"io"
	"os"
	"slices"
	"time"
)

// The descriptor methods of wasi:filesystem/types, with Go errors:
// filesystem_api.go turns them into the error-code results.

// newTimestamp is wasi:filesystem/types.new-timestamp.
type newTimestamp struct {
	Case      uint32 // no-change, now, timestamp
	Timestamp datetime
}

// time is what os.Chtimes takes: the zero time leaves a timestamp
// unchanged.
func (nt newTimestamp) time() time.Time {
	switch nt.Case {
	case 1:
		return time.Now()
	case 2:
		return time.Unix(int64(min(nt.Timestamp.Seconds, 1<<62)), int64(nt.Timestamp.Nanoseconds))
	}
	return time.Time{}
}

// readResult is read's tuple<list<u8>, bool>: the bytes and whether the
// end of the file was reached.
type readResult struct {
	Data []byte
	EOF  bool
}

// dirEntry is wasi:filesystem/types.directory-entry.
type dirEntry struct {
	Type uint32
	Name string
}

// dirStream is a directory listing read when the stream was opened.
type dirStream struct{ entries []os.DirEntry }

// preopenEntry is one of get-directories' pairs.
type preopenEntry struct {
	Dir  *descriptor
	Path string
}

// follows reports whether path-flags ask to follow a final symlink.
func follows(pathFlags uint64) bool { return pathFlags&1 != 0 }

// offset converts a guest file offset to what os.File takes.
func offset(off uint64) int64 { return int64(min(off, 1<<62)) }

func (d *descriptor) needFile() error {
	if d.isDir() {
		return fsErr(fsIsDirectory, "descriptor is a directory")
	}
	return nil
}

func (d *descriptor) needDir() error {
	if !d.isDir() {
		return fsErr(fsNotDirectory, "descriptor is not a directory")
	}
	return nil
}

func (d *descriptor) needFlag(f uint64) error {
	if d.flags&f == 0 {
		return fsErr(fsBadDescriptor, "descriptor was not opened for this access")
	}
	return nil
}

func (d *descriptor) readStream(off uint64) (*inputStream, error) {
	if err := firstErr(d.needFile(), d.needFlag(flagRead)); err != nil {
		return nil, err
	}
	return &inputStream{s: &fileIn{f: d.file.acquire(), off: offset(off)}}, nil
}

// writeStream is write-via-stream, or append-via-stream when appending
// (off is then unused).
func (d *descriptor) writeStream(off uint64, appending bool) (*outputStream, error) {
	if err := firstErr(d.needFile(), d.needFlag(flagWrite)); err != nil {
		return nil, err
	}
	if appending {
		off = 0
	}
	return &outputStream{s: &fileOut{f: d.file.acquire(), off: offset(off), append: appending}}, nil
}

func (d *descriptor) sync() error {
	if d.file != nil {
		return d.file.f.Sync()
	}
	f, err := d.dir.Open(".")
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func (d *descriptor) descType() (uint32, error) {
	fi, err := d.stat()
	if err != nil {
		return 0, err
	}
	return descTypeOf(fi.Mode()), nil
}

func (d *descriptor) setSize(size uint64) error {
	if err := firstErr(d.needFile(), d.needFlag(flagWrite)); err != nil {
		return err
	}
	return d.file.f.Truncate(offset(size))
}

func (d *descriptor) setTimes(atime, mtime newTimestamp) error {
	if err := firstErr(d.mutable(), d.reach(d.name, true, false)); err != nil {
		return err
	}
	return d.dir.Chtimes(d.name, atime.time(), mtime.time())
}

// read reads into the store's scratch buffer (Ctx.scratch).
func (d *descriptor) read(c *Ctx, n, off uint64) (readResult, error) {
	if err := firstErr(d.needFile(), d.needFlag(flagRead)); err != nil {
		return readResult{}, err
	}
	b := c.scratch(clampLen(n))
	k, err := d.file.f.ReadAt(b, offset(off))
	if err != nil && err != io.EOF {
		return readResult{}, err
	}
	return readResult{Data: b[:k], EOF: err == io.EOF}, nil
}

func (d *descriptor) write(b []byte, off uint64) (uint64, error) {
	if err := firstErr(d.needFile(), d.needFlag(flagWrite)); err != nil {
		return 0, err
	}
	n, err := d.file.f.WriteAt(b, offset(off))
	return uint64(n), err
}

func (d *descriptor) readDirectory() (*dirStream, error) {
	if err := d.needDir(); err != nil {
		return nil, err
	}
	f, err := d.dir.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	if d.atRoot {
		entries = slices.DeleteFunc(entries, func(e os.DirEntry) bool { return d.pre.hide.has(e.Name()) })
	}
	return &dirStream{entries: entries}, nil
}

func (d *descriptor) createDirectoryAt(p string) error {
	if err := firstErr(d.needDir(), d.mutable(), d.reach(p, false, true)); err != nil {
		return err
	}
	return d.dir.Mkdir(p, 0o777)
}

func (d *descriptor) statValue() (descStat, error) {
	fi, err := d.stat()
	if err != nil {
		return descStat{}, err
	}
	return statOf(fi), nil
}

func (d *descriptor) statAtValue(pathFlags uint64, p string) (descStat, error) {
	if err := d.needDir(); err != nil {
		return descStat{}, err
	}
	fi, err := d.statAt(follows(pathFlags), p)
	if err != nil {
		return descStat{}, err
	}
	return statOf(fi), nil
}

func (d *descriptor) setTimesAt(pathFlags uint64, p string, atime, mtime newTimestamp) error {
	follow := follows(pathFlags)
	if err := firstErr(d.needDir(), d.mutable(), d.reach(p, follow, false)); err != nil {
		return err
	}
	return setTimesAt(d.dir, p, follow, atime.time(), mtime.time())
}

func (d *descriptor) linkAt(oldFlags uint64, oldp string, nd *descriptor, newp string) error {
	if err := firstErr(d.needDir(), nd.needDir(), d.mutable(), nd.mutable(), d.reach(oldp, false, false), nd.reach(newp, false, true)); err != nil {
		return err
	}
	if follows(oldFlags) {
		return fsErr(fsInvalid, "link-at cannot follow a symbolic link")
	}
	root, op, np, err := sameTree(d, nd, oldp, newp)
	if err == nil {
		// A hard link to a symlink is a symlink at the new place.
		err = d.pre.checkMovedLink(d.dir, oldp, nd.dir, nd.atRoot, newp)
	}
	if err != nil {
		return err
	}
	return root.Link(op, np)
}

func (d *descriptor) openAtValue(pathFlags uint64, p string, oflags, dflags uint64) (*descriptor, error) {
	if err := d.needDir(); err != nil {
		return nil, err
	}
	return d.openAt(follows(pathFlags), p, oflags, dflags)
}

func (d *descriptor) readlinkAt(p string) (string, error) {
	if err := firstErr(d.needDir(), d.reach(p, false, false)); err != nil {
		return "", err
	}
	return d.dir.Readlink(p)
}

func (d *descriptor) removeDirectoryAt(p string) error {
	if err := firstErr(d.needDir(), d.mutable(), d.reach(p, false, false)); err != nil {
		return err
	}
	fi, err := d.dir.Lstat(p)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fsErr(fsNotDirectory, "not a directory")
	}
	return d.dir.Remove(p)
}

func (d *descriptor) renameAt(oldp string, nd *descriptor, newp string) error {
	if err := firstErr(d.needDir(), nd.needDir(), d.mutable(), nd.mutable(), d.reach(oldp, false, false), nd.reach(newp, false, true)); err != nil {
		return err
	}
	root, op, np, err := sameTree(d, nd, oldp, newp)
	if err == nil {
		err = d.pre.checkMovedLink(d.dir, oldp, nd.dir, nd.atRoot, newp)
	}
	if err != nil {
		return err
	}
	return renameIn(root, op, np)
}

func (d *descriptor) symlinkAt(target, p string) error {
	if err := firstErr(d.needDir(), d.mutable(), d.reach(p, false, true)); err != nil {
		return err
	}
	if err := checkLinkTarget(target, d.pre.hide, d.pre.linkAtRoot(d.dir, d.atRoot, p)); err != nil {
		return err
	}
	return d.dir.Symlink(target, p)
}

func (d *descriptor) unlinkFileAt(p string) error {
	if err := firstErr(d.needDir(), d.mutable(), d.reach(p, false, false)); err != nil {
		return err
	}
	fi, err := d.dir.Lstat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fsErr(fsIsDirectory, "is a directory")
	}
	return d.dir.Remove(p)
}

func (d *descriptor) isSameObject(o *descriptor) bool {
	fa, err1 := d.stat()
	fb, err2 := o.stat()
	return err1 == nil && err2 == nil && sameObject(fa, fb)
}

func (d *descriptor) metadataHash() (metaHash, error) {
	fi, err := d.stat()
	if err != nil {
		return metaHash{}, err
	}
	return d.pre.metadataHash(fi), nil
}

func (d *descriptor) metadataHashAt(pathFlags uint64, p string) (metaHash, error) {
	if err := d.needDir(); err != nil {
		return metaHash{}, err
	}
	fi, err := d.statAt(follows(pathFlags), p)
	if err != nil {
		return metaHash{}, err
	}
	return d.pre.metadataHash(fi), nil
}

// next is read-directory-entry: the next entry, none at the end.
func (s *dirStream) next() opt[dirEntry] {
	if len(s.entries) == 0 {
		return none[dirEntry]()
	}
	e := s.entries[0]
	s.entries = s.entries[1:]
	return some(dirEntry{Type: descTypeOf(e.Type()), Name: e.Name()})
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
