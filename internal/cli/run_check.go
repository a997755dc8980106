package cli

import (
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/serve/a2a"
	runsession "github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

// check refuses a command line `mur run` cannot take (exit 2) before the
// manifest is read and anything is staged: every flag's value, the
// --workdir, and the --task, which it reads (taskText) into taskText.
func (o *runOptions) check(cmd *cobra.Command) error {
	if o.quiet && o.json {
		return fmt.Errorf("--quiet and --json both decide what stdout holds; give one of them")
	}
	if o.quiet && o.progress {
		return fmt.Errorf("--quiet turns the progress off and --progress turns it on; give one of them")
	}
	if o.maxTaskBytes <= 0 {
		return fmt.Errorf("--max-task-bytes must be a number of bytes above 0; got %d", o.maxTaskBytes)
	}
	if err := policy.ContainmentFlag(o.containment); err != nil {
		return err
	}
	for _, name := range []string{"lifecycle-task-acceptance", "lifecycle-after-task", "bind"} {
		if f := cmd.Flags().Lookup(name); f.Changed && f.Value.String() == "" {
			return fmt.Errorf("--%s needs a value; leave it out for the default", name)
		}
	}
	if err := checkBind(o.bind); err != nil {
		return err
	}
	if err := o.serve().Check(); err != nil {
		return err
	}
	if o.workdir != "" {
		if err := stage.CheckWorkdir(o.workdir); err != nil {
			return err
		}
	}
	text, err := taskText(o.task, o.maxTaskBytes)
	if err != nil {
		return err
	}
	o.taskText = text
	return nil
}

// serve is the flags' part of the run's A2A settings.
func (o *runOptions) serve() runsession.ServeOptions {
	return runsession.ServeOptions{Bind: o.bind, TaskAcceptance: o.acceptance, AfterTask: o.afterTask,
		Token: os.Getenv(a2a.TokenEnv), InsecureNoToken: o.insecureNoToken}
}

// checkBind refuses a --bind that is no address to listen on: an IP
// address or a host name, without a port.
func checkBind(bind string) error {
	if bind == "" || net.ParseIP(bind) != nil {
		return nil
	}
	if strings.Contains(bind, ":") {
		return fmt.Errorf("--bind %s: give the address alone (the port is network.internal_port, or any free one)", bind)
	}
	for _, r := range bind {
		if !(r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return fmt.Errorf("--bind %s: not an IP address or a host name", bind)
		}
	}
	return nil
}
