package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// handOverListeners is the child's half of §3.4, inside the new network
// namespace with lo up: route every address to lo ("local default dev
// lo"), so any destination is locally deliverable; listen on each egress
// port and on UDP 53 (all addresses); hand the sockets to the runtime
// over the lifeline socket (SCM_RIGHTS), which serves them from the host
// namespace. The child keeps none of them. The lifeline stays open in
// the tool: the runtime stops serving when the last process holding it
// is gone.
func handOverListeners(lifeline int, ports []uint16) error {
	if err := localDefaultRoute(); err != nil {
		return fmt.Errorf("network namespace: %w", err)
	}
	var fds []int
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	for _, p := range ports {
		fd, err := listenFD(unix.SOCK_STREAM, p)
		if err != nil {
			return fmt.Errorf("network namespace: listening on port %d: %w", p, err)
		}
		fds = append(fds, fd)
	}
	fd, err := listenFD(unix.SOCK_DGRAM, 53)
	if err != nil {
		return fmt.Errorf("network namespace: the DNS socket: %w", err)
	}
	fds = append(fds, fd)
	if err := unix.Sendmsg(lifeline, []byte("listeners"), unix.UnixRights(fds...), nil, 0); err != nil {
		return fmt.Errorf("network namespace: handing the listeners to the runtime: %w", err)
	}
	return nil
}

func listenFD(kind int, port uint16) (int, error) {
	fd, err := unix.Socket(unix.AF_INET, kind|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err == nil {
		err = unix.Bind(fd, &unix.SockaddrInet4{Port: int(port)})
		if err == nil && kind == unix.SOCK_STREAM {
			err = unix.Listen(fd, 128)
		}
		if err == nil {
			return fd, nil
		}
	}
	unix.Close(fd)
	return -1, err
}

// localDefaultRoute adds `local default dev lo` to the local table
// (rtnetlink RTM_NEWROUTE) and waits for the kernel's acknowledgement.
func localDefaultRoute() error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return fmt.Errorf("netlink socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFINDEX, ifr); err != nil {
		return fmt.Errorf("lo's index: %w", err)
	}
	rt := unix.RtMsg{Family: unix.AF_INET, Table: unix.RT_TABLE_LOCAL, Protocol: unix.RTPROT_BOOT,
		Scope: unix.RT_SCOPE_HOST, Type: unix.RTN_LOCAL}
	attr := make([]byte, 8)
	binary.NativeEndian.PutUint16(attr[0:], 8)
	binary.NativeEndian.PutUint16(attr[2:], unix.RTA_OIF)
	binary.NativeEndian.PutUint32(attr[4:], ifr.Uint32())
	body := append(unsafe.Slice((*byte)(unsafe.Pointer(&rt)), unix.SizeofRtMsg), attr...)
	hdr := unix.NlMsghdr{Len: uint32(unix.NLMSG_HDRLEN + len(body)), Type: unix.RTM_NEWROUTE,
		Flags: unix.NLM_F_REQUEST | unix.NLM_F_CREATE | unix.NLM_F_EXCL | unix.NLM_F_ACK, Seq: 1}
	msg := append(unsafe.Slice((*byte)(unsafe.Pointer(&hdr)), unix.NLMSG_HDRLEN), body...)
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("adding the local default route: %w", err)
	}
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return fmt.Errorf("adding the local default route: %w", err)
	}
	// The answer is one NLMSG_ERROR: its header, then the error code.
	if n < unix.NLMSG_HDRLEN+4 || binary.NativeEndian.Uint16(buf[4:]) != unix.NLMSG_ERROR {
		return errors.New("adding the local default route: no acknowledgement")
	}
	if code := int32(binary.NativeEndian.Uint32(buf[unix.NLMSG_HDRLEN:])); code != 0 {
		return fmt.Errorf("adding the local default route: %w", unix.Errno(-code))
	}
	return nil
}
