package wasip2

import (
	"context"

	"github.com/mur-go/mur/engine/wit"
)

func (h *host) registerFilesystem() {
	t := h.t
	const iface = "wasi:filesystem/types"
	h.resource(iface, t.descriptor)
	h.resource(iface, t.dirStream)
	h.uses(iface, t.inputStream, t.outputStream, t.ioError)
	h.registerFileMethods()
	h.registerPathMethods()

	def1(h, iface, method("directory-entry-stream", "read-directory-entry"), fn(result(option(t.dirEntry), t.fsErrorCode), self(t.dirStream)), func(ctx context.Context, c *Ctx, s *dirStream) (fsRes[opt[dirEntry]], error) {
		return fsResult(s.next(), nil)
	})
	def1(h, iface, "filesystem-error-code", fn(option(t.fsErrorCode), param("err", borrow(t.ioError))), func(ctx context.Context, c *Ctx, e *ioError) (opt[uint32], error) {
		if code, ok := fsCode(e.err); ok {
			return some(code), nil
		}
		return none[uint32](), nil
	})

	h.uses("wasi:filesystem/preopens", t.descriptor)
	def0(h, "wasi:filesystem/preopens", "get-directories", fn(list(tuple(own(t.descriptor), wit.String))), func(ctx context.Context, c *Ctx) (listOf[preopenEntry], error) {
		out := make(listOf[preopenEntry], len(c.preopens))
		for i, p := range c.preopens {
			out[i] = preopenEntry{Dir: &descriptor{pre: p, dir: p.root, name: ".", path: ".", flags: p.dirFlags(), atRoot: true}, Path: p.guest}
		}
		return out, nil
	})
}

// registerFileMethods defines the descriptor methods that act on the
// descriptor itself; registerPathMethods those that take a path.
func (h *host) registerFileMethods() {
	t := h.t
	const iface = "wasi:filesystem/types"
	dm := func(name string) string { return method("descriptor", name) }
	r := func(ok wit.Type) *wit.Result { return result(ok, t.fsErrorCode) }
	dSelf, off := self(t.descriptor), param("offset", wit.U64)
	def2(h, iface, dm("read-via-stream"), fn(r(own(t.inputStream)), dSelf, off), func(ctx context.Context, c *Ctx, d *descriptor, off uint64) (fsRes[*inputStream], error) {
		return fsResult(d.readStream(off))
	})
	def2(h, iface, dm("write-via-stream"), fn(r(own(t.outputStream)), dSelf, off), func(ctx context.Context, c *Ctx, d *descriptor, off uint64) (fsRes[*outputStream], error) {
		return fsResult(d.writeStream(off, false))
	})
	def1(h, iface, dm("append-via-stream"), fn(r(own(t.outputStream)), dSelf), func(ctx context.Context, c *Ctx, d *descriptor) (fsRes[*outputStream], error) {
		return fsResult(d.writeStream(0, true))
	})
	def4(h, iface, dm("advise"), fn(r(nil), dSelf, off, param("length", wit.U64), param("advice", t.advice)), func(ctx context.Context, c *Ctx, d *descriptor, _, _ uint64, _ uint32) (fsRes[unit], error) {
		// Advice is only a hint; accepting it without acting is correct.
		return fsResult(unit{}, d.needFile())
	})
	for _, name := range []string{"sync-data", "sync"} {
		def1(h, iface, dm(name), fn(r(nil), dSelf), func(ctx context.Context, c *Ctx, d *descriptor) (fsRes[unit], error) {
			return fsResult(unit{}, d.sync())
		})
	}
	def1(h, iface, dm("get-flags"), fn(r(t.descFlags), dSelf), func(ctx context.Context, c *Ctx, d *descriptor) (fsRes[uint64], error) {
		return fsResult(d.flags, nil)
	})
	def1(h, iface, dm("get-type"), fn(r(t.descType), dSelf), func(ctx context.Context, c *Ctx, d *descriptor) (fsRes[uint32], error) {
		return fsResult(d.descType())
	})
	def2(h, iface, dm("set-size"), fn(r(nil), dSelf, param("size", wit.U64)), func(ctx context.Context, c *Ctx, d *descriptor, size uint64) (fsRes[unit], error) {
		return fsResult(unit{}, d.setSize(size))
	})
	def3(h, iface, dm("set-times"), fn(r(nil), dSelf, param("data-access-timestamp", t.newTimestamp), param("data-modification-timestamp", t.newTimestamp)), func(ctx context.Context, c *Ctx, d *descriptor, atime, mtime newTimestamp) (fsRes[unit], error) {
		return fsResult(unit{}, d.setTimes(atime, mtime))
	})
	def3(h, iface, dm("read"), fn(r(tuple(list(wit.U8), wit.Bool)), dSelf, param("length", wit.U64), off), func(ctx context.Context, c *Ctx, d *descriptor, n, off uint64) (fsRes[readResult], error) {
		return fsResult(d.read(c, n, off))
	})
	def3(h, iface, dm("write"), fn(r(wit.U64), dSelf, param("buffer", list(wit.U8)), off), func(ctx context.Context, c *Ctx, d *descriptor, b []byte, off uint64) (fsRes[uint64], error) {
		return fsResult(d.write(b, off))
	})
	def1(h, iface, dm("read-directory"), fn(r(own(t.dirStream)), dSelf), func(ctx context.Context, c *Ctx, d *descriptor) (fsRes[*dirStream], error) {
		return fsResult(d.readDirectory())
	})
	def1(h, iface, dm("stat"), fn(r(t.descStat), dSelf), func(ctx context.Context, c *Ctx, d *descriptor) (fsRes[descStat], error) {
		return fsResult(d.statValue())
	})
	def2(h, iface, dm("is-same-object"), fn(wit.Bool, dSelf, param("other", borrow(t.descriptor))), func(ctx context.Context, c *Ctx, d, o *descriptor) (bool, error) {
		return d.isSameObject(o), nil
	})
	def1(h, iface, dm("metadata-hash"), fn(r(t.metaHash), dSelf), func(ctx context.Context, c *Ctx, d *descriptor) (fsRes[metaHash], error) {
		return fsResult(d.metadataHash())
	})
}

func (h *host) registerPathMethods() {
	t := h.t
	const iface = "wasi:filesystem/types"
	dm := func(name string) string { return method("descriptor", name) }
	r := func(ok wit.Type) *wit.Result { return result(ok, t.fsErrorCode) }
	dSelf, path, flags := self(t.descriptor), param("path", wit.String), param("path-flags", t.pathFlags)
	other := param("new-descriptor", borrow(t.descriptor))
	def2(h, iface, dm("create-directory-at"), fn(r(nil), dSelf, path), func(ctx context.Context, c *Ctx, d *descriptor, p string) (fsRes[unit], error) {
		return fsResult(unit{}, d.createDirectoryAt(p))
	})
	def3(h, iface, dm("stat-at"), fn(r(t.descStat), dSelf, flags, path), func(ctx context.Context, c *Ctx, d *descriptor, pf uint64, p string) (fsRes[descStat], error) {
		return fsResult(d.statAtValue(pf, p))
	})
	def5(h, iface, dm("set-times-at"), fn(r(nil), dSelf, flags, path, param("data-access-timestamp", t.newTimestamp), param("data-modification-timestamp", t.newTimestamp)), func(ctx context.Context, c *Ctx, d *descriptor, pf uint64, p string, atime, mtime newTimestamp) (fsRes[unit], error) {
		return fsResult(unit{}, d.setTimesAt(pf, p, atime, mtime))
	})
	def5(h, iface, dm("link-at"), fn(r(nil), dSelf, param("old-path-flags", t.pathFlags), param("old-path", wit.String), other, param("new-path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, pf uint64, oldp string, nd *descriptor, newp string) (fsRes[unit], error) {
		return fsResult(unit{}, d.linkAt(pf, oldp, nd, newp))
	})
	def5(h, iface, dm("open-at"), fn(r(own(t.descriptor)), dSelf, flags, path, param("open-flags", t.openFlags), param("flags", t.descFlags)), func(ctx context.Context, c *Ctx, d *descriptor, pf uint64, p string, oflags, dflags uint64) (fsRes[*descriptor], error) {
		return fsResult(d.openAtValue(pf, p, oflags, dflags))
	})
	def2(h, iface, dm("readlink-at"), fn(r(wit.String), dSelf, path), func(ctx context.Context, c *Ctx, d *descriptor, p string) (fsRes[string], error) {
		return fsResult(d.readlinkAt(p))
	})
	def2(h, iface, dm("remove-directory-at"), fn(r(nil), dSelf, path), func(ctx context.Context, c *Ctx, d *descriptor, p string) (fsRes[unit], error) {
		return fsResult(unit{}, d.removeDirectoryAt(p))
	})
	def4(h, iface, dm("rename-at"), fn(r(nil), dSelf, param("old-path", wit.String), other, param("new-path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, oldp string, nd *descriptor, newp string) (fsRes[unit], error) {
		return fsResult(unit{}, d.renameAt(oldp, nd, newp))
	})
	def3(h, iface, dm("symlink-at"), fn(r(nil), dSelf, param("old-path", wit.String), param("new-path", wit.String)), func(ctx context.Context, c *Ctx, d *descriptor, target, p string) (fsRes[unit], error) {
		return fsResult(unit{}, d.symlinkAt(target, p))
	})
	def2(h, iface, dm("unlink-file-at"), fn(r(nil), dSelf, path), func(ctx context.Context, c *Ctx, d *descriptor, p string) (fsRes[unit], error) {
		return fsResult(unit{}, d.unlinkFileAt(p))
	})
	def3(h, iface, dm("metadata-hash-at"), fn(r(t.metaHash), dSelf, flags, path), func(ctx context.Context, c *Ctx, d *descriptor, pf uint64, p string) (fsRes[metaHash], error) {
		return fsResult(d.metadataHashAt(pf, p))
	})
}
