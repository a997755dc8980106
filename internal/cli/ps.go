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

const sessionSelector = `SESSION is a full ses_ id, 4 or more of its last characters, @N (the
N-th most recently started: @1 is the newest) or the session's workdir.`

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

func resolveSession(sel string) (running.Entry, error) {
	entries, err := runningSessions()
	if err != nil {
		return running.Entry{}, err
	}
	return running.Resolve(entries, sel)
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

func newPsCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "ps",
		Short: "List the capsules this user is serving over A2A",
		Long: `List the capsules being served over A2A for this user (from
~/.murmur/running), most recent first.

Not yet: "mur run" does not serve agent capsules over A2A in this build,
so it lists no session here; servers started through the A2A server's
Go API (with a running-session directory) are listed.`,
		Args: exactArgs(),
		RunE: func(*cobra.Command, []string) error {
			entries, err := runningSessions()
			if err != nil {
				return err
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
			return w.Flush()
		},
	}
}

func newStopCommand(a *app) *cobra.Command {
	var token string
	cmd := &cobra.Command{
		Use:   "stop SESSION",
		Short: "Stop a served capsule",
		Long:  "Stop a capsule served by \"mur run\": its process gets SIGTERM and ends\nas after Ctrl-C (exit 143). " + sessionSelector,
		Args:  exactArgs("SESSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := resolveSession(args[0])
			if err != nil {
				return err
			}
			// The pid comes from a file; signal it only if that process
			// still serves this session, never a recycled pid.
			id, pid, err := a2a.ServingSession(cmd.Context(), nil, e.URL, tokenOr(token))
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

func newCancelTaskCommand(a *app) *cobra.Command {
	var token string
	cmd := &cobra.Command{
		Use:   "cancel SESSION TASK",
		Short: "Cancel a task of a served capsule",
		Long:  "Cancel TASK (a tsk_ id) of a capsule served by \"mur run\": its turn stops\nand it ends canceled; the capsule goes on serving. " + sessionSelector,
		Args:  exactArgs("SESSION", "TASK"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := resolveSession(args[0])
			if err != nil {
				return err
			}
			state, err := a2a.CancelTask(cmd.Context(), nil, e.URL, tokenOr(token), args[1])
			if err != nil {
				return fmt.Errorf("cancelling %s in %s: %w", args[1], e.SessionID, err)
			}
			fmt.Fprintf(a.stdout, "%s %s\n", args[1], state)
			return nil
		},
	}
	tokenFlag(cmd, &token)
	return cmd
}
