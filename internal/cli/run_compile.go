package cli

import (
	"fmt"
	"io"
	"time"
)

// compileNoticeAfter is how long a compile runs before mur run says why
// it waits: a component found in the compilation cache loads well within
// it, a cold one takes seconds.
const compileNoticeAfter = 500 * time.Millisecond

// compileNotice is session.Options.OnCompile for mur run: a compile that
// outlasts compileNoticeAfter gets one line on w naming the component,
// so a first run after --no-compile, a cleared cache or a mur upgrade
// does not look hung. after is time.AfterFunc (tests pass their own).
func compileNotice(w io.Writer, after func(time.Duration, func()) *time.Timer) func(string) func() {
	return func(what string) func() {
		t := after(compileNoticeAfter, func() {
			fmt.Fprintf(w, "compiling %s for this machine (not in the compilation cache yet: 'mur install' compiles what it installs; later runs load it)\n", what)
		})
		return func() { t.Stop() }
	}
}
