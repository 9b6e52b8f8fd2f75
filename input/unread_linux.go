package input

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// unread reports how many bytes a pipe, FIFO or terminal holds unread,
// and whether it could tell: a read finds them at once. Through Control,
// which, unlike Fd, leaves the descriptor's blocking mode as it is.
func unread(r io.Reader) (n int, ok bool) {
	sc, isConn := r.(syscall.Conn)
	if !isConn {
		return 0, false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0, false
	}
	var ierr error
	if err := raw.Control(func(fd uintptr) { n, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil || ierr != nil {
		return 0, false
	}
	return n, true
}
