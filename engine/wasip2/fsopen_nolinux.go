//go:build !linux

package wasip2

import "os"

// openSubRoot opens directory p of dir as an os.Root. Without Linux's
// /proc/self/fd this is os.Root.OpenRoot; openAt has just seen p to be a
// directory, which leaves only a race with a concurrent rename (see
// RATIONALE.md).
func openSubRoot(dir *os.Root, p string) (*os.Root, error) { return dir.OpenRoot(p) }
