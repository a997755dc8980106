package wasip2

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// fsOp is a descriptor method body: it returns the ok payload or an error
// that becomes the method's error-code.
type fsOp func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error)

func (h *host) registerFilesystem() {
	t := h.t
	const iface = "wasi:filesystem/types"
	h.resource(iface, t.descriptor)
	h.resource(iface, t.dirStream)
	h.uses(iface, t.inputStream, t.outputStream, t.ioError)
	h.uses("wasi:filesystem/preopens", t.descriptor)
	dSelf := self(t.descriptor)
	res0 := func(ok wit.Type) *wit.Result { return result(ok, t.fsErrorCode) }

	// method defines a descriptor method whose result is result<_, error-code>.
	method := func(name string, typ *wit.Func, op fsOp) {
		h.method(iface, "descriptor", name, typ, func(ctx context.Context, c *Ctx, a []any) (any, error) {
			d, err := res[*descriptor](c, a[0])
			if err != nil {
				return nil, err
			}
			v, err := op(ctx, c, d, a)
			var limit *component.LimitError
			if errors.As(err, &limit) {
				return nil, err // ends the call: the store went over a limit
			}
			if err != nil {
				return fsResult(err), nil
			}
			return wit.Ok(v), nil
		})
	}
	needFile := func(d *descriptor) error {
		if d.isDir() {
			return fsErr(fsIsDirectory, "descriptor is a directory")
		}
		return nil
	}
	needDir := func(d *descriptor) error {
		if !d.isDir() {
			return fsErr(fsNotDirectory, "descriptor is not a directory")
		}
		return nil
	}
	needFlag := func(d *descriptor, f uint64) error {
		if d.flags&f == 0 {
			return fsErr(fsBadDescriptor, "descriptor was not opened for this access")
		}
		return nil
	}
	str := func(v any) string { s, _ := v.(string); return s }
	u64 := func(v any) uint64 { n, _ := v.(uint64); return n }
	follow := func(v any) bool { return u64(v)&1 != 0 }

	method("read-via-stream", fn(res0(own(t.inputStream)), dSelf, param("offset", wit.U64)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needFile(d); err != nil {
			return nil, err
		}
		if err := needFlag(d, flagRead); err != nil {
			return nil, err
		}
		return c.newRes(t.inputStream, &inputStream{s: &fileIn{f: d.file.acquire(), off: int64(min(u64(a[1]), 1<<62))}}), nil
	})
	writeStream := func(appending bool) fsOp {
		return func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
			if err := needFile(d); err != nil {
				return nil, err
			}
			if err := needFlag(d, flagWrite); err != nil {
				return nil, err
			}
			var off int64
			if !appending {
				off = int64(min(u64(a[1]), 1<<62))
			}
			return c.newRes(t.outputStream, &outputStream{s: &fileOut{f: d.file.acquire(), off: off, append: appending}}), nil
		}
	}
	method("write-via-stream", fn(res0(own(t.outputStream)), dSelf, param("offset", wit.U64)), writeStream(false))
	method("append-via-stream", fn(res0(own(t.outputStream)), dSelf), writeStream(true))
	method("advise", fn(res0(nil), dSelf, param("offset", wit.U64), param("length", wit.U64), param("advice", t.advice)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		// Advice is only a hint; accepting it without acting is correct.
		return nil, needFile(d)
	})
	syncOp := func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if d.file != nil {
			return nil, d.file.f.Sync()
		}
		f, err := d.dir.Open(".")
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return nil, f.Sync()
	}
	method("sync-data", fn(res0(nil), dSelf), syncOp)
	method("sync", fn(res0(nil), dSelf), syncOp)
	method("get-flags", fn(res0(t.descFlags), dSelf), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		return d.flags, nil
	})
	method("get-type", fn(res0(t.descType), dSelf), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		fi, err := d.stat()
		if err != nil {
			return nil, err
		}
		return descTypeOf(fi.Mode()), nil
	})
	method("set-size", fn(res0(nil), dSelf, param("size", wit.U64)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needFile(d); err != nil {
			return nil, err
		}
		if err := needFlag(d, flagWrite); err != nil {
			return nil, err
		}
		return nil, d.file.f.Truncate(int64(min(u64(a[1]), 1<<62)))
	})
	method("set-times", fn(res0(nil), dSelf, param("data-access-timestamp", t.newTimestamp), param("data-modification-timestamp", t.newTimestamp)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := d.mutable(); err != nil {
			return nil, err
		}
		if err := d.reach(d.name, true, false); err != nil {
			return nil, err
		}
		return nil, d.dir.Chtimes(d.name, newTime(a[1]), newTime(a[2]))
	})
	method("read", fn(res0(tuple(list(wit.U8), wit.Bool)), dSelf, param("length", wit.U64), param("offset", wit.U64)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needFile(d); err != nil {
			return nil, err
		}
		if err := needFlag(d, flagRead); err != nil {
			return nil, err
		}
		b := c.scratch(int(min(u64(a[1]), maxChunk)))
		n, err := d.file.f.ReadAt(b, int64(min(u64(a[2]), 1<<62)))
		if err != nil && err != io.EOF {
			return nil, err
		}
		return []any{b[:n], err == io.EOF}, nil
	})
	method("write", fn(res0(wit.U64), dSelf, param("buffer", list(wit.U8)), param("offset", wit.U64)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needFile(d); err != nil {
			return nil, err
		}
		if err := needFlag(d, flagWrite); err != nil {
			return nil, err
		}
		b, _ := a[1].([]byte)
		n, err := d.file.f.WriteAt(b, int64(min(u64(a[2]), 1<<62)))
		if err != nil {
			return nil, err
		}
		return uint64(n), nil
	})
	method("read-directory", fn(res0(own(t.dirStream)), dSelf), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needDir(d); err != nil {
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
		return c.newRes(t.dirStream, &dirStream{entries: entries}), nil
	})
	method("create-directory-at", fn(res0(nil), dSelf, param("path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		p := str(a[1])
		if err := firstErr(needDir(d), d.mutable(), d.reach(p, false, true)); err != nil {
			return nil, err
		}
		return nil, d.dir.Mkdir(p, 0o777)
	})
	method("stat", fn(res0(t.descStat), dSelf), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		fi, err := d.stat()
		if err != nil {
			return nil, err
		}
		return statValue(fi), nil
	})
	method("stat-at", fn(res0(t.descStat), dSelf, param("path-flags", t.pathFlags), param("path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needDir(d); err != nil {
			return nil, err
		}
		fi, err := d.statAt(follow(a[1]), str(a[2]))
		if err != nil {
			return nil, err
		}
		return statValue(fi), nil
	})
	method("set-times-at", fn(res0(nil), dSelf, param("path-flags", t.pathFlags), param("path", wit.String), param("data-access-timestamp", t.newTimestamp), param("data-modification-timestamp", t.newTimestamp)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		p := str(a[2])
		if err := firstErr(needDir(d), d.mutable(), d.reach(p, follow(a[1]), false)); err != nil {
			return nil, err
		}
		return nil, setTimesAt(d.dir, p, follow(a[1]), newTime(a[3]), newTime(a[4]))
	})
	method("link-at", fn(res0(nil), dSelf, param("old-path-flags", t.pathFlags), param("old-path", wit.String), param("new-descriptor", borrow(t.descriptor)), param("new-path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		nd, err := res[*descriptor](c, a[3])
		if err != nil {
			return nil, err
		}
		oldp, newp := str(a[2]), str(a[4])
		if err := firstErr(needDir(d), needDir(nd), d.mutable(), nd.mutable(), d.reach(oldp, false, false), nd.reach(newp, false, true)); err != nil {
			return nil, err
		}
		if follow(a[1]) {
			return nil, fsErr(fsInvalid, "link-at cannot follow a symbolic link")
		}
		root, op, np, err := sameTree(d, nd, oldp, newp)
		if err == nil {
			// A hard link to a symlink is a symlink at the new place.
			err = d.pre.checkMovedLink(d.dir, oldp, nd.dir, nd.atRoot, newp)
		}
		if err != nil {
			return nil, err
		}
		return nil, root.Link(op, np)
	})
	method("open-at", fn(res0(own(t.descriptor)), dSelf, param("path-flags", t.pathFlags), param("path", wit.String), param("open-flags", t.openFlags), param("flags", t.descFlags)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needDir(d); err != nil {
			return nil, err
		}
		nd, err := d.openAt(follow(a[1]), str(a[2]), u64(a[3]), u64(a[4]))
		if err != nil {
			return nil, err
		}
		return c.newRes(t.descriptor, nd), nil
	})
	method("readlink-at", fn(res0(wit.String), dSelf, param("path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		p := str(a[1])
		if err := firstErr(needDir(d), d.reach(p, false, false)); err != nil {
			return nil, err
		}
		return d.dir.Readlink(p)
	})
	method("remove-directory-at", fn(res0(nil), dSelf, param("path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		p := str(a[1])
		if err := firstErr(needDir(d), d.mutable(), d.reach(p, false, false)); err != nil {
			return nil, err
		}
		fi, err := d.dir.Lstat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, fsErr(fsNotDirectory, "not a directory")
		}
		return nil, d.dir.Remove(p)
	})
	method("rename-at", fn(res0(nil), dSelf, param("old-path", wit.String), param("new-descriptor", borrow(t.descriptor)), param("new-path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		nd, err := res[*descriptor](c, a[2])
		if err != nil {
			return nil, err
		}
		oldp, newp := str(a[1]), str(a[3])
		if err := firstErr(needDir(d), needDir(nd), d.mutable(), nd.mutable(), d.reach(oldp, false, false), nd.reach(newp, false, true)); err != nil {
			return nil, err
		}
		root, op, np, err := sameTree(d, nd, oldp, newp)
		if err == nil {
			err = d.pre.checkMovedLink(d.dir, oldp, nd.dir, nd.atRoot, newp)
		}
		if err != nil {
			return nil, err
		}
		return nil, renameIn(root, op, np)
	})
	method("symlink-at", fn(res0(nil), dSelf, param("old-path", wit.String), param("new-path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		target, p := str(a[1]), str(a[2])
		if err := firstErr(needDir(d), d.mutable(), d.reach(p, false, true)); err != nil {
			return nil, err
		}
		if err := checkLinkTarget(target, d.pre.hide, d.pre.linkAtRoot(d.dir, d.atRoot, p)); err != nil {
			return nil, err
		}
		return nil, d.dir.Symlink(target, p)
	})
	method("unlink-file-at", fn(res0(nil), dSelf, param("path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		p := str(a[1])
		if err := firstErr(needDir(d), d.mutable(), d.reach(p, false, false)); err != nil {
			return nil, err
		}
		fi, err := d.dir.Lstat(p)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() {
			return nil, fsErr(fsIsDirectory, "is a directory")
		}
		return nil, d.dir.Remove(p)
	})
	h.method(iface, "descriptor", "is-same-object", fn(wit.Bool, dSelf, param("other", borrow(t.descriptor))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		d, err := res[*descriptor](c, a[0])
		if err != nil {
			return nil, err
		}
		o, err := res[*descriptor](c, a[1])
		if err != nil {
			return nil, err
		}
		fa, err1 := d.stat()
		fb, err2 := o.stat()
		return err1 == nil && err2 == nil && sameObject(fa, fb), nil
	})
	method("metadata-hash", fn(res0(t.metaHash), dSelf), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		fi, err := d.stat()
		if err != nil {
			return nil, err
		}
		return d.pre.metadataHash(fi), nil
	})
	method("metadata-hash-at", fn(res0(t.metaHash), dSelf, param("path-flags", t.pathFlags), param("path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, a []any) (any, error) {
		if err := needDir(d); err != nil {
			return nil, err
		}
		fi, err := d.statAt(follow(a[1]), str(a[2]))
		if err != nil {
			return nil, err
		}
		return d.pre.metadataHash(fi), nil
	})

	h.method(iface, "directory-entry-stream", "read-directory-entry", fn(res0(option(t.dirEntry)), self(t.dirStream)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		s, err := res[*dirStream](c, a[0])
		if err != nil {
			return nil, err
		}
		if len(s.entries) == 0 {
			return wit.Ok(wit.None()), nil
		}
		e := s.entries[0]
		s.entries = s.entries[1:]
		return wit.Ok(wit.Some([]any{descTypeOf(e.Type()), e.Name()})), nil
	})
	h.fn(iface, "filesystem-error-code", fn(option(t.fsErrorCode), param("err", borrow(t.ioError))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		e, err := res[*ioError](c, a[0])
		if err != nil {
			return nil, err
		}
		if code, ok := fsCode(e.err); ok {
			return wit.Some(code), nil
		}
		return wit.None(), nil
	})

	h.fn("wasi:filesystem/preopens", "get-directories", fn(list(tuple(own(t.descriptor), wit.String))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		out := make([]any, len(c.preopens))
		for i, p := range c.preopens {
			d := &descriptor{pre: p, dir: p.root, name: ".", path: ".", flags: p.dirFlags(), atRoot: true}
			out[i] = []any{c.newRes(t.descriptor, d), p.guest}
		}
		return out, nil
	})
}

// dirStream is a directory listing read when the stream was opened.
type dirStream struct{ entries []os.DirEntry }

// newTime converts new-timestamp to what os.Chtimes takes: the zero time
// leaves a timestamp unchanged.
func newTime(v any) time.Time {
	nt, _ := v.(wit.VariantValue)
	switch nt.Case {
	case 1:
		return time.Now()
	case 2:
		dt, _ := nt.Value.([]any)
		if len(dt) == 2 {
			s, _ := dt[0].(uint64)
			ns, _ := dt[1].(uint32)
			return time.Unix(int64(min(s, 1<<62)), int64(ns))
		}
	}
	return time.Time{}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
