package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// fakeResolver is the upstream DNS of the egress tests.
type fakeResolver map[string]string

func (r fakeResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	if ip, ok := r[host]; ok {
		return []net.IPAddr{{IP: net.ParseIP(ip)}}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

// A contained subprocess reaches exactly the network.allow destinations
// (security.md §3.4): an allowed name resolved through the runtime's DNS
// answers and spliced to the host's server, nothing else by name, address
// or port.
func TestEgressAllowsOnlyTheAllowList(t *testing.T) { eachClass(t, egressAllowsOnlyTheAllowList) }

func egressAllowsOnlyTheAllowList(t *testing.T, j jail) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello from upstream"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	eg := &Egress{Rules: []EgressRule{{Host: "allowed.test", Port: uint16(port), HasPort: true}},
		Resolver: fakeResolver{"allowed.test": "127.0.0.1", "denied.test": "127.0.0.1"}}
	for _, tc := range []struct {
		name, dial string
		allowed    bool
	}{
		{"an allowed name and port", fmt.Sprintf("allowed.test:%d", port), true},
		{"a name not allowed", fmt.Sprintf("denied.test:%d", port), false},
		{"an allowed name on another port", fmt.Sprintf("allowed.test:%d", other.Addr().(*net.TCPAddr).Port), false},
		{"an address no allowed name has", fmt.Sprintf("127.0.0.2:%d", port), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := j.runEgress(t, eg, j.attacker, attackMode, "connect", tc.dial)
			if tc.allowed != strings.HasPrefix(got, "escaped: connected to ") || tc.allowed && !strings.Contains(got, "hello from upstream") {
				t.Errorf("allowed %v: %s", tc.allowed, got)
			}
		})
	}
}

// runEgress is run with eg serving the namespace.
func (j jail) runEgress(t *testing.T, eg *Egress, argv ...string) string {
	t.Helper()
	abi, netns := escapeHost(t, j.sealed)
	sc := Scope{LandlockABI: abi, NetNS: netns, Seccomp: true, Sealed: j.sealed, Workdir: j.workdir, PathEnv: os.Getenv("PATH"), Binaries: []string{j.attacker}}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = j.workdir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Trampoline{Self: j.attacker, Limits: Rlimits{ExtraProcesses: 64, OpenFiles: 256, FileSizeBytes: 1 << 20, CPUSeconds: 30, MemoryBytes: 4 << 30},
		Plan: sc.Plan(HostNetNS()), Egress: eg}.Start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out.String())
	}
	return strings.TrimSpace(out.String())
}
