package wasip2

import (
	"io/fs"
	"syscall"
	"time"
)

// sysStat extracts what FileInfo does not carry portably: identity, link
// count and the three timestamps.
func sysStat(fi fs.FileInfo) (dev, ino, nlink uint64, atime, ctime time.Time, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 1, time.Time{}, time.Time{}, false
	}
	return uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink),
		time.Unix(st.Atim.Unix()), time.Unix(st.Ctim.Unix()), true
}
