//go:build !linux

package wasip2

import (
	"io/fs"
	"time"
)

// sysStat: only Linux's Stat_t layout is known here; elsewhere identity
// and access/change times are unavailable.
func sysStat(fi fs.FileInfo) (dev, ino, nlink uint64, atime, ctime time.Time, ok bool) {
	return 0, 0, 1, time.Time{}, time.Time{}, false
}
