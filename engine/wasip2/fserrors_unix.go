//go:build unix

package wasip2

import (
	"errors"
	"syscall"
)

var errnoCodes = map[syscall.Errno]uint32{
	syscall.EACCES: fsAccess, syscall.EAGAIN: fsWouldBlock, syscall.EALREADY: fsAlready,
	syscall.EBADF: fsBadDescriptor, syscall.EBUSY: fsBusy, syscall.EDEADLK: fsDeadlock,
	syscall.EDQUOT: fsQuota, syscall.EEXIST: fsExist, syscall.EFBIG: fsFileTooLarge,
	syscall.EILSEQ: fsIllegalByteSequence, syscall.EINPROGRESS: fsInProgress,
	syscall.EINTR: fsInterrupted, syscall.EINVAL: fsInvalid, syscall.EIO: fsIO,
	syscall.EISDIR: fsIsDirectory, syscall.ELOOP: fsLoop, syscall.EMLINK: fsTooManyLinks,
	syscall.EMSGSIZE: fsMessageSize, syscall.ENAMETOOLONG: fsNameTooLong,
	syscall.ENODEV: fsNoDevice, syscall.ENOENT: fsNoEntry, syscall.ENOLCK: fsNoLock,
	syscall.ENOMEM: fsInsufficientMemory, syscall.ENOSPC: fsInsufficientSpace,
	syscall.ENOTDIR: fsNotDirectory, syscall.ENOTEMPTY: fsNotEmpty,
	syscall.ENOTSUP: fsUnsupported,
	syscall.ENOTTY:  fsNoTTY, syscall.ENXIO: fsNoSuchDevice, syscall.EOVERFLOW: fsOverflow,
	syscall.EPERM: fsNotPermitted, syscall.EPIPE: fsPipe, syscall.EROFS: fsReadOnly,
	syscall.ESPIPE: fsInvalidSeek, syscall.ETXTBSY: fsTextFileBusy, syscall.EXDEV: fsCrossDevice,
}

func errnoCode(err error) (uint32, bool) {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return 0, false
	}
	code, ok := errnoCodes[errno]
	if errno == syscall.EOPNOTSUPP { // the same number as ENOTSUP on Linux, not elsewhere
		code, ok = fsUnsupported, true
	}
	if !ok {
		code = fsIO
	}
	return code, true
}
