package running

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// CheckListener makes sure every socket listening on port where a
// connection to localhost lands (a loopback or wildcard address, IPv4
// or IPv6) belongs to this user, and that there is one. A registry entry
// outlives a capsule killed before it could remove it; another local
// user may then take its port, and a name resolved to it must not hand
// them the user's token. The kernel's socket tables say who owns each
// listener; the check fails closed when they cannot be read.
func CheckListener(port int) error {
	uid := os.Getuid()
	found := false
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		owners, err := listeners(table, port)
		if err != nil {
			return fmt.Errorf("checking who listens on localhost:%d: %w", port, err)
		}
		for _, o := range owners {
			if o != uid {
				return fmt.Errorf("localhost:%d is listened on by uid %d, not by you: the capsule registered there is gone", port, o)
			}
			found = true
		}
	}
	if !found {
		return fmt.Errorf("nothing listens on localhost:%d: the capsule registered there is gone", port)
	}
	return nil
}

// listeners reads one of the kernel's TCP tables and returns the owner
// of each listening socket on port at a loopback or wildcard address.
func listeners(table string, port int) ([]int, error) {
	f, err := os.Open(table)
	if os.IsNotExist(err) && strings.HasSuffix(table, "6") {
		return nil, nil // no IPv6 in this kernel
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var owners []int
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid …
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 || fields[3] != "0A" { // TCP_LISTEN
			continue
		}
		ip, p, ok := parseAddr(fields[1])
		if !ok || p != port || !(ip.IsLoopback() || ip.IsUnspecified()) {
			continue
		}
		uid, err := strconv.Atoi(fields[7])
		if err != nil {
			return nil, fmt.Errorf("%s: bad uid %q", table, fields[7])
		}
		owners = append(owners, uid)
	}
	return owners, sc.Err()
}

// parseAddr reads the kernel's ADDR:PORT: the address as 32-bit words,
// each printed in hex as the host reads its network-order bytes.
func parseAddr(s string) (net.IP, int, bool) {
	a, p, ok := strings.Cut(s, ":")
	if !ok || (len(a) != 8 && len(a) != 32) {
		return nil, 0, false
	}
	ip := make(net.IP, len(a)/2)
	for i := 0; i < len(a); i += 8 {
		w, err := strconv.ParseUint(a[i:i+8], 16, 32)
		if err != nil {
			return nil, 0, false
		}
		binary.NativeEndian.PutUint32(ip[i/2:], uint32(w))
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return nil, 0, false
	}
	return ip, int(port), true
}
