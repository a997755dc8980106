package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// Plan is what the trampoline applies after the rlimits and before exec on
// a kernel tier (security.md §9.4): the network namespace check, fd
// hygiene, capabilities and no_new_privs, seccomp, Landlock. A nil plan is
// the environment-only tier: rlimits alone. Tier and mechanism say which
// enforcement this is, for the trace and --explain-scope.
type Plan struct {
	// NetNS requires the trampoline to run in a network namespace of its
	// own (created by the clone flags Wrap sets) and to bring up its
	// loopback; HostNetNS is the parent's namespace (the readlink text of
	// /proc/self/ns/net) it must differ from, so a plan that reaches the
	// child without the namespace fails closed.
	NetNS     bool   `json:"netns,omitempty"`
	HostNetNS string `json:"host_netns,omitempty"`
	// SelfMap, set by Wrap where the runtime cannot write the new user
	// namespace's id maps itself (it is not root), is the uid and gid
	// the trampoline maps onto themselves before anything else in it.
	SelfMap *IDs `json:"self_map,omitempty"`
	// EgressFD is the lifeline Wrap passes when the trampoline has an
	// Egress: the child routes every address to lo, listens on
	// EgressPorts and UDP 53, and hands the sockets over on it (§3.4).
	EgressFD    int      `json:"egress_fd,omitempty"`
	EgressPorts []uint16 `json:"egress_ports,omitempty"`
	// KeepFDs survive the exec (the sealed memfd of a native tool); every
	// other descriptor from 3 up is marked close-on-exec.
	KeepFDs []int `json:"keep_fds,omitempty"`
	// Seccomp installs the syscall policy of §9.3; UnixSockets lets
	// socket(AF_UNIX) through (capabilities.network.unix_sockets).
	Seccomp     bool `json:"seccomp,omitempty"`
	UnixSockets bool `json:"unix_sockets,omitempty"`
	// SeccompBPF is that policy already assembled (Scope.Plan does it
	// once a session); empty, the trampoline assembles it itself.
	SeccompBPF []byte `json:"seccomp_bpf,omitempty"`
	// LandlockABI is the ABI whose filesystem rights the ruleset handles
	// (0: no Landlock); every right no rule grants is denied everywhere.
	LandlockABI int        `json:"landlock_abi,omitempty"`
	Rules       []PathRule `json:"rules,omitempty"`
	// Sealed, at the sealed tier, is the composed root the child pivots
	// into after the network namespace step (§9.4); it needs the mount
	// namespace Wrap adds for it.
	Sealed *SealedRoot `json:"sealed,omitempty"`
	// NoexecWorkdir, at scoped, is the workdir the child binds onto
	// itself noexec in a mount namespace of its own (which Wrap adds for
	// it), so the ELF loader cannot map a binary the capsule wrote there.
	NoexecWorkdir string `json:"noexec_workdir,omitempty"`
}

// IDs are a uid and a gid.
type IDs struct {
	UID int `json:"uid"`
	GID int `json:"gid"`
}

// PathRule grants Access beneath Path (or on the file Path).
type PathRule struct {
	Path   string `json:"path"`
	Access Access `json:"access"`
}

// encodePlan is the one trampoline argument carrying the plan; "-" is none.
func encodePlan(p *Plan) string {
	if p == nil {
		return "-"
	}
	b, err := json.Marshal(p)
	if err != nil {
		panic(fmt.Sprintf("sandbox: a Plan always marshals: %v", err))
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// encodeIDs is the probe child's argument for a SelfMap: "uid:gid", or
// "-" for none.
func encodeIDs(ids *IDs) string {
	if ids == nil {
		return "-"
	}
	return fmt.Sprintf("%d:%d", ids.UID, ids.GID)
}

func decodeIDs(s string) (*IDs, error) {
	if s == "-" {
		return nil, nil
	}
	var ids IDs
	if _, err := fmt.Sscanf(s, "%d:%d", &ids.UID, &ids.GID); err != nil {
		return nil, fmt.Errorf("%s: the ids to map %q: %w", ExecMode, s, err)
	}
	return &ids, nil
}

func decodePlan(s string) (*Plan, error) {
	if s == "-" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%s: containment plan: %w", ExecMode, err)
	}
	var p Plan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: containment plan: %w", ExecMode, err)
	}
	return &p, nil
}
