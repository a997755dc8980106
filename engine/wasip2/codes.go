package wasip2

// Case indices of the WASI error enums and variants. Enum values cross the
// ABI as their index, so these lists are in WIT declaration order.

// wasi:filesystem/types.error-code
const (
	fsAccess uint32 = iota
	fsWouldBlock
	fsAlready
	fsBadDescriptor
	fsBusy
	fsDeadlock
	fsQuota
	fsExist
	fsFileTooLarge
	fsIllegalByteSequence
	fsInProgress
	fsInterrupted
	fsInvalid
	fsIO
	fsIsDirectory
	fsLoop
	fsTooManyLinks
	fsMessageSize
	fsNameTooLong
	fsNoDevice
	fsNoEntry
	fsNoLock
	fsInsufficientMemory
	fsInsufficientSpace
	fsNotDirectory
	fsNotEmpty
	fsNotRecoverable
	fsUnsupported
	fsNoTTY
	fsNoSuchDevice
	fsOverflow
	fsNotPermitted
	fsPipe
	fsReadOnly
	fsInvalidSeek
	fsTextFileBusy
	fsCrossDevice
)

var fsErrorNames = [...]string{
	"access", "would-block", "already", "bad-descriptor", "busy", "deadlock", "quota",
	"exist", "file-too-large", "illegal-byte-sequence", "in-progress", "interrupted",
	"invalid", "io", "is-directory", "loop", "too-many-links", "message-size",
	"name-too-long", "no-device", "no-entry", "no-lock", "insufficient-memory",
	"insufficient-space", "not-directory", "not-empty", "not-recoverable", "unsupported",
	"no-tty", "no-such-device", "overflow", "not-permitted", "pipe", "read-only",
	"invalid-seek", "text-file-busy", "cross-device",
}

// wasi:sockets/network.error-code
const (
	sockUnknown uint32 = iota
	sockAccessDenied
	sockNotSupported
	sockInvalidArgument
	sockOutOfMemory
	sockTimeout
	sockConcurrencyConflict
	sockNotInProgress
	sockWouldBlock
	sockInvalidState
	sockNewSocketLimit
	sockAddressNotBindable
	sockAddressInUse
	sockRemoteUnreachable
	sockConnectionRefused
	sockConnectionReset
	sockConnectionAborted
	sockDatagramTooLarge
	sockNameUnresolvable
	sockTemporaryResolverFailure
	sockPermanentResolverFailure
)

var sockErrorNames = [...]string{
	"unknown", "access-denied", "not-supported", "invalid-argument", "out-of-memory",
	"timeout", "concurrency-conflict", "not-in-progress", "would-block", "invalid-state",
	"new-socket-limit", "address-not-bindable", "address-in-use", "remote-unreachable",
	"connection-refused", "connection-reset", "connection-aborted", "datagram-too-large",
	"name-unresolvable", "temporary-resolver-failure", "permanent-resolver-failure",
}

// wasi:http/types.error-code
const (
	httpDNSTimeout uint32 = iota
	httpDNSError
	httpDestinationNotFound
	httpDestinationUnavailable
	httpDestinationIPProhibited
	httpDestinationIPUnroutable
	httpConnectionRefused
	httpConnectionTerminated
	httpConnectionTimeout
	httpConnectionReadTimeout
	httpConnectionWriteTimeout
	httpConnectionLimitReached
	httpTLSProtocolError
	httpTLSCertificateError
	httpTLSAlertReceived
	httpRequestDenied
	httpRequestLengthRequired
	httpRequestBodySize
	httpRequestMethodInvalid
	httpRequestURIInvalid
	httpRequestURITooLong
	httpRequestHeaderSectionSize
	httpRequestHeaderSize
	httpRequestTrailerSectionSize
	httpRequestTrailerSize
	httpResponseIncomplete
	httpResponseHeaderSectionSize
	httpResponseHeaderSize
	httpResponseBodySize
	httpResponseTrailerSectionSize
	httpResponseTrailerSize
	httpResponseTransferCoding
	httpResponseContentCoding
	httpResponseTimeout
	httpUpgradeFailed
	httpProtocolError
	httpLoopDetected
	httpConfigurationError
	httpInternalError
)

var httpErrorNames = [...]string{
	"DNS-timeout", "DNS-error", "destination-not-found", "destination-unavailable",
	"destination-IP-prohibited", "destination-IP-unroutable", "connection-refused",
	"connection-terminated", "connection-timeout", "connection-read-timeout",
	"connection-write-timeout", "connection-limit-reached", "TLS-protocol-error",
	"TLS-certificate-error", "TLS-alert-received", "HTTP-request-denied",
	"HTTP-request-length-required", "HTTP-request-body-size", "HTTP-request-method-invalid",
	"HTTP-request-URI-invalid", "HTTP-request-URI-too-long", "HTTP-request-header-section-size",
	"HTTP-request-header-size", "HTTP-request-trailer-section-size", "HTTP-request-trailer-size",
	"HTTP-response-incomplete", "HTTP-response-header-section-size", "HTTP-response-header-size",
	"HTTP-response-body-size", "HTTP-response-trailer-section-size", "HTTP-response-trailer-size",
	"HTTP-response-transfer-coding", "HTTP-response-content-coding", "HTTP-response-timeout",
	"HTTP-upgrade-failed", "HTTP-protocol-error", "loop-detected", "configuration-error",
	"internal-error",
}
