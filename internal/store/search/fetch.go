package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// MaxIndexBytes caps an index read from a file or a URL: the document is
// held in memory whole, and a hostile or broken server could otherwise
// send without end. Murmur reads it without a limit; Murmur's public
// index is a few KiB.
const MaxIndexBytes = 16 << 20

// fetchTimeout bounds the whole request, body included, as Murmur's 30 s
// global timeout does.
const fetchTimeout = 30 * time.Second

var errTooLarge = errors.New("index too large")

// Fetch gets url's body: a 2xx status, at most MaxIndexBytes, within
// fetchTimeout. TLS is verified against the system's roots; redirects are
// followed (at most 10, as net/http does); plain http is allowed, as
// Murmur allows it.
func Fetch(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fetchError(url, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := (&http.Client{Timeout: fetchTimeout}).Do(req)
	if err != nil {
		return nil, fetchError(url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fetchError(url, fmt.Errorf("HTTP %s", resp.Status))
	}
	if resp.ContentLength > MaxIndexBytes {
		return nil, tooLargeError(url)
	}
	data, err := readCapped(resp.Body)
	if err == errTooLarge {
		return nil, tooLargeError(url)
	} else if err != nil {
		return nil, fetchError(url, err)
	}
	return data, nil
}

// readCapped reads r whole, or errTooLarge past MaxIndexBytes.
func readCapped(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxIndexBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxIndexBytes {
		return nil, errTooLarge
	}
	return data, nil
}
