package wasip2

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// descriptor-flags bits.
const (
	flagRead   = 1 << 0
	flagWrite  = 1 << 1
	flagMutate = 1 << 5
)

// open-flags bits.
const (
	openCreate    = 1 << 0
	openDirectory = 1 << 1
	openExclusive = 1 << 2
	openTruncate  = 1 << 3
)

// preopen is one granted directory. Its os.Root confines every path the
// guest resolves under it: "..", absolute paths and symlinks cannot leave
// it. What os.Root does not cover (hidden entries, links that would lead
// elsewhere once moved, special files, descriptor counts) is refused on
// top; RATIONALE.md "Filesystem confinement" explains the whole.
type preopen struct {
	root     *os.Root
	rootInfo fs.FileInfo // identifies the root among directories the guest opens
	guest    string
	readOnly bool
	hide     hideSet
	fds      *fdBudget // shared by every preopen of the store
	key      [16]byte  // keys metadata hashes, so they don't reveal inode numbers
}

func openPreopen(d DirGrant, fds *fdBudget) (*preopen, error) {
	hide, err := newHideSet(d.Hide)
	if err != nil {
		return nil, fmt.Errorf("granted directory %s: %w", d.Host, err)
	}
	// A FIFO granted by mistake would block os.OpenRoot.
	if fi, err := os.Stat(d.Host); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("granted directory %s is not a directory", d.Host)
	}
	r, err := os.OpenRoot(d.Host)
	if err != nil {
		return nil, fmt.Errorf("opening granted directory %s: %w", d.Host, err)
	}
	fi, err := r.Stat(".")
	if err != nil || !fi.IsDir() {
		r.Close()
		return nil, fmt.Errorf("granted directory %s is not a directory", d.Host)
	}
	p := &preopen{root: r, rootInfo: fi, guest: d.Guest, readOnly: d.ReadOnly, hide: hide, fds: fds}
	copy(p.key[:], fmt.Appendf(nil, "%x", time.Now().UnixNano()))
	return p, nil
}

// descriptor is an open directory or file. A directory has its own
// os.Root (so ".." cannot climb above it, as with capability-based WASI
// hosts); a file remembers the directory and name it was opened by, for the
// calls WASI defines on a descriptor but Go offers only by path.
type descriptor struct {
	pre   *preopen
	dir   *os.Root    // the directory itself, or the one a file was opened in
	file  *sharedFile // nil for a directory
	name  string      // path of a file in dir; "." for a directory
	path  string      // path relative to the preopen, for cross-directory calls
	flags uint64
	owns  bool // dir was opened for this descriptor and closes with it
	// atRoot: dir is the preopen's root, the only directory whose paths
	// can name hidden entries (any other has its own os.Root below it).
	atRoot bool
}

func (d *descriptor) isDir() bool { return d.file == nil }

func (d *descriptor) drop() {
	if d.file != nil {
		d.file.release()
	}
	if d.owns {
		d.dir.Close()
		d.pre.fds.put()
	}
}

// sharedFile is an os.File used by a descriptor and the streams made from
// it; it closes when the last of them is dropped, so a guest that drops the
// descriptor first does not break its streams.
type sharedFile struct {
	f    *os.File
	fds  *fdBudget // gets the descriptor back when f closes
	refs atomic.Int32
	mu   sync.Mutex // serialises appends (seek to end, then write)
}

func newSharedFile(f *os.File, fds *fdBudget) *sharedFile {
	s := &sharedFile{f: f, fds: fds}
	s.refs.Store(1)
	return s
}

func (s *sharedFile) acquire() *sharedFile { s.refs.Add(1); return s }

func (s *sharedFile) release() {
	if s.refs.Add(-1) == 0 {
		s.f.Close()
		s.fds.put()
	}
}

// fileIn reads a file from an offset; files never block.
type fileIn struct {
	alwaysReady
	f   *sharedFile
	off int64
}

func (s *fileIn) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := s.f.f.ReadAt(p, s.off)
	s.off += int64(n)
	if n > 0 {
		return n, nil
	}
	if err == nil {
		err = io.EOF
	}
	return 0, err
}

func (s *fileIn) drop() { s.f.release() }

// fileOut writes a file at an offset, or at its end when appending.
type fileOut struct {
	alwaysReady
	f      *sharedFile
	off    int64
	append bool
}

func (s *fileOut) checkWrite() (int, error) { return maxChunk, nil }

func (s *fileOut) write(b []byte) error {
	if s.append {
		s.f.mu.Lock()
		defer s.f.mu.Unlock()
		fi, err := s.f.f.Stat()
		if err != nil {
			return err
		}
		s.off = fi.Size()
	}
	n, err := s.f.f.WriteAt(b, s.off)
	s.off += int64(n)
	return err
}

func (s *fileOut) flush() error { return nil }
func (s *fileOut) drop()        { s.f.release() }

// checkPath refuses, before touching the filesystem, paths that name
// something outside the directory: absolute ones and ones whose ".."
// climb above it. os.Root would refuse them too; checking first gives one
// error code however the path is spelled.
func checkPath(p string) error {
	if p == "" {
		return fsErr(fsNoEntry, "empty path")
	}
	if strings.HasPrefix(p, "/") {
		return errNotPermitted
	}
	if strings.IndexByte(p, 0) >= 0 {
		return fsErr(fsInvalid, "path contains a NUL byte")
	}
	depth := 0
	for _, part := range strings.Split(p, "/") {
		switch part {
		case "", ".":
		case "..":
			if depth--; depth < 0 {
				return errNotPermitted
			}
		default:
			depth++
		}
	}
	return nil
}

// joinRel is a path relative to the preopen: the descriptor's path and p.
// It is only lexical, and used with the preopen's root, which resolves it
// safely.
func joinRel(base, p string) string {
	if base == "." {
		return p
	}
	return base + "/" + p
}

// descType maps a file mode to descriptor-type.
func descTypeOf(m fs.FileMode) uint32 {
	switch {
	case m.IsRegular():
		return 6
	case m.IsDir():
		return 3
	case m&fs.ModeSymlink != 0:
		return 5
	case m&fs.ModeNamedPipe != 0:
		return 4
	case m&fs.ModeSocket != 0:
		return 7
	case m&fs.ModeCharDevice != 0:
		return 2
	case m&fs.ModeDevice != 0:
		return 1
	}
	return 0
}

// descStat is wasi:filesystem/types.descriptor-stat.
type descStat struct {
	Type                      uint32
	LinkCount                 uint64
	Size                      uint64
	DataAccessTimestamp       opt[datetime]
	DataModificationTimestamp opt[datetime]
	StatusChangeTimestamp     opt[datetime]
}

// statOf converts FileInfo to descriptor-stat.
func statOf(fi fs.FileInfo) descStat {
	_, _, nlink, atime, ctime, ok := sysStat(fi)
	stamp := func(t time.Time) opt[datetime] {
		if t.IsZero() {
			return none[datetime]()
		}
		return some(datetimeOf(t))
	}
	st := descStat{Type: descTypeOf(fi.Mode()), LinkCount: nlink, Size: uint64(max(fi.Size(), 0)), DataModificationTimestamp: stamp(fi.ModTime())}
	if ok {
		st.DataAccessTimestamp, st.StatusChangeTimestamp = stamp(atime), stamp(ctime)
	}
	return st
}

// metaHash is wasi:filesystem/types.metadata-hash-value.
type metaHash struct {
	Lower, Upper uint64
}

// metadataHash identifies a file's inode without revealing it.
func (p *preopen) metadataHash(fi fs.FileInfo) metaHash {
	dev, ino, _, _, _, ok := sysStat(fi)
	h := sha256.New()
	h.Write(p.key[:])
	if ok {
		binary.Write(h, binary.LittleEndian, [2]uint64{dev, ino})
	} else {
		fmt.Fprintf(h, "%s|%d|%d", fi.Name(), fi.Size(), fi.ModTime().UnixNano())
	}
	sum := h.Sum(nil)
	return metaHash{Lower: binary.LittleEndian.Uint64(sum[:8]), Upper: binary.LittleEndian.Uint64(sum[8:16])}
}

// sameObject reports whether two FileInfos are one inode.
func sameObject(a, b fs.FileInfo) bool {
	da, ia, _, _, _, ok1 := sysStat(a)
	db, ib, _, _, _, ok2 := sysStat(b)
	if ok1 && ok2 {
		return da == db && ia == ib
	}
	return os.SameFile(a, b)
}

// stat returns the descriptor's own FileInfo.
func (d *descriptor) stat() (fs.FileInfo, error) {
	if d.file != nil {
		return d.file.f.Stat()
	}
	return d.dir.Stat(".")
}

// statAt stats a path relative to a directory descriptor.
func (d *descriptor) statAt(follow bool, p string) (fs.FileInfo, error) {
	if err := d.reach(p, follow, false); err != nil {
		return nil, err
	}
	if follow {
		return d.dir.Stat(p)
	}
	return d.dir.Lstat(p)
}

// mutable refuses a mutating call on a read-only grant. Whether a
// directory may be changed comes from the grant, not from the flags the
// guest opened it with (preview1 adapters do not always ask for
// mutate-directory).
func (d *descriptor) mutable() error {
	if d.pre.readOnly {
		return errReadOnly
	}
	return nil
}

// dirFlags are the descriptor-flags of a directory in p.
func (p *preopen) dirFlags() uint64 {
	if p.readOnly {
		return flagRead
	}
	return flagRead | flagMutate
}

// reach checks path p of directory d before an operation: it must stay
// inside (checkPath) and, from the preopen's root, must not resolve to or
// through a hidden entry (see hideSet.reachIn for follow and create).
func (d *descriptor) reach(p string, follow, create bool) error {
	if err := checkPath(p); err != nil {
		return err
	}
	if !d.atRoot {
		return nil
	}
	return d.pre.hide.reachIn(d.dir, p, follow, create)
}

// openAt implements open-at on a directory descriptor.
func (d *descriptor) openAt(follow bool, p string, oflags, dflags uint64) (*descriptor, error) {
	if err := d.reach(p, follow, oflags&openCreate != 0); err != nil {
		return nil, err
	}
	wantsWrite := dflags&(flagWrite|flagMutate) != 0 || oflags&(openCreate|openTruncate) != 0
	if wantsWrite {
		if err := d.mutable(); err != nil {
			return nil, err
		}
	}
	if oflags&openDirectory != 0 && oflags&openCreate != 0 {
		return nil, fsErr(fsInvalid, "create and directory together")
	}
	fi, err := d.dir.Lstat(p)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		switch {
		case oflags&(openCreate|openExclusive) == openCreate|openExclusive:
			return nil, fsErr(fsExist, "path exists (a symbolic link)")
		case !follow:
			return nil, fsErr(fsLoop, "path is a symbolic link and symlink-follow is not set")
		}
		fi, err = d.dir.Stat(p)
	}
	if err == nil && fi.IsDir() {
		switch {
		case oflags&(openCreate|openExclusive) == openCreate|openExclusive:
			return nil, fsErr(fsExist, "path exists (a directory)")
		case dflags&flagWrite != 0 || oflags&openTruncate != 0:
			return nil, fsErr(fsIsDirectory, "cannot open a directory for writing")
		}
		return d.openDir(p)
	}
	if err == nil && oflags&openDirectory != 0 {
		return nil, fsErr(fsNotDirectory, "path is not a directory")
	}
	if err == nil && !fi.Mode().IsRegular() {
		return nil, specialFileErr(fi.Mode())
	}
	if err != nil && !(errors.Is(err, fs.ErrNotExist) && oflags&openCreate != 0) {
		return nil, err
	}
	var mode int
	switch {
	case dflags&flagRead != 0 && dflags&flagWrite != 0:
		mode = os.O_RDWR
	case dflags&flagWrite != 0:
		mode = os.O_WRONLY
	default:
		mode = os.O_RDONLY
	}
	if oflags&openCreate != 0 {
		mode |= os.O_CREATE
	}
	if oflags&openExclusive != 0 {
		mode |= os.O_EXCL
	}
	if oflags&openTruncate != 0 {
		mode |= os.O_TRUNC
	}
	f, err := d.openFile(p, mode)
	if err != nil {
		return nil, err
	}
	return &descriptor{pre: d.pre, dir: d.dir, file: newSharedFile(f, d.pre.fds), name: p, path: joinRel(d.path, p), flags: dflags &^ flagMutate, atRoot: d.atRoot}, nil
}

// openDir opens subdirectory p as a descriptor of its own.
func (d *descriptor) openDir(p string) (*descriptor, error) {
	if err := d.pre.fds.take(); err != nil {
		return nil, err
	}
	sub, err := openSubRoot(d.dir, p)
	if err != nil {
		d.pre.fds.put()
		return nil, err
	}
	atRoot := false
	if d.atRoot {
		fi, err := sub.Stat(".")
		atRoot = err != nil || sameObject(fi, d.pre.rootInfo)
	}
	return &descriptor{pre: d.pre, dir: sub, name: ".", path: joinRel(d.path, p), flags: d.pre.dirFlags(), owns: true, atRoot: atRoot}, nil
}

// sameTree returns the root under which two directory descriptors' paths
// can both be resolved: the shared directory when it is one descriptor,
// else their common preopen. Different preopens are different devices as
// far as the guest is concerned.
func sameTree(a, b *descriptor, pa, pb string) (*os.Root, string, string, error) {
	if a.dir == b.dir {
		return a.dir, pa, pb, nil
	}
	if a.pre != b.pre {
		return nil, "", "", fsErr(fsCrossDevice, "the paths are in different granted directories")
	}
	// The descriptors' paths were spelled when they were opened; checking
	// the joined paths again from the root holds even if they moved since.
	ja, jb := joinRel(a.path, pa), joinRel(b.path, pb)
	if err := firstErr(a.pre.hide.reachIn(a.pre.root, ja, false, false), a.pre.hide.reachIn(a.pre.root, jb, false, true)); err != nil {
		return nil, "", "", err
	}
	return a.pre.root, ja, jb, nil
}
