package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/running"
	"github.com/mur-go/mur/internal/remote/a2a"
)

// runningSessions lists the served sessions of this user.
func runningSessions() ([]running.Entry, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("finding the running sessions: %w", err)
	}
	return running.List(running.Dir(home), alive)
}

// alive reports whether pid is a live process (signal 0 delivers nothing).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// tokenFlag is --token. A command line is readable by every local user
// (/proc/<pid>/cmdline), so the help steers to the environment.
func tokenFlag(cmd *cobra.Command, token *string) {
	cmd.Flags().StringVar(token, "token", "", "bearer token; other local users can read a command line, so prefer $MURMUR_A2A_TOKEN, the default")
}

func tokenOr(token string) string {
	if token == "" {
		return os.Getenv("MURMUR_A2A_TOKEN")
	}
	return token
}

const psLong = `List the capsules this user serves over A2A (from ~/.murmur/running), the
most recently started first: the order @N counts in (@1 is the first row).
Below them, the tasks of each that have not ended (submitted, working,
input-required), the most recently updated first; --all adds the ones
that ended (at most the newest 100 of each capsule). With TARGET, only
that capsule.

` + targetHelp + `

Environment:
  MURMUR_A2A_TOKEN  bearer token to send when --token is not given`

func newPsCommand(a *app) *cobra.Command {
	var token string
	var all bool
	cmd := &cobra.Command{
		Use:   "ps [TARGET]",
		Short: "List the capsules this user is serving over A2A and their tasks",
		Long:  psLong,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef(cmd, "unexpected argument %q", args[1])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			entries, err := runningSessions()
			if err != nil {
				return err
			}
			if len(args) == 1 {
				e, err := resolveServed(cmd, args[0])
				if err != nil {
					return err
				}
				entries = []running.Entry{e}
			}
			if len(entries) == 0 {
				fmt.Fprintln(a.stdout, "no running sessions")
				return nil
			}
			w := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "SESSION\tPID\tCAPSULE\tURL\tSTARTED")
			for _, e := range entries {
				fmt.Fprintf(w, "%s\t%d\t%s v%s\t%s\t%s ago\n", e.SessionID, e.PID, e.Name, e.Version, e.URL,
					time.Since(e.Started).Round(time.Second))
			}
			if err := w.Flush(); err != nil {
				return err
			}
			return psTasks(cmd, a, entries, token, all)
		},
	}
	tokenFlag(cmd, &token)
	cmd.Flags().BoolVarP(&all, "all", "a", false, "also list the tasks that ended")
	return cmd
}

// psLimit bounds the tasks listed per capsule.
const psLimit = 100

// psTasks prints the task table of entries. A capsule that cannot be
// asked is reported on stderr and fails the command, after the rest.
func psTasks(cmd *cobra.Command, a *app, entries []running.Entry, token string, all bool) error {
	states := []string{"submitted", "working", "input-required"}
	if all {
		states = nil
	}
	type row struct {
		e running.Entry
		t a2a.TaskInfo
	}
	var rows []row
	var failed []error
	more := map[string]int{}
	for _, e := range entries {
		t := target{url: e.URL, entry: &e}
		err := checkListener(e)
		var tasks []a2a.TaskInfo
		total := 0
		if err == nil {
			tasks, total, err = a2a.ListTasks(cmd.Context(), nil, e.URL, t.token(token), psLimit, states...)
		}
		if err != nil {
			failed = append(failed, fmt.Errorf("listing the tasks of %s (%s): %w", e.SessionID, e.URL, err))
			continue
		}
		for _, task := range tasks {
			rows = append(rows, row{e, task})
		}
		if total > len(tasks) {
			more[e.SessionID] = total - len(tasks)
		}
	}
	if len(rows) > 0 {
		fmt.Fprintln(a.stdout)
		w := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "TASK\tSTATE\tCONTEXT\tSESSION\tCAPSULE\tUPDATED")
		for _, r := range rows {
			updated := "-"
			if !r.t.Updated.IsZero() {
				updated = time.Since(r.t.Updated).Round(time.Second).String() + " ago"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", r.t.ID, r.t.State, r.t.ContextID, shortID(r.e.SessionID), r.e.Name, updated)
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	for _, e := range entries {
		if n := more[e.SessionID]; n > 0 {
			fmt.Fprintf(a.stdout, "(%d older tasks of %s not shown)\n", n, e.SessionID)
		}
	}
	for _, err := range failed {
		fmt.Fprintf(a.stderr, "mur: %v\n", err)
	}
	if len(failed) > 0 {
		return &reportedError{errors.Join(failed...)}
	}
	return nil
}

// shortID is the last 8 characters of a session id, enough to name it
// (a TARGET takes any 4 or more).
func shortID(id string) string {
	if len(id) > 8 {
		return id[len(id)-8:]
	}
	return id
}

const stopLong = `Stop a capsule served by "mur run": its process gets SIGTERM and ends as
after Ctrl-C: its running tasks end canceled, its trace records the run
cancelled, and it exits 143 with no error.

` + targetHelp + `
A URL must be that of a capsule this user serves.`

func newStopCommand(a *app) *cobra.Command {
	var token string
	cmd := &cobra.Command{
		Use:   "stop TARGET",
		Short: "Stop a served capsule",
		Long:  stopLong,
		Args:  exactArgs("TARGET"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := resolveServed(cmd, args[0])
			if err != nil {
				return err
			}
			t := target{url: e.URL, entry: &e}
			// The pid comes from a file; signal it only if that process
			// still serves this session, never a recycled pid.
			id, pid, err := a2a.ServingSession(cmd.Context(), nil, e.URL, t.token(token))
			if err != nil {
				return fmt.Errorf("not stopping %s: %w", e.SessionID, err)
			}
			if id != e.SessionID || pid != e.PID {
				return fmt.Errorf("not stopping %s: %s is now served by session %s (pid %d)", e.SessionID, e.URL, id, pid)
			}
			p, err := os.FindProcess(e.PID)
			if err == nil {
				err = p.Signal(syscall.SIGTERM)
			}
			if err != nil {
				return fmt.Errorf("stopping %s (pid %d): %w", e.SessionID, e.PID, err)
			}
			fmt.Fprintf(a.stdout, "stopping %s (pid %d)\n", e.SessionID, e.PID)
			return nil
		},
	}
	tokenFlag(cmd, &token)
	return cmd
}

const cancelLong = `Cancel a task of a served capsule: its turn and tool calls stop, it ends
canceled, and the capsule goes on serving. TASK is the tsk_ id "mur send"
prints (or "mur ps" lists). Without TARGET, mur asks each capsule this
user serves for the task.

` + targetHelp

func newCancelTaskCommand(a *app) *cobra.Command {
	var token string
	cmd := &cobra.Command{
		Use:   "cancel [TARGET] TASK",
		Short: "Cancel a task of a served capsule",
		Long:  cancelLong,
		Example: `  mur cancel tsk_01a24dbf9d1f746c8f170d87b05a7f25
  mur cancel @1 tsk_01a24dbf9d1f746c8f170d87b05a7f25`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usagef(cmd, "missing TASK")
			case len(args) > 2:
				return usagef(cmd, "unexpected argument %q", args[2])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			task := args[len(args)-1]
			var t target
			var err error
			if len(args) == 2 {
				t, err = resolveTarget(cmd, args[0])
			} else {
				t, err = findTask(cmd, task, token)
			}
			if err != nil {
				return err
			}
			state, err := a2a.CancelTask(cmd.Context(), nil, t.url, t.token(token), task)
			if err != nil {
				return fmt.Errorf("cancelling %s in %s: %w", task, t.name(), err)
			}
			fmt.Fprintf(a.stdout, "%s %s\n", task, state)
			return nil
		},
	}
	tokenFlag(cmd, &token)
	return cmd
}

// findTask is the served capsule that knows task.
func findTask(cmd *cobra.Command, task, token string) (target, error) {
	entries, err := runningSessions()
	if err != nil {
		return target{}, err
	}
	var problems []error
	for _, e := range entries {
		t := target{url: e.URL, entry: &e}
		if err := checkListener(e); err != nil {
			problems = append(problems, err)
			continue
		}
		_, err := a2a.GetTask(cmd.Context(), nil, e.URL, t.token(token), task)
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, a2a.ErrTaskNotFound) {
			problems = append(problems, fmt.Errorf("asking %s: %w", e.SessionID, err))
		}
	}
	err = fmt.Errorf("no capsule you serve has task %s (mur ps lists them; for another agent give its URL: mur cancel URL TASK)", task)
	return target{}, errors.Join(append([]error{err}, problems...)...)
}
