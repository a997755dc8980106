package sandbox

import (
	"context"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// handOverTimeout bounds the wait for the child's listeners: a spawn that
// failed never sends them.
const handOverTimeout = 60 * time.Second

// lifeline is the socket pair Wrap makes for a namespace with egress: the
// child end goes to the trampoline (and stays open in the tool), the
// parent end to serve.
func lifeline() (parent, child *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "egress-lifeline"), os.NewFile(uintptr(fds[1]), "egress-lifeline-child"), nil
}

// serve receives the child's listeners and serves them until every
// process holding the lifeline has exited. child is the runtime's copy of
// the child end, closed once the child has its own.
func (e *Egress) serve(parent, child *os.File) {
	defer parent.Close()
	c, err := net.FileConn(parent)
	if err != nil {
		child.Close()
		return
	}
	uc := c.(*net.UnixConn)
	defer uc.Close()
	uc.SetReadDeadline(time.Now().Add(handOverTimeout))
	buf, oob := make([]byte, 64), make([]byte, unix.CmsgSpace(4*(maxEgressPorts+1)))
	_, oobn, _, _, err := uc.ReadMsgUnix(buf, oob)
	child.Close()
	if err != nil {
		return
	}
	var fds []int
	if msgs, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		fds, _ = unix.ParseUnixRights(&msgs[0])
	}
	if len(fds) == 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.resolveAtLaunch(ctx)
	var closers []io.Closer
	var wg sync.WaitGroup
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "egress-listener")
		if i == len(fds)-1 {
			pc, err := net.FilePacketConn(f)
			f.Close()
			if err == nil {
				closers = append(closers, pc)
				wg.Go(func() { e.serveDNS(ctx, pc) })
			}
			continue
		}
		ln, err := net.FileListener(f)
		f.Close()
		if err == nil {
			closers = append(closers, ln)
			wg.Go(func() { e.serveTCP(ctx, ln) })
		}
	}
	// The lifeline: EOF once no process of the tree holds its end.
	uc.SetReadDeadline(time.Time{})
	for {
		if _, err := uc.Read(buf); err != nil {
			break
		}
	}
	for _, c := range closers {
		c.Close()
	}
	cancel()
	wg.Wait()
}

func (e *Egress) serveTCP(ctx context.Context, ln net.Listener) {
	var conns sync.WaitGroup
	defer conns.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		conns.Go(func() { e.forward(ctx, c) })
	}
}

// forward splices an accepted connection to its original destination
// (the address the subprocess connected to, which getsockname returns
// here because every address is local in the namespace), if allowed.
func (e *Egress) forward(ctx context.Context, c net.Conn) {
	defer c.Close()
	dst := c.LocalAddr().(*net.TCPAddr).AddrPort()
	if !e.allowed(dst) {
		e.log().Info("subprocess connection refused: not in capabilities.network.allow", "destination", dst.String())
		return
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	up, err := (&net.Dialer{}).DialContext(dctx, "tcp", dst.String())
	cancel()
	if err != nil {
		e.log().Info("subprocess connection failed upstream", "destination", dst.String(), "err", err)
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	pipe := func(to, from net.Conn) {
		io.Copy(to, from)
		if tc, ok := to.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	select {
	case <-done:
		<-done
	case <-ctx.Done():
	}
}
