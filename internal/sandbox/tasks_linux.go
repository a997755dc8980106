package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
)

// liveTasks counts the threads of every process owned by this uid, which
// is what RLIMIT_NPROC counts on Linux; 0 if /proc cannot be read.
func liveTasks() uint64 {
	uid := uint32(os.Getuid())
	procs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return 0
	}
	var n uint64
	for _, p := range procs {
		var st syscall.Stat_t
		if syscall.Stat(p, &st) != nil || st.Uid != uid {
			continue
		}
		if tasks, err := os.ReadDir(filepath.Join(p, "task")); err == nil {
			n += uint64(len(tasks))
		}
	}
	return n
}
