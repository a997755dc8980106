package wasip2

import (
	"fmt"
	"io/fs"
	"os"
)

// specialFileErr refuses to open a FIFO, socket or device: opening or
// reading one can block the host thread indefinitely (a FIFO with no
// writer), where no deadline can interrupt it, and none is a file a tool
// needs.
func specialFileErr(m fs.FileMode) error {
	kind := "special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m&fs.ModeCharDevice != 0:
		kind = "character device"
	case m&fs.ModeDevice != 0:
		kind = "block device"
	}
	return fsErr(fsUnsupported, fmt.Sprintf("the path is a %s: only regular files and directories can be opened", kind))
}

// openFile opens regular file p of d under the store's descriptor budget.
// The open itself cannot block (openNoBlock): the path may have become a
// FIFO since openAt looked at it, and then the check after the open
// refuses it.
func (d *descriptor) openFile(p string, mode int) (*os.File, error) {
	if err := d.pre.fds.take(); err != nil {
		return nil, err
	}
	f, err := d.dir.OpenFile(p, mode|openNoBlock, 0o666)
	if err != nil {
		d.pre.fds.put()
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = specialFileErr(fi.Mode())
	}
	if err == nil {
		err = clearNonblock(f)
	}
	if err != nil {
		f.Close()
		d.pre.fds.put()
		return nil, err
	}
	return f, nil
}
