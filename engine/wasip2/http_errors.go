package wasip2

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"syscall"
)

// httpErrorCode is wasi:http/types.error-code: the case (httpErr*
// constants) and the payloads of the cases that carry one.
type httpErrorCode struct {
	Case                           uint32
	DNSError                       dnsErrorPayload
	TLSAlertReceived               tlsAlertPayload
	HTTPRequestBodySize            opt[uint64]
	HTTPRequestHeaderSectionSize   opt[uint32]
	HTTPRequestHeaderSize          opt[fieldSizePayload]
	HTTPRequestTrailerSectionSize  opt[uint32]
	HTTPRequestTrailerSize         fieldSizePayload
	HTTPResponseHeaderSectionSize  opt[uint32]
	HTTPResponseHeaderSize         fieldSizePayload
	HTTPResponseBodySize           opt[uint64]
	HTTPResponseTrailerSectionSize opt[uint32]
	HTTPResponseTrailerSize        fieldSizePayload
	HTTPResponseTransferCoding     opt[string]
	HTTPResponseContentCoding      opt[string]
	InternalError                  opt[string]
}

type dnsErrorPayload struct {
	Rcode    opt[string]
	InfoCode opt[uint16]
}

type tlsAlertPayload struct {
	AlertID      opt[uint8]
	AlertMessage opt[string]
}

type fieldSizePayload struct {
	FieldName opt[string]
	FieldSize opt[uint32]
}

// httpErr is the error-code of a case without a payload, or with an empty
// one.
func httpErr(code uint32) httpErrorCode { return httpErrorCode{Case: code} }

// httpError carries a chosen error-code through a stream error.
type httpError struct {
	code httpErrorCode
	err  error
}

func (e *httpError) Error() string { return httpErrorNames[e.code.Case] + ": " + e.err.Error() }
func (e *httpError) Unwrap() error { return e.err }

// httpErrValue maps a Go error from net/http to an error-code; ok is
// false for errors that are not about HTTP (so http-error-code says none).
func httpErrValue(err error) (code httpErrorCode, ok bool) {
	var he *httpError
	var denied *EgressDeniedError
	var dnsErr *net.DNSError
	var alert tls.AlertError
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var recErr tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.As(err, &he):
		return he.code, true
	case errors.As(err, &denied):
		return httpErr(httpRequestDenied), true
	case errors.As(err, &dnsErr):
		if dnsErr.IsTimeout {
			return httpErr(httpDNSTimeout), true
		}
		return httpErrorCode{Case: httpDNSError, DNSError: dnsErrorPayload{Rcode: some(dnsErr.Err)}}, true
	case errors.Is(err, syscall.ECONNREFUSED):
		return httpErr(httpConnectionRefused), true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return httpErr(httpConnectionTerminated), true
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return httpErr(httpDestinationUnavailable), true
	case errors.As(err, &alert):
		return httpErrorCode{Case: httpTLSAlertReceived, TLSAlertReceived: tlsAlertPayload{AlertID: some(uint8(alert)), AlertMessage: some(alert.Error())}}, true
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalidCert):
		return httpErr(httpTLSCertificateError), true
	case errors.As(err, &recErr):
		return httpErr(httpTLSProtocolError), true
	case errors.Is(err, io.ErrUnexpectedEOF):
		return httpErr(httpResponseIncomplete), true
	case errors.As(err, &netErr) && netErr.Timeout():
		return httpErr(httpConnectionTimeout), true
	case errors.Is(err, io.EOF):
		return httpErr(httpResponseIncomplete), true
	}
	if _, ok := fsCode(err); ok {
		return httpErrorCode{}, false
	}
	return httpErrorCode{Case: httpInternalError, InternalError: some(err.Error())}, true
}
